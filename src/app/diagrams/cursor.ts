import { createHash } from 'node:crypto';
import { badRequest } from '../../errors.ts';
import type { ListPosition } from '../../store/store.ts';
import { titleSearchKey } from '../../store/title-search.ts';

/** What narrows a listing: a cursor is valid only under the filters it was minted with. */
export interface ListFilters {
  trashed: boolean;
  folderId?: string | null | undefined;
  starred?: boolean | undefined;
  titleContains?: string | undefined;
  /** Whose diagrams: absent, the caller's own; `shared`, or `workspace:<id>` (src/app/sharing/reachable-diagrams.ts). */
  reach?: string | undefined;
}

/**
 * A short digest of the filters: two requests with the same digest list the
 * same diagrams (a title search is compared in its folded form, so `Straße`
 * and `STRASSE` agree, and a folder id in any letter case is one folder).
 */
function filtersDigest(filters: ListFilters): string {
  const canonical = JSON.stringify([
    filters.trashed,
    filters.folderId === undefined ? '*' : (filters.folderId?.toLowerCase() ?? null),
    filters.starred ?? '*',
    filters.titleContains ? titleSearchKey(filters.titleContains) : '',
    // Only present for other people's diagrams, so cursors of the owner's listing stay as they were.
    ...(filters.reach === undefined ? [] : [filters.reach.toLowerCase()]),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/**
 * Opaque list cursors: the (createdAt, id) of the last item served and a
 * digest of the filters it was served under, base64url-encoded.
 */
export function encodeCursor(position: ListPosition, filters: ListFilters): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id, filtersDigest(filters)])).toString('base64url');
}

/**
 * The position a cursor continues from; 400 bad_request for anything
 * encodeCursor did not write, and for a cursor minted under other filters
 * (its page would silently skip or repeat diagrams).
 */
export function decodeCursor(cursor: string, filters: ListFilters): ListPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // fall through to the one answer for every bad cursor
  }
  if (
    Array.isArray(value) &&
    value.length === 3 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'string' &&
    typeof value[2] === 'string' &&
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value[0]) &&
    /^[0-9A-Za-z-]{1,64}$/.test(value[1])
  ) {
    if (value[2] !== filtersDigest(filters)) {
      throw badRequest('cursor belongs to a listing with other filters (filter, q, folderId, starred); repeat them unchanged with the cursor, or omit the cursor for the first page');
    }
    return { createdAt: value[0], id: value[1] };
  }
  throw badRequest('cursor is not valid; pass back a nextCursor unchanged, or omit it for the first page');
}
