/** Keys that could poison an object's prototype chain if merged anywhere. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Deeper JSON than this is refused: nothing legitimate nests that far. */
export const MAX_PAYLOAD_DEPTH = 64;

export type PayloadProblem =
  | { kind: 'forbidden_key'; path: string; key: string }
  | { kind: 'too_deep'; path: string };

function formatPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (parent ? `${parent}.${key}` : key) : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Walks a parsed JSON value without recursion (so hostile nesting cannot blow
 * the stack) and reports the first forbidden key or excessive depth.
 */
export function inspectPayload(value: unknown, rootPath = ''): PayloadProblem | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_PAYLOAD_DEPTH) return { kind: 'too_deep', path: path || '(root)' };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: formatPath(path, i), depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(current)) {
      if (FORBIDDEN_KEYS.has(key)) return { kind: 'forbidden_key', path: formatPath(path, key), key };
      stack.push({ value: (current as Record<string, unknown>)[key], path: formatPath(path, key), depth: depth + 1 });
    }
  }
  return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
