import type { Arrowheads, Box, LayoutInput, LayoutResult } from '../layout/types.ts';
import { type ArrowheadName, type DiagramSpec, isMarker, type MarkerShape, type SpecEdge, type SpecNode } from '../spec/types.ts';
import { BOUND_TEXT_PADDING, containerSizeForText, HEADER_SIDE_INSET, fitTextInContainer, getBoundTextMaxHeight, getBoundTextMaxWidth, measureText, wrapText } from '../text/metrics.ts';
import {
  addBound,
  baseElement,
  BINDING_GAP,
  type ExcalidrawElement,
  FONT_FAMILY_EXCALIFONT,
  FONT_SIZE,
  LINE_HEIGHT,
  type Style,
} from './elements.ts';
import { centreOn, type Point, rayHitsOutline, roundPoint, stepBack } from './geometry.ts';
import { WIDEN_FOR_WORD, wordSafeWrap } from './label-wrap.ts';
import { CAPTION_ID, endLabelIds, generatedNodeIds } from '../spec/parse.ts';
import { endLabelBox, SceneObstacles } from './end-labels.ts';

/** Widths labels wrap at, per shape; longer labels wrap and the shape grows to fit. */
const WRAP_WIDTH = { rectangle: 240, ellipse: 220, diamond: 200, text: 400, container: 400 } as const;
export const MIN_SIZE = {
  rectangle: [160, 70],
  ellipse: [160, 80],
  diamond: [180, 100],
  circle: [90, 90],
  doublecircle: [100, 100],
  stadium: [160, 60],
  cylinder: [140, 90],
  hexagon: [180, 70],
  parallelogram: [180, 70],
  subroutine: [180, 70],
  document: [160, 80],
} as const;
/** How far inside a double circle its inner ring runs. */
export const RING_INSET = 5;

/** Breathing room around a label beyond the editor's own padding (for outlined shapes: room for the outline's ends, rims and wave). */
export const MARGIN = {
  rectangle: [30, 20],
  ellipse: [20, 12],
  diamond: [20, 12],
  circle: [20, 12],
  doublecircle: [20 + 2 * RING_INSET, 12 + 2 * RING_INSET],
  stadium: [60, 20],
  cylinder: [30, 50],
  hexagon: [70, 20],
  parallelogram: [70, 20],
  subroutine: [50, 20],
  document: [30, 36],
} as const;
type SizedShape = keyof typeof MIN_SIZE;
const sizedShape = (shape: SpecNode['shape']): SizedShape => (shape in MIN_SIZE ? (shape as SizedShape) : boxShapeOf(shape));
export const ICON_SIZE = 48;
/** How much wider a bold label draws than the regular font measures it (an allowance). */
export const BOLD_WIDENS = 1.12;
export const ICON_GAP = 8;
/** The editor's minimum arrow-label width (font size × 11): wrapping there never re-wraps in the editor. */
const EDGE_LABEL_WRAP = FONT_SIZE * 11;
const CONTAINER_HEADER_EXTRA = 10;

type BoxShape = 'rectangle' | 'ellipse' | 'diamond';

/**
 * The native element that carries a node's label (and that arrows bind to):
 * a circle is an ellipse with equal sides; the other new shapes are drawn on
 * a rectangle for now (a stadium fully rounded as far as the editor rounds).
 */
function boxShapeOf(shape: SpecNode['shape']): BoxShape {
  if (shape === 'ellipse' || shape === 'circle' || shape === 'doublecircle') return 'ellipse';
  if (shape === 'diamond') return 'diamond';
  return 'rectangle';
}

export interface TextBlock {
  text: string;
  original: string;
  width: number;
  height: number;
  /** Standalone text only: false for a fixed-width text that wraps. */
  autoResize?: boolean;
}

export interface NodePlan {
  node: SpecNode;
  label: TextBlock | null;
  isContainer: boolean;
  depth: number;
  /** The shape drawn (containers are rectangles). */
  shape: BoxShape | 'text';
  /** A marker (start, end, fork): drawn filled, without its label. */
  marker?: MarkerShape;
  width: number;
  height: number;
}

/** The size of a start dot and an end ring; the dot inside an end ring; a fork bar's length and thickness. */
const MARKER_SIZE = { start: 24, end: 28, endDot: 16, forkLength: 100, forkThickness: 8 } as const;
const MARKER_INK = '#1e1e1e';

/**
 * An arrow's label: wrapped where the editor wraps it (it re-wraps an arrow's
 * label at EDGE_LABEL_WRAP), a word wider than that broken beforehand only at
 * its break places (wordSafeWrap).
 */
export function edgeLabelBlock(label: string): TextBlock | null {
  return textBlock(wordSafeWrap(label, EDGE_LABEL_WRAP / WIDEN_FOR_WORD).label, EDGE_LABEL_WRAP);
}

function textBlock(label: string, wrapAt: number): TextBlock | null {
  if (label === '') return null;
  const text = wrapText(label, FONT_SIZE, wrapAt, FONT_FAMILY_EXCALIFONT);
  const { width, height } = measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  return { text, original: label, width, height };
}

/**
 * A text node with an icon: the icon beside the text, across the flow (on the
 * left in a vertical flow, on top in a horizontal one), so an arrow that
 * reaches the text along the flow never runs across the icon.
 */
export function textNodeSize(label: { width: number; height: number }, hasIcon: boolean, iconOnTop: boolean): { width: number; height: number } {
  if (!hasIcon) return { width: label.width, height: label.height };
  if (iconOnTop) return { width: Math.max(label.width, ICON_SIZE), height: ICON_SIZE + ICON_GAP + label.height };
  return { width: ICON_SIZE + ICON_GAP + label.width, height: Math.max(label.height, ICON_SIZE) };
}

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

/** `iconOnTop`: where a text node's icon goes (on top in a horizontal flow, on the left in a vertical one). */
export function planNode(node: SpecNode, isContainer: boolean, depth: number, iconOnTop = false): NodePlan {
  if (node.shape === 'text') {
    const label = standaloneText(node.label === '' ? node.id : node.label);
    return { node, label, isContainer: false, depth, shape: 'text', ...textNodeSize(label, Boolean(node.icon), iconOnTop) };
  }
  if (isMarker(node.shape) && !isContainer) {
    const size = node.shape === 'start' ? MARKER_SIZE.start : MARKER_SIZE.end;
    // A fork bar lies across the flow: wide in a vertical flow, tall in a horizontal one (iconOnTop).
    const [width, height]: [number, number] =
      node.shape !== 'fork' ? [size, size] : iconOnTop ? [MARKER_SIZE.forkThickness, MARKER_SIZE.forkLength] : [MARKER_SIZE.forkLength, MARKER_SIZE.forkThickness];
    return { node, label: null, isContainer: false, depth, shape: node.shape === 'fork' ? 'rectangle' : 'ellipse', marker: node.shape, width, height };
  }
  if (isContainer) {
    // A container's header: its label, and its icon after the label on the same row.
    const safe = wordSafeWrap(node.label, WRAP_WIDTH.container);
    // A marker given members is a plain container, still without a label.
    const label = isMarker(node.shape) ? null : textBlock(safe.label, safe.wrapAt);
    const iconWidth = node.icon && !isMarker(node.shape) ? ICON_SIZE + (label ? ICON_GAP : 0) : 0;
    const width = (label?.width ?? 0) + iconWidth + 2 * BOUND_TEXT_PADDING + 2 * CONTAINER_HEADER_EXTRA;
    const height = Math.max(label?.height ?? 0, node.icon ? ICON_SIZE : 0) + 2 * BOUND_TEXT_PADDING + CONTAINER_HEADER_EXTRA;
    return { node, label, isContainer: true, depth, shape: 'rectangle', width: Math.ceil(width), height: Math.ceil(height) };
  }
  const shape = boxShapeOf(node.shape);
  const [minWidth, minHeight] = MIN_SIZE[sizedShape(node.shape)];
  const [marginX, marginY] = MARGIN[sizedShape(node.shape)];
  const iconHeight = node.icon ? ICON_SIZE + (node.label === '' ? 0 : ICON_GAP) : 0;
  if (node.label === '') {
    const fit = containerSizeForText(shape, node.icon ? ICON_SIZE : 0, iconHeight);
    const [width, height] = [Math.max(minWidth, fit.width + marginX), Math.max(minHeight, fit.height + marginY)];
    const side = Math.max(width, height);
    return { node, label: null, isContainer: false, depth, shape, ...(isRound(node.shape) ? { width: side, height: side } : { width, height }) };
  }
  // The label is wrapped in the final container's own text area, so the editor
  // re-wrapping it there (on edit or resize) gets the same lines; never inside a word.
  // Bold text is wider than the font measures: wrap it narrower so it still fits.
  const wrapWidth = node.bold ? Math.round(WRAP_WIDTH[shape] / BOLD_WIDENS) : WRAP_WIDTH[shape];
  const safe = wordSafeWrap(node.label, isRound(node.shape) ? roundestWrap(node.label, wrapWidth) : wrapWidth);
  const preferred = measureText(wrapText(safe.label, FONT_SIZE, safe.wrapAt, FONT_FAMILY_EXCALIFONT), FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  const target = containerSizeForText(shape, Math.max(preferred.width * (node.bold ? BOLD_WIDENS : 1), node.icon ? ICON_SIZE : 0), preferred.height + iconHeight);
  const fitted = fitTextInContainer(safe.label, shape, {
    fontSize: FONT_SIZE,
    fontFamily: FONT_FAMILY_EXCALIFONT,
    maxTextWidth: safe.wrapAt,
    minWidth: Math.max(minWidth, target.width + marginX),
    minHeight: Math.max(minHeight, target.height + marginY),
    sideRoom: sideRoom(node.shape, preferred.height, minHeight),
  });
  const label = { text: fitted.text, original: safe.label, width: fitted.textWidth, height: fitted.textHeight };
  // With an icon the bound-text area must also hold it above the label.
  const height = node.icon ? Math.max(fitted.height, containerSizeForText(shape, fitted.textWidth, fitted.textHeight + iconHeight).height + marginY) : fitted.height;
  if (isRound(node.shape)) {
    const side = Math.max(fitted.width, height);
    return { node, label, isContainer: false, depth, shape, width: side, height: side };
  }
  return { node, label, isContainer: false, depth, shape, width: fitted.width, height };
}

/** Wrap widths a circle's label is tried at, from the usual one down, this far apart. */
const CIRCLE_WRAP_STEP = 8;
/** A wider wrap (fewer lines: "for each / row", not "for / each / row") wins when its circle is at most this much larger. */
const CIRCLE_SIDE_SLACK = 1.1;

/**
 * The wrap width that gives a circle's label the smallest circle: the circle
 * holds its text in the square inside it, so a label wrapped into a block
 * about as tall as it is wide needs the least room ("for each font face" on
 * one line made a 294-px circle; on two lines it takes about half that, near
 * Mermaid's). The widest wrap whose circle is within CIRCLE_SIDE_SLACK of
 * the smallest wins: fewer lines read more easily.
 */
function roundestWrap(label: string, widest: number): number {
  const tried: Array<{ width: number; side: number }> = [];
  for (let width = widest; width > 0; width -= CIRCLE_WRAP_STEP) {
    const safe = wordSafeWrap(label, width);
    const fitted = fitTextInContainer(safe.label, 'ellipse', { fontSize: FONT_SIZE, fontFamily: FONT_FAMILY_EXCALIFONT, maxTextWidth: safe.wrapAt });
    tried.push({ width, side: Math.max(fitted.width, fitted.height) });
    // Below the widest word the wrap cannot narrow the text any further.
    if (safe.wrapAt > width) break;
  }
  const smallest = Math.min(...tried.map((t) => t.side));
  return tried.find((t) => t.side <= smallest * CIRCLE_SIDE_SLACK)!.width;
}

/**
 * A text node: one line when it fits the wrap width (the editor sizes it to its
 * text); otherwise a fixed-width text that wraps, exactly as the editor wraps it.
 */
function standaloneText(label: string): TextBlock & { autoResize: boolean } {
  const oneLine = measureText(label, FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  if (oneLine.width <= WRAP_WIDTH.text) return { text: label, original: label, ...oneLine, autoResize: true };
  const text = wrapText(label, FONT_SIZE, WRAP_WIDTH.text, FONT_FAMILY_EXCALIFONT);
  return { text, original: label, width: WRAP_WIDTH.text, height: measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT).height, autoResize: false };
}

/** The label of a generated arrow, centred on the arrow's middle point, where the editor puts an arrow's bound text. */
export function arrowLabelElement(edgeId: string, label: TextBlock, points: readonly Point[], order: number, updated: number): ExcalidrawElement {
  const middle = points.length % 2 === 1 ? points[(points.length - 1) / 2]! : midpointOf(points.slice(points.length / 2 - 1, points.length / 2 + 1));
  return textElement(`${edgeId}-label`, label, { x: middle[0] - label.width / 2, y: middle[1] - label.height / 2 }, order, updated, {
    containerId: edgeId,
    textAlign: 'center',
    verticalAlign: 'middle',
    strokeColor: null,
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
function layoutArrowheads(edge: { startArrowhead: ArrowheadName; endArrowhead: ArrowheadName }): Arrowheads {
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

/** The shapes drawn by `line` outlines around a label-carrying rectangle, and the ids of those lines. */
const OUTLINE_IDS: Partial<Record<SpecNode['shape'], readonly string[]>> = {
  stadium: ['outline'],
  doublecircle: ['outline', 'ring'],
  hexagon: ['outline'],
  parallelogram: ['outline'],
  document: ['outline'],
  cylinder: ['outline', 'top'],
  subroutine: ['left', 'right'],
};

/** Shapes whose outline cuts into the label's box at the sides: their label keeps its whole side margin, even re-wrapped in the final box. */
const SIDES_CUT_IN: ReadonlySet<SpecNode['shape']> = new Set(['stadium', 'hexagon', 'parallelogram', 'subroutine']);

/** How far a label keeps from its shape's outline. */
const OUTLINE_CLEARANCE = 6;
/** The same, measured across: 6 px square to a slant as steep as a hexagon's or a parallelogram's. */
const ACROSS_SLANT_CLEARANCE = 8;

/**
 * The width a label must leave free in the text area of a shape whose outline
 * cuts in at the sides (fitTextInContainer's sideRoom): the shape's side
 * margin, or more for a tall label, whose first and last lines reach where a
 * hexagon's points, a parallelogram's slant or a stadium's round ends lie
 * further in (the taller the shape, the deeper its points and slant and the
 * rounder its ends). The label's corners keep their distance from the outline.
 */
function sideRoom(shape: SpecNode['shape'], labelHeight: number, minHeight: number): number {
  if (!SIDES_CUT_IN.has(shape)) return 0;
  const [marginX, marginY] = MARGIN[shape as keyof typeof MARGIN];
  const height = Math.max(minHeight, labelHeight + 2 * BOUND_TEXT_PADDING + marginY);
  const half = labelHeight / 2;
  // How far in from the box's side the outline lies level with the label's first or last line, with the clearance added.
  const r = height / 2;
  const inset =
    shape === 'hexagon'
      ? OUTLINE.point * height * (half / r) + ACROSS_SLANT_CLEARANCE
      : shape === 'parallelogram'
        ? OUTLINE.slant * (r + half) + ACROSS_SLANT_CLEARANCE
        : shape === 'stadium'
          ? r - Math.sqrt(Math.max(0, (r - OUTLINE_CLEARANCE) ** 2 - half ** 2))
          : 0;
  // The text area's padding and half the slack (1 px) already keep the label 6 px in from the box's side.
  return Math.max(marginX, 2 * (inset - OUTLINE_CLEARANCE));
}

/** A container's label (and icon) on one line, for the layout, when wider than its wrapped header: the scene wraps it again in the final width. */
function titleWidthOf(plan: NodePlan): { titleWidth?: number } {
  if (!plan.isContainer || !plan.label) return {};
  const oneLine = measureText(plan.label.original, FONT_SIZE, FONT_FAMILY_EXCALIFONT).width;
  return oneLine > plan.label.width + 0.5 ? { titleWidth: Math.ceil(oneLine + (plan.node.icon ? ICON_SIZE + ICON_GAP : 0)) } : {};
}

/** A circle and a double circle: equal sides, the label wrapped about as tall as wide. */
const isRound = (shape: SpecNode['shape']) => shape === 'circle' || shape === 'doublecircle';

/** A parallelogram's slant and a hexagon's point, as a share of the height; a cylinder's rim and a document's wave. */
export const OUTLINE = { slant: 0.35, point: 0.3, rim: [8, 14, 0.12], wave: [4, 10, 0.08], bar: 10 } as const;

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
function lineElement(id: string, at: { x: number; y: number }, points: Point[], order: number, updated: number, style: Style, groupIds: string[]): ExcalidrawElement {
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

/** An invisible node draws no outline, label or icon; it keeps a transparent shape only when an arrow must bind to it. */
const touched = (spec: DiagramSpec) => new Set(spec.edges.filter((e) => e.style !== 'invisible').flatMap((e) => [e.from, e.to]));

export interface SceneOptions {
  /** The `updated` stamp of every element (ms since epoch). */
  updated: number;
  /** The layout engine; injected so this module stays pure and testable. */
  layout: (input: LayoutInput) => LayoutResult;
}

/**
 * Turns a validated DiagramSpec into editor elements: shapes sized to their
 * labels (measured with the editor's font), laid out, with labels bound to
 * their shapes and arrows bound at both ends, with deterministic ids
 * (docs/spec.md, "Generated ids"). Pure and
 * deterministic for a given layout function.
 */
export function sceneFromSpec(spec: DiagramSpec, options: SceneOptions): ExcalidrawElement[] {
  const children = new Map<string, string[]>();
  for (const node of spec.nodes) if (node.parent) children.set(node.parent, [...(children.get(node.parent) ?? []), node.id]);
  const byId = new Map(spec.nodes.map((n) => [n.id, n]));
  const depthOf = (node: SpecNode): number => {
    let depth = 0;
    for (let p = node.parent; p; p = byId.get(p)!.parent) depth++;
    return depth;
  };
  const iconOnTop = spec.direction === 'LR' || spec.direction === 'RL';
  const plans = new Map(spec.nodes.map((node) => [node.id, planNode(node, children.has(node.id), depthOf(node), iconOnTop)]));

  const edgeLabels = new Map(spec.edges.map((edge) => [edge.id, edge.label === null ? null : edgeLabelBlock(edge.label)]));
  const layout = options.layout({
    direction: spec.direction,
    nodes: spec.nodes.map((n) => ({
      id: n.id,
      width: plans.get(n.id)!.width,
      height: plans.get(n.id)!.height,
      parent: n.parent,
      ...(plans.get(n.id)!.shape === 'diamond' ? { diamond: true } : {}),
      ...(plans.get(n.id)!.shape === 'ellipse' && !children.has(n.id) ? { round: true } : {}),
      ...titleWidthOf(plans.get(n.id)!),
      ...(n.direction && children.has(n.id) ? { direction: n.direction } : {}),
    })),
    edges: spec.edges.map((e) => {
      const label = edgeLabels.get(e.id);
      return {
        id: e.id,
        from: e.from,
        to: e.to,
        ...(label ? { labelWidth: Math.ceil(label.width), labelHeight: Math.ceil(label.height) } : {}),
        ...(e.constraint === false ? { constraint: false } : {}),
        ...(e.minLength !== undefined ? { minLength: e.minLength } : {}),
        ...(e.style === 'invisible' ? { invisible: true } : {}),
        ...(layoutArrowheads(e) !== 'end' ? { arrowheads: layoutArrowheads(e) } : {}),
      };
    }),
    ...(spec.sameRank ? { sameRank: spec.sameRank } : {}),
    ...(spec.fold ? { fold: spec.fold } : {}),
  });

  const elements: ExcalidrawElement[] = [];
  const shapes = new Map<string, ExcalidrawElement>();
  let order = 0;
  const push = (element: ExcalidrawElement) => {
    elements.push(element);
    return element;
  };

  const ends = touched(spec);
  const nextOrder = () => order++;
  // Containers first, outermost first, so they sit behind what they hold.
  const drawOrder = [...plans.values()].sort((a, b) => Number(b.isContainer) - Number(a.isContainer) || (a.isContainer ? a.depth - b.depth : 0));
  for (const plan of drawOrder) {
    const drawing = nodeElements(plan, layout.nodes[plan.node.id]!, { updated: options.updated, nextOrder, iconOnTop, bound: ends.has(plan.node.id) });
    for (const element of drawing.elements) push(element);
    if (drawing.shape) shapes.set(plan.node.id, drawing.shape);
  }

  const endLabelled: Array<{ edge: SpecEdge; points: Point[] }> = [];
  for (const edge of spec.edges) {
    // An invisible edge shaped the layout and draws nothing.
    if (edge.style === 'invisible') continue;
    const route = layout.edges[edge.id]!.points.map((p) => [p[0], p[1]] as Point);
    const source = shapes.get(edge.from)!;
    const target = shapes.get(edge.to)!;
    const points = attachEnds(route, source, target);
    const startFocus = focusOf(points[1]!, points[0]!, source);
    const endFocus = focusOf(points[points.length - 2]!, points[points.length - 1]!, target);
    const label = edgeLabels.get(edge.id) ?? null;
    const labelAt = layout.edges[edge.id]!.label;
    const finalPoints = (label ? centreOn(points, labelAt ? [labelAt.x, labelAt.y] : midpointOf(points)) : points).map(roundPoint);
    const arrow = push(arrowElement(edge, finalPoints, { start: startFocus, end: endFocus }, order++, options.updated));
    addBound(source, { id: edge.id, type: 'arrow' });
    if (target !== source) addBound(target, { id: edge.id, type: 'arrow' });
    if (label) {
      const text = push(arrowLabelElement(edge.id, label, finalPoints, order++, options.updated));
      addBound(arrow, { id: text.id, type: 'text' });
    }
    if (endLabelIds(edge).length > 0) endLabelled.push({ edge, points: finalPoints });
  }
  // Head and tail labels go last, where every shape, line and label is known.
  const obstacles = endLabelled.length > 0 ? new SceneObstacles(elements) : null;
  for (const { edge, points } of endLabelled) {
    for (const text of endLabelElements(edge, points, obstacles!, order, options.updated)) {
      order++;
      push(text);
    }
  }
  if (spec.caption !== undefined) push(captionElement(spec.caption, spec.captionAt ?? 'top', elements, order++, options.updated));
  return elements;
}

/** A caption's font size: the editor's large size. */
const CAPTION_FONT_SIZE = 28;
/** Between the caption and the drawing. */
const CAPTION_GAP = 24;
/** A caption wraps at the drawing's width, but never narrower than this. */
const CAPTION_MIN_WRAP = 400;

/** The spec's caption: a free text centred above (or below) everything drawn, wrapped at the drawing's width. */
function captionElement(caption: string, at: 'top' | 'bottom', drawn: readonly ExcalidrawElement[], order: number, updated: number): ExcalidrawElement {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const element of drawn) {
    const [x, y] = [Number(element.x), Number(element.y)];
    const points = Array.isArray(element.points) ? (element.points as Point[]) : [[0, 0] as Point, [Number(element.width), Number(element.height)] as Point];
    for (const [px, py] of points) {
      xs.push(x + px);
      ys.push(y + py);
    }
  }
  const [left, right] = xs.length > 0 ? [Math.min(...xs), Math.max(...xs)] : [0, 0];
  const [top, bottom] = ys.length > 0 ? [Math.min(...ys), Math.max(...ys)] : [0, 0];
  const wrapAt = Math.max(CAPTION_MIN_WRAP, right - left);
  const text = wrapText(caption, CAPTION_FONT_SIZE, wrapAt, FONT_FAMILY_EXCALIFONT);
  const measured = measureText(text, CAPTION_FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  // Wrapped here, it is a fixed-width text as wide as the wrap, which the editor wraps the same way (as a long text node is).
  const wrapped = text !== caption;
  const size = { width: wrapped ? wrapAt : measured.width, height: measured.height };
  const block = { text, original: caption, ...size, autoResize: !wrapped };
  const y = at === 'top' ? top - CAPTION_GAP - size.height : bottom + CAPTION_GAP;
  return textElement(CAPTION_ID, block, { x: (left + right) / 2 - size.width / 2, y }, order, updated, { containerId: null, textAlign: 'center', verticalAlign: 'top', strokeColor: null, fontSize: CAPTION_FONT_SIZE });
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
    if (font) text.customData = font;
    if (node.icon) push(iconElement(node, place.icon, nextOrder(), updated, []));
    return { shape: text, elements };
  }
  if (plan.marker) {
    const marker = markerElements(node, plan.marker, box, nextOrder, updated);
    return { shape: marker[0]!, elements: marker };
  }
  // An outlined shape's lines come first: the exporters draw a label right after its container, so a filled outline drawn later would hide it.
  if (!plan.isContainer && OUTLINE_IDS[node.shape]) {
    const paths = outlinePaths(node.shape, box.width, box.height);
    const ink = styleOf(node);
    for (const suffix of OUTLINE_IDS[node.shape]!) {
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
  const outlines = plan.isContainer ? [] : (OUTLINE_IDS[node.shape] ?? []);
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
    if (font) text.customData = font;
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

/** How many elements sceneFromSpec makes for a spec: known before any layout. */
export function generatedElementCount(spec: DiagramSpec): number {
  let count = 0;
  const ends = touched(spec);
  for (const node of spec.nodes) count += (node.invisible && !ends.has(node.id) ? 0 : 1) + generatedNodeIds(node).length;
  for (const edge of spec.edges) if (edge.style !== 'invisible') count += (edge.label === null ? 1 : 2) + endLabelIds(edge).length;
  return count + (spec.caption !== undefined ? 1 : 0);
}

const round = (v: number) => Math.round(v * 100) / 100;

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
