import type { ZodType } from 'zod';
import { ApiError, badRequest } from '../errors.ts';
import { type ContentKind, contentProblems } from '../domain/content-problems.ts';
import { isCatalogIcon } from '../domain/icons/catalog.ts';
import { inspectPayload, isPlainObject } from '../domain/payload.ts';
import { type Problem, problemError } from '../domain/problems.ts';

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
 * other control character is storable and kept as sent (titles and names
 * drop them: domain/title.ts).
 */
function unstorableIn(text: string): string | null {
  if (text.includes('\u0000')) return 'a NUL character';
  if (!text.isWellFormed()) return 'a lone UTF-16 surrogate';
  return null;
}

/**
 * The top-level fields of a body (or of MCP tool arguments) that hold a title
 * or a name: a diagram's title, a folder's, workspace's or token's name. Every
 * one is cleaned before it is stored (domain/title.ts drops control characters,
 * NUL included, and mends lone surrogates), so a string there is never refused.
 */
export const CLEANED_FIELDS: readonly string[] = ['title', 'name'];

/** The roots whose top-level CLEANED_FIELDS are cleaned rather than refused. */
const CLEANED_ROOTS: readonly string[] = ['body', 'arguments'];

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

/** Whether a visited string is a title or a name, which is cleaned rather than refused (CLEANED_FIELDS). */
function isCleaned(visit: TextVisit): boolean {
  const parent = visit.parent;
  return parent !== null && parent.parent === null && CLEANED_ROOTS.includes(String(parent.key)) && CLEANED_FIELDS.includes(String(visit.key));
}

/**
 * Refuses a request in which any string value or object key could not be
 * stored (see unstorableIn) with 400 bad_request naming where it is, e.g.
 * `body.ops[3].element.id contains a NUL character`. `parts` names the roots:
 * `{ params, query, body }` for an HTTP request, `{ arguments }` for an MCP
 * tool call. A title or name (CLEANED_FIELDS) is let through: it is cleaned.
 * Walks without recursion, so any nesting is safe.
 */
export function refuseUnstorableText(parts: Record<string, unknown>): void {
  const stack: TextVisit[] = Object.entries(parts)
    .reverse()
    .map(([key, value]) => ({ value, parent: null, key }));
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (isCleaned(visit)) continue;
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

const fragmentOf = (body: Record<string, unknown>) => Object.fromEntries(['addNodes', 'addEdges', 'updateNodes', 'after'].filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));

/**
 * The content fields of request bodies, typed with the content schemas
 * (src/api/schemas.ts): the content each holds (an edit's three lists are one
 * fragment), from what depth an issue is the content's, and whether it goes on
 * parsed or exactly as sent. A spec, a scene or a source is content as a whole;
 * a list (an edit's, ops) is the body's, and its items are content, so a list
 * that is not one stays a bad_request as it always was. No other body has a
 * field of these names.
 *
 * A spec goes on parsed: the use case adds only the checks across its parts
 * (ids, parents, edges, icons). The rest goes on as sent (key order included),
 * its shape checked here: a scene is stored as supplied, a source is read by
 * its own parser, and an edit or ops (typed by their schemas, which transform
 * nothing) get only the checks against the diagram they apply to.
 */
const CONTENT_FIELDS: Record<string, { kind: ContentKind; of: (body: Record<string, unknown>) => unknown; depth: number; asSent: boolean }> = {
  spec: { kind: 'spec', of: (body) => body.spec, depth: 1, asSent: false },
  scene: { kind: 'scene', of: (body) => body.scene, depth: 1, asSent: true },
  source: { kind: 'source', of: (body) => body.source, depth: 1, asSent: true },
  ops: { kind: 'ops', of: (body) => body.ops, depth: 2, asSent: true },
  addNodes: { kind: 'edit', of: fragmentOf, depth: 2, asSent: true },
  addEdges: { kind: 'edit', of: fragmentOf, depth: 2, asSent: true },
  updateNodes: { kind: 'edit', of: fragmentOf, depth: 2, asSent: true },
};

/** Every problem with content of `kind`, found where the caller chooses (large content in a scene worker). */
export type ContentCheck = (kind: ContentKind, content: unknown) => Promise<Problem[]>;

/** A schema's verdict: the parsed value, or content that failed it (to check for its first problem), or else a bad_request. */
type Verdict<T> = { ok: true; data: T } | { ok: false; kind: ContentKind; content: unknown; otherwise: ApiError };

/**
 * Parses with a zod schema. A failure is a 400 bad_request naming the first
 * offending field, except inside a content field (a spec, a scene, an edit's
 * nodes, edges and updates, patch ops): there it is the content check's first
 * problem, with the code and message the domain would give, so a typed body
 * answers exactly as the use case behind it would. Other fields come first,
 * as bad_request, as they always have.
 */
export function parseWith<T>(schema: ZodType<T>, value: unknown, what: 'body' | 'query'): T {
  const verdict = judge(schema, value, what);
  if (verdict.ok) return verdict.data;
  throw refusal(contentProblems(verdict.kind, verdict.content, null, { isIcon: isCatalogIcon }), verdict.otherwise);
}

/** parseWith for a request body, its content's problems found by `check`: content that fails its schema may be large. */
export async function parseBodyWith<T>(schema: ZodType<T>, value: unknown, check: ContentCheck): Promise<T> {
  const verdict = judge(schema, value, 'body');
  if (verdict.ok) return verdict.data;
  throw refusal(await check(verdict.kind, verdict.content), verdict.otherwise);
}

const refusal = ([first]: Problem[], otherwise: ApiError): ApiError => (first ? problemError(first) : otherwise);

function judge<T>(schema: ZodType<T>, value: unknown, what: 'body' | 'query'): Verdict<T> {
  const result = schema.safeParse(value);
  const body = what === 'body' && isPlainObject(value) ? value : null;
  const present = body ? Object.keys(CONTENT_FIELDS).filter((key) => Object.hasOwn(body, key)) : [];
  if (result.success) {
    const data = result.data as Record<string, unknown>;
    for (const key of present) if (CONTENT_FIELDS[key]!.asSent) data[key] = body![key];
    return { ok: true, data: result.data };
  }
  if (value === undefined && what === 'body') throw new ApiError('bad_request', 'a JSON request body is required');
  const issues = result.error.issues;
  const kinds = new Set(present.map((key) => CONTENT_FIELDS[key]!.kind));
  const content = (path: readonly PropertyKey[]) => {
    const field = typeof path[0] === 'string' && present.includes(path[0]) ? CONTENT_FIELDS[path[0]] : undefined;
    return field && path.length >= field.depth ? field : undefined;
  };
  const issue = issues.find((i) => !content(i.path)) ?? issues[0]!;
  const field = content(issue.path);
  if (field && kinds.size > 1) throw badRequest(`send exactly one of ${[...present].map((k) => `"${k}"`).join(' or ')}`);
  const where = formatPath(issue.path);
  const unwrapped = body && issue.code === 'unrecognized_keys' && issue.path.length === 0 ? unwrappedSpecHint(schema, issue.keys) : '';
  const otherwise = new ApiError('bad_request', `${where ? `${where}: ` : `${what}: `}${issue.message}${unwrapped}`);
  if (field) return { ok: false, kind: field.kind, content: field.of(body!), otherwise };
  throw otherwise;
}

/** A spec's own fields, and the kinds': sent at a body's top level, they are a spec that was not wrapped. */
const SPEC_FIELDS = new Set(['nodes', 'edges', 'layout', 'kind', 'participants', 'steps', 'classes', 'relations', 'entities', 'relationships', 'caption', 'version']);

/** For a body that takes a spec, sent one's fields at its top level: the hint to wrap them, the way to send it. */
function unwrappedSpecHint(schema: ZodType, keys: readonly string[]): string {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  const sent = keys.filter((key) => SPEC_FIELDS.has(key));
  if (!shape || !('spec' in shape) || sent.length === 0) return '';
  return `; a spec goes inside "spec": send { "title": …, "spec": { ${sent.map((key) => `"${key}": …`).join(', ')} } }`;
}

/** The page size of a cursor-paged list when `?limit=` is absent, and the most a page holds. */
const PAGE_SIZE_DEFAULT = 50;
const PAGE_SIZE_MAX = 100;

/** `?limit=` of a cursor-paged list: an integer, clamped to 1..PAGE_SIZE_MAX; absent, PAGE_SIZE_DEFAULT. */
export function pageSize(raw: string | undefined): number {
  if (raw === undefined) return PAGE_SIZE_DEFAULT;
  if (!/^\s*-?\d+\s*$/.test(raw)) throw badRequest('limit must be an integer');
  return Math.min(PAGE_SIZE_MAX, Math.max(1, Number(raw)));
}
