import { badRequest } from '../errors.ts';
import type { ListPosition } from '../store/store.ts';

/** Opaque list cursors: the (createdAt, id) of the last item served, base64url-encoded. */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through to the one answer for every bad cursor
  }
  throw badRequest('cursor is not valid; pass back a nextCursor unchanged, or omit it for the first page');
}
