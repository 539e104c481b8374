import type { ZodType } from 'zod';
import { ApiError, badRequest } from '../errors.ts';
import { inspectPayload } from '../domain/payload.ts';

/** The largest request body any route takes (a form posting a spec may take 3×: form encoding triples JSON's punctuation). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/** Refuses poisoned or absurdly nested JSON before any schema sees it; `root` prefixes the path in messages. */
export function checkPayloadShape(body: unknown, root = ''): void {
  const problem = inspectPayload(body, root);
  if (problem?.kind === 'forbidden_key') {
    throw new ApiError('PROTO_KEY', `${problem.path}: the key "${problem.key}" is not allowed anywhere in a payload`);
  }
  if (problem?.kind === 'too_deep') throw new ApiError('bad_request', `${problem.path}: JSON nests too deeply`);
  if (problem?.kind === 'non_finite') throw new ApiError('bad_request', `${problem.path}: number is out of range`);
}

/**
 * What in a string PostgreSQL cannot store as text: a NUL, or half of a UTF-16
 * surrogate pair (no UTF-8 encodes it; the driver would silently write U+FFFD).
 * SQLite would keep both, so the edge refuses them on either engine. Every
 * other control character is storable and kept as sent (titles and folder
 * names drop them: domain/title.ts).
 */
function unstorableIn(text: string): string | null {
  if (text.includes('\u0000')) return 'a NUL character';
  if (!text.isWellFormed()) return 'a lone UTF-16 surrogate';
  return null;
}

interface TextVisit {
  value: unknown;
  parent: TextVisit | null;
  key: string | number;
}

/** A visited value's path (`body.ops[3].element.id`), built only when it is reported. */
function textPath(visit: TextVisit): string {
  const keys: Array<string | number> = [];
  for (let v: TextVisit | null = visit; v; v = v.parent) keys.push(v.key);
  return keys.reverse().reduce<string>((out, key) => {
    if (out === '') return String(key);
    if (typeof key === 'number') return `${out}[${key}]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? `${out}.${key}` : `${out}[${JSON.stringify(key)}]`;
  }, '');
}

/**
 * Refuses a request in which any string value or object key could not be
 * stored (see unstorableIn) with 400 bad_request naming where it is, e.g.
 * `body.ops[3].element.id contains a NUL character`. `parts` names the roots:
 * `{ params, query, body }` for an HTTP request, `{ arguments }` for an MCP
 * tool call. Walks without recursion, so any nesting is safe.
 */
export function refuseUnstorableText(parts: Record<string, unknown>): void {
  const stack: TextVisit[] = Object.entries(parts)
    .reverse()
    .map(([key, value]) => ({ value, parent: null, key }));
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      const problem = unstorableIn(current);
      if (problem) throw badRequest(`${textPath(visit)} contains ${problem}`);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], parent: visit, key: i });
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (const key of keys) {
        const problem = unstorableIn(key);
        if (problem) throw badRequest(`${textPath(visit)}: the key ${JSON.stringify(key)} contains ${problem}`);
      }
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (current as Record<string, unknown>)[keys[i]!], parent: visit, key: keys[i]! });
    }
  }
}

/** The parameter names a query schema takes (none without one). */
export function queryParameterNames(schema: ZodType | undefined): string[] {
  if (!schema) return [];
  return Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape);
}

/** Refuses a query parameter the route does not take (a misspelt filter would otherwise be silently ignored): 400 bad_request naming it. */
export function refuseUnknownQueryParameters(query: unknown, known: readonly string[]): void {
  if (query === null || typeof query !== 'object') return;
  const unknown = Object.keys(query).find((name) => !known.includes(name));
  if (unknown !== undefined) throw badRequest(`unknown query parameter ${JSON.stringify(unknown)}${known.length > 0 ? `; this call takes ${known.join(', ')}` : '; this call takes none'}`);
}

/** Parses with a zod schema; a failure is a 400 bad_request naming the first offending field. */
export function parseWith<T>(schema: ZodType<T>, value: unknown, what: 'body' | 'query'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = formatPath(issue.path);
  if (value === undefined && what === 'body') throw new ApiError('bad_request', 'a JSON request body is required');
  throw new ApiError('bad_request', `${where ? `${where}: ` : `${what}: `}${issue.message}`);
}
