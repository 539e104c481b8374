/**
 * The additive edit merge behind POST /diagrams/:id/edit (CONTRACT.md §5).
 *
 * Pure: a scene and a fragment in, the merged scene out, or an ApiError that
 * names the offending item (and nothing changed). Existing elements keep their
 * geometry byte for byte; they only gain arrow bindings, or new style and
 * label text from `updateNodes`. New nodes are sized exactly as sceneFromSpec
 * sizes spec nodes and placed beside what they connect to, clear of
 * everything already drawn; new edges are routed around the boxes in their way
 * and bound at both ends.
 */
import { ApiError, type ErrorCode } from '../../errors.ts';
import { OccupiedSegments, type Heading, ROUTE_MARGIN, routeAroundObstacles } from '../layout/obstacle-router.ts';
import type { Box } from '../layout/types.ts';
import { inspectPayload, isPlainObject } from '../payload.ts';
import {
  arrowElement,
  attachEnds,
  boundTextArea,
  boundTextPosition,
  EDGE_LABEL_WRAP,
  focusOf,
  ICON_GAP,
  ICON_SIZE,
  iconElement,
  MARGIN,
  midpointOf,
  MIN_SIZE,
  planNode,
  styleOf,
  type TextBlock,
  textBlock,
  textElement,
} from '../scene/from-spec.ts';
import { addBound, baseElement, type ExcalidrawElement, FONT_FAMILY_EXCALIFONT, FONT_SIZE, indexKeyAfter, isIndexKey } from '../scene/elements.ts';
import { centreOn, type Point, roundPoint } from '../scene/geometry.ts';
import { MAX_SCENE_ELEMENTS } from '../scene/validate.ts';
import { generatedNodeIds, parseEdge, parseNode } from '../spec/parse.ts';
import { SPEC_LIMITS, type SpecEdge, type SpecNode } from '../spec/types.ts';
import { containerSizeForText, getBoundTextMaxWidth, getLineHeight, isKnownFontFamily, measureText, wrapText } from '../text/metrics.ts';
import { type SceneElement, touch, type WriteStamp } from './types.ts';

export interface EditOptions {
  /** Whether an icon id is in the catalog. */
  isIcon: (id: string) => boolean;
}

export interface EditResult {
  elements: SceneElement[];
  /** Ids of the new nodes and the new arrows, in fragment order. */
  added: string[];
  /** Ids of the nodes `updateNodes` changed. */
  updated: string[];
  /** How many elements this merge wrote: created plus changed (labels, icons, shapes gaining bindings included). */
  merged: number;
}

/** Items per fragment list; over them 413 SPEC_TOO_LARGE. */
export const EDIT_LIMITS = { addNodes: SPEC_LIMITS.nodes, addEdges: SPEC_LIMITS.edges, updateNodes: 1000 } as const;

type BoxShape = 'rectangle' | 'ellipse' | 'diamond';
/** Which side of a box: where a node is placed relative to another, or where an arrow meets it. */
type Side = 'bottom' | 'right' | 'top' | 'left';

const FRAGMENT_KEYS = ['addNodes', 'addEdges', 'updateNodes'] as const;
const UPDATE_FIELDS = new Set(['id', 'strokeColor', 'backgroundColor', 'fillStyle', 'label']);
const POSITION_FIELDS = new Set(['x', 'y', 'width', 'height', 'angle']);
const BOX_SHAPES = new Set<string>(['rectangle', 'ellipse', 'diamond']);
const LINEAR = new Set(['arrow', 'line']);

/** Clearance a placed node keeps from every shape, text and image already drawn. */
const PLACEMENT_MARGIN = 40;
/** Clearance a placed node keeps from the lines of arrows already drawn. */
const ARROW_CLEARANCE = 10;
/** The first distance tried between a new node and what it connects to, then ring by ring further out. */
const FIRST_GAP = 80;
const RING_STEP = 60;
const RINGS = 8;
const LATERAL_STEPS = 6;
/** Placement cost added per side, in the order the sides are preferred. */
const SIDE_PENALTY = [0, 40, 40, 160] as const;
const COLUMN_STEP = 20;
const COLUMN_TRIES = 250;
/** How far a fallback loop runs out beside two boxes that overlap. */
const LOOP_REACH = 40;

const fail = (code: ErrorCode, message: string): never => {
  throw new ApiError(code, message);
};

const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

const round = (value: number) => Math.round(value * 100) / 100;

// ---------------------------------------------------------------------------
// The scene as found

interface Scene {
  elements: readonly SceneElement[];
  /** Every element id, deleted ones included: a new element may reuse none of them. */
  ids: Set<string>;
  /** The elements not deleted, by id. */
  live: Map<string, SceneElement>;
  /** Each live shape's label: the first live text whose containerId names it. */
  labels: Map<string, SceneElement>;
}

function indexScene(elements: readonly SceneElement[]): Scene {
  const ids = new Set<string>();
  const live = new Map<string, SceneElement>();
  const labels = new Map<string, SceneElement>();
  for (const element of elements) {
    ids.add(element.id);
    if (element.isDeleted === true || live.has(element.id)) continue;
    live.set(element.id, element);
  }
  for (const element of live.values()) {
    const container = element.containerId;
    if (element.type === 'text' && typeof container === 'string' && !labels.has(container)) labels.set(container, element);
  }
  return { elements, ids, live, labels };
}

/** An element's axis-aligned bounding box (a rotated element's, for one with an angle). */
function elementBox(element: SceneElement): Box {
  let x = num(element.x);
  let y = num(element.y);
  let width = num(element.width);
  let height = num(element.height);
  if (width < 0) [x, width] = [x + width, -width];
  if (height < 0) [y, height] = [y + height, -height];
  const angle = num(element.angle);
  if (Math.sin(angle) !== 0) {
    const cos = Math.abs(Math.cos(angle));
    const sin = Math.abs(Math.sin(angle));
    const rotatedWidth = width * cos + height * sin;
    const rotatedHeight = width * sin + height * cos;
    x += (width - rotatedWidth) / 2;
    y += (height - rotatedHeight) / 2;
    width = rotatedWidth;
    height = rotatedHeight;
  }
  return { x, y, width, height };
}

/** A linear element's points in scene coordinates. */
function polylineOf(element: SceneElement): Point[] {
  const points: Point[] = [];
  if (!Array.isArray(element.points)) return points;
  const x = num(element.x);
  const y = num(element.y);
  for (const p of element.points as unknown[]) if (Array.isArray(p) && p.length >= 2) points.push([x + num(p[0]), y + num(p[1])]);
  return points;
}

/** What an arrow may be bound to here: a shape, or a text that is not a label. */
function isBindable(element: SceneElement): boolean {
  return BOX_SHAPES.has(element.type) || (element.type === 'text' && !element.containerId);
}

function describeKind(element: SceneElement): string {
  if (element.type === 'text' && typeof element.containerId === 'string') return `the label of ${quote(element.containerId)}`;
  return `${/^[aeiou]/.test(element.type) ? 'an' : 'a'} ${element.type}`;
}

// ---------------------------------------------------------------------------
// Parsing and validating the fragment

interface NodeSize {
  shape: BoxShape | 'text';
  width: number;
  height: number;
  /** The label (a text node's text); null for a shape without one. */
  label: TextBlock | null;
}

interface NewNode {
  node: SpecNode;
  /** `addNodes[2] (id "db")`, for messages. */
  named: string;
  size: NodeSize;
  position: { x: number; y: number } | null;
}

interface NodeUpdate {
  id: string;
  named: string;
  strokeColor: string | null;
  backgroundColor: string | null;
  fillStyle: string | null;
  label: string | null;
  /** The node has no label yet and this update gives it one. */
  createsLabel: boolean;
}

interface ParsedEdit {
  nodes: NewNode[];
  edges: SpecEdge[];
  updates: NodeUpdate[];
}

function listOf(fragment: Record<string, unknown>, key: (typeof FRAGMENT_KEYS)[number]): unknown[] {
  const value = fragment[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail('INVALID_SPEC', `edit fragment ${key} must be an array`);
  if (value.length > EDIT_LIMITS[key]) fail('SPEC_TOO_LARGE', `edit fragment has ${value.length} ${key}; the limit is ${EDIT_LIMITS[key]}`);
  return value;
}

function parseFragment(fragment: unknown, scene: Scene, options: EditOptions): ParsedEdit {
  const problem = inspectPayload(fragment);
  if (problem?.kind === 'forbidden_key') fail('PROTO_KEY', `${problem.path}: the key "${problem.key}" is not allowed`);
  if (problem) fail('INVALID_SPEC', `${problem.path}: ${problem.kind === 'too_deep' ? 'nests too deeply' : 'number is out of range'}`);
  if (!isPlainObject(fragment)) return fail('INVALID_SPEC', 'edit fragment must be an object with addNodes, addEdges or updateNodes');
  for (const key of Object.keys(fragment)) {
    if (!(FRAGMENT_KEYS as readonly string[]).includes(key)) fail('INVALID_SPEC', `edit fragment has an unknown field "${key}"; use addNodes, addEdges and updateNodes`);
  }
  const rawNodes = listOf(fragment, 'addNodes');
  const rawEdges = listOf(fragment, 'addEdges');
  const rawUpdates = listOf(fragment, 'updateNodes');
  if (rawNodes.length + rawEdges.length + rawUpdates.length === 0) {
    fail('INVALID_SPEC', 'edit fragment changes nothing: give at least one item in addNodes, addEdges or updateNodes');
  }

  const nodes = rawNodes.map((raw, i) => parseNewNode(raw, i, scene, options));
  const newIndex = new Map<string, number>();
  nodes.forEach(({ node, named }, i) => {
    const first = newIndex.get(node.id);
    if (first !== undefined) fail('DUPLICATE_NODE_ID', `${named} repeats the id of addNodes[${first}]`);
    newIndex.set(node.id, i);
  });

  const parsedEdges = rawEdges.map((raw, i) => {
    const edge = parseEdge(raw, `addEdges[${i}]`);
    for (const end of [edge.from, edge.to]) {
      if (newIndex.has(end)) continue;
      const element = scene.live.get(end);
      if (!element) fail('DANGLING_EDGE', `${edge.source} names ${quote(end)}, which is neither a node of the diagram nor in addNodes`);
      else if (!isBindable(element)) fail('DANGLING_EDGE', `${edge.source} names ${quote(end)}, which is ${describeKind(element)}, not a node an arrow can connect`);
    }
    return edge;
  });

  const updated = new Map<string, number>();
  const updates = rawUpdates.map((raw, i) => {
    const update = parseUpdate(raw, i, scene, options);
    const first = updated.get(update.id);
    if (first !== undefined) fail('INVALID_SPEC', `${update.named} repeats the id of updateNodes[${first}]; merge the two`);
    updated.set(update.id, i);
    return update;
  });

  const edges = claimGeneratedIds(nodes, parsedEdges, updates, scene);
  return { nodes, edges, updates };
}

function parseNewNode(raw: unknown, i: number, scene: Scene, options: EditOptions): NewNode {
  const node = parseNode(raw, `addNodes[${i}]`, { isIcon: options.isIcon, allowGeometry: true });
  const named = `addNodes[${i}] (id ${quote(node.id)})`;
  if (node.parent !== null) fail('INVALID_SPEC', `${named}.parent: containers are not supported in edit fragments; regenerate the diagram from a spec to nest nodes`);
  if (scene.ids.has(node.id)) fail('DUPLICATE_NODE_ID', `${named}: the diagram already has an element with this id`);
  if ((node.x === undefined) !== (node.y === undefined)) fail('INVALID_SPEC', `${named}: give both x and y, or neither to place the node automatically`);
  const position = node.x === undefined || node.y === undefined ? null : { x: node.x, y: node.y };
  return { node, named, size: sizeNode(node, named), position };
}

/**
 * A node's size as sceneFromSpec makes it, or the explicit width and height,
 * with the label wrapped in that container; a container too small for its
 * label is refused rather than drawn with the label spilling out.
 */
function sizeNode(node: SpecNode, named: string): NodeSize {
  const plan = planNode(node, false, 0);
  if (node.width === undefined && node.height === undefined) return { shape: plan.shape, width: plan.width, height: plan.height, label: plan.label };
  if (plan.shape === 'text') return sizeTextNode(node, plan.label!, named);
  const shape = plan.shape;
  const width = node.width ?? plan.width;
  let label = plan.label;
  if (node.width !== undefined && label) {
    const text = wrapText(node.label, FONT_SIZE, getBoundTextMaxWidth(shape, width), FONT_FAMILY_EXCALIFONT);
    label = { text, original: node.label, ...measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT) };
  }
  const iconHeight = node.icon ? ICON_SIZE + (label ? ICON_GAP : 0) : 0;
  const needed = containerSizeForText(shape, Math.max(label?.width ?? 0, node.icon ? ICON_SIZE : 0), (label?.height ?? 0) + iconHeight);
  const height = node.height ?? Math.max(MIN_SIZE[shape][1], needed.height + MARGIN[shape][1]);
  if (needed.width > width || needed.height > height) {
    fail('INVALID_SPEC', `${named}: its ${label ? 'label' : 'icon'} needs a ${shape} of at least ${needed.width} × ${needed.height} px; this one is ${width} × ${height}`);
  }
  return { shape, width, height, label };
}

function sizeTextNode(node: SpecNode, planned: TextBlock, named: string): NodeSize {
  let label = planned;
  if (node.width !== undefined) {
    const oneLine = measureText(planned.original, FONT_SIZE, FONT_FAMILY_EXCALIFONT);
    if (oneLine.width <= node.width) label = { text: planned.original, original: planned.original, ...oneLine, autoResize: true };
    else {
      const text = wrapText(planned.original, FONT_SIZE, node.width, FONT_FAMILY_EXCALIFONT);
      label = { text, original: planned.original, width: node.width, height: measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT).height, autoResize: false };
    }
  }
  const width = node.width ?? Math.max(label.width, node.icon ? ICON_SIZE : 0);
  const needed = label.height + (node.icon ? ICON_SIZE + ICON_GAP : 0);
  const height = node.height ?? needed;
  if (needed > height + 0.5 || (node.icon && width < ICON_SIZE)) {
    fail('INVALID_SPEC', `${named}: its text needs at least ${Math.ceil(Math.max(label.width, node.icon ? ICON_SIZE : 0))} × ${Math.ceil(needed)} px; this one is ${width} × ${height}`);
  }
  return { shape: 'text', width, height, label };
}

function parseUpdate(raw: unknown, i: number, scene: Scene, options: EditOptions): NodeUpdate {
  const where = `updateNodes[${i}]`;
  if (!isPlainObject(raw)) return fail('INVALID_SPEC', `${where} must be an object { id, strokeColor?, backgroundColor?, fillStyle?, label? }`);
  if (typeof raw.id !== 'string' || raw.id === '') return fail('INVALID_SPEC', `${where} needs "id": the id of a node in the diagram`);
  const id = raw.id;
  const named = `${where} (id ${quote(id)})`;
  for (const key of Object.keys(raw)) {
    if (UPDATE_FIELDS.has(key)) continue;
    if (POSITION_FIELDS.has(key)) fail('INVALID_SPEC', `${named}: "${key}" cannot be changed by edit; use patch`);
    if (key === 'shape') fail('INVALID_SPEC', `${named}: "shape" cannot be changed by edit; delete the node and add it again`);
    fail('INVALID_SPEC', `${named} has an unknown field "${key}"; updateNodes may change strokeColor, backgroundColor, fillStyle and label`);
  }
  const fields = Object.keys(raw).filter((key) => key !== 'id');
  if (fields.length === 0) fail('INVALID_SPEC', `${named} changes nothing: give strokeColor, backgroundColor, fillStyle or label`);
  for (const key of fields) if (raw[key] === null) fail('INVALID_SPEC', `${named}.${key} is null; leave the field out to keep the current value`);
  // The spec parser's own checks: CSS colours, fill styles, the label's type and length.
  const checked = parseNode(raw, where, { isIcon: options.isIcon });
  if (typeof raw.label === 'string' && raw.label.trim() === '') {
    fail('INVALID_SPEC', `${named}.label is empty; a label cannot be removed by edit (use patch to delete the label element)`);
  }
  const element = scene.live.get(id);
  if (!element) return fail('INVALID_SPEC', `${named} is not a node of the diagram (new nodes take their style in addNodes)`);
  if (!isBindable(element)) fail('INVALID_SPEC', `${named} is ${describeKind(element)}, not a node`);
  const label = typeof raw.label === 'string' ? raw.label : null;
  return {
    id,
    named,
    strokeColor: checked.strokeColor,
    backgroundColor: checked.backgroundColor,
    fillStyle: checked.fillStyle,
    label,
    createsLabel: label !== null && element.type !== 'text' && !scene.labels.has(id),
  };
}

/**
 * Names the arrows (`<from>-to-<to>`, `-2`, `-3`… clear of every id in the
 * scene and of each other) and checks that no new node takes an id this merge
 * generates (ID_COLLISION), as the spec parser does.
 */
function claimGeneratedIds(nodes: NewNode[], edges: ReturnType<typeof parseEdge>[], updates: NodeUpdate[], scene: Scene): SpecEdge[] {
  const generated = new Map<string, string>();
  const claim = (id: string, owner: string, named: string) => {
    if (scene.ids.has(id)) fail('ID_COLLISION', `${named}: the id ${quote(id)} generated for ${owner} is already used in the diagram`);
    generated.set(id, owner);
  };
  nodes.forEach(({ node, named }, i) => {
    for (const id of generatedNodeIds(node)) claim(id, `the ${id.endsWith('-icon') ? 'icon' : 'label'} of addNodes[${i}]`, named);
  });
  for (const update of updates) if (update.createsLabel) claim(`${update.id}-label`, `the new label of ${update.named}`, update.named);
  const used = new Set([...scene.ids, ...generated.keys()]);
  const named = edges.map((edge) => {
    const base = `${edge.from}-to-${edge.to}`;
    let id = base;
    for (let n = 2; used.has(id) || (edge.label !== null && used.has(`${id}-label`)); n++) id = `${base}-${n}`;
    used.add(id);
    generated.set(id, `the arrow of ${edge.source}`);
    if (edge.label !== null) {
      used.add(`${id}-label`);
      generated.set(`${id}-label`, `the label of ${edge.source}`);
    }
    return { ...edge, id };
  });
  for (const { node, named: where } of nodes) {
    const owner = generated.get(node.id);
    if (owner) fail('ID_COLLISION', `${where} collides with the id generated for ${owner}`);
  }
  return named;
}

function createdCount(edit: ParsedEdit): number {
  let count = 0;
  for (const { node } of edit.nodes) count += 1 + generatedNodeIds(node).length;
  for (const edge of edit.edges) count += edge.label === null ? 1 : 2;
  for (const update of edit.updates) if (update.createsLabel) count += 1;
  return count;
}

// ---------------------------------------------------------------------------
// Fractional indices for appended elements

/** Keys after every index in the scene, one per call, so appended elements sort last. */
function indexKeysAfter(elements: readonly SceneElement[]): () => string {
  let last: string | null = null;
  for (const element of elements) if (isIndexKey(element.index) && (last === null || element.index > last)) last = element.index;
  return () => (last = indexKeyAfter(last));
}

// ---------------------------------------------------------------------------
// Placement

/** Boxes bucketed by 256 px cells, so that a placement test looks only at its neighbourhood. */
class SpatialGrid<T> {
  private static readonly CELL = 256;
  private static readonly MAX_CELLS = 256;
  private readonly cells = new Map<number, T[]>();
  private readonly large: T[] = [];

  constructor(private readonly boxOf: (item: T) => Box) {}

  add(item: T): void {
    const span = this.span(this.boxOf(item));
    if ((span.x1 - span.x0 + 1) * (span.y1 - span.y0 + 1) > SpatialGrid.MAX_CELLS) {
      this.large.push(item);
      return;
    }
    for (let cx = span.x0; cx <= span.x1; cx++) {
      for (let cy = span.y0; cy <= span.y1; cy++) {
        const key = SpatialGrid.key(cx, cy);
        const list = this.cells.get(key);
        if (list) list.push(item);
        else this.cells.set(key, [item]);
      }
    }
  }

  /** Whether any item near `area` passes `test`. */
  some(area: Box, test: (item: T) => boolean): boolean {
    if (this.large.some(test)) return true;
    const span = this.span(area);
    for (let cx = span.x0; cx <= span.x1; cx++) {
      for (let cy = span.y0; cy <= span.y1; cy++) if (this.cells.get(SpatialGrid.key(cx, cy))?.some(test)) return true;
    }
    return false;
  }

  /** A small-integer key; cells 2¹⁵ apart share one, which only costs a few extra tests. */
  private static key(cx: number, cy: number): number {
    return ((cx & 0x7fff) << 15) | (cy & 0x7fff);
  }

  private span(box: Box) {
    const cell = SpatialGrid.CELL;
    return {
      x0: Math.floor(box.x / cell),
      x1: Math.floor((box.x + box.width) / cell),
      y0: Math.floor(box.y / cell),
      y1: Math.floor((box.y + box.height) / cell),
    };
  }
}

const grow = (box: Box, by: number): Box => ({ x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by });
const interiorsMeet = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const centreOf = (box: Box): Point => [box.x + box.width / 2, box.y + box.height / 2];

function union(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x1 = Math.min(x1, b.x);
    y1 = Math.min(y1, b.y);
    x2 = Math.max(x2, b.x + b.width);
    y2 = Math.max(y2, b.y + b.height);
  }
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

const boundsOfPoints = (points: Point[]): Box => union(points.map(([x, y]) => ({ x, y, width: 0, height: 0 })))!;

/** Whether the segment a–b passes through the box (Liang–Barsky clipping). */
function segmentMeetsBox(a: Point, b: Point, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const edges: Array<[number, number]> = [
    [-dx, a[0] - box.x],
    [dx, box.x + box.width - a[0]],
    [-dy, a[1] - box.y],
    [dy, box.y + box.height - a[1]],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

function sideOf(from: Point, to: Point): Side {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'right' : 'left';
  return dy < 0 ? 'top' : 'bottom';
}

const OPPOSITE: Record<Side, Side> = { bottom: 'top', top: 'bottom', right: 'left', left: 'right' };
const ACROSS: Record<Side, [Side, Side]> = { bottom: ['right', 'left'], top: ['right', 'left'], right: ['bottom', 'top'], left: ['bottom', 'top'] };
const SIDE_ORDER: Side[] = ['bottom', 'right', 'top', 'left'];

interface Segment {
  a: Point;
  b: Point;
}

/** Where the new nodes go: explicit positions as given, the rest beside what they connect to, overlapping nothing. */
class Placer {
  private readonly obstacles = new SpatialGrid<Box>((box) => box);
  private readonly segments = new SpatialGrid<Segment>(({ a, b }) => ({ x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), width: Math.abs(a[0] - b[0]), height: Math.abs(a[1] - b[1]) }));
  /** Everything drawn so far, arrows included: the fallback spot lies beyond it. */
  private bounds: Box | null;
  /** Which way the scene's existing arrows run, per element and overall. */
  private readonly flowVotes = new Map<string, Map<Side, number>>();
  private readonly overallFlow = new Map<Side, number>();
  readonly placed = new Map<string, Box>();

  constructor(private readonly scene: Scene) {
    const extents: Box[] = [];
    for (const element of scene.live.values()) {
      if (LINEAR.has(element.type)) {
        const points = polylineOf(element);
        for (let i = 1; i < points.length; i++) this.segments.add({ a: points[i - 1]!, b: points[i]! });
        if (points.length > 0) extents.push(boundsOfPoints(points));
        if (element.type === 'arrow') this.countFlow(element);
      } else {
        const box = elementBox(element);
        this.obstacles.add(box);
        extents.push(box);
      }
    }
    this.bounds = union(extents);
  }

  private countFlow(arrow: SceneElement): void {
    const ends = [arrow.startBinding, arrow.endBinding].map((binding) => (isPlainObject(binding) && typeof binding.elementId === 'string' ? this.scene.live.get(binding.elementId) : undefined));
    if (!ends[0] || !ends[1] || ends[0] === ends[1]) return;
    const side = sideOf(centreOf(elementBox(ends[0])), centreOf(elementBox(ends[1])));
    for (const votes of [this.votesFor(ends[0].id), this.votesFor(ends[1].id), this.overallFlow]) votes.set(side, (votes.get(side) ?? 0) + 1);
  }

  private votesFor(id: string): Map<Side, number> {
    let votes = this.flowVotes.get(id);
    if (!votes) this.flowVotes.set(id, (votes = new Map()));
    return votes;
  }

  /** The direction arrows run around these elements (or in the whole scene): where a successor belongs. */
  private flowAround(ids: string[]): Side {
    const local = new Map<Side, number>();
    for (const id of ids) for (const [side, count] of this.flowVotes.get(id) ?? []) local.set(side, (local.get(side) ?? 0) + count);
    const votes = local.size > 0 ? local : this.overallFlow;
    let best: Side = 'bottom';
    for (const side of SIDE_ORDER) if ((votes.get(side) ?? 0) > (votes.get(best) ?? 0)) best = side;
    return best;
  }

  place(id: string, box: Box): void {
    this.placed.set(id, box);
    this.obstacles.add(box);
    this.bounds = union(this.bounds ? [this.bounds, box] : [box]);
  }

  isFree(box: Box): boolean {
    const clear = grow(box, PLACEMENT_MARGIN);
    if (this.obstacles.some(clear, (other) => interiorsMeet(clear, other))) return false;
    const near = grow(box, ARROW_CLEARANCE);
    return !this.segments.some(near, ({ a, b }) => segmentMeetsBox(a, b, near));
  }

  /**
   * A node connected to `anchors` (existing or placed ids): after them in the
   * direction their arrows run when it only follows them, before them when it
   * only leads to them, beside them when it does both.
   */
  besideAnchors(size: { width: number; height: number }, anchors: string[], role: 'successor' | 'predecessor' | 'between'): Box {
    const boxes = anchors.map((id) => this.placed.get(id) ?? elementBox(this.scene.live.get(id)!));
    const around = union(boxes)!;
    const flow = this.flowAround(anchors.filter((id) => this.scene.live.has(id)));
    const sides: Side[] =
      role === 'between' ? [...ACROSS[flow], flow, OPPOSITE[flow]] : role === 'successor' ? [flow, ...ACROSS[flow], OPPOSITE[flow]] : [OPPOSITE[flow], ...ACROSS[flow], flow];
    const candidates: Array<{ box: Box; cost: number }> = [];
    sides.forEach((side, s) => {
      const vertical = side === 'bottom' || side === 'top';
      const lateralStep = (vertical ? size.width : size.height) / 2 + PLACEMENT_MARGIN / 2;
      for (let ring = 0; ring < RINGS; ring++) {
        const gap = FIRST_GAP + ring * RING_STEP;
        for (let k = -LATERAL_STEPS; k <= LATERAL_STEPS; k++) {
          const shift = k * lateralStep;
          const [cx, cy] = centreOf(around);
          const box: Box = {
            x: Math.round(side === 'right' ? around.x + around.width + gap : side === 'left' ? around.x - gap - size.width : cx - size.width / 2 + shift),
            y: Math.round(side === 'bottom' ? around.y + around.height + gap : side === 'top' ? around.y - gap - size.height : cy - size.height / 2 + shift),
            width: size.width,
            height: size.height,
          };
          candidates.push({ box, cost: gap + Math.abs(shift) + SIDE_PENALTY[s]! + (k < 0 ? 1 : 0) });
        }
      }
    });
    // A stable sort: among equal costs, the order generated wins, so placement is deterministic.
    candidates.sort((a, b) => a.cost - b.cost);
    const free = candidates.find(({ box }) => this.isFree(box));
    if (free) return free.box;
    return this.beyondEverything(size, around.y + around.height / 2 - size.height / 2);
  }

  /** A node with no connections: in a column right of the scene as it was, top-aligned, the first free spot down. */
  inColumn(size: { width: number; height: number }, column: { x: number; y: number }): Box {
    for (let k = 0; k < COLUMN_TRIES; k++) {
      const box = { x: column.x, y: column.y + k * COLUMN_STEP, width: size.width, height: size.height };
      if (this.isFree(box)) return box;
    }
    return this.beyondEverything(size, column.y);
  }

  /** Right of everything drawn so far: always free. */
  private beyondEverything(size: { width: number; height: number }, y: number): Box {
    const right = this.bounds ? this.bounds.x + this.bounds.width : 0;
    return { x: Math.round(right + FIRST_GAP), y: Math.round(y), width: size.width, height: size.height };
  }

  /** Where unconnected nodes start: right of the scene, aligned with its top. */
  columnStart(): { x: number; y: number } {
    return this.bounds ? { x: Math.round(this.bounds.x + this.bounds.width + FIRST_GAP), y: Math.round(this.bounds.y) } : { x: 0, y: 0 };
  }
}

/**
 * Explicitly positioned nodes first; then nodes without edges, in a column
 * right of the scene; then, repeatedly, the first node (in fragment order)
 * connected to something already there, beside it (a group of new nodes
 * connected only among themselves starts in the column).
 */
function placeNodes(nodes: NewNode[], edges: SpecEdge[], scene: Scene): Map<string, Box> {
  const placed = new Map<string, Box>();
  for (const { node, size, position } of nodes) if (position) placed.set(node.id, { x: position.x, y: position.y, width: size.width, height: size.height });
  if (placed.size === nodes.length) return placed;
  const placer = new Placer(scene);
  for (const [id, box] of placed) placer.place(id, box);
  const column = placer.columnStart();
  const links = new Map<string, Array<{ other: string; incoming: boolean }>>();
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    for (const [self, other, incoming] of [[edge.to, edge.from, true], [edge.from, edge.to, false]] as const) {
      links.set(self, [...(links.get(self) ?? []), { other, incoming }]);
    }
  }
  const isThere = (id: string) => placer.placed.has(id) || scene.live.has(id);
  for (const { node, size, position } of nodes) if (!position && !links.has(node.id)) placer.place(node.id, placer.inColumn(size, column));
  const pending = nodes.filter((n) => !n.position && links.has(n.node.id));
  while (pending.length > 0) {
    const next = Math.max(0, pending.findIndex((n) => (links.get(n.node.id) ?? []).some((l) => isThere(l.other))));
    const { node, size } = pending.splice(next, 1)[0]!;
    const anchoring = (links.get(node.id) ?? []).filter((l) => isThere(l.other));
    const anchors = [...new Set(anchoring.map((l) => l.other))];
    const incoming = anchoring.some((l) => l.incoming);
    const outgoing = anchoring.some((l) => !l.incoming);
    const role = incoming && outgoing ? 'between' : incoming ? 'successor' : 'predecessor';
    const box = anchors.length > 0 ? placer.besideAnchors(size, anchors, role) : placer.inColumn(size, column);
    placer.place(node.id, box);
  }
  return placer.placed;
}

// ---------------------------------------------------------------------------
// Building the merged scene

/** Copy-on-write view of the scene: existing elements are copied the first time they change. */
class Merge {
  private readonly changed = new Map<string, SceneElement>();
  private readonly createdById = new Map<string, ExcalidrawElement>();
  readonly created: ExcalidrawElement[] = [];
  private readonly nextIndex: () => string;

  constructor(
    private readonly scene: Scene,
    readonly now: number,
  ) {
    this.nextIndex = indexKeysAfter(scene.elements);
  }

  get(id: string): SceneElement | undefined {
    return this.createdById.get(id) ?? this.changed.get(id) ?? this.scene.live.get(id);
  }

  /** The element to change: a new element itself, or a copy of an existing one. */
  edit(id: string): SceneElement {
    const own = this.createdById.get(id) ?? this.changed.get(id);
    if (own) return own;
    const copy = { ...this.scene.live.get(id)! };
    this.changed.set(id, copy);
    return copy;
  }

  create(element: ExcalidrawElement): ExcalidrawElement {
    element.index = this.nextIndex();
    this.created.push(element);
    this.createdById.set(element.id, element);
    return element;
  }

  bind(id: string, ref: { id: string; type: 'text' | 'arrow' }): void {
    const element = this.edit(id);
    element.boundElements = [...(Array.isArray(element.boundElements) ? element.boundElements : []), ref];
  }

  result(stamp: WriteStamp): { elements: SceneElement[]; merged: number } {
    const elements = this.scene.elements.map((element) => {
      const copy = this.changed.get(element.id);
      return copy && this.scene.live.get(element.id) === element ? touch(copy, stamp) : element;
    });
    return { elements: [...elements, ...this.created], merged: this.created.length + this.changed.size };
  }
}

function applyUpdate(merge: Merge, scene: Scene, update: NodeUpdate): void {
  const node = merge.edit(update.id);
  if (update.strokeColor !== null) node.strokeColor = update.strokeColor;
  if (update.backgroundColor !== null) node.backgroundColor = update.backgroundColor;
  if (update.fillStyle !== null) node.fillStyle = update.fillStyle;
  const existingLabel = scene.labels.get(update.id);
  if (existingLabel && update.strokeColor !== null) merge.edit(existingLabel.id).strokeColor = update.strokeColor;
  if (update.label === null) return;
  if (node.type === 'text') {
    relabelText(node, update.label);
    return;
  }
  const icon = scene.live.get(`${update.id}-icon`);
  const label = existingLabel ? merge.edit(existingLabel.id) : null;
  const fontSize = label && num(label.fontSize) > 0 ? num(label.fontSize) : FONT_SIZE;
  const fontFamily = label && isKnownFontFamily(num(label.fontFamily)) ? num(label.fontFamily) : FONT_FAMILY_EXCALIFONT;
  const shape = node.type as BoxShape;
  const area = boundTextArea(shape, elementBox({ ...node, angle: 0 }));
  const text = wrapText(update.label, fontSize, area.width, fontFamily);
  const block: TextBlock = { text, original: update.label, ...measureText(text, fontSize, fontFamily) };
  // sceneFromSpec draws an icon above the label, inside the text area; it stays where it is, and the label must fit below it.
  const iconBox = icon && icon.type === 'image' ? elementBox(icon) : null;
  const iconInside = iconBox !== null && iconBox.y >= area.y - 0.5 && iconBox.y + iconBox.height <= area.y + area.height + 0.5;
  const room = iconInside ? area.y + area.height - (iconBox.y + iconBox.height + ICON_GAP) : area.height;
  if (block.width > area.width + 0.5 || block.height > room + 0.5) {
    fail(
      'INVALID_SPEC',
      `${update.named}.label needs ${Math.ceil(block.width)} × ${Math.ceil(block.height)} px but the ${shape} leaves ${Math.floor(area.width)} × ${Math.max(0, Math.floor(room))} for its label; shorten it, or resize the node with patch first`,
    );
  }
  const verticalAlign = label && ['top', 'middle', 'bottom'].includes(label.verticalAlign as string) ? (label.verticalAlign as 'top' | 'middle' | 'bottom') : iconInside ? 'bottom' : 'middle';
  const centred = boundTextPosition(area, block, verticalAlign);
  if (!label) {
    const created = merge.create(
      textElement(`${update.id}-label`, block, centred, 0, merge.now, { containerId: update.id, textAlign: 'center', verticalAlign, strokeColor: node.strokeColor as string }),
    );
    merge.bind(update.id, { id: created.id, type: 'text' });
    return;
  }
  const align = label.textAlign === 'left' || label.textAlign === 'right' ? label.textAlign : 'center';
  const x = align === 'left' ? area.x : align === 'right' ? area.x + area.width - block.width : centred.x;
  Object.assign(label, { text: block.text, originalText: block.original, width: block.width, height: block.height, x, y: centred.y, lineHeight: getLineHeight(fontFamily) });
}

/** A standalone text keeps its top-left corner; an auto-sized one takes its text's width, a fixed-width one wraps in its width. */
function relabelText(element: SceneElement, label: string): void {
  const fontSize = num(element.fontSize) > 0 ? num(element.fontSize) : FONT_SIZE;
  const fontFamily = isKnownFontFamily(num(element.fontFamily)) ? num(element.fontFamily) : FONT_FAMILY_EXCALIFONT;
  const fixedWidth = element.autoResize === false && num(element.width) > 0;
  const text = fixedWidth ? wrapText(label, fontSize, num(element.width), fontFamily) : label;
  const measured = measureText(text, fontSize, fontFamily);
  Object.assign(element, { text, originalText: label, width: fixedWidth ? element.width : measured.width, height: measured.height, lineHeight: getLineHeight(fontFamily) });
}

/** A new node's elements, as sceneFromSpec draws a spec node in its layout box. */
function addNode(merge: Merge, { node, size }: NewNode, box: Box): void {
  if (size.shape === 'text') {
    const label = size.label!;
    merge.create(
      textElement(node.id, label, { x: box.x + (box.width - label.width) / 2, y: box.y + box.height - label.height }, 0, merge.now, {
        containerId: null,
        textAlign: 'center',
        verticalAlign: 'top',
        strokeColor: node.strokeColor,
      }),
    );
    if (node.icon) merge.create(iconElement(node, { x: box.x + box.width / 2 - ICON_SIZE / 2, y: box.y }, 0, merge.now, []));
    return;
  }
  const shape = merge.create(baseElement(node.id, size.shape, box, 0, merge.now, styleOf(node)));
  shape.roundness = size.shape === 'rectangle' ? { type: 3 } : { type: 2 };
  const area = boundTextArea(size.shape, box);
  const verticalAlign = node.icon ? 'bottom' : 'middle';
  const groupIds = node.icon ? [`${node.id}-group`] : [];
  shape.groupIds = groupIds;
  if (size.label) {
    const label = merge.create(
      textElement(`${node.id}-label`, size.label, boundTextPosition(area, size.label, verticalAlign), 0, merge.now, {
        containerId: node.id,
        textAlign: 'center',
        verticalAlign,
        strokeColor: node.strokeColor,
      }),
    );
    addBound(shape, { id: label.id, type: 'text' });
  }
  if (node.icon) {
    const blockHeight = ICON_SIZE + (size.label ? ICON_GAP + size.label.height : 0);
    merge.create(iconElement(node, { x: box.x + box.width / 2 - ICON_SIZE / 2, y: area.y + area.height - blockHeight }, 0, merge.now, groupIds));
  }
}

// ---------------------------------------------------------------------------
// Routing the new edges

/** An arrow end's element, reduced to what the geometry needs (a normalised, unrotated box). */
type Endpoint = ExcalidrawElement & Box;

/** The move out of a box through this side. */
const LEAVING: Record<Side, Heading> = { right: 0, left: 1, bottom: 2, top: 3 };
/** The move into a box through this side. */
const ENTERING: Record<Side, Heading> = { left: 0, right: 1, top: 2, bottom: 3 };

/** The sides an arrow leaves the source by and enters the target by: across the wider gap between them; null when the boxes overlap. */
function facingSides(source: Box, target: Box): [Side, Side] | null {
  const gapX = Math.max(target.x - (source.x + source.width), source.x - (target.x + target.width));
  const gapY = Math.max(target.y - (source.y + source.height), source.y - (target.y + target.height));
  if (gapX <= 0 && gapY <= 0) return null;
  if (gapY >= gapX) return target.y > source.y ? ['bottom', 'top'] : ['top', 'bottom'];
  return target.x > source.x ? ['right', 'left'] : ['left', 'right'];
}

function pointOnSide(box: Box, side: Side, along: number): Point {
  switch (side) {
    case 'bottom':
      return [along, box.y + box.height];
    case 'top':
      return [along, box.y];
    case 'right':
      return [box.x + box.width, along];
    case 'left':
      return [box.x, along];
  }
}

interface EdgePlan {
  edge: SpecEdge;
  source: Endpoint;
  target: Endpoint;
  sides: [Side, Side];
  /** The boxes overlap: the route loops out to the right and back. */
  overlapping: boolean;
  ports: [Point, Point];
}

/**
 * Sides and ports for every new edge. Ends sharing a side of a box are spread
 * over its middle three fifths, ordered by where their other ends lie, so that
 * they neither coincide nor cross.
 */
function planEdges(edges: SpecEdge[], endpoint: (id: string) => Endpoint): EdgePlan[] {
  const plans = edges.map((edge) => {
    const source = endpoint(edge.from);
    const target = endpoint(edge.to);
    const facing = edge.from === edge.to ? null : facingSides(source, target);
    const sides: [Side, Side] = edge.from === edge.to ? ['right', 'top'] : (facing ?? ['right', 'right']);
    return { edge, source, target, sides, overlapping: edge.from !== edge.to && facing === null, ports: [[0, 0], [0, 0]] as [Point, Point] };
  });
  const bySide = new Map<string, Array<{ plan: EdgePlan; end: 0 | 1; key: number; order: number }>>();
  plans.forEach((plan, order) => {
    ([0, 1] as const).forEach((end) => {
      const self = end === 0 ? plan.source : plan.target;
      const other = end === 0 ? plan.target : plan.source;
      const side = plan.sides[end];
      const [ox, oy] = centreOf(other);
      const key = side === 'top' || side === 'bottom' ? ox : oy;
      const slot = `${self.id}\u0000${side}`;
      bySide.set(slot, [...(bySide.get(slot) ?? []), { plan, end, key, order }]);
    });
  });
  const alone = new Set<string>();
  for (const ends of bySide.values()) {
    ends.sort((a, b) => a.key - b.key || a.order - b.order || a.end - b.end);
    ends.forEach(({ plan, end }, i) => {
      const box = end === 0 ? plan.source : plan.target;
      const side = plan.sides[end];
      const [from, length] = side === 'top' || side === 'bottom' ? [box.x, box.width] : [box.y, box.height];
      plan.ports[end] = pointOnSide(box, side, round(from + length * (0.2 + (0.6 * (i + 1)) / (ends.length + 1))));
      if (ends.length === 1) alone.add(`${plans.indexOf(plan)}:${end}`);
    });
  }
  plans.forEach((plan, i) => straighten(plan, alone.has(`${i}:0`), alone.has(`${i}:1`)));
  return plans;
}

/** The middle three fifths of a box's side, where arrow ends go. */
function portRange(box: Box, side: Side): [number, number] {
  const [from, length] = side === 'top' || side === 'bottom' ? [box.x, box.width] : [box.y, box.height];
  return [from + 0.2 * length, from + 0.8 * length];
}

/** Lines up the ports of an arrow between facing sides, where one end has its side to itself, so that it runs straight. */
function straighten(plan: EdgePlan, sourceAlone: boolean, targetAlone: boolean): void {
  if (plan.overlapping || plan.source.id === plan.target.id) return;
  const axis = plan.sides[0] === 'top' || plan.sides[0] === 'bottom' ? 0 : 1;
  const [sourceLo, sourceHi] = portRange(plan.source, plan.sides[0]);
  const [targetLo, targetHi] = portRange(plan.target, plan.sides[1]);
  const lo = Math.max(sourceLo, targetLo);
  const hi = Math.min(sourceHi, targetHi);
  if (lo > hi) return;
  const at = (end: 0 | 1, value: number) => {
    const box = end === 0 ? plan.source : plan.target;
    plan.ports[end] = pointOnSide(box, plan.sides[end], value);
  };
  const source = plan.ports[0][axis];
  const target = plan.ports[1][axis];
  if (sourceAlone && targetAlone) {
    const middle = round(Math.min(hi, Math.max(lo, (source + target) / 2)));
    at(0, middle);
    at(1, middle);
  } else if (targetAlone && source >= lo && source <= hi) at(1, source);
  else if (sourceAlone && target >= lo && target <= hi) at(0, target);
}

const strictlyInside = (p: Point, box: Box) => p[0] > box.x && p[0] < box.x + box.width && p[1] > box.y && p[1] < box.y + box.height;

/** Out to the right of both boxes and back: for boxes that overlap, or when no route exists. */
function loopRoute(plan: EdgePlan): Point[] {
  const out = Math.max(plan.source.x + plan.source.width, plan.target.x + plan.target.width) + LOOP_REACH;
  const start = pointOnSide(plan.source, 'right', plan.source.y + plan.source.height / 2);
  const end = pointOnSide(plan.target, 'right', plan.target.y + plan.target.height / 2);
  return start[1] === end[1] ? [start, [out, start[1]], end] : [start, [out, start[1]], [out, end[1]], end];
}

/** Between facing sides: out, across halfway, and in (a straight line when the ports line up); a loop from a box to itself. */
function directRoute(plan: EdgePlan): Point[] {
  const [start, end] = plan.ports;
  if (plan.source.id === plan.target.id) {
    const [out, up] = [start[0] + LOOP_REACH, end[1] - LOOP_REACH];
    return [start, [out, start[1]], [out, up], [end[0], up], end];
  }
  if (start[0] === end[0] || start[1] === end[1]) return [start, end];
  const vertical = plan.sides[0] === 'top' || plan.sides[0] === 'bottom';
  const middle = vertical ? (start[1] + end[1]) / 2 : (start[0] + end[0]) / 2;
  return vertical ? [start, [start[0], middle], [end[0], middle], end] : [start, [middle, start[1]], [middle, end[1]], end];
}

/**
 * The obstacle search costs about the square of the boxes near the route; past
 * these (per route, and summed over the merge) routes are drawn directly. A
 * budget in boxes, not in time, keeps the result deterministic.
 */
const ROUTE_BOXES_LIMIT = 300;
const ROUTE_WORK_BUDGET = 600_000;

function routeEdge(plan: EdgePlan, obstacles: Box[], occupied: OccupiedSegments, budget: { work: number }): Point[] {
  if (plan.overlapping) return loopRoute(plan);
  const [start, end] = plan.ports;
  // A box holding an end (a frame, a shape drawn behind) would wall it in.
  const around = obstacles.filter((box) => !strictlyInside(start, box) && !strictlyInside(end, box));
  const near = grow({ x: Math.min(start[0], end[0]), y: Math.min(start[1], end[1]), width: Math.abs(start[0] - end[0]), height: Math.abs(start[1] - end[1]) }, 4 * ROUTE_MARGIN);
  let boxes = 0;
  for (const box of around) if (interiorsMeet(box, near)) boxes++;
  if (boxes > ROUTE_BOXES_LIMIT || budget.work + boxes * boxes > ROUTE_WORK_BUDGET) return directRoute(plan);
  budget.work += boxes * boxes;
  const route = routeAroundObstacles({ start, startHeading: LEAVING[plan.sides[0]], end, endHeading: ENTERING[plan.sides[1]], obstacles: around, occupied });
  return route ?? directRoute(plan);
}

/** The arrow (and its label) along a route, its ends on the outlines with the binding gap, as sceneFromSpec draws one. */
function addArrow(merge: Merge, plan: EdgePlan, route: Point[]): void {
  const { edge, source, target } = plan;
  let points = attachEnds(route, source, target);
  const extent = (ps: Point[]) => Math.max(...ps.map((p) => p[0])) - Math.min(...ps.map((p) => p[0])) + Math.max(...ps.map((p) => p[1])) - Math.min(...ps.map((p) => p[1]));
  // The editor's restore drops an arrow with no extent.
  if (extent(points.map(roundPoint)) === 0) points = attachEnds(loopRoute(plan), source, target);
  const startFocus = focusOf(points[1]!, points[0]!, source);
  const endFocus = focusOf(points[points.length - 2]!, points[points.length - 1]!, target);
  const label = edge.label === null ? null : textBlock(edge.label, EDGE_LABEL_WRAP);
  const finalPoints = (label ? centreOn(points, midpointOf(points)) : points).map(roundPoint);
  const arrow = merge.create(arrowElement(edge, finalPoints, { start: startFocus, end: endFocus }, 0, merge.now));
  merge.bind(edge.from, { id: edge.id, type: 'arrow' });
  if (edge.to !== edge.from) merge.bind(edge.to, { id: edge.id, type: 'arrow' });
  if (label) {
    const middle =
      finalPoints.length % 2 === 1 ? finalPoints[(finalPoints.length - 1) / 2]! : midpointOf(finalPoints.slice(finalPoints.length / 2 - 1, finalPoints.length / 2 + 1));
    const text = merge.create(
      textElement(`${edge.id}-label`, label, { x: middle[0] - label.width / 2, y: middle[1] - label.height / 2 }, 0, merge.now, {
        containerId: edge.id,
        textAlign: 'center',
        verticalAlign: 'middle',
        strokeColor: null,
      }),
    );
    addBound(arrow, { id: text.id, type: 'text' });
  }
}

function addEdges(merge: Merge, scene: Scene, edges: SpecEdge[]): void {
  if (edges.length === 0) return;
  const endpoint = (id: string): Endpoint => {
    const element = merge.get(id)!;
    return { id, type: element.type, ...elementBox({ ...element, angle: 0 }) };
  };
  const plans = planEdges(edges, endpoint);
  const obstacles: Box[] = [];
  const occupied = new OccupiedSegments();
  for (const element of [...scene.live.values(), ...merge.created]) {
    if (!LINEAR.has(element.type)) obstacles.push(elementBox(element));
    else occupied.add(polylineOf(element));
  }
  const budget = { work: 0 };
  for (const plan of plans) {
    const route = routeEdge(plan, obstacles, occupied, budget);
    occupied.add(route);
    addArrow(merge, plan, route);
  }
}

// ---------------------------------------------------------------------------

/**
 * Merges an edit fragment (`{ addNodes?, addEdges?, updateNodes? }`,
 * CONTRACT.md §5) into a scene. Never mutates its input: elements it does not
 * change are returned as they are; every element it changes is a copy stamped
 * once with `touch`; new elements start at version 1. Throws an ApiError with a
 * content-model code naming the offending item (`addNodes[2] (id "db")`,
 * `addEdges[0] "api -> db"`, `updateNodes[1] (id "x")`).
 */
export function applyEdit(elements: SceneElement[], fragment: unknown, stamp: WriteStamp, options: EditOptions): EditResult {
  const scene = indexScene(elements);
  const edit = parseFragment(fragment, scene, options);
  const total = elements.length + createdCount(edit);
  if (total > MAX_SCENE_ELEMENTS) fail('SCENE_TOO_LARGE', `this edit would make the scene ${total} elements; the limit is ${MAX_SCENE_ELEMENTS}`);

  const merge = new Merge(scene, stamp.now);
  for (const update of edit.updates) applyUpdate(merge, scene, update);
  const boxes = placeNodes(edit.nodes, edit.edges, scene);
  for (const node of edit.nodes) addNode(merge, node, boxes.get(node.node.id)!);
  addEdges(merge, scene, edit.edges);

  const { elements: merged, merged: count } = merge.result(stamp);
  return {
    elements: merged,
    added: [...edit.nodes.map((n) => n.node.id), ...edit.edges.map((e) => e.id)],
    updated: edit.updates.map((u) => u.id),
    merged: count,
  };
}
