/**
 * A scene read back as the graph it draws: the spec that says it. Every
 * shape (a box, an ellipse, a diamond, a free text, a frame) is a node, with
 * its bound text as its label; an arrow bound at both ends is an edge, with
 * its bound text as its label; a shape holding others (or a frame, for the
 * elements in it) is a container. Drawbridge's own drawings are read as the
 * spec shapes they were drawn from: the outline lines beside a node's box
 * (`<id>-outline`, `-ring`, `-top`, `-left`, `-right`), the end marker's dot,
 * an icon, an edge's head and tail labels, the caption. The flow's direction
 * is the way most arrows run. What a spec cannot say (a free line, an arrow
 * loose at an end, a picture) is left out and said in the warnings, with the
 * elements it is about.
 */
import { containersAround, elementBox, encloses, indexScene, isContainer, num, type Scene } from '../edit/scene-index.ts';
import type { SceneElement } from '../edit/types.ts';
import type { Direction } from '../layout/types.ts';
import { authoredEdgeLabel, authoredLabel } from '../scene/node-plan.ts';
import { CAPTION_ID } from '../spec/parse.ts';
import { ARROWHEADS, type ArrowheadName, type EdgeStyle, type FILL_STYLES, type Shape, SPEC_LIMITS, type STROKE_STYLES } from '../spec/types.ts';

/** Something of the drawing the exported text does not say, and the elements it is about. */
export interface ExportWarning {
  message: string;
  elementIds: string[];
}

/** A node as the exported spec writes it: only what differs from the spec's defaults. */
export interface NodeInput {
  id: string;
  label?: string;
  shape?: Shape;
  icon?: string;
  parent?: string;
  strokeColor?: string;
  backgroundColor?: string;
  fillStyle?: (typeof FILL_STYLES)[number];
  textColor?: string;
  bold?: boolean;
  italic?: boolean;
  strokeWidth?: number;
  strokeStyle?: (typeof STROKE_STYLES)[number];
  direction?: Direction;
}

export interface EdgeInput {
  from: string;
  to: string;
  label?: string;
  headLabel?: string;
  tailLabel?: string;
  arrowhead?: ArrowheadName;
  startArrowhead?: ArrowheadName;
  style?: EdgeStyle;
  strokeWidth?: number;
  strokeColor?: string;
  constraint?: boolean;
  minLength?: number;
}

/** The spec a scene draws (a DiagramSpec's JSON input). */
export interface ExportSpec {
  layout: { direction: Direction; captionAt?: 'top' | 'bottom' };
  nodes: NodeInput[];
  edges: EdgeInput[];
  caption?: string;
}

export interface SceneSpec {
  spec: ExportSpec;
  /** The arrow each edge is drawn as, in the order of `spec.edges`. */
  edgeIds: string[];
  warnings: ExportWarning[];
}

/** The editor's defaults, which a spec leaves unsaid. */
const INK = '#1e1e1e';
const WIDTH = 2;
/** The suffixes of the lines that draw a spec shape beside its box, and the shape each set draws. */
const OUTLINE_SUFFIXES = ['outline', 'ring', 'top', 'left', 'right'] as const;
/** Points of an outline line as Drawbridge draws each shape (factory.ts): the hexagon's 7, the parallelogram's 5, the stadium's 27, the document's 28. */
const OUTLINE_POINTS: Record<number, Shape> = { 5: 'parallelogram', 7: 'hexagon', 27: 'stadium', 28: 'document' };
/** A start marker is a filled dot this wide or less; a fork a filled bar this thin or less. */
const MARKER_MAX = 30;
const BAR_MAX = 12;
/** The editor's arrowheads the spec draws as its nearest, by name. */
const NEAREST_HEAD: Record<string, ArrowheadName> = {
  triangle_outline: 'triangle',
  circle_outline: 'circle',
  diamond_outline: 'diamond',
  crowfoot_one: 'bar',
  crowfoot_many: 'arrow',
  crowfoot_one_or_many: 'arrow',
};

const live = (scene: Scene, id: unknown) => (typeof id === 'string' ? scene.live.get(id) : undefined);
const textOf = (element: SceneElement | undefined) => (element ? String(element.originalText ?? element.text ?? '') : '');
const str = (value: unknown) => (typeof value === 'string' ? value : null);
/** The label Drawbridge recorded with a text whose words it broke (checked against the text before it is used). */
const recordedLabel = (text: SceneElement | undefined) => (text?.customData as Record<string, unknown> | undefined)?.authoredLabel;

/** The spec a scene draws, and what it leaves out. */
export function sceneSpec(elements: readonly SceneElement[]): SceneSpec {
  const scene = indexScene(elements);
  const warnings: ExportWarning[] = [];
  const warn = (message: string, elementIds: string[]) => warnings.push({ message, elementIds });
  const used = new Set<string>();
  const arrows = [...scene.live.values()].filter((e) => e.type === 'arrow');
  const arrowIds = new Set(arrows.map((a) => a.id));

  // What belongs to a node, an edge or the diagram rather than being a node.
  const parts = new Map<string, string>();
  for (const element of scene.live.values()) {
    const [owner, suffix] = splitSuffix(element.id);
    if (owner === null) continue;
    const base = scene.live.get(owner);
    if (element.type === 'line' && base && (OUTLINE_SUFFIXES as readonly string[]).includes(suffix)) parts.set(element.id, owner);
    else if (element.type === 'ellipse' && suffix === 'dot' && base?.type === 'ellipse') parts.set(element.id, owner);
    else if (element.type === 'image' && suffix === 'icon' && base) parts.set(element.id, owner);
  }
  const endLabelOf = (element: SceneElement): { arrow: string; end: 'head' | 'tail' } | null => {
    const match = /^(.*)-(head|tail)-label$/.exec(element.id);
    return element.type === 'text' && typeof element.containerId !== 'string' && match && arrowIds.has(match[1]!) ? { arrow: match[1]!, end: match[2] as 'head' | 'tail' } : null;
  };

  const nodeElements = [...scene.live.values()].filter(
    (e) => !parts.has(e.id) && e.id !== CAPTION_ID && (['rectangle', 'ellipse', 'diamond', 'frame', 'magicframe'].includes(e.type) || (e.type === 'text' && typeof e.containerId !== 'string' && !endLabelOf(e))),
  );
  const nodeIds = new Set(nodeElements.map((e) => e.id));
  // A box holding another node (not its own parts, an end label or the caption), or with its label at its top.
  const holdsANode = (box: SceneElement) => nodeElements.some((other) => other !== box && encloses(elementBox(box), elementBox(other)));
  const containers = new Set(nodeElements.filter((e) => e.type === 'frame' || e.type === 'magicframe' || isContainer(scene, e, holdsANode)).map((e) => e.id));

  const nodes: NodeInput[] = [];
  for (const element of nodeElements) {
    used.add(element.id);
    const node: NodeInput = { id: element.id };
    const label = scene.labels.get(element.id);
    const shape = shapeOf(scene, element, label, containers.has(element.id));
    if (shape !== 'rectangle') node.shape = shape;
    const labelText = element.type === 'text' ? textOf(element) : element.type === 'frame' || element.type === 'magicframe' ? (str(element.name) ?? '') : authoredLabel(textOf(label), { shape: shape, bold: fontOf(label ?? element).bold === true }, containers.has(element.id), recordedLabel(label));
    if (shape === 'start' || shape === 'end' || shape === 'fork') {
      // A marker draws no label.
    } else if (labelText !== element.id) node.label = clipLabel(labelText, element.id, warn);
    if (label) used.add(label.id);
    const parent = parentOf(scene, element, containers);
    if (parent !== null) node.parent = parent;
    Object.assign(node, lookOf(scene, element, label, shape, containers.has(element.id)));
    const icon = scene.live.get(`${element.id}-icon`);
    if (icon && parts.get(icon.id) === element.id && typeof icon.fileId === 'string') {
      node.icon = icon.fileId;
      used.add(icon.id);
    }
    for (const suffix of [...OUTLINE_SUFFIXES, 'dot']) if (parts.get(`${element.id}-${suffix}`) === element.id) used.add(`${element.id}-${suffix}`);
    nodes.push(node);
  }

  const edges: EdgeInput[] = [];
  const edgeIds: string[] = [];
  const byArrow = new Map<string, EdgeInput>();
  for (const arrow of arrows) {
    const from = endNode(scene, arrow.startBinding, nodeIds, parts);
    const to = endNode(scene, arrow.endBinding, nodeIds, parts);
    used.add(arrow.id);
    if (from === null || to === null) {
      warn('an arrow not bound to a shape at both ends is left out: an edge joins two nodes', [arrow.id]);
      continue;
    }
    const edge: EdgeInput = { from, to };
    const label = scene.labels.get(arrow.id);
    if (label) {
      used.add(label.id);
      const text = authoredEdgeLabel(textOf(label), recordedLabel(label));
      if (text !== '') edge.label = clipLabel(text, arrow.id, warn);
    }
    const end = headOf(arrow.endArrowhead, arrow.id, warn);
    const start = headOf(arrow.startArrowhead, arrow.id, warn);
    if (end !== 'arrow') edge.arrowhead = end;
    if (start !== 'none') edge.startArrowhead = start;
    if (arrow.strokeStyle === 'dashed' || arrow.strokeStyle === 'dotted') edge.style = arrow.strokeStyle;
    if (typeof arrow.strokeColor === 'string' && arrow.strokeColor !== INK) edge.strokeColor = arrow.strokeColor;
    if (typeof arrow.strokeWidth === 'number' && arrow.strokeWidth !== WIDTH) edge.strokeWidth = arrow.strokeWidth;
    edges.push(edge);
    edgeIds.push(arrow.id);
    byArrow.set(arrow.id, edge);
  }
  for (const element of scene.live.values()) {
    const end = endLabelOf(element);
    const edge = end ? byArrow.get(end.arrow) : undefined;
    if (!end || !edge) continue;
    edge[end.end === 'head' ? 'headLabel' : 'tailLabel'] = textOf(element);
    used.add(element.id);
  }

  const spec: ExportSpec = { layout: { direction: flowDirection(scene, edges.filter((e) => !containers.has(e.from) && !containers.has(e.to))) }, nodes, edges };
  const caption = scene.live.get(CAPTION_ID);
  if (caption?.type === 'text') {
    used.add(caption.id);
    spec.caption = textOf(caption);
    const rest = nodeElements.map(elementBox);
    if (rest.length > 0 && num(caption.y) > Math.max(...rest.map((b) => b.y + b.height))) spec.layout = { ...spec.layout, captionAt: 'bottom' };
  }
  // A container's own direction, where the arrows within it run another way than the diagram's.
  const parentOfNode = new Map(nodes.map((n) => [n.id, n.parent]));
  for (const node of nodes) {
    if (!containers.has(node.id)) continue;
    const inside = edges.filter((e) => parentOfNode.get(e.from) === node.id && parentOfNode.get(e.to) === node.id);
    const own = inside.length > 0 ? flowDirection(scene, inside) : null;
    if (own !== null && own !== spec.layout.direction) node.direction = own;
  }

  const leftOut = [...scene.live.values()].filter((e) => !used.has(e.id) && !(e.type === 'text' && typeof e.containerId === 'string' && used.has(e.containerId)));
  const byKind = new Map<string, string[]>();
  for (const element of leftOut) byKind.set(element.type, [...(byKind.get(element.type) ?? []), element.id]);
  for (const [type, ids] of byKind) warn(LEFT_OUT[type] ?? `${type} elements are left out: a spec has no such thing`, ids);
  if (nodes.length > SPEC_LIMITS.nodes || edges.length > SPEC_LIMITS.edges) warn(`a spec holds at most ${SPEC_LIMITS.nodes} nodes and ${SPEC_LIMITS.edges} edges; this one has ${nodes.length} and ${edges.length}, so it cannot be laid out again as it is`, []);
  return { spec, edgeIds, warnings };
}

const LEFT_OUT: Record<string, string> = {
  line: 'lines that are not an arrow between two shapes are left out',
  freedraw: 'freehand strokes are left out',
  image: 'pictures that are not a node\'s catalog icon are left out',
  text: 'texts bound to something that is not a node or an edge are left out',
  embeddable: 'embedded pages are left out',
  iframe: 'embedded pages are left out',
};

/** `a-outline` → ['a', 'outline']; an id without a dash → [null, '']. */
function splitSuffix(id: string): [string | null, string] {
  const at = id.lastIndexOf('-');
  return at <= 0 ? [null, ''] : [id.slice(0, at), id.slice(at + 1)];
}

function clipLabel(text: string, id: string, warn: (message: string, ids: string[]) => void): string {
  if (text.length <= SPEC_LIMITS.labelLength) return text;
  warn(`a label is cut to the spec's ${SPEC_LIMITS.labelLength} characters`, [id]);
  return text.slice(0, SPEC_LIMITS.labelLength);
}

/** The spec shape an element draws. */
function shapeOf(scene: Scene, element: SceneElement, label: SceneElement | undefined, isContainerNode: boolean): Shape {
  if (element.type === 'text') return 'text';
  if (element.type === 'frame' || element.type === 'magicframe' || isContainerNode) return 'rectangle';
  const line = (suffix: string) => {
    const found = scene.live.get(`${element.id}-${suffix}`);
    return found?.type === 'line' ? found : undefined;
  };
  if (line('outline') && line('ring')) return 'doublecircle';
  if (line('outline') && line('top')) return 'cylinder';
  if (line('left') && line('right')) return 'subroutine';
  const outline = line('outline');
  if (outline) return OUTLINE_POINTS[Array.isArray(outline.points) ? outline.points.length : 0] ?? 'rectangle';
  const box = elementBox(element);
  const filled = element.fillStyle === 'solid' && typeof element.backgroundColor === 'string' && element.backgroundColor !== 'transparent';
  if (element.type === 'ellipse') {
    const dot = scene.live.get(`${element.id}-dot`);
    if (dot?.type === 'ellipse' && !label) return 'end';
    if (filled && !label && Math.abs(box.width - box.height) < 0.5 && box.width <= MARKER_MAX) return 'start';
    return Math.abs(box.width - box.height) < 0.5 ? 'circle' : 'ellipse';
  }
  if (element.type === 'rectangle' && filled && !label && Math.min(box.width, box.height) <= BAR_MAX && Math.max(box.width, box.height) >= 3 * Math.min(box.width, box.height)) return 'fork';
  return element.type === 'diamond' ? 'diamond' : 'rectangle';
}

/** The innermost container around a node: its frame, else the innermost container box holding it. */
function parentOf(scene: Scene, element: SceneElement, containers: Set<string>): string | null {
  const frame = str(element.frameId);
  if (frame !== null && containers.has(frame) && frame !== element.id) return frame;
  const around = containersAround(scene, element).find((c) => containers.has(c.id));
  return around?.id ?? null;
}

/** A node's colours, widths and text style, where they differ from the spec's defaults. */
function lookOf(scene: Scene, element: SceneElement, label: SceneElement | undefined, shape: NodeInput['shape'], isContainerNode: boolean): Partial<NodeInput> {
  const look: Partial<NodeInput> = {};
  // An outlined shape's box is transparent: its outline line carries the look.
  const drawn = scene.live.get(`${element.id}-outline`) ?? element;
  if (element.type === 'text') {
    if (typeof element.strokeColor === 'string' && element.strokeColor !== INK) look.strokeColor = element.strokeColor;
    Object.assign(look, fontOf(element));
    return look;
  }
  const transparent = (value: unknown) => value === 'transparent';
  if (typeof drawn.strokeColor === 'string' && drawn.strokeColor !== INK) look.strokeColor = drawn.strokeColor;
  const markerFill = (shape === 'start' || shape === 'fork') && drawn.backgroundColor === drawn.strokeColor;
  if (typeof drawn.backgroundColor === 'string' && !transparent(drawn.backgroundColor) && !markerFill) look.backgroundColor = drawn.backgroundColor;
  if (look.backgroundColor !== undefined && typeof drawn.fillStyle === 'string' && drawn.fillStyle !== 'solid') look.fillStyle = drawn.fillStyle as NodeInput['fillStyle'];
  if (typeof drawn.strokeWidth === 'number' && drawn.strokeWidth !== WIDTH) look.strokeWidth = drawn.strokeWidth;
  const defaultStyle = isContainerNode ? 'dashed' : 'solid';
  if ((drawn.strokeStyle === 'solid' || drawn.strokeStyle === 'dashed' || drawn.strokeStyle === 'dotted') && drawn.strokeStyle !== defaultStyle) look.strokeStyle = drawn.strokeStyle;
  if (label) {
    const ink = typeof label.strokeColor === 'string' ? label.strokeColor : INK;
    if (ink !== (look.strokeColor ?? INK)) look.textColor = ink;
    Object.assign(look, fontOf(label));
  }
  return look;
}

function fontOf(text: SceneElement): Partial<NodeInput> {
  const data = text.customData as Record<string, unknown> | undefined;
  return { ...(data?.fontWeight === 'bold' ? { bold: true } : {}), ...(data?.fontStyle === 'italic' ? { italic: true } : {}) };
}

/** The node an arrow end is bound to: the element itself, or the node it is part of. */
function endNode(scene: Scene, binding: unknown, nodeIds: Set<string>, parts: Map<string, string>): string | null {
  const id = binding && typeof binding === 'object' ? (binding as { elementId?: unknown }).elementId : undefined;
  const target = live(scene, id);
  if (!target) return null;
  if (nodeIds.has(target.id)) return target.id;
  const owner = parts.get(target.id);
  return owner !== undefined && nodeIds.has(owner) ? owner : null;
}

function headOf(value: unknown, arrow: string, warn: (message: string, ids: string[]) => void): ArrowheadName {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string' && (ARROWHEADS as readonly string[]).includes(value)) return value as ArrowheadName;
  const nearest = typeof value === 'string' ? NEAREST_HEAD[value] : undefined;
  warn(`the ${String(value)} arrowhead is written as ${nearest ?? 'arrow'}, the nearest a spec has`, [arrow]);
  return nearest ?? 'arrow';
}

/** The way most arrows run, from the centre of their start to the centre of their end; top to bottom when none decides. */
function flowDirection(scene: Scene, edges: EdgeInput[]): Direction {
  const votes: Record<Direction, number> = { TB: 0, BT: 0, LR: 0, RL: 0 };
  for (const edge of edges) {
    const [a, b] = [live(scene, edge.from), live(scene, edge.to)];
    if (!a || !b || a === b) continue;
    const [ba, bb] = [elementBox(a), elementBox(b)];
    const dx = bb.x + bb.width / 2 - (ba.x + ba.width / 2);
    const dy = bb.y + bb.height / 2 - (ba.y + ba.height / 2);
    if (dx === 0 && dy === 0) continue;
    votes[Math.abs(dy) >= Math.abs(dx) ? (dy > 0 ? 'TB' : 'BT') : dx > 0 ? 'LR' : 'RL']++;
  }
  return (Object.entries(votes) as Array<[Direction, number]>).reduce((best, entry) => (entry[1] > best[1] ? entry : best), ['TB', 0] as [Direction, number])[0];
}

