// The element factory: the Excalidraw elements of a planned node (its shape or outline, bound label, icon, markers),
// of an arrow and its labels, and of free text, as the spec conversion (from-spec.ts) and the edits (domain/edit,
// domain/patch) make them.
import type { Arrowheads, Box } from '../layout/types.ts';
import { type ArrowheadName, isMarker, type MarkerShape, type SpecEdge, type SpecNode } from '../spec/types.ts';
import { BOUND_TEXT_PADDING, HEADER_SIDE_INSET, getBoundTextMaxHeight, getBoundTextMaxWidth, measureText, wrapText } from '../text/metrics.ts';
import { addBound, baseElement, BINDING_GAP, type ExcalidrawElement, FONT_FAMILY_EXCALIFONT, FONT_SIZE, LINE_HEIGHT, type Style } from './elements.ts';
import { type Point, rayHitsOutline, stepBack } from './geometry.ts';
import { endLabelIds, OUTLINE_SUFFIXES } from '../spec/parse.ts';
import { endLabelBox, SceneObstacles } from './end-labels.ts';
import { type BoxShape, ICON_GAP, ICON_SIZE, MARKER_SIZE, type NodePlan, OUTLINE, RING_INSET, type TextBlock, round } from './node-plan.ts';

const MARKER_INK = '#1e1e1e';

/** Where a text node's text and icon go in its box (see textNodeSize). */
function textNodePlaces(box: { x: number; y: number; width: number; height: number }, label: { width: number; height: number }, iconOnTop: boolean) {
  if (iconOnTop) {
    return { text: { x: box.x + (box.width - label.width) / 2, y: box.y + box.height - label.height }, icon: { x: box.x + box.width / 2 - ICON_SIZE / 2, y: box.y } };
  }
  return {
    text: { x: box.x + box.width - label.width, y: box.y + (box.height - label.height) / 2 },
    icon: { x: box.x, y: box.y + (box.height - ICON_SIZE) / 2 },
  };
}

/** The label of a generated arrow, centred on the arrow's middle point, where the editor puts an arrow's bound text; `fontSize` when not the editor's default. */
export function arrowLabelElement(edgeId: string, label: TextBlock, points: readonly Point[], order: number, updated: number, fontSize?: number): ExcalidrawElement {
  const middle = points.length % 2 === 1 ? points[(points.length - 1) / 2]! : midpointOf(points.slice(points.length / 2 - 1, points.length / 2 + 1));
  return textElement(`${edgeId}-label`, label, { x: middle[0] - label.width / 2, y: middle[1] - label.height / 2 }, order, updated, {
    containerId: edgeId,
    textAlign: 'center',
    verticalAlign: 'middle',
    strokeColor: null,
    ...(fontSize !== undefined ? { fontSize } : {}),
  });
}

export function textElement(
  id: string,
  block: TextBlock,
  box: { x: number; y: number },
  order: number,
  updated: number,
  options: { containerId: string | null; textAlign: string; verticalAlign: string; strokeColor: string | null; fontSize?: number },
): ExcalidrawElement {
  return {
    ...baseElement(id, 'text', { x: box.x, y: box.y, width: block.width, height: block.height }, order, updated, {
      strokeColor: options.strokeColor,
    }),
    text: block.text,
    fontSize: options.fontSize ?? FONT_SIZE,
    fontFamily: FONT_FAMILY_EXCALIFONT,
    textAlign: options.textAlign,
    verticalAlign: options.verticalAlign,
    containerId: options.containerId,
    originalText: block.original,
    autoResize: block.autoResize ?? true,
    lineHeight: LINE_HEIGHT,
    ...(block.authored !== undefined ? { customData: { authoredLabel: block.authored } } : {}),
  };
}

/** Top-left of the area the editor gives bound text in a container (its getContainerCoords). */
export function boundTextArea(shape: BoxShape, box: { x: number; y: number; width: number; height: number }) {
  let offsetX = BOUND_TEXT_PADDING;
  let offsetY = BOUND_TEXT_PADDING;
  if (shape === 'ellipse') {
    offsetX += (box.width / 2) * (1 - Math.SQRT2 / 2);
    offsetY += (box.height / 2) * (1 - Math.SQRT2 / 2);
  } else if (shape === 'diamond') {
    offsetX += box.width / 4;
    offsetY += box.height / 4;
  }
  return {
    x: box.x + offsetX,
    y: box.y + offsetY,
    width: getBoundTextMaxWidth(shape, box.width),
    height: getBoundTextMaxHeight(shape, box.height),
  };
}

/** Where the editor puts bound text in its container (its computeBoundTextPosition). */
function boundTextPosition(
  area: ReturnType<typeof boundTextArea>,
  block: TextBlock,
  verticalAlign: 'top' | 'middle' | 'bottom',
  textAlign: 'left' | 'center' | 'right' = 'center',
) {
  const x = textAlign === 'left' ? area.x : textAlign === 'right' ? area.x + area.width - block.width : area.x + (area.width / 2 - block.width / 2);
  const y = verticalAlign === 'top' ? area.y : verticalAlign === 'bottom' ? area.y + (area.height - block.height) : area.y + (area.height / 2 - block.height / 2);
  return { x, y };
}

/**
 * Where Drawbridge puts a bound label: where the editor does, except
 * - a label at the top of its container and on one side, a container's title
 *   moved aside, which sits HEADER_SIDE_INSET from that side (as far as the
 *   text area's width allows);
 * - a label at the bottom under an icon whose bottom edge is `iconBottom`,
 *   which sits ICON_GAP below the icon when it fits there, not down against
 *   the border (where a rounded rectangle's corners cut its last line).
 */
export function labelPosition(
  area: ReturnType<typeof boundTextArea>,
  block: TextBlock,
  verticalAlign: 'top' | 'middle' | 'bottom',
  textAlign: 'left' | 'center' | 'right' = 'center',
  iconBottom?: number,
) {
  const position = boundTextPosition(area, block, verticalAlign, textAlign);
  if (verticalAlign === 'bottom' && iconBottom !== undefined) return { x: position.x, y: Math.min(position.y, iconBottom + ICON_GAP) };
  if (verticalAlign !== 'top' || textAlign === 'center') return position;
  const shift = Math.max(0, Math.min(HEADER_SIDE_INSET - BOUND_TEXT_PADDING, area.width - block.width));
  return { x: position.x + (textAlign === 'left' ? shift : -shift), y: position.y };
}

const arrowhead = (name: ArrowheadName) => (name === 'none' ? null : name);

/** The ends of an edge that carry an arrowhead, as the layout leaves room for them. */
export function layoutArrowheads(edge: { startArrowhead: ArrowheadName; endArrowhead: ArrowheadName }): Arrowheads {
  if (edge.startArrowhead === 'none') return edge.endArrowhead === 'none' ? 'none' : 'end';
  return edge.endArrowhead === 'none' ? 'start' : 'both';
}

/**
 * A marker's elements, the one arrows bind to first: a start is a filled dot;
 * a fork a filled bar; an end a ring with a filled dot inside (`<id>-dot`),
 * grouped so they move together. Drawn in the node's strokeColor (or the
 * default ink); a backgroundColor fills a start or a fork instead.
 */
function markerElements(node: SpecNode, marker: MarkerShape, box: { x: number; y: number; width: number; height: number }, nextOrder: () => number, updated: number): ExcalidrawElement[] {
  const ink = node.strokeColor ?? MARKER_INK;
  if (marker !== 'end') {
    const element = baseElement(node.id, marker === 'start' ? 'ellipse' : 'rectangle', box, nextOrder(), updated, { strokeColor: ink, backgroundColor: node.backgroundColor ?? ink, fillStyle: 'solid' });
    element.roundness = marker === 'start' ? { type: 2 } : null;
    return [element];
  }
  const group = [`${node.id}-group`];
  const ring = baseElement(node.id, 'ellipse', box, nextOrder(), updated, { strokeColor: ink, backgroundColor: 'transparent', fillStyle: 'solid' });
  ring.roundness = { type: 2 };
  ring.groupIds = group;
  const size = MARKER_SIZE.endDot;
  const dot = baseElement(`${node.id}-dot`, 'ellipse', { x: box.x + (box.width - size) / 2, y: box.y + (box.height - size) / 2, width: size, height: size }, nextOrder(), updated, { strokeColor: ink, backgroundColor: ink, fillStyle: 'solid' });
  dot.roundness = { type: 2 };
  dot.groupIds = group;
  return [ring, dot];
}

const arc = (cx: number, cy: number, rx: number, ry: number, from: number, to: number, steps = 12): Point[] =>
  Array.from({ length: steps + 1 }, (_, i) => {
    const t = from + ((to - from) * i) / steps;
    return [cx + rx * Math.cos(t), cy + ry * Math.sin(t)] as Point;
  });

/** The outline polylines of a shape in a box of `w` × `h`, relative to its top-left corner, by line id suffix. */
function outlinePaths(shape: SpecNode['shape'], w: number, h: number): Record<string, Point[]> {
  const clamp = ([low, high, share]: readonly [number, number, number]) => Math.min(high, Math.max(low, h * share));
  switch (shape) {
    case 'stadium': {
      const r = Math.min(h / 2, w / 2);
      return { outline: [...arc(w - r, r, r, r, -Math.PI / 2, Math.PI / 2), ...arc(r, h - r, r, r, Math.PI / 2, (3 * Math.PI) / 2), [w - r, 0]] };
    }
    case 'doublecircle':
      return {
        outline: arc(w / 2, h / 2, w / 2, h / 2, 0, 2 * Math.PI, 48),
        ring: arc(w / 2, h / 2, w / 2 - RING_INSET, h / 2 - RING_INSET, 0, 2 * Math.PI, 48),
      };
    case 'hexagon': {
      const i = Math.min(w / 4, h * OUTLINE.point);
      return { outline: [[i, 0], [w - i, 0], [w, h / 2], [w - i, h], [i, h], [0, h / 2], [i, 0]] };
    }
    case 'parallelogram': {
      const k = Math.min(w / 4, h * OUTLINE.slant);
      return { outline: [[k, 0], [w, 0], [w - k, h], [0, h], [k, 0]] };
    }
    case 'document': {
      const a = clamp(OUTLINE.wave);
      const wave = Array.from({ length: 25 }, (_, i) => {
        const t = i / 24;
        return [w * (1 - t), h - a + a * Math.sin(2 * Math.PI * t)] as Point;
      });
      return { outline: [[0, 0], [w, 0], ...wave, [0, 0]] };
    }
    case 'cylinder': {
      const ry = clamp(OUTLINE.rim);
      const rx = w / 2;
      // The body: down the left side, round the bottom's front, up the right, back along the top's far rim; then the top's near rim.
      const bottom = arc(rx, h - ry, rx, ry, Math.PI, 0, 16);
      const topBack = arc(rx, ry, rx, ry, 0, -Math.PI, 16);
      return { outline: [...bottom, ...topBack, bottom[0]!], top: arc(rx, ry, rx, ry, Math.PI, 0, 16) };
    }
    case 'subroutine':
      return { left: [[OUTLINE.bar, 0], [OUTLINE.bar, h]], right: [[w - OUTLINE.bar, 0], [w - OUTLINE.bar, h]] };
    default:
      return {};
  }
}

/** A `line` element along `points` (relative to `at`), its size the extent of its points, as the editor computes it. */
export function lineElement(id: string, at: { x: number; y: number }, points: Point[], order: number, updated: number, style: Style, groupIds: string[]): ExcalidrawElement {
  const relative = points.map(([x, y]) => [round(x - points[0]![0]), round(y - points[0]![1])] as Point);
  const xs = relative.map((p) => p[0]);
  const ys = relative.map((p) => p[1]);
  const first = points[0]!;
  return {
    ...baseElement(id, 'line', { x: round(at.x + first[0]), y: round(at.y + first[1]), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) }, order, updated, style),
    groupIds,
    points: relative,
    lastCommittedPoint: null,
    startBinding: null,
    endBinding: null,
    startArrowhead: null,
    endArrowhead: null,
  };
}

function styleOf(node: SpecNode): Style {
  return { strokeColor: node.strokeColor, backgroundColor: node.backgroundColor, fillStyle: node.fillStyle, strokeWidth: node.strokeWidth, ...(node.strokeStyle ? { strokeStyle: node.strokeStyle } : {}) };
}

/** A label's weight and slant, which the editor's text has no field for: recorded in its customData, drawn by both renderers. */
function fontCustomData(node: SpecNode): Record<string, string> | null {
  if (!node.bold && !node.italic) return null;
  return { ...(node.bold ? { fontWeight: 'bold' } : {}), ...(node.italic ? { fontStyle: 'italic' } : {}) };
}

/** A head or tail label's font size: the editor's small size, one below an edge label's. */
const END_LABEL_FONT_SIZE = 16;

/**
 * An edge's head and tail labels as free texts beside its ends (end-labels.ts
 * places them); each is added to `obstacles`, so the next keeps clear of it.
 * The one way they are drawn: for a spec's scene and for an edge an edit adds.
 */
export function endLabelElements(edge: SpecEdge, points: readonly Point[], obstacles: SceneObstacles, order: number, updated: number): ExcalidrawElement[] {
  return endLabelIds(edge).map(({ id, text, end }, i) => {
    // On the lines its author broke, not wrapped (a head label is a word or two, and the editor keeps a free text's lines as they are), a size smaller than the edge's label.
    const block = { text, original: text, ...measureText(text, END_LABEL_FONT_SIZE, FONT_FAMILY_EXCALIFONT) };
    const [tip, previous, node] = end === 'head' ? [points[points.length - 1]!, points[points.length - 2]!, edge.to] : [points[0]!, points[1]!, edge.from];
    const element = textElement(id, block, endLabelBox(tip, previous, block, obstacles, { node, arrow: edge.id }), order + i, updated, { containerId: null, textAlign: 'center', verticalAlign: 'top', strokeColor: null, fontSize: END_LABEL_FONT_SIZE });
    obstacles.addElement(element);
    return element;
  });
}

/** How a node is drawn: when its elements are made, and whether an arrow ends on it (an invisible node keeps a shape only then). */
export interface DrawOptions {
  updated: number;
  nextOrder: () => number;
  iconOnTop: boolean;
  bound: boolean;
}

/**
 * A node's elements in its layout box, in drawing order (an outline's lines,
 * the shape, its label, its icon), and the element arrows bind to (null for
 * an invisible node no arrow reaches). The one way a node is drawn: for a
 * spec's scene and for a node an edit adds.
 */
export function nodeElements(plan: NodePlan, box: Box & { labelAlign?: 'left' | 'center' | 'right' }, options: DrawOptions): { shape: ExcalidrawElement | null; elements: ExcalidrawElement[] } {
  const { node } = plan;
  const { updated, nextOrder, iconOnTop } = options;
  const elements: ExcalidrawElement[] = [];
  const push = (element: ExcalidrawElement) => {
    elements.push(element);
    return element;
  };
  if (node.invisible) {
    if (!options.bound) return { shape: null, elements };
    const blank = push(baseElement(node.id, 'rectangle', box, nextOrder(), updated, { strokeColor: 'transparent', backgroundColor: 'transparent' }));
    return { shape: blank, elements };
  }
  if (plan.shape === 'text') {
    const place = textNodePlaces(box, plan.label!, iconOnTop);
    const text = push(textElement(node.id, plan.label!, place.text, nextOrder(), updated, { containerId: null, textAlign: 'center', verticalAlign: 'top', strokeColor: node.textColor ?? node.strokeColor }));
    const font = fontCustomData(node);
    if (font) text.customData = { ...(text.customData as object | undefined), ...font };
    if (node.icon) push(iconElement(node, place.icon, nextOrder(), updated, []));
    return { shape: text, elements };
  }
  if (plan.marker) {
    const marker = markerElements(node, plan.marker, box, nextOrder, updated);
    return { shape: marker[0]!, elements: marker };
  }
  // An outlined shape's lines come first: the exporters draw a label right after its container, so a filled outline drawn later would hide it.
  if (!plan.isContainer && OUTLINE_SUFFIXES[node.shape]) {
    const paths = outlinePaths(node.shape, box.width, box.height);
    const ink = styleOf(node);
    for (const suffix of OUTLINE_SUFFIXES[node.shape]!) {
      const closed = suffix === 'outline';
      push(lineElement(`${node.id}-${suffix}`, box, paths[suffix]!, nextOrder(), updated, closed ? ink : { ...ink, backgroundColor: 'transparent' }, [`${node.id}-group`]));
    }
  }
  const shape = push(baseElement(node.id, plan.shape, box, nextOrder(), updated, plan.isContainer ? { ...styleOf(node), strokeStyle: node.strokeStyle ?? 'dashed' } : styleOf(node)));
  shape.roundness = plan.isContainer ? null : plan.shape === 'rectangle' ? { type: 3 } : { type: 2 };
  const area = boundTextArea(plan.shape, box);
  let label = plan.label;
  if (plan.isContainer && label && !node.icon) {
    // The box grew around its children: wrap the label in its final width, as the editor would.
    const text = wrapText(label.original, FONT_SIZE, area.width, FONT_FAMILY_EXCALIFONT);
    label = { ...label, text, ...measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT) };
  }
  const verticalAlign = plan.isContainer ? 'top' : node.icon ? 'bottom' : 'middle';
  const outlines = plan.isContainer ? [] : (OUTLINE_SUFFIXES[node.shape] ?? []);
  const groupIds = node.icon || outlines.length > 0 ? [`${node.id}-group`] : [];
  shape.groupIds = groupIds;
  if (outlines.length > 0) {
    // The label's rectangle stays (arrows bind to it); the lines behind it draw the shape.
    if (node.shape !== 'subroutine') Object.assign(shape, { strokeColor: 'transparent', backgroundColor: 'transparent' });
    shape.roundness = null;
  }
  const textAlign = box.labelAlign ?? 'center';
  // A node's icon and the label under it are one block in the middle of the text area (when it has room for them).
  const blockHeight = ICON_SIZE + (label ? ICON_GAP + label.height : 0);
  const iconTop = area.y + area.height - blockHeight - Math.max(0, (area.height - blockHeight) / 2);
  const underIcon = node.icon && !plan.isContainer ? iconTop + ICON_SIZE : undefined;
  const position = label ? labelPosition(area, label, verticalAlign, textAlign, underIcon) : null;
  if (label && position) {
    const text = push(textElement(`${node.id}-label`, label, position, nextOrder(), updated, { containerId: node.id, textAlign, verticalAlign, strokeColor: node.textColor ?? node.strokeColor }));
    const font = fontCustomData(node);
    if (font) text.customData = { ...(text.customData as object | undefined), ...font };
    addBound(shape, { id: text.id, type: 'text' });
  }
  if (node.icon && plan.isContainer && isMarker(node.shape)) {
    // A marker draws no icon, even one given members.
  } else if (node.icon && plan.isContainer) {
    // In the header beside the label (which keeps the wrapping it was measured with, so the two never meet): after it, or before it when the label sits on the right.
    const x = !label || !position ? area.x : textAlign === 'right' ? position.x - ICON_GAP - ICON_SIZE : position.x + label.width + ICON_GAP;
    push(iconElement(node, { x, y: area.y }, nextOrder(), updated, groupIds));
  } else if (node.icon) {
    push(iconElement(node, { x: box.x + box.width / 2 - ICON_SIZE / 2, y: iconTop }, nextOrder(), updated, groupIds));
  }
  return { shape, elements };
}

/**
 * A generated arrow along absolute `points` (already on the outlines), bound at
 * both ends. Its first point is [0, 0] and its size is max − min of its points,
 * unrounded, exactly as the editor recomputes it.
 */
export function arrowElement(edge: SpecEdge, points: Point[], focus: { start: number; end: number }, order: number, updated: number): ExcalidrawElement {
  const [x0, y0] = points[0]!;
  const relative = points.map(([x, y]) => [round(x - x0), round(y - y0)] as Point);
  const xs = relative.map((p) => p[0]);
  const ys = relative.map((p) => p[1]);
  return {
    ...baseElement(edge.id, 'arrow', { x: x0, y: y0, width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) }, order, updated, {
      strokeStyle: edge.style === 'invisible' ? 'solid' : edge.style,
      strokeColor: edge.strokeColor,
      strokeWidth: edge.strokeWidth,
    }),
    points: relative,
    lastCommittedPoint: null,
    startBinding: { elementId: edge.from, focus: focus.start, gap: BINDING_GAP },
    endBinding: { elementId: edge.to, focus: focus.end, gap: BINDING_GAP },
    startArrowhead: arrowhead(edge.startArrowhead),
    endArrowhead: arrowhead(edge.endArrowhead),
    elbowed: false,
  };
}

export function midpointOf(points: Point[]): Point {
  // The point halfway along the polyline.
  const lengths = points.slice(1).map((p, i) => Math.hypot(p[0] - points[i]![0], p[1] - points[i]![1]));
  let remaining = lengths.reduce((a, b) => a + b, 0) / 2;
  for (let i = 0; i < lengths.length; i++) {
    if (remaining <= lengths[i]! && lengths[i]! > 0) {
      const t = remaining / lengths[i]!;
      const [a, b] = [points[i]!, points[i + 1]!];
      return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    }
    remaining -= lengths[i]!;
  }
  return points[0]!;
}

function iconElement(node: SpecNode, at: { x: number; y: number }, order: number, updated: number, groupIds: string[]): ExcalidrawElement {
  return {
    ...baseElement(`${node.id}-icon`, 'image', { x: at.x, y: at.y, width: ICON_SIZE, height: ICON_SIZE }, order, updated),
    strokeColor: 'transparent',
    groupIds,
    fileId: node.icon,
    status: 'saved',
    scale: [1, 1],
    crop: null,
  };
}

/**
 * The editor's `focus` for an arrow end `b` reached from `a` (see
 * docs/notes/excalidraw-elements.md): where the last segment, extended, passes
 * the shape's centre, as a signed fraction of the half-size; 0 through the centre.
 * The editor recomputes the end from it when the shape moves.
 */
export function focusOf(a: Point, b: Point, shape: ExcalidrawElement): number {
  const c: Point = [(shape.x as number) + (shape.width as number) / 2, (shape.y as number) + (shape.height as number) / 2];
  const horizontal = Math.abs(b[1] - a[1]) < 1e-6;
  const vertical = Math.abs(b[0] - a[0]) < 1e-6;
  if (horizontal === vertical) return 0;
  const offset = horizontal ? b[1] - c[1] : b[0] - c[0];
  const half = (horizontal ? (shape.height as number) : (shape.width as number)) / 2;
  if (half <= 0) return 0;
  const cross = (b[0] - a[0]) * (b[1] - c[1]) - (b[1] - a[1]) * (b[0] - c[0]);
  const magnitude = Math.min(1, Math.abs(offset) / half);
  return magnitude === 0 ? 0 : round(-Math.sign(cross) * magnitude);
}

/**
 * Moves a route's ends from the layout's boxes onto the real outlines (an
 * ellipse or diamond is smaller than its box), leaving the binding gap.
 */
export function attachEnds(route: Point[], source: ExcalidrawElement, target: ExcalidrawElement): Point[] {
  if (route.length < 2) return route;
  const points = route.map((p) => [...p] as Point);
  const outline = (e: ExcalidrawElement) => ({ type: e.type, x: e.x as number, y: e.y as number, width: e.width as number, height: e.height as number, rounded: e.roundness != null });
  const centre = (e: ExcalidrawElement): Point => [(e.x as number) + (e.width as number) / 2, (e.y as number) + (e.height as number) / 2];
  const end = (outer: Point, onBox: Point, shape: ExcalidrawElement): Point => {
    const hit = rayHitsOutline(outer, onBox, outline(shape)) ?? rayHitsOutline(outer, centre(shape), outline(shape)) ?? onBox;
    return stepBack(outer, hit, BINDING_GAP);
  };
  points[0] = end(points[1]!, points[0]!, source);
  points[points.length - 1] = end(points[points.length - 2]!, points[points.length - 1]!, target);
  return points;
}
