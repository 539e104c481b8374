/**
 * Parsing and validating an edit fragment (`{ addNodes?, addEdges?,
 * updateNodes? }`) against the scene it will merge into: every refusal is an
 * ApiError naming the offending item, raised before anything is built. New
 * nodes are sized here, exactly as sceneFromSpec sizes spec nodes, and new
 * arrows get their ids.
 */
import type { z } from 'zod';
import { ApiError, type ErrorCode } from '../../errors.ts';
import { fragmentFieldHint } from '../hints.ts';
import { isPlainObject, quote } from '../payload.ts';
import { payloadProblem, type PathKey, type Problem, problemFrom, ProblemList, pointer, throwFirst } from '../problems.ts';
import { ICON_GAP, ICON_SIZE, MARGIN, MIN_SIZE, planNode, textNodeSize, type TextBlock } from '../scene/node-plan.ts';
import { FONT_FAMILY_EXCALIFONT, FONT_SIZE } from '../scene/elements.ts';
import { danglingHint, edgeSchemaProblems, endLabelIds, generatedNodeIds, nodeName, nodeSchemaProblems, type RawEdge, toSpecNode, unknownIconProblem } from '../spec/parse.ts';
import { FILL_STYLES, SPEC_LIMITS, type SpecEdge, type SpecNode } from '../spec/types.ts';
import { containerSizeForText, getBoundTextMaxWidth, measureText, wrapText } from '../text/metrics.ts';
import { EDIT_LIMITS, EditFragment, type EditFragmentInput, EditNode, NodeUpdate as NodeUpdateSchema } from './schema.ts';
import { isContainer, type Scene } from './scene-index.ts';
import type { SceneElement } from './types.ts';

export { EDIT_LIMITS };

export interface EditOptions {
  /** Whether an icon id is in the catalog. */
  isIcon: (id: string) => boolean;
}

export type BoxShape = 'rectangle' | 'ellipse' | 'diamond';

const FRAGMENT_KEYS = ['addNodes', 'addEdges', 'updateNodes'] as const;
type FragmentKey = (typeof FRAGMENT_KEYS)[number];
const SECTION: Record<FragmentKey, number> = { addNodes: 1, addEdges: 2, updateNodes: 3 };
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
  /** Its place in addNodes. */
  index: number;
  size: NodeSize;
  position: { x: number; y: number } | null;
}

export interface NodeUpdate {
  id: string;
  named: string;
  /** Its place in updateNodes. */
  index: number;
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

/** The fragment's own problems (not its items'), from the EditFragment schema's issues. */
function rootProblems(fragment: unknown, issues: readonly z.core.$ZodIssue[], out: ProblemList): void {
  for (const issue of issues) {
    const [key, item] = issue.path as PathKey[];
    if (item !== undefined) continue;
    if (key === undefined) {
      if (issue.code === 'unrecognized_keys') {
        for (const unknown of issue.keys) {
          out.schema([0, 1], { code: 'INVALID_SPEC', message: `edit fragment has an unknown field "${unknown}"; use addNodes, addEdges and updateNodes`, path: pointer([unknown]), hint: fragmentFieldHint(unknown) });
        }
      } else out.schema([0, 0], { code: 'INVALID_SPEC', message: 'edit fragment must be an object with addNodes, addEdges or updateNodes', path: '' });
      continue;
    }
    const list = key as FragmentKey;
    const value = (fragment as Record<string, unknown>)[list];
    if (issue.code === 'too_big' && Array.isArray(value)) {
      out.schema([0, 2, SECTION[list]], { code: 'SPEC_TOO_LARGE', message: `edit fragment has ${value.length} ${list}; the limit is ${EDIT_LIMITS[list]}`, path: pointer([list]) });
    } else out.schema([0, 2, SECTION[list]], { code: 'INVALID_SPEC', message: `edit fragment ${list} must be an array`, path: pointer([list]) });
  }
}

/** A list of the fragment when it is an array within its limit; otherwise nothing to check item by item. */
function itemsOf(fragment: Record<string, unknown>, key: FragmentKey): unknown[] {
  const value = fragment[key];
  return Array.isArray(value) && value.length <= EDIT_LIMITS[key] ? value : [];
}

/**
 * Every problem with an edit fragment: its schema's (EditFragment), then the
 * semantic checks. With `scene`, the checks against the diagram too (ids it
 * already has, edges to its nodes, updates of its nodes); without, only what
 * the fragment shows on its own. With a scene and no problem, the parsed edit.
 */
export function checkFragment(fragment: unknown, scene: Scene | null, options: EditOptions): { problems: Problem[]; edit: ParsedEdit | null } {
  const payload = payloadProblem(fragment, '');
  if (payload) return { problems: [payload], edit: null };
  const root = EditFragment.safeParse(fragment);
  if (root.success) return crossCheckFragment(fragment as Record<string, unknown>, scene, options, new ProblemList(), true);
  const out = new ProblemList();
  rootProblems(fragment, root.error.issues, out);
  if (!isPlainObject(fragment)) return { problems: out.list(), edit: null };
  return crossCheckFragment(fragment, scene, options, out, false);
}

/**
 * Parses an edit fragment that has passed the EditFragment schema (at the edge) against the scene it will
 * merge into, without parsing its shape again: the checks across its items and against the diagram only.
 * Throws the first problem.
 */
export function parseFragment(fragment: EditFragmentInput, scene: Scene, options: EditOptions): ParsedEdit {
  const { problems, edit } = crossCheckFragment(fragment as Record<string, unknown>, scene, options, new ProblemList(), true);
  throwFirst(problems);
  return edit!;
}

/**
 * The checks of each item and across items. `wellFormed`: the fragment has passed its schema, so only the rules
 * the schema does not state are checked item by item (a position's pair, an update that changes nothing).
 */
function crossCheckFragment(fragment: Record<string, unknown>, scene: Scene | null, options: EditOptions, out: ProblemList, wellFormed: boolean): { problems: Problem[]; edit: ParsedEdit | null } {
  const rawNodes = itemsOf(fragment, 'addNodes');
  const rawEdges = itemsOf(fragment, 'addEdges');
  const rawUpdates = itemsOf(fragment, 'updateNodes');
  const lists = FRAGMENT_KEYS.map((key) => fragment[key]);
  if (lists.every((list) => list === undefined || Array.isArray(list)) && lists.every((list) => !Array.isArray(list) || list.length === 0)) {
    out.schema([0, 3], { code: 'INVALID_SPEC', message: 'edit fragment changes nothing: give at least one item in addNodes, addEdges or updateNodes', path: '', hint: 'an edit fragment needs at least one node, edge or update' });
  }

  // The shape of every item.
  const parsedNodes = rawNodes.map((raw, i) => newNodeShape(raw, i, out, wellFormed));
  const parsedEdges = rawEdges.map((raw, i) => edgeSchemaProblems(raw, { list: 'addEdges', section: SECTION.addEdges }, i, out, wellFormed));
  const parsedUpdates = rawUpdates.map((raw, i) => updateShape(raw, i, out, wellFormed));

  // The semantic checks, over the well-formed items.
  const nodes = parsedNodes.map((node, i) => (node ? newNodeMeaning(node, i, scene, options, out) : null));
  const newIndex = new Map<string, number>();
  rawNodes.forEach((raw, i) => {
    if (!isPlainObject(raw) || typeof raw.id !== 'string' || raw.id.trim() === '') return;
    const first = newIndex.get(raw.id);
    if (first !== undefined) out.add({ code: 'DUPLICATE_NODE_ID', message: `${nodeName(raw, `addNodes[${i}]`)} repeats the id of addNodes[${first}]`, path: pointer(['addNodes', i, 'id']), hint: 'node ids must be unique; rename one of them' });
    else newIndex.set(raw.id, i);
  });
  parsedEdges.forEach((edge, i) => {
    if (edge === null || scene === null) return;
    for (const [end, key] of [[edge.from, 'from'], [edge.to, 'to']] as const) {
      if (newIndex.has(end)) continue;
      const path = typeof rawEdges[i] === 'string' ? pointer(['addEdges', i]) : pointer(['addEdges', i, key]);
      const element = scene.live.get(end);
      if (!element) {
        const known = [...scene.live.values()].filter(isBindable).map((e) => ({ id: e.id, label: scene.labels.get(e.id)?.text as string | undefined }));
        out.add({ code: 'DANGLING_EDGE', message: `${edge.source} names ${quote(end)}, which is neither a node of the diagram nor in addNodes`, path, hint: danglingHint(end, known) });
      } else if (!isBindable(element)) {
        out.add({ code: 'DANGLING_EDGE', message: `${edge.source} names ${quote(end)}, which is ${describeKind(element)}, not a node an arrow can connect`, path, hint: typeof element.containerId === 'string' ? `use the node's id, ${quote(element.containerId)}` : 'an edge connects nodes (rectangles, ellipses, diamonds, texts)' });
      }
    }
  });
  const updated = new Map<string, number>();
  const updates = parsedUpdates.map((update, i) => {
    if (update === null) return null;
    const checked = updateMeaning(update, i, scene, out);
    const first = updated.get(update.id);
    if (first !== undefined) out.add({ code: 'INVALID_SPEC', message: `${update.named} repeats the id of updateNodes[${first}]; merge the two`, path: pointer(['updateNodes', i, 'id']) });
    else updated.set(update.id, i);
    return checked;
  });

  const goodNodes = nodes.filter((n): n is NewNode => n !== null);
  const goodEdges = parsedEdges.filter((e): e is RawEdge => e !== null);
  const goodUpdates = updates.filter((u): u is NodeUpdate => u !== null);
  const edges = claimGeneratedIds(goodNodes, goodEdges, goodUpdates, scene, out);
  const problems = out.list();
  const complete = goodNodes.length === rawNodes.length && goodEdges.length === rawEdges.length && goodUpdates.length === rawUpdates.length;
  if (problems.length > 0 || scene === null || !complete) return { problems, edit: null };
  return { problems, edit: { nodes: goodNodes, edges, updates: goodUpdates } };
}

/** A new node's shape: its schema (EditNode), and x with y. */
function newNodeShape(raw: unknown, i: number, out: ProblemList, wellFormed: boolean): SpecNode | null {
  if (!wellFormed && !nodeSchemaProblems(raw, EditNode, { list: 'addNodes', section: SECTION.addNodes }, i, out, () => null)) return null;
  const node = toSpecNode(raw as Record<string, unknown>);
  if ((node.x === undefined) !== (node.y === undefined)) {
    out.schema([SECTION.addNodes, i, 9], { code: 'INVALID_SPEC', message: `${nodeName(raw, `addNodes[${i}]`)}: give both x and y, or neither to place the node automatically`, path: pointer(['addNodes', i, node.x === undefined ? 'x' : 'y']) });
    return null;
  }
  return node;
}

/** Why `id` cannot take a new node, or null when it is one of the diagram's containers (isContainer). */
function parentProblem(id: string, scene: Scene): string | null {
  const element = scene.live.get(id);
  if (!element) return `names ${quote(id)}, which is not an element of the diagram`;
  if (element.type !== 'rectangle') return `names ${quote(id)}, ${describeKind(element)}; a container is a rectangle`;
  if (!isContainer(scene, element)) return `names ${quote(id)}, a rectangle that holds nothing and has its label in the middle: it is a node, not a container`;
  return null;
}

/** A well-formed new node against the catalog and the diagram, sized. */
function newNodeMeaning(node: SpecNode, i: number, scene: Scene | null, options: EditOptions, out: ProblemList): NewNode | null {
  const named = `addNodes[${i}] (id ${quote(node.id)})`;
  let ok = true;
  if (node.icon !== null && !options.isIcon(node.icon)) {
    out.add(unknownIconProblem(node.icon, named, pointer(['addNodes', i, 'icon']), options.isIcon));
    ok = false;
  }
  if (node.parent !== null && scene !== null) {
    const problem = parentProblem(node.parent, scene);
    if (problem) {
      out.add({ code: 'INVALID_SPEC', message: `${named}.parent ${problem}`, path: pointer(['addNodes', i, 'parent']), hint: 'a new node goes into a container the diagram already has; leave parent out to place it beside what it connects to' });
      ok = false;
    }
  }
  if (scene?.ids.has(node.id)) {
    out.add({ code: 'DUPLICATE_NODE_ID', message: `${named}: the diagram already has an element with this id`, path: pointer(['addNodes', i, 'id']), hint: 'choose another id (updateNodes changes an existing node)' });
    ok = false;
  }
  try {
    const size = sizeNode(node, named);
    const position = node.x === undefined || node.y === undefined ? null : { x: node.x, y: node.y };
    return ok ? { node, named, index: i, size, position } : null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    out.add(problemFrom(error, pointer(['addNodes', i]), 'leave width and height out to size the node to its label'));
    return null;
  }
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

interface UpdateShape {
  id: string;
  named: string;
  data: Record<string, unknown>;
}

const UPDATE_FIELD_RANK: Record<string, number> = { strokeColor: 4, backgroundColor: 5, fillStyle: 6, label: 7 };

/** An update's shape: its schema (NodeUpdate, unless `wellFormed`) with the messages edits have always given. */
function updateShape(raw: unknown, i: number, out: ProblemList, wellFormed: boolean): UpdateShape | null {
  const where = `updateNodes[${i}]`;
  const at = (rank: number, problem: Problem) => out.schema([SECTION.updateNodes, i, rank], problem);
  const path = (...keys: PathKey[]) => pointer(['updateNodes', i, ...keys]);
  if (!isPlainObject(raw)) {
    at(0, { code: 'INVALID_SPEC', message: `${where} must be an object { id, strokeColor?, backgroundColor?, fillStyle?, label? }`, path: path() });
    return null;
  }
  const named = typeof raw.id === 'string' && raw.id !== '' ? `${where} (id ${quote(raw.id)})` : where;
  const result = wellFormed ? { success: true as const, data: raw as z.output<typeof NodeUpdateSchema> } : NodeUpdateSchema.safeParse(raw);
  const fields = Object.keys(raw).filter((key) => key !== 'id');
  if (fields.length === 0 && typeof raw.id === 'string' && raw.id !== '') {
    at(2, { code: 'INVALID_SPEC', message: `${named} changes nothing: give strokeColor, backgroundColor, fillStyle or label`, path: path() });
  }
  if (result.success) return fields.length === 0 ? null : { id: result.data.id, named, data: result.data };
  for (const issue of result.error.issues) {
    const field = issue.path[0] as string | undefined;
    if (field === undefined) {
      if (issue.code !== 'unrecognized_keys') continue;
      for (const key of issue.keys) {
        if (POSITION_FIELDS.has(key)) at(1, { code: 'INVALID_SPEC', message: `${named}: "${key}" cannot be changed by edit; use patch`, path: path(key), hint: `a patch op changes it: { "op": "${key === 'angle' ? 'update' : key === 'x' || key === 'y' ? 'move' : 'resize'}", "id": ${JSON.stringify(raw.id ?? 'id')}, … }` });
        else if (key === 'shape') at(1, { code: 'INVALID_SPEC', message: `${named}: "shape" cannot be changed by edit; delete the node and add it again`, path: path(key) });
        else at(1, { code: 'INVALID_SPEC', message: `${named} has an unknown field "${key}"; updateNodes may change strokeColor, backgroundColor, fillStyle and label`, path: path(key) });
      }
      continue;
    }
    const value = raw[field];
    if (field === 'id') {
      if (issue.code === 'too_big') at(0, { code: 'SPEC_TOO_LARGE', message: `${where} id is ${(value as string).length} characters long; the limit is ${SPEC_LIMITS.idLength}`, path: path(field) });
      else at(0, { code: 'INVALID_SPEC', message: `${where} needs "id": the id of a node in the diagram`, path: path(field) });
      continue;
    }
    const rank = UPDATE_FIELD_RANK[field] ?? 8;
    if (value === null) {
      at(3, { code: 'INVALID_SPEC', message: `${named}.${field} is null; leave the field out to keep the current value`, path: path(field) });
      continue;
    }
    switch (field) {
      case 'strokeColor':
      case 'backgroundColor':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.${field} must be a CSS colour such as "#1e1e1e" or "transparent"`, path: path(field) });
        break;
      case 'fillStyle':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.fillStyle must be one of ${FILL_STYLES.join(', ')}; got ${JSON.stringify(value)}`, path: path(field) });
        break;
      case 'label':
        if (issue.code === 'too_big') at(rank, { code: 'SPEC_TOO_LARGE', message: `${named}.label is ${(value as string).length} characters long; the limit is ${SPEC_LIMITS.labelLength}`, path: path(field) });
        else if (typeof value === 'string') at(rank + 1, { code: 'INVALID_SPEC', message: `${named}.label is empty; a label cannot be removed by edit (use patch to delete the label element)`, path: path(field) });
        else at(rank, { code: 'INVALID_SPEC', message: `${named}.label must be a string`, path: path(field) });
        break;
      default:
        at(rank, { code: 'INVALID_SPEC', message: `${named}.${issue.path.join('.')}: ${issue.message}`, path: path(...(issue.path as PathKey[])) });
    }
  }
  return null;
}

/** A well-formed update against the diagram: it must name one of its nodes. */
function updateMeaning(update: UpdateShape, i: number, scene: Scene | null, out: ProblemList): NodeUpdate | null {
  const { id, named, data } = update;
  const label = typeof data.label === 'string' ? data.label : null;
  const parsed: NodeUpdate = {
    id,
    named,
    index: i,
    strokeColor: (data.strokeColor as string | undefined) ?? null,
    backgroundColor: (data.backgroundColor as string | undefined) ?? null,
    fillStyle: (data.fillStyle as string | undefined) ?? null,
    label,
    createsLabel: false,
  };
  if (scene === null) return parsed;
  const element = scene.live.get(id);
  if (!element) {
    out.add({ code: 'INVALID_SPEC', message: `${named} is not a node of the diagram (new nodes take their style in addNodes)`, path: pointer(['updateNodes', i, 'id']), hint: 'updateNodes names existing nodes; read the diagram for their ids, or add the node with addNodes' });
    return null;
  }
  if (!isBindable(element)) {
    out.add({ code: 'INVALID_SPEC', message: `${named} is ${describeKind(element)}, not a node`, path: pointer(['updateNodes', i, 'id']), hint: typeof element.containerId === 'string' ? `update the node ${quote(element.containerId)} instead` : 'restyle arrows and other elements with patch ops' });
    return null;
  }
  return { ...parsed, createsLabel: label !== null && element.type !== 'text' && !scene.labels.has(id) };
}

/**
 * Names the arrows (`<from>-to-<to>`, `-2`, `-3`… clear of every id in the
 * scene and of each other) and reports each new node that takes an id this
 * merge generates (ID_COLLISION), as the spec parser does.
 */
function claimGeneratedIds(nodes: NewNode[], edges: RawEdge[], updates: NodeUpdate[], scene: Scene | null, out: ProblemList): SpecEdge[] {
  const sceneIds = scene?.ids ?? new Set<string>();
  const generated = new Map<string, string>();
  const claim = (id: string, owner: string, named: string, path: string) => {
    if (sceneIds.has(id)) out.add({ code: 'ID_COLLISION', message: `${named}: the id ${quote(id)} generated for ${owner} is already used in the diagram`, path, hint: 'choose another node id' });
    generated.set(id, owner);
  };
  nodes.forEach(({ node, named, index }) => {
    for (const id of generatedNodeIds(node)) claim(id, `the ${id.endsWith('-icon') ? 'icon' : 'label'} of addNodes[${index}]`, named, pointer(['addNodes', index, 'id']));
  });
  for (const update of updates) {
    if (update.createsLabel) claim(`${update.id}-label`, `the new label of ${update.named}`, update.named, pointer(['updateNodes', update.index, 'id']));
  }
  const used = new Set([...sceneIds, ...generated.keys()]);
  const named = edges.map((edge) => {
    const base = `${edge.from}-to-${edge.to}`;
    let id = base;
    const texts = (candidate: string) => [...(edge.label !== null ? [{ id: `${candidate}-label`, name: 'label' }] : []), ...endLabelIds({ ...edge, id: candidate })];
    for (let n = 2; used.has(id) || texts(id).some((text) => used.has(text.id)); n++) id = `${base}-${n}`;
    used.add(id);
    generated.set(id, `the arrow of ${edge.source}`);
    for (const text of texts(id)) {
      used.add(text.id);
      generated.set(text.id, `the ${text.name} of ${edge.source}`);
    }
    return { ...edge, id };
  });
  for (const entry of nodes) {
    const owner = generated.get(entry.node.id);
    if (owner) out.add({ code: 'ID_COLLISION', message: `${entry.named} collides with the id generated for ${owner}`, path: pointer(['addNodes', entry.index, 'id']), hint: 'node ids must differ from the ids the server generates (<id>-label, <id>-icon, <from>-to-<to>): rename the node' });
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
