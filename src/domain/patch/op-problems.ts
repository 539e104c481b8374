/**
 * The shape of patch ops checked with their schema (PatchOp), before any op is
 * applied: each issue becomes the INVALID_SPEC problem, `ops[i]: …`, that the
 * engine has always reported for it, plus the two rules of a single op a
 * schema does not state (a move's one pair, a restyle's at least one field).
 */
import { elementTypeHint, opFieldHint, opKindHint } from '../hints.ts';
import { isPlainObject } from '../payload.ts';
import { type PathKey, ProblemList, pointer } from '../problems.ts';
import { COMMON_FIELDS, ELEMENT_TYPES, OP_KINDS, type OpKind, STYLE_CHECKS, STYLE_KEYS } from './grammar.ts';
import { MAX_PATCH_OPS, PatchOp } from './schema.ts';

const FIELD_RANK: Record<string, number> = { id: 2, element: 3, set: 3, x: 4, y: 5, dx: 4, dy: 5, width: 4, height: 5 };

/**
 * Adds the shape problems of `ops` to `out`; answers the indices of the ops that are well formed.
 * `wellFormed`: every op has passed the PatchOp schema (at the edge), so only the rules it does not state are checked.
 */
export function opsShapeProblems(ops: unknown, out: ProblemList, wellFormed = false): Set<number> {
  const good = new Set<number>();
  if (!Array.isArray(ops)) {
    out.schema([0], { code: 'INVALID_SPEC', message: 'ops must be an array of patch ops', path: '', hint: 'send "ops": [{ "op": "move", "id": "db", "dx": 40, "dy": 0 }]' });
    return good;
  }
  if (ops.length === 0) {
    out.schema([0], { code: 'INVALID_SPEC', message: 'ops must hold at least one op', path: '' });
    return good;
  }
  if (ops.length > MAX_PATCH_OPS) {
    out.schema([0], { code: 'INVALID_SPEC', message: `ops holds ${ops.length} ops; the limit is ${MAX_PATCH_OPS}`, path: '', hint: 'split the ops over several patches' });
    return good;
  }
  ops.forEach((op, i) => {
    if (opShapeProblems(op, i, out, wellFormed)) good.add(i);
  });
  return good;
}

function opShapeProblems(raw: unknown, i: number, out: ProblemList, wellFormed: boolean): boolean {
  const at = (rank: number, message: string, keys: PathKey[], hint?: string) => out.schema([1, i, rank], { code: 'INVALID_SPEC', message: `ops[${i}]: ${message}`, path: pointer([i, ...keys]), hint });
  if (!isPlainObject(raw)) {
    at(0, 'each op must be an object with an "op"', []);
    return false;
  }
  const kind = raw.op as OpKind;
  if (typeof raw.op !== 'string' || !OP_KINDS.includes(kind)) {
    at(0, `"op" must be one of ${OP_KINDS.join(', ')}; got ${JSON.stringify(raw.op)}`, ['op'], opKindHint(raw.op));
    return false;
  }
  let ok = true;
  const result = wellFormed ? { success: true as const } : PatchOp.safeParse(raw);
  for (const issue of result.success ? [] : result.error.issues) {
    ok = false;
    const [field, sub] = issue.path as PathKey[];
    if (field === undefined) {
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) at(1, `a ${kind} op has no field "${key}"`, [key], opFieldHint(kind, key));
      continue;
    }
    const value = raw[field as string];
    const rank = FIELD_RANK[field as string] ?? 6;
    if (field === 'id') at(rank, '"id" must be a non-empty string', ['id']);
    else if (field === 'set') at(rank, '"set" must be an object with at least one field', ['set']);
    else if (field === 'element') elementProblem(value, sub, at);
    else if (kind === 'move') at(rank, `"${String(field)}" must be a finite number`, [field]);
    else if (kind === 'resize') at(rank, `"${String(field)}" must be a number above 0`, [field]);
    else if (kind === 'restyle' && field in STYLE_CHECKS) at(rank, `"${String(field)}" ${STYLE_CHECKS[field as keyof typeof STYLE_CHECKS](value)}`, [field]);
    else at(rank, `${(issue.path as PathKey[]).join('.')}: ${issue.message}`, issue.path as PathKey[]);
  }
  if (kind === 'move' && result.success) {
    const absolute = raw.x !== undefined || raw.y !== undefined;
    const relative = raw.dx !== undefined || raw.dy !== undefined;
    if (absolute === relative) {
      at(4, 'a move takes either "x" and "y" or "dx" and "dy"', [], 'give "x" and "y" to move to a place, or "dx" and "dy" to move by an offset');
      ok = false;
    } else {
      for (const key of absolute ? ['x', 'y'] : ['dx', 'dy']) {
        if (raw[key] === undefined) {
          at(FIELD_RANK[key]!, `"${key}" must be a finite number`, [key]);
          ok = false;
        }
      }
    }
  }
  if (kind === 'restyle' && result.success && !STYLE_KEYS.some((key) => raw[key] !== undefined)) {
    at(4, `a restyle needs at least one of ${STYLE_KEYS.join(', ')}`, []);
    ok = false;
  }
  return ok;
}

function elementProblem(element: unknown, field: PathKey | undefined, at: (rank: number, message: string, keys: PathKey[], hint?: string) => void): void {
  if (!isPlainObject(element)) return at(3, '"element" must be an object with at least a "type"', ['element'], 'for example { "type": "rectangle", "x": 0, "y": 0 }');
  if (field === undefined) return;
  const key = String(field);
  const value = element[key];
  if (key === 'type') return at(3, `element.type must be one of ${ELEMENT_TYPES.join(', ')}; got ${JSON.stringify(value)}`, ['element', 'type'], elementTypeHint(value));
  if (key === 'id') return at(3, 'element.id must be a non-empty string (or absent, for a generated one)', ['element', 'id']);
  const check = COMMON_FIELDS[key];
  at(4, `element.${key} ${check?.(value) ?? 'is not valid'}`, ['element', key]);
}
