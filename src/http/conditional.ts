/**
 * The conditional request headers (RFC 9110 §13): If-Match guards a write,
 * If-None-Match lets a reader revalidate what it holds.
 */
import { badRequest } from '../errors.ts';

const ETAG_LIST = /^(\s*(W\/)?"[\x21\x23-\x7e\x80-\xff]*"\s*)(,(\s*(W\/)?"[\x21\x23-\x7e\x80-\xff]*"\s*))*$/;

/** The tags a header lists, '*', or null when it is absent or not a list of quoted ETags. */
function etagList(header: string | string[] | undefined): '*' | string[] | null {
  if (header === undefined) return null;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return '*';
  if (!ETAG_LIST.test(text)) return null;
  return text.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');
}

/**
 * If-Match as a write's precondition: undefined when absent, '*' for any
 * current revision, else the ETags listed (compared strongly: a weak one
 * matches nothing). Malformed is 400, never ignored: a write the client meant
 * to guard must not go through unguarded.
 */
export function ifMatch(header: string | string[] | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const tags = etagList(header);
  if (tags === null) throw badRequest('If-Match must be * or a comma-separated list of quoted ETags, e.g. If-Match: "…" as GET answered in ETag');
  return tags;
}

/**
 * Whether an If-None-Match header matches `etag` (weak comparison): then a
 * GET answers 304. A malformed header is ignored, as if absent: the answer is
 * the full one, which is never wrong.
 */
export function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  const tags = etagList(header);
  if (tags === null) return false;
  return tags === '*' || tags.some((tag) => tag.replace(/^W\//, '') === etag);
}

/** The request header documentation of a content write that takes If-Match. */
export const IF_MATCH_DOC = {
  'If-Match':
    'Write only if the diagram is still as last read: its ETag from GET /diagrams/{id} (or from an earlier write), or `*` for any revision. A changed diagram is 409 stale_read and nothing is written. An alternative to expectedUpdatedAt: sending both is 400 bad_request.',
};

/** The response header documentation of an answer that carries the diagram's ETag. */
export const ETAG_DOC = {
  ETag: "The diagram's entity tag (strong) after this answer; it changes with the scene's revision, the title, the folder, the trash state and the star",
};
