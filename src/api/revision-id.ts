import { ApiError, badRequest } from '../errors.ts';

/**
 * Revision ids as clients see them: opaque, URL-safe strings ("r17"). Within
 * the service they are a diagram's revision numbers; clients only pass them
 * back.
 */
export const revisionId = (seq: number): string => `r${seq}`;

const SHAPE = /^r([1-9][0-9]{0,14})$/;

/** The revision number an id names; null when it is no revision id at all. */
function seqOf(rev: string): number | null {
  const match = SHAPE.exec(rev);
  return match ? Number(match[1]) : null;
}

/** The revision a path names: a malformed id names no revision, so it is a 404 like an unknown one. */
export function revisionInPath(rev: string): number {
  const seq = seqOf(rev);
  if (seq === null) throw new ApiError('not_found', `no revision ${rev} of this diagram`);
  return seq;
}

/** A revision named in a query parameter: a malformed one is the client's mistake. */
export function revisionInQuery(rev: string, name: string): number {
  const seq = seqOf(rev);
  if (seq === null) throw badRequest(`${name} must be a revision id from this diagram's history (like "r12")`);
  return seq;
}
