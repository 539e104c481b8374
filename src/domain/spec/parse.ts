import { ApiError, type ErrorCode } from '../../errors.ts';
import { inspectPayload, isPlainObject, quote } from '../payload.ts';
import { CSS_COLOR } from '../scene/elements.ts';
import { ShorthandError, parseShorthand } from './shorthand.ts';
import {
  ARROWHEADS,
  DIRECTIONS,
  type DiagramSpec,
  EDGE_STYLES,
  FILL_STYLES,
  type FillStyle,
  SHAPES,
  type Shape,
  SPEC_LIMITS,
  type SpecEdge,
  type SpecNode,
} from './types.ts';
import type { Direction } from '../layout/types.ts';

export interface ParseOptions {
  /** Whether an icon id is in the catalog. */
  isIcon: (id: string) => boolean;
  /** Edit fragments may place and size new nodes. */
  allowGeometry?: boolean;
}

const NODE_KEYS = new Set(['id', 'label', 'shape', 'icon', 'strokeColor', 'backgroundColor', 'fillStyle', 'parent']);
const GEOMETRY_KEYS = new Set(['x', 'y', 'width', 'height']);
const EDGE_KEYS = new Set(['from', 'to', 'label', 'arrowhead', 'startArrowhead', 'style']);
const SPEC_KEYS = new Set(['version', 'nodes', 'edges', 'layout']);

const fail = (code: ErrorCode, message: string): never => {
  throw new ApiError(code, message);
};


function optionalString(value: unknown, where: string, code: ErrorCode, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return fail(code, `${where} must be a string`);
  if (value.length > max) return fail('SPEC_TOO_LARGE', `${where} is ${value.length} characters long; the limit is ${max}`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string, code: ErrorCode): T | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    return fail(code, `${where} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function color(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !CSS_COLOR.test(value)) return fail('INVALID_SPEC', `${where} must be a CSS colour such as "#1e1e1e" or "transparent"`);
  return value;
}

/** Parses one node object (spec or edit fragment); `where` names it in messages, e.g. `nodes[3]`. */
export function parseNode(raw: unknown, where: string, options: ParseOptions): SpecNode {
  if (!isPlainObject(raw)) return fail('MISSING_NODE_ID', `${where} must be an object with an "id"`);
  const { id } = raw;
  if (typeof id !== 'string' || id.trim() === '') return fail('MISSING_NODE_ID', `${where} has no id (a non-empty string)`);
  if (id.length > SPEC_LIMITS.idLength) return fail('SPEC_TOO_LARGE', `${where} id is ${id.length} characters long; the limit is ${SPEC_LIMITS.idLength}`);
  const named = `${where} (id ${quote(id)})`;
  for (const key of Object.keys(raw)) {
    if (NODE_KEYS.has(key)) continue;
    if (options.allowGeometry && GEOMETRY_KEYS.has(key)) continue;
    fail('INVALID_SPEC', `${named} has an unknown field "${key}"`);
  }
  const shape: Shape = oneOf(raw.shape, SHAPES, `${named}.shape`, 'UNKNOWN_SHAPE') ?? 'rectangle';
  const label = optionalString(raw.label, `${named}.label`, 'INVALID_SPEC', SPEC_LIMITS.labelLength) ?? id;
  const icon = optionalString(raw.icon, `${named}.icon`, 'UNKNOWN_ICON', SPEC_LIMITS.idLength);
  if (icon !== null && !options.isIcon(icon)) fail('UNKNOWN_ICON', `${named}.icon ${quote(icon)} is not in the icon catalog (GET /api/v1/icons)`);
  const node: SpecNode = {
    id,
    label,
    shape,
    icon,
    strokeColor: color(raw.strokeColor, `${named}.strokeColor`),
    backgroundColor: color(raw.backgroundColor, `${named}.backgroundColor`),
    fillStyle: oneOf<FillStyle>(raw.fillStyle, FILL_STYLES, `${named}.fillStyle`, 'INVALID_SPEC'),
    parent: optionalString(raw.parent, `${named}.parent`, 'INVALID_SPEC', SPEC_LIMITS.idLength),
  };
  if (options.allowGeometry) {
    for (const key of ['x', 'y', 'width', 'height'] as const) {
      const value = raw[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value)) fail('INVALID_SPEC', `${named}.${key} must be a finite number`);
      if ((key === 'width' || key === 'height') && ((value as number) <= 0 || (value as number) > 10_000)) {
        fail('INVALID_SPEC', `${named}.${key} must be between 0 and 10000`);
      }
      node[key] = value as number;
    }
  }
  return node;
}

/** An edge before its arrow id is assigned. */
type RawEdge = Omit<SpecEdge, 'id'>;

/** Parses one edge, a shorthand string or an object; `where` is e.g. `edges[7]`. */
export function parseEdge(raw: unknown, where: string): RawEdge {
  if (typeof raw === 'string') {
    const source = `${where} ${quote(raw)}`;
    if (raw.length > SPEC_LIMITS.shorthandLength) fail('SPEC_TOO_LARGE', `${source} is ${raw.length} characters long; the limit is ${SPEC_LIMITS.shorthandLength}`);
    try {
      const edge = parseShorthand(raw);
      for (const [end, id] of [['source', edge.from], ['target', edge.to]] as const) {
        if (id.length > SPEC_LIMITS.idLength) fail('SPEC_TOO_LARGE', `${source}: the ${end} id is longer than ${SPEC_LIMITS.idLength} characters`);
      }
      if (edge.label !== null && edge.label.length > SPEC_LIMITS.labelLength) fail('SPEC_TOO_LARGE', `${source}: the label is longer than ${SPEC_LIMITS.labelLength} characters`);
      return { ...edge, source };
    } catch (error) {
      if (error instanceof ShorthandError) return fail('MALFORMED_SHORTHAND', `${source}: ${error.message}`);
      throw error;
    }
  }
  if (!isPlainObject(raw)) return fail('MALFORMED_EDGE', `${where} must be an edge object { from, to } or a shorthand string like "a -> b"`);
  const source = typeof raw.from === 'string' && typeof raw.to === 'string' ? `${where} ${quote(`${raw.from} -> ${raw.to}`)}` : where;
  for (const key of Object.keys(raw)) if (!EDGE_KEYS.has(key)) fail('MALFORMED_EDGE', `${source} has an unknown field "${key}"`);
  for (const end of ['from', 'to'] as const) {
    const id = raw[end];
    if (typeof id !== 'string' || id === '') fail('MALFORMED_EDGE', `${source} needs "${end}": a node id`);
    if ((id as string).length > SPEC_LIMITS.idLength) fail('SPEC_TOO_LARGE', `${source}.${end} is longer than ${SPEC_LIMITS.idLength} characters`);
  }
  return {
    from: raw.from as string,
    to: raw.to as string,
    label: optionalString(raw.label, `${source}.label`, 'MALFORMED_EDGE', SPEC_LIMITS.labelLength),
    endArrowhead: oneOf(raw.arrowhead, ARROWHEADS, `${source}.arrowhead`, 'MALFORMED_EDGE') ?? 'arrow',
    startArrowhead: oneOf(raw.startArrowhead, ARROWHEADS, `${source}.startArrowhead`, 'MALFORMED_EDGE') ?? 'none',
    style: oneOf(raw.style, EDGE_STYLES, `${source}.style`, 'MALFORMED_EDGE') ?? 'solid',
    source,
  };
}

/** `<from>-to-<to>`, then `-2`, `-3`… for repeats in spec order (docs/spec.md, "Generated ids"). */
export function assignArrowIds(edges: RawEdge[], taken: Set<string> = new Set()): SpecEdge[] {
  const used = new Set(taken);
  return edges.map((edge) => {
    const base = `${edge.from}-to-${edge.to}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return { ...edge, id };
  });
}

/** The ids generation adds for a node: its label and its icon. */
export function generatedNodeIds(node: SpecNode): string[] {
  const ids: string[] = [];
  if (node.shape !== 'text' && node.label !== '') ids.push(`${node.id}-label`);
  if (node.icon !== null) ids.push(`${node.id}-icon`);
  return ids;
}

function checkParents(nodes: SpecNode[], index: Map<string, number>): void {
  const where = (i: number) => `nodes[${i}] (id ${quote(nodes[i]!.id)}).parent`;
  nodes.forEach((node, i) => {
    if (node.parent === null) return;
    const parent = index.get(node.parent);
    if (parent === undefined) fail('INVALID_SPEC', `${where(i)} names ${quote(node.parent)}, which is not a node`);
    if (nodes[parent!]!.shape === 'text') fail('INVALID_SPEC', `${where(i)}: a text node cannot contain other nodes`);
    if (nodes[parent!]!.shape !== 'rectangle') fail('INVALID_SPEC', `${where(i)}: a container must be a rectangle`);
  });
  // Every parent exists now, so each walk up ends at a root or comes back round.
  nodes.forEach((node, i) => {
    const seen = new Set([node.id]);
    for (let p = node.parent; p !== null; p = nodes[index.get(p)!]!.parent) {
      if (seen.has(p)) fail('INVALID_SPEC', `${where(i)} makes a cycle of containers`);
      seen.add(p);
    }
  });
}

/**
 * Parses and validates a DiagramSpec (docs/spec.md). Pure: any input yields a
 * spec or throws an ApiError with one of the content-model codes, and the
 * message names the offending element (`nodes[3]`, `edges[7] "api -> db"`).
 */
export function parseSpec(input: unknown, options: ParseOptions): DiagramSpec {
  const problem = inspectPayload(input, 'spec');
  if (problem?.kind === 'forbidden_key') fail('PROTO_KEY', `${problem.path}: the key "${problem.key}" is not allowed`);
  if (problem) fail('INVALID_SPEC', `${problem.path}: ${problem.kind === 'too_deep' ? 'nests too deeply' : 'number is out of range'}`);
  if (!isPlainObject(input)) return fail('INVALID_SPEC', 'spec must be an object with "nodes" and "edges"');
  if (input.version !== undefined && input.version !== '1' && input.version !== 1) {
    fail('UNSUPPORTED_VERSION', `spec.version ${JSON.stringify(input.version)} is not supported; use "1" or omit it`);
  }
  for (const key of Object.keys(input)) if (!SPEC_KEYS.has(key)) fail('INVALID_SPEC', `spec has an unknown field "${key}"`);
  const rawNodes = input.nodes ?? [];
  const rawEdges = input.edges ?? [];
  if (!Array.isArray(rawNodes)) return fail('INVALID_SPEC', 'spec.nodes must be an array');
  if (!Array.isArray(rawEdges)) return fail('INVALID_SPEC', 'spec.edges must be an array');
  if (rawNodes.length > SPEC_LIMITS.nodes) fail('SPEC_TOO_LARGE', `spec has ${rawNodes.length} nodes; the limit is ${SPEC_LIMITS.nodes}`);
  if (rawEdges.length > SPEC_LIMITS.edges) fail('SPEC_TOO_LARGE', `spec has ${rawEdges.length} edges; the limit is ${SPEC_LIMITS.edges}`);

  let direction: Direction = 'TB';
  if (input.layout !== undefined && input.layout !== null) {
    if (!isPlainObject(input.layout)) fail('INVALID_SPEC', 'spec.layout must be an object like { "direction": "LR" }');
    const layout = input.layout as Record<string, unknown>;
    for (const key of Object.keys(layout)) if (key !== 'direction') fail('INVALID_SPEC', `spec.layout has an unknown field "${key}"`);
    direction = oneOf(layout.direction, DIRECTIONS, 'spec.layout.direction', 'INVALID_SPEC') ?? 'TB';
  }

  const nodes: SpecNode[] = [];
  const index = new Map<string, number>();
  rawNodes.forEach((raw: unknown, i) => {
    const node = parseNode(raw, `nodes[${i}]`, options);
    const first = index.get(node.id);
    if (first !== undefined) fail('DUPLICATE_NODE_ID', `nodes[${i}] repeats the id ${quote(node.id)} of nodes[${first}]`);
    index.set(node.id, i);
    nodes.push(node);
  });
  checkParents(nodes, index);

  const parsedEdges = rawEdges.map((raw: unknown, i) => {
    const edge = parseEdge(raw, `edges[${i}]`);
    for (const end of [edge.from, edge.to]) {
      if (!index.has(end)) fail('DANGLING_EDGE', `${edge.source} names ${quote(end)}, which is not a node id`);
    }
    return edge;
  });
  const edges = assignArrowIds(parsedEdges);

  const generated = new Map<string, string>();
  nodes.forEach((node, i) => generatedNodeIds(node).forEach((id) => generated.set(id, `the ${id.endsWith('-icon') ? 'icon' : 'label'} of nodes[${i}]`)));
  edges.forEach((edge) => {
    generated.set(edge.id, `the arrow of ${edge.source}`);
    if (edge.label !== null) generated.set(`${edge.id}-label`, `the label of ${edge.source}`);
  });
  nodes.forEach((node, i) => {
    const owner = generated.get(node.id);
    if (owner) fail('ID_COLLISION', `nodes[${i}] id ${quote(node.id)} collides with the id generated for ${owner}`);
  });
  return { direction, nodes, edges };
}
