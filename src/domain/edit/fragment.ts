/**
 * Parsing and validating an edit fragment (`{ addNodes?, addEdges?,
 * updateNodes? }`) against the scene it will merge into: every refusal is an
 * ApiError naming the offending item, raised before anything is built. New
 * nodes are sized here, exactly as sceneFromSpec sizes spec nodes, and new
 * arrows get their ids.
 */
import { ApiError, type ErrorCode } from '../../errors.ts';
import { inspectPayload, isPlainObject, quote } from '../payload.ts';
import { ICON_GAP, ICON_SIZE, MARGIN, MIN_SIZE, planNode, textNodeSize, type TextBlock } from '../scene/from-spec.ts';
import { FONT_FAMILY_EXCALIFONT, FONT_SIZE } from '../scene/elements.ts';
import { generatedNodeIds, parseEdge, parseNode } from '../spec/parse.ts';
import { SPEC_LIMITS, type SpecEdge, type SpecNode } from '../spec/types.ts';
import { containerSizeForText, getBoundTextMaxWidth, measureText, wrapText } from '../text/metrics.ts';
import type { Scene } from './scene-index.ts';
import type { SceneElement } from './types.ts';

export interface EditOptions {
  /** Whether an icon id is in the catalog. */
  isIcon: (id: string) => boolean;
}

/** Items per fragment list; over them 413 SPEC_TOO_LARGE. */
export const EDIT_LIMITS = { addNodes: SPEC_LIMITS.nodes, addEdges: SPEC_LIMITS.edges, updateNodes: 1000 } as const;

export type BoxShape = 'rectangle' | 'ellipse' | 'diamond';

const FRAGMENT_KEYS = ['addNodes', 'addEdges', 'updateNodes'] as const;
const UPDATE_FIELDS = new Set(['id', 'strokeColor', 'backgroundColor', 'fillStyle', 'label']);
const POSITION_FIELDS = new Set(['x', 'y', 'width', 'height', 'angle']);
const BOX_SHAPES = new Set<string>(['rectangle', 'ellipse', 'diamond']);

export const fail = (code: ErrorCode, message: string): never => {
  throw new ApiError(code, message);
};


/** What an arrow may be bound to here: a shape, or a text that is not a label. */
function isBindable(element: SceneElement): boolean {
  return BOX_SHAPES.has(element.type) || (element.type === 'text' && !element.containerId);
}

function describeKind(element: SceneElement): string {
  if (element.type === 'text' && typeof element.containerId === 'string') return `the label of ${quote(element.containerId)}`;
  return `${/^[aeiou]/.test(element.type) ? 'an' : 'a'} ${element.type}`;
}

interface NodeSize {
  shape: BoxShape | 'text';
  width: number;
  height: number;
  /** The label (a text node's text); null for a shape without one. */
  label: TextBlock | null;
}

export interface NewNode {
  node: SpecNode;
  /** `addNodes[2] (id "db")`, for messages. */
  named: string;
  size: NodeSize;
  position: { x: number; y: number } | null;
}

export interface NodeUpdate {
  id: string;
  named: string;
  strokeColor: string | null;
  backgroundColor: string | null;
  fillStyle: string | null;
  label: string | null;
  /** The node has no label yet and this update gives it one. */
  createsLabel: boolean;
}

export interface ParsedEdit {
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

export function parseFragment(fragment: unknown, scene: Scene, options: EditOptions): ParsedEdit {
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
  // The given width is the node's: with an icon, the text has what the icon leaves beside it.
  const room = node.width === undefined ? undefined : node.width - (node.icon ? ICON_SIZE + ICON_GAP : 0);
  if (room !== undefined && room > 0) {
    const oneLine = measureText(planned.original, FONT_SIZE, FONT_FAMILY_EXCALIFONT);
    if (oneLine.width <= room) label = { text: planned.original, original: planned.original, ...oneLine, autoResize: true };
    else {
      const text = wrapText(planned.original, FONT_SIZE, room, FONT_FAMILY_EXCALIFONT);
      label = { text, original: planned.original, width: room, height: measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT).height, autoResize: false };
    }
  }
  const needed = textNodeSize(label, Boolean(node.icon), false);
  const width = node.width ?? needed.width;
  const height = node.height ?? needed.height;
  if (needed.height > height + 0.5 || needed.width > width + 0.5) {
    fail('INVALID_SPEC', `${named}: its text needs at least ${Math.ceil(needed.width)} × ${Math.ceil(needed.height)} px; this one is ${width} × ${height}`);
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

export function createdCount(edit: ParsedEdit): number {
  let count = 0;
  for (const { node } of edit.nodes) count += 1 + generatedNodeIds(node).length;
  for (const edge of edit.edges) count += edge.label === null ? 1 : 2;
  for (const update of edit.updates) if (update.createsLabel) count += 1;
  return count;
}
