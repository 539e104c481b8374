import type { z } from 'zod';
import { arrowheadHint, directionHint, edgeFieldHint, edgeStyleHint, nodeFieldHint, shapeHint, specFieldHint } from '../hints.ts';
import { isPlainObject, quote } from '../payload.ts';
import { type ContentCode, payloadProblem, type PathKey, type Problem, ProblemList, pointer, throwFirst } from '../problems.ts';
import { DiagramSpec as DiagramSpecSchema, type DiagramSpecInput, SpecEdgeObject, SpecEdgeShorthand, SpecNode as SpecNodeSchema } from './schema.ts';
import { ShorthandError, parseShorthand } from './shorthand.ts';
import { ARROWHEADS, CAPTION_PLACES, type CaptionPlace, DIRECTIONS, type DiagramSpec, EDGE_STYLES, FILL_STYLES, FOLDS, isMarker, MIN_LENGTH_RANGE, SPEC_LIMITS, type SpecEdge, type SpecNode, STROKE_STYLES, STROKE_WIDTH_RANGE } from './types.ts';
import type { Direction } from '../layout/types.ts';
import { listIcons } from '../icons/catalog.ts';

export interface ParseOptions {
  /** Whether an icon id is in the catalog. */
  isIcon: (id: string) => boolean;
}

type Issue = z.core.$ZodIssue;

/** Where a list sits in the document, for ordering its problems: spec nodes and edit addNodes come first. */
export interface ListPlace {
  /** The list's key: `nodes`, `addNodes`, `edges`, `addEdges`. */
  list: string;
  /** The list's rank among the content's sections (ProblemList ranks). */
  section: number;
}

/** A node's field order in messages, as the parser has always checked them. */
const NODE_FIELD_RANK: Record<string, number> = {
  id: 0,
  shape: 2,
  label: 3,
  icon: 4,
  strokeColor: 5,
  backgroundColor: 6,
  fillStyle: 7,
  parent: 8,
  x: 9,
  y: 9,
  width: 9,
  height: 9,
  textColor: 10,
  bold: 10,
  italic: 10,
  strokeWidth: 10,
  strokeStyle: 10,
  invisible: 10,
  direction: 10,
};
const EDGE_FIELD_RANK: Record<string, number> = { from: 1, to: 2, label: 3, headLabel: 3, tailLabel: 3, arrowhead: 4, startArrowhead: 5, style: 6, strokeWidth: 7, strokeColor: 7, constraint: 7, minLength: 7 };
const STROKE_WIDTH_RULE = `must be a number from ${STROKE_WIDTH_RANGE[0]} to ${STROKE_WIDTH_RANGE[1]}`;
const COLOUR_RULE = 'must be a CSS colour such as "#1e1e1e" or "transparent"';

const hasValidId = (raw: unknown): raw is { id: string } =>
  isPlainObject(raw) && typeof raw.id === 'string' && raw.id.trim() !== '' && raw.id.length <= SPEC_LIMITS.idLength;

/** `nodes[3] (id "db")`, or `nodes[3]` for a node without a usable id. */
export function nodeName(raw: unknown, where: string): string {
  return hasValidId(raw) ? `${where} (id ${quote(raw.id)})` : where;
}

const lengthOf = (value: unknown) => (typeof value === 'string' ? value.length : 0);

/**
 * The problems with one node's shape, as its schema finds them (SpecNode, or
 * the edit fragment's node with a position), each with the code and message
 * the parser has always given. `unknownField` may answer for a field the
 * schema does not take (the edit fragment's `parent`).
 */
export function nodeSchemaProblems(
  raw: unknown,
  schema: z.ZodType,
  place: ListPlace,
  i: number,
  out: ProblemList,
  unknownField?: (key: string, named: string, path: PathKey[]) => Problem | null,
): boolean {
  const result = schema.safeParse(raw);
  if (result.success) return true;
  const where = `${place.list}[${i}]`;
  const named = nodeName(raw, where);
  const node = isPlainObject(raw) ? raw : {};
  const at = (rank: number, problem: Problem) => out.schema([place.section, i, rank], problem);
  for (const issue of result.error.issues) {
    const field = issue.path[0] as string | undefined;
    const path = pointer([place.list, i, ...(issue.path as PathKey[])]);
    if (field === undefined) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const keyPath: PathKey[] = [place.list, i, key];
          const special = unknownField?.(key, named, keyPath);
          at(1, special ?? { code: 'INVALID_SPEC', message: `${named} has an unknown field "${key}"`, path: pointer(keyPath), hint: nodeFieldHint(key, node[key]) });
        }
      } else {
        at(0, {
          code: 'MISSING_NODE_ID',
          message: `${where} must be an object with an "id"`,
          path,
          hint: typeof raw === 'string' ? `a node is an object: { "id": ${JSON.stringify(raw)} }` : 'a node is an object: { "id": "api", "label": "API" }',
        });
      }
      continue;
    }
    const value = node[field];
    const rank = NODE_FIELD_RANK[field] ?? 10;
    const tooLong = issue.code === 'too_big';
    switch (field) {
      case 'id': {
        if (tooLong) at(rank, { code: 'SPEC_TOO_LARGE', message: `${where} id is ${lengthOf(value)} characters long; the limit is ${SPEC_LIMITS.idLength}`, path });
        else {
          const name = typeof node.name === 'string' ? node.name : typeof node.label === 'string' ? node.label : null;
          at(rank, { code: 'MISSING_NODE_ID', message: `${where} has no id (a non-empty string)`, path, hint: name ? `give it an "id" such as ${JSON.stringify(slug(name))}` : 'every node needs an "id" that edges refer to' });
        }
        break;
      }
      case 'shape':
        at(rank, { code: 'UNKNOWN_SHAPE', message: `${named}.shape ${JSON.stringify(value)} is not a shape`, path, hint: shapeHint(value) });
        break;
      case 'label':
        if (tooLong) at(rank, { code: 'SPEC_TOO_LARGE', message: `${named}.label is ${lengthOf(value)} characters long; the limit is ${SPEC_LIMITS.labelLength}`, path });
        else at(rank, { code: 'INVALID_SPEC', message: `${named}.label must be a string`, path });
        break;
      case 'icon':
        if (tooLong) at(rank, { code: 'SPEC_TOO_LARGE', message: `${named}.icon is ${lengthOf(value)} characters long; the limit is ${SPEC_LIMITS.idLength}`, path });
        else at(rank, { code: 'UNKNOWN_ICON', message: `${named}.icon must be a string`, path, hint: 'an icon is a catalog id such as "icon-database" (GET /api/v1/icons)' });
        break;
      case 'parent':
        if (tooLong) at(rank, { code: 'SPEC_TOO_LARGE', message: `${named}.parent is ${lengthOf(value)} characters long; the limit is ${SPEC_LIMITS.idLength}`, path });
        else at(rank, { code: 'INVALID_SPEC', message: `${named}.parent must be a string`, path, hint: 'parent is the id of the containing node' });
        break;
      case 'strokeColor':
      case 'backgroundColor':
      case 'textColor':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.${field} ${COLOUR_RULE}`, path });
        break;
      case 'bold':
      case 'italic':
      case 'invisible':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.${field} must be true or false; got ${JSON.stringify(value)}`, path });
        break;
      case 'strokeWidth':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.strokeWidth ${STROKE_WIDTH_RULE}; got ${JSON.stringify(value)}`, path });
        break;
      case 'strokeStyle':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.strokeStyle must be one of ${STROKE_STYLES.join(', ')}; got ${JSON.stringify(value)}`, path, hint: edgeStyleHint(value) });
        break;
      case 'direction':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.direction must be one of ${DIRECTIONS.join(', ')}; got ${JSON.stringify(value)}`, path, hint: directionHint(value) });
        break;
      case 'fillStyle':
        at(rank, { code: 'INVALID_SPEC', message: `${named}.fillStyle must be one of ${FILL_STYLES.join(', ')}; got ${JSON.stringify(value)}`, path });
        break;
      case 'x':
      case 'y':
      case 'width':
      case 'height':
        if (typeof value === 'number' && Number.isFinite(value)) at(rank, { code: 'INVALID_SPEC', message: `${named}.${field} must be between 0 and 10000`, path });
        else at(rank, { code: 'INVALID_SPEC', message: `${named}.${field} must be a finite number`, path });
        break;
      default:
        at(rank, { code: 'INVALID_SPEC', message: `${named}.${issue.path.join('.')}: ${issue.message}`, path });
    }
  }
  return false;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'node';

/** A parsed node with the defaults filled in. */
export function toSpecNode(data: Record<string, unknown>): SpecNode {
  const id = data.id as string;
  const node: SpecNode = {
    id,
    label: (data.label as string | null | undefined) ?? id,
    shape: (data.shape as SpecNode['shape'] | null | undefined) ?? 'rectangle',
    icon: (data.icon as string | null | undefined) ?? null,
    strokeColor: (data.strokeColor as string | null | undefined) ?? null,
    backgroundColor: (data.backgroundColor as string | null | undefined) ?? null,
    fillStyle: (data.fillStyle as SpecNode['fillStyle'] | undefined) ?? null,
    parent: (data.parent as string | null | undefined) ?? null,
  };
  for (const key of ['x', 'y', 'width', 'height'] as const) if (typeof data[key] === 'number') node[key] = data[key];
  // The styles are set only when given, so a node without them reads as it always has.
  if (typeof data.textColor === 'string') node.textColor = data.textColor;
  if (data.bold === true) node.bold = true;
  if (data.italic === true) node.italic = true;
  if (typeof data.strokeWidth === 'number') node.strokeWidth = data.strokeWidth;
  if (typeof data.strokeStyle === 'string') node.strokeStyle = data.strokeStyle as SpecNode['strokeStyle'];
  if (data.invisible === true) node.invisible = true;
  if (typeof data.direction === 'string') node.direction = data.direction as Direction;
  return node;
}

/** An edge before its arrow id is assigned. */
export type RawEdge = Omit<SpecEdge, 'id'>;

const SHORTHAND_HINT = 'write FROM ARROW TO [: LABEL], e.g. "api -> db : SQL"; quote ids with spaces: "web app" -> api';

/**
 * One edge checked against its schema (the shorthand pattern, or the edge
 * object), with the problems the parser has always reported; the edge when
 * it is well formed. `wellFormed`: the edge has passed its schema already
 * (it is part of a spec that did), and is only read.
 */
export function edgeSchemaProblems(raw: unknown, place: ListPlace, i: number, out: ProblemList, wellFormed = false): RawEdge | null {
  const where = `${place.list}[${i}]`;
  const at = (rank: number, problem: Problem) => out.schema([place.section, i, rank], problem);
  const path = (...keys: PathKey[]) => pointer([place.list, i, ...keys]);
  if (typeof raw === 'string') {
    const source = `${where} ${quote(raw)}`;
    const result = wellFormed ? { success: true as const } : SpecEdgeShorthand.safeParse(raw);
    if (!result.success) {
      if (result.error.issues.some((issue) => issue.code === 'too_big')) {
        at(0, { code: 'SPEC_TOO_LARGE', message: `${source} is ${raw.length} characters long; the limit is ${SPEC_LIMITS.shorthandLength}`, path: path() });
        return null;
      }
      let reason = 'it does not follow the shorthand grammar';
      try {
        parseShorthand(raw);
      } catch (error) {
        if (!(error instanceof ShorthandError)) throw error;
        reason = error.message;
      }
      const fixed = raw.replace(/=>|~>|→|—>/, '->');
      const hint = fixed !== raw && SpecEdgeShorthand.safeParse(fixed).success ? `write ${JSON.stringify(fixed)}` : SHORTHAND_HINT;
      at(0, { code: 'MALFORMED_SHORTHAND', message: `${source}: ${reason}`, path: path(), hint });
      return null;
    }
    const edge = parseShorthand(raw);
    let ok = true;
    for (const [end, id] of [['source', edge.from], ['target', edge.to]] as const) {
      if (id.length > SPEC_LIMITS.idLength) {
        at(1, { code: 'SPEC_TOO_LARGE', message: `${source}: the ${end} id is longer than ${SPEC_LIMITS.idLength} characters`, path: path() });
        ok = false;
      }
    }
    if (edge.label !== null && edge.label.length > SPEC_LIMITS.labelLength) {
      at(3, { code: 'SPEC_TOO_LARGE', message: `${source}: the label is longer than ${SPEC_LIMITS.labelLength} characters`, path: path() });
      ok = false;
    }
    return ok ? { ...edge, source } : null;
  }
  if (!isPlainObject(raw)) {
    at(0, { code: 'MALFORMED_EDGE', message: `${where} must be an edge object { from, to } or a shorthand string like "a -> b"`, path: path() });
    return null;
  }
  const source = typeof raw.from === 'string' && typeof raw.to === 'string' ? `${where} ${quote(`${raw.from} -> ${raw.to}`)}` : where;
  const result = wellFormed ? { success: true as const, data: raw as z.output<typeof SpecEdgeObject> } : SpecEdgeObject.safeParse(raw);
  if (result.success) {
    const data = result.data;
    const edge: RawEdge = {
      from: data.from,
      to: data.to,
      label: data.label ?? null,
      endArrowhead: data.arrowhead ?? 'arrow',
      startArrowhead: data.startArrowhead ?? 'none',
      style: data.style ?? 'solid',
      source,
    };
    // Set only when given, so an edge without them reads as it always has.
    if (typeof data.strokeWidth === 'number') edge.strokeWidth = data.strokeWidth;
    if (typeof data.strokeColor === 'string') edge.strokeColor = data.strokeColor;
    if (data.constraint === false) edge.constraint = false;
    if (typeof data.minLength === 'number') edge.minLength = data.minLength;
    if (typeof data.headLabel === 'string' && /\S/.test(data.headLabel)) edge.headLabel = data.headLabel;
    if (typeof data.tailLabel === 'string' && /\S/.test(data.tailLabel)) edge.tailLabel = data.tailLabel;
    return edge;
  }
  for (const issue of result.error.issues) {
    const field = issue.path[0] as string | undefined;
    if (field === undefined) {
      if (issue.code !== 'unrecognized_keys') continue;
      for (const key of issue.keys) at(0, { code: 'MALFORMED_EDGE', message: `${source} has an unknown field "${key}"`, path: path(key), hint: edgeFieldHint(key) });
      continue;
    }
    const value = raw[field];
    const rank = EDGE_FIELD_RANK[field] ?? 10;
    const tooLong = issue.code === 'too_big';
    switch (field) {
      case 'from':
      case 'to':
        if (tooLong) at(rank, { code: 'SPEC_TOO_LARGE', message: `${source}.${field} is longer than ${SPEC_LIMITS.idLength} characters`, path: path(field) });
        else at(rank, { code: 'MALFORMED_EDGE', message: `${source} needs "${field}": a node id`, path: path(field), hint: edgeEndHint(raw, field) });
        break;
      case 'label':
      case 'headLabel':
      case 'tailLabel':
        if (tooLong) at(rank, { code: 'SPEC_TOO_LARGE', message: `${source}.${field} is ${lengthOf(value)} characters long; the limit is ${SPEC_LIMITS.labelLength}`, path: path(field) });
        else at(rank, { code: 'MALFORMED_EDGE', message: `${source}.${field} must be a string`, path: path(field) });
        break;
      case 'arrowhead':
      case 'startArrowhead':
        at(rank, { code: 'MALFORMED_EDGE', message: `${source}.${field} must be one of ${ARROWHEADS.join(', ')}; got ${JSON.stringify(value)}`, path: path(field), hint: arrowheadHint(value) });
        break;
      case 'style':
        at(rank, { code: 'MALFORMED_EDGE', message: `${source}.style must be one of ${EDGE_STYLES.join(', ')}; got ${JSON.stringify(value)}`, path: path(field), hint: edgeStyleHint(value) });
        break;
      case 'strokeWidth':
        at(rank, { code: 'MALFORMED_EDGE', message: `${source}.strokeWidth ${STROKE_WIDTH_RULE}; got ${JSON.stringify(value)}`, path: path(field) });
        break;
      case 'strokeColor':
        at(rank, { code: 'MALFORMED_EDGE', message: `${source}.strokeColor ${COLOUR_RULE}`, path: path(field) });
        break;
      case 'constraint':
        at(rank, { code: 'MALFORMED_EDGE', message: `${source}.constraint must be true or false; got ${JSON.stringify(value)}`, path: path(field) });
        break;
      case 'minLength':
        at(rank, { code: 'MALFORMED_EDGE', message: `${source}.minLength must be a whole number from ${MIN_LENGTH_RANGE[0]} to ${MIN_LENGTH_RANGE[1]}; got ${JSON.stringify(value)}`, path: path(field) });
        break;
      default:
        at(rank, { code: 'MALFORMED_EDGE', message: `${source}.${issue.path.join('.')}: ${issue.message}`, path: path(...(issue.path as PathKey[])) });
    }
  }
  return null;
}

function edgeEndHint(raw: Record<string, unknown>, field: 'from' | 'to'): string {
  const synonyms = field === 'from' ? ['source', 'src', 'start', 'tail'] : ['target', 'dst', 'destination', 'end', 'head'];
  const used = synonyms.find((key) => key in raw);
  return used ? `use "${field}" instead of "${used}"` : `an edge object names its ends: { "from": "a", "to": "b" }`;
}

/** The free text a spec's caption is drawn as. */
export const CAPTION_ID = 'diagram-caption';

/** The free texts an edge's head and tail labels are drawn as: `<edge>-head-label`, `<edge>-tail-label`. */
export function endLabelIds(edge: Pick<SpecEdge, 'id' | 'headLabel' | 'tailLabel'>): Array<{ id: string; name: 'head label' | 'tail label'; text: string; end: 'head' | 'tail' }> {
  return [
    ...(edge.headLabel !== undefined ? [{ id: `${edge.id}-head-label`, name: 'head label' as const, text: edge.headLabel, end: 'head' as const }] : []),
    ...(edge.tailLabel !== undefined ? [{ id: `${edge.id}-tail-label`, name: 'tail label' as const, text: edge.tailLabel, end: 'tail' as const }] : []),
  ];
}

/** `<from>-to-<to>`, then `-2`, `-3`… for repeats in spec order (docs/spec.md, "Generated ids"). */
function assignArrowIds(edges: RawEdge[], taken: Set<string> = new Set()): SpecEdge[] {
  const used = new Set(taken);
  return edges.map((edge) => {
    const base = `${edge.from}-to-${edge.to}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return { ...edge, id };
  });
}

/** The lines that draw an outlined shape: `<id>-outline` (and a cylinder's `<id>-top`, a subroutine's `<id>-left` and `<id>-right`, a double circle's `<id>-ring`). */
export const OUTLINE_SUFFIXES: Partial<Record<SpecNode['shape'], readonly string[]>> = {
  stadium: ['outline'],
  doublecircle: ['outline', 'ring'],
  hexagon: ['outline'],
  parallelogram: ['outline'],
  document: ['outline'],
  cylinder: ['outline', 'top'],
  subroutine: ['left', 'right'],
};

/** The ids generation adds for a node: its outline lines, its label and its icon. */
export function generatedNodeIds(node: SpecNode): string[] {
  const ids: string[] = [];
  // A marker draws neither label nor icon; an end has its dot.
  if (isMarker(node.shape)) return node.shape === 'end' ? [`${node.id}-dot`] : [];
  // An invisible node draws neither label nor icon.
  if (node.invisible) return [];
  for (const suffix of OUTLINE_SUFFIXES[node.shape] ?? []) ids.push(`${node.id}-${suffix}`);
  if (node.shape !== 'text' && node.label !== '') ids.push(`${node.id}-label`);
  if (node.icon !== null) ids.push(`${node.id}-icon`);
  return ids;
}

/** An icon id not in the catalog, with the id meant when only the `icon-` prefix is missing. */
export function unknownIconProblem(icon: string, named: string, path: string, isIcon: (id: string) => boolean): Problem {
  const guess = iconGuess(icon, isIcon);
  const bare = icon.toLowerCase().replace(/^icon-/, '');
  // The longest of its words that finds something, else the longest.
  const words = bare.split(/[-_\s.]+/).sort((a, b) => b.length - a.length);
  const query = words.find((word) => word.length >= 2 && listIcons({ q: word }).length > 0) ?? words[0] ?? bare;
  const hint = guess ? `use ${JSON.stringify(guess)}` : `find an icon id with GET /api/v1/icons?q=${encodeURIComponent(query)}, or leave "icon" out`;
  return { code: 'UNKNOWN_ICON', message: `${named}.icon ${quote(icon)} is not in the icon catalog (GET /api/v1/icons)`, path, hint };
}

/**
 * The catalog icon an unknown id most likely meant: the id with the `icon-` prefix, its words joined
 * (`icon-apache_flink` → `icon-apache-flink`) or its trailing words (`icon-apache-flink`); else the
 * catalog's best search match for its words (`icon-aws-s3` → Amazon S3, `icon-aks`, `postgres`);
 * else its trailing letters (`apacheflink` → `icon-flink`), one of its words, or another part of it,
 * longest first; null for none.
 */
function iconGuess(icon: string, isIcon: (id: string) => boolean): string | null {
  const bare = icon.toLowerCase().replace(/^icon-/, '');
  const words = bare.split(/[-_\s.]+/).filter((word) => word.length >= 2);
  const joined = words.join('');
  const found = (candidates: readonly string[]) => candidates.map((candidate) => `icon-${candidate}`).find((id) => id !== icon && isIcon(id));
  // A product's own name usually comes last (`apache flink`, `aws lambda`): trailing parts before the rest.
  const named = found([words.join('-'), ...words.map((_, i) => words.slice(i).join('-'))]);
  if (named) return named;
  const searched = words.length > 0 ? listIcons({ q: words.join(' ') }).find((match) => match.id !== icon && isIcon(match.id)) : undefined;
  if (searched) return searched.id;
  const candidates: string[] = [];
  for (let start = 1; joined.length - start >= 3; start++) candidates.push(joined.slice(start));
  candidates.push(...[...words].sort((a, b) => b.length - a.length));
  for (let length = joined.length - 1; length >= 3; length--) for (let start = 0; start + length <= joined.length; start++) candidates.push(joined.slice(start, start + length));
  return found(candidates) ?? null;
}

/** A dangling end, with the node meant when it names a label or differs only in case. */
export function danglingHint(end: string, nodes: readonly { id: string; label?: string | null }[]): string {
  const byLabel = nodes.find((node) => node.label === end && node.id !== end);
  if (byLabel) return `${quote(end)} is the label of node ${quote(byLabel.id)}; edges name node ids`;
  const byCase = nodes.find((node) => node.id.toLowerCase() === end.toLowerCase());
  if (byCase) return `ids are case-sensitive: did you mean ${quote(byCase.id)}?`;
  return 'add a node with this id, or correct the edge';
}

const ROOT_RANK: Record<string, number> = { version: 0, nodes: 2, edges: 3, layout: 6, caption: 7 };

/** The spec's own problems (not its nodes' or edges'), from the issues of the DiagramSpec schema. */
function rootProblems(input: unknown, issues: readonly Issue[], out: ProblemList): void {
  const spec = isPlainObject(input) ? input : {};
  for (const issue of issues) {
    const [field, second] = issue.path as PathKey[];
    if ((field === 'nodes' || field === 'edges') && second !== undefined) continue;
    const path = pointer(issue.path as PathKey[]);
    const at = (rank: number[], code: ContentCode, message: string, hint?: string) => out.schema([0, ...rank], { code, message, path, hint });
    if (field === undefined) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) out.schema([0, 1], { code: 'INVALID_SPEC', message: `spec has an unknown field "${key}"`, path: pointer([key]), hint: specFieldHint(key) });
      } else {
        at([0], 'INVALID_SPEC', 'spec must be an object with "nodes" and "edges"', Array.isArray(input) ? 'send an object: { "nodes": [...], "edges": [...] }' : typeof input === 'string' ? 'send the spec as a JSON object, not a string' : undefined);
      }
      continue;
    }
    const value = spec[field as string];
    switch (field) {
      case 'version':
        at([0], 'UNSUPPORTED_VERSION', `spec.version ${JSON.stringify(value)} is not supported; use "1" or omit it`);
        break;
      case 'nodes':
      case 'edges':
        if (issue.code === 'too_big') {
          const limit = field === 'nodes' ? SPEC_LIMITS.nodes : SPEC_LIMITS.edges;
          at([ROOT_RANK[field]! + 2], 'SPEC_TOO_LARGE', `spec has ${(value as unknown[]).length} ${field}; the limit is ${limit}`);
        } else at([ROOT_RANK[field]!], 'INVALID_SPEC', `spec.${field} must be an array`);
        break;
      case 'layout': {
        if (second === undefined && issue.code === 'unrecognized_keys') {
          for (const key of issue.keys) {
            out.schema([0, 6, 1], { code: 'INVALID_SPEC', message: `spec.layout has an unknown field "${key}"`, path: pointer(['layout', key]), hint: 'layout takes "direction" (TB, BT, LR or RL), "fold" (auto or off), "sameRank" (lists of node ids) and "captionAt" (top or bottom)' });
          }
        } else if (second === undefined) at([6, 0], 'INVALID_SPEC', 'spec.layout must be an object like { "direction": "LR" }');
        else if (second === 'fold') {
          const fold = isPlainObject(value) ? value.fold : undefined;
          at([6, 3], 'INVALID_SPEC', `spec.layout.fold must be one of ${FOLDS.join(', ')}; got ${JSON.stringify(fold)}`);
        } else if (second === 'captionAt') {
          const place = isPlainObject(value) ? value.captionAt : undefined;
          at([6, 5], 'INVALID_SPEC', `spec.layout.captionAt must be one of ${CAPTION_PLACES.join(', ')}; got ${JSON.stringify(place)}`);
        } else if (second === 'sameRank') {
          at([6, 4], 'INVALID_SPEC', `spec.layout.sameRank must be a list of lists of node ids, such as [["a", "b"]] (${issue.message})`, 'each inner list names the nodes laid out on one rank');
        } else {
          const direction = isPlainObject(value) ? value.direction : undefined;
          at([6, 2], 'INVALID_SPEC', `spec.layout.direction must be one of ${DIRECTIONS.join(', ')}; got ${JSON.stringify(direction)}`, directionHint(direction));
        }
        break;
      }
      case 'kind':
        at([0], 'INVALID_SPEC', `spec.kind must be "flow" (nodes and edges; the default), "sequence", "class" or "er"; got ${JSON.stringify(value)}`);
        break;
      case 'caption':
        if (issue.code === 'too_big') at([ROOT_RANK.caption! + 1], 'SPEC_TOO_LARGE', `spec.caption is ${lengthOf(value)} characters long; the limit is ${SPEC_LIMITS.labelLength}`);
        else at([ROOT_RANK.caption!], 'INVALID_SPEC', 'spec.caption must be a string: the title drawn on the diagram');
        break;
      default:
        at([9], 'INVALID_SPEC', `spec.${issue.path.join('.')}: ${issue.message}`);
    }
  }
}

/** Parents exist, are rectangles and form no cycle. */
function checkParents(nodes: readonly (SpecNode | null)[], index: Map<string, number>, out: ProblemList): void {
  const where = (i: number) => `nodes[${i}] (id ${quote(nodes[i]!.id)}).parent`;
  nodes.forEach((node, i) => {
    if (node === null || node.parent === null) return;
    const path = pointer(['nodes', i, 'parent']);
    const p = index.get(node.parent);
    if (p === undefined) {
      out.add({ code: 'INVALID_SPEC', message: `${where(i)} names ${quote(node.parent)}, which is not a node`, path, hint: 'parent is the id of another node in this spec (a rectangle)' });
      return;
    }
    const parent = nodes[p];
    if (!parent) return;
    if (parent.shape === 'text') out.add({ code: 'INVALID_SPEC', message: `${where(i)}: a text node cannot contain other nodes`, path, hint: `make ${quote(parent.id)} a rectangle (leave its shape out)` });
    else if (parent.shape !== 'rectangle') out.add({ code: 'INVALID_SPEC', message: `${where(i)}: a container must be a rectangle`, path, hint: `make ${quote(parent.id)} a rectangle (leave its shape out)` });
  });
  nodes.forEach((node, i) => {
    if (node === null) return;
    const seen = new Set([node.id]);
    for (let p = node.parent; p !== null; ) {
      if (p === node.id) {
        out.add({ code: 'INVALID_SPEC', message: `${where(i)} makes a cycle of containers`, path: pointer(['nodes', i, 'parent']), hint: 'a node cannot sit inside itself, directly or through other containers' });
        break;
      }
      if (seen.has(p)) break;
      seen.add(p);
      const next = index.get(p);
      const parent = next === undefined ? null : nodes[next];
      if (!parent) break;
      p = parent.parent;
    }
  });
}

/**
 * Every problem with a DiagramSpec (docs/spec.md): the DiagramSpec schema's
 * first (its shape, mapped to the content-model codes), then the semantic
 * checks over what is well formed (icons in the catalog, duplicate ids,
 * parents, dangling edges, generated-id collisions). With no problem, the
 * spec with its defaults filled in and its arrow ids assigned.
 */
export function checkSpec(input: unknown, options: ParseOptions): { problems: Problem[]; spec: DiagramSpec | null } {
  const payload = payloadProblem(input, 'spec');
  if (payload) return { problems: [payload], spec: null };
  const out = new ProblemList();
  const root = DiagramSpecSchema.safeParse(input);
  if (root.success) return crossCheckSpec(root.data, options);
  rootProblems(input, root.error.issues, out);
  if (!isPlainObject(input)) return { problems: out.list(), spec: null };
  return finish(null, input, options, out);
}

/**
 * The semantic checks of a spec that has passed the DiagramSpec schema (at the
 * edge, or in checkSpec), without parsing it again: icons, duplicate ids,
 * parents, dangling edges, generated-id collisions. With no problem, the spec
 * with its defaults filled in and its arrow ids assigned.
 */
function crossCheckSpec(spec: DiagramSpecInput, options: ParseOptions): { problems: Problem[]; spec: DiagramSpec | null } {
  return finish(spec as Record<string, unknown>, spec as Record<string, unknown>, options, new ProblemList());
}

/** Checks the nodes and edges one by one (so that each is named), then the semantic rules. */
function finish(parsed: Record<string, unknown> | null, input: Record<string, unknown>, options: ParseOptions, out: ProblemList) {
  const listOf = (key: 'nodes' | 'edges', limit: number): unknown[] => {
    const value = input[key];
    return Array.isArray(value) && value.length <= limit ? value : [];
  };
  const rawNodes = listOf('nodes', SPEC_LIMITS.nodes);
  const rawEdges = listOf('edges', SPEC_LIMITS.edges);

  const nodes: (SpecNode | null)[] = rawNodes.map((raw, i) => {
    if (parsed === null && !nodeSchemaProblems(raw, SpecNodeSchema, { list: 'nodes', section: 1 }, i, out)) return null;
    return toSpecNode(raw as Record<string, unknown>);
  });
  const edges: (RawEdge | null)[] = rawEdges.map((raw, i) => edgeSchemaProblems(raw, { list: 'edges', section: 3 }, i, out, parsed !== null));

  // Semantic checks, over what is well formed. A node whose id is usable counts as existing
  // even when another of its fields is wrong, so its edges are not reported dangling too.
  const index = new Map<string, number>();
  rawNodes.forEach((raw, i) => {
    if (!hasValidId(raw)) return;
    const first = index.get(raw.id);
    if (first !== undefined) out.add({ code: 'DUPLICATE_NODE_ID', message: `nodes[${i}] repeats the id ${quote(raw.id)} of nodes[${first}]`, path: pointer(['nodes', i, 'id']), hint: 'node ids must be unique; rename one of them' });
    else index.set(raw.id, i);
  });
  nodes.forEach((node, i) => {
    if (node?.icon != null && !options.isIcon(node.icon)) out.add(unknownIconProblem(node.icon, nodeName(node, `nodes[${i}]`), pointer(['nodes', i, 'icon']), options.isIcon));
  });
  checkParents(nodes, index, out);
  const known = rawNodes.filter(hasValidId).map((raw) => {
    const label = (raw as Record<string, unknown>).label;
    return { id: raw.id, label: typeof label === 'string' ? label : null };
  });
  edges.forEach((edge, i) => {
    if (edge === null) return;
    for (const [end, key] of [[edge.from, 'from'], [edge.to, 'to']] as const) {
      if (!index.has(end)) {
        const path = typeof rawEdges[i] === 'string' ? pointer(['edges', i]) : pointer(['edges', i, key]);
        out.add({ code: 'DANGLING_EDGE', message: `${edge.source} names ${quote(end)}, which is not a node id`, path, hint: danglingHint(end, known) });
      }
    }
  });

  const layoutInput = isPlainObject(input.layout) ? input.layout : {};
  if (parsed !== null || Array.isArray(layoutInput.sameRank)) {
    const lists = ((parsed?.layout as { sameRank?: unknown } | null | undefined)?.sameRank ?? layoutInput.sameRank) as unknown;
    if (Array.isArray(lists)) {
      lists.forEach((list, i) => {
        if (!Array.isArray(list)) return;
        list.forEach((id, j) => {
          if (typeof id === 'string' && !index.has(id)) {
            out.add({ code: 'INVALID_SPEC', message: `spec.layout.sameRank[${i}][${j}] names ${quote(id)}, which is not a node id`, path: pointer(['layout', 'sameRank', i, j]), hint: danglingHint(id, known) });
          }
        });
      });
    }
  }

  const goodNodes = nodes.filter((n): n is SpecNode => n !== null);
  const arrows = assignArrowIds(edges.filter((e): e is RawEdge => e !== null));
  const generated = new Map<string, string>();
  nodes.forEach((node, i) => {
    if (node) generatedNodeIds(node).forEach((id) => generated.set(id, `the ${id.slice(node.id.length + 1)} of nodes[${i}]`));
  });
  const caption = (parsed?.caption ?? input.caption) as string | null | undefined;
  // A blank caption draws nothing, so it takes no id.
  const drawsCaption = typeof caption === 'string' && /\S/.test(caption);
  if (drawsCaption) generated.set(CAPTION_ID, 'the caption');
  arrows.forEach((edge) => {
    generated.set(edge.id, `the arrow of ${edge.source}`);
    if (edge.label !== null) generated.set(`${edge.id}-label`, `the label of ${edge.source}`);
    for (const end of endLabelIds(edge)) generated.set(end.id, `the ${end.name} of ${edge.source}`);
  });
  nodes.forEach((node, i) => {
    const owner = node ? generated.get(node.id) : undefined;
    if (node && owner) {
      out.add({ code: 'ID_COLLISION', message: `nodes[${i}] id ${quote(node.id)} collides with the id generated for ${owner}`, path: pointer(['nodes', i, 'id']), hint: 'node ids must differ from the ids the server generates (<id>-label, <id>-icon, <id>-outline…, <from>-to-<to>, <edge>-head-label): rename the node' });
    }
  });

  const problems = out.list();
  if (problems.length > 0 || goodNodes.length !== nodes.length) return { problems, spec: null };
  const layout = (parsed?.layout ?? input.layout) as { direction?: Direction | null; fold?: 'auto' | 'off' | null; sameRank?: string[][] | null; captionAt?: CaptionPlace | null } | null | undefined;
  const spec: DiagramSpec = { direction: layout?.direction ?? 'TB', nodes: goodNodes, edges: arrows };
  if (layout?.fold) spec.fold = layout.fold;
  if (layout?.sameRank) spec.sameRank = layout.sameRank.map((list) => [...list]);
  if (drawsCaption) {
    spec.caption = caption as string;
    if (layout?.captionAt === 'bottom') spec.captionAt = 'bottom';
  }
  return { problems, spec };
}

/**
 * Parses and validates a DiagramSpec (docs/spec.md). Pure: any input yields a
 * spec or throws an ApiError with one of the content-model codes: the first
 * of checkSpec's problems, its message naming the offending element
 * (`nodes[3]`, `edges[7] "api -> db"`) and ending with the hint.
 */
export function parseSpec(input: unknown, options: ParseOptions): DiagramSpec {
  const { problems, spec } = checkSpec(input, options);
  throwFirst(problems);
  return spec!;
}

/** As parseSpec, for a spec that has passed the DiagramSpec schema already: its semantic checks only (crossCheckSpec). */
export function specFrom(parsed: DiagramSpecInput, options: ParseOptions): DiagramSpec {
  const { problems, spec } = crossCheckSpec(parsed, options);
  throwFirst(problems);
  return spec!;
}

