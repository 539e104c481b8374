import { createHash } from 'node:crypto';
import { editorUrl } from '../../api/paths.ts';
import { badRequest } from '../../errors.ts';
import type { DiagramMeta } from '../../store/store.ts';

/**
 * A diagram's entity tag (strong): a digest of everything its GET answer
 * shows that can change — the revision of the scene (docUpdatedAt, new on
 * every content write), the title, the folder, the trash state, updatedAt
 * and the editor URL — plus the star, which the answer does not show but
 * which is part of the diagram. Two answers with one ETag are byte for byte
 * the same, so a 304 is never wrong.
 */
export function diagramEtag(d: DiagramMeta, publicUrl: string): string {
  return `"${createHash('sha256').update(etagInputs(d, publicUrl)).digest('base64url').slice(0, 32)}"`;
}

/** The fields a diagram's ETag digests, as the text digested. */
export function etagInputs(d: DiagramMeta, publicUrl: string): string {
  return JSON.stringify([d.id, d.ownerId, d.createdAt, d.docUpdatedAt, d.updatedAt, d.title, d.folderId, d.deletedAt, d.starred, editorUrl(publicUrl, d.id)]);
}

/** If-Match as the use cases take it: `*` (any current revision), or ETags of which one must be current. */
export type IfMatch = '*' | readonly string[];

/**
 * What a content write requires of the diagram it replaces: the revision the
 * client read (expectedUpdatedAt), or one of the ETags it read (If-Match);
 * null writes over whatever is current.
 */
export type WritePrecondition = { docUpdatedAt: string } | { etags: readonly string[] } | null;

/**
 * The one precondition of a write from its two ways of saying it. Both at
 * once are refused: an ETag is opaque, so whether it agrees with an
 * expectedUpdatedAt cannot be told.
 */
export function writePrecondition(expectedUpdatedAt: string | null | undefined, ifMatch: IfMatch | undefined): WritePrecondition {
  if (ifMatch !== undefined && expectedUpdatedAt != null) {
    throw badRequest('send one precondition: either the If-Match header or expectedUpdatedAt in the body, not both');
  }
  if (ifMatch === undefined) return expectedUpdatedAt == null ? null : { docUpdatedAt: expectedUpdatedAt };
  return ifMatch === '*' ? null : { etags: ifMatch };
}
