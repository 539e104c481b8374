import { badRequest } from '../../errors.ts';
import type { ListPosition } from '../../store/store.ts';

/** Opaque list cursors: the (createdAt, id) of the last item served, base64url-encoded. */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // Only what encodeCursor writes: an ISO timestamp and an id of letters, digits and dashes.
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value[0]) &&
      /^[0-9A-Za-z-]{1,64}$/.test(value[1])
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through to the one answer for every bad cursor
  }
  throw badRequest('cursor is not valid; pass back a nextCursor unchanged, or omit it for the first page');
}
