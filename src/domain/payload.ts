/** Keys that could poison an object's prototype chain if merged anywhere. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Deeper JSON than this is refused: nothing legitimate nests that far. */
export const MAX_PAYLOAD_DEPTH = 64;

/** `path` names the place for messages (`spec.nodes[0]`); `keys` is the same place as keys below the root. */
export type PayloadProblem =
  | { kind: 'forbidden_key'; path: string; keys: Array<string | number>; key: string }
  | { kind: 'too_deep'; path: string; keys: Array<string | number> }
  | { kind: 'non_finite'; path: string; keys: Array<string | number> };

function formatPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (parent ? `${parent}.${key}` : key) : `${parent}[${JSON.stringify(key)}]`;
}

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | null;
  key: string | number | null;
}

/** The keys from the root to a visited value, built only when a problem is reported. */
function keysOf(visit: Visit): Array<string | number> {
  const keys: Array<string | number> = [];
  for (let v: Visit | null = visit; v && v.key !== null; v = v.parent) keys.push(v.key);
  return keys.reverse();
}

/** The path of a visited value, for messages. */
function pathOf(visit: Visit, rootPath: string): string {
  return keysOf(visit).reduce<string>(formatPath, rootPath);
}

/**
 * Walks a parsed JSON value without recursion (so hostile nesting cannot blow
 * the stack) and reports the first forbidden key, excessive depth, or number
 * too large for a double (JSON.parse makes 1e400 Infinity, which would be
 * stored as null).
 */
export function inspectPayload(value: unknown, rootPath = ''): PayloadProblem | null {
  const stack: Visit[] = [{ value, depth: 0, parent: null, key: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'number' && !Number.isFinite(current)) return { kind: 'non_finite', path: pathOf(visit, rootPath) || '(root)', keys: keysOf(visit) };
    if (current === null || typeof current !== 'object') continue;
    if (visit.depth >= MAX_PAYLOAD_DEPTH) return { kind: 'too_deep', path: pathOf(visit, rootPath) || '(root)', keys: keysOf(visit) };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], depth: visit.depth + 1, parent: visit, key: i });
      continue;
    }
    for (const key of Object.keys(current)) {
      const child: Visit = { value: (current as Record<string, unknown>)[key], depth: visit.depth + 1, parent: visit, key };
      if (FORBIDDEN_KEYS.has(key)) return { kind: 'forbidden_key', path: pathOf(child, rootPath), keys: keysOf(child), key };
      stack.push(child);
    }
  }
  return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A client's value as error messages quote it: JSON-quoted, long values cut to 60 characters. */
export const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
