import type { SceneElement } from '../../domain/edit/types.ts';
import { restoredOver } from '../../domain/history/restore.ts';
import { type IfMatch, writePrecondition } from '../diagrams/etag.ts';
import { writeContent, writeStamp } from '../diagrams/write-content.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { revisionWithScene } from './get-revision.ts';
import { revisionId } from '../../api/revision-id.ts';

/**
 * Writes a past revision's scene as a new revision (history is never
 * rewritten). Elements that differ from their current selves continue the
 * current versions, so an open editor takes them over what it holds; comments
 * that were resolved because their element went away are opened again when
 * it is back. With `expectedUpdatedAt` or If-Match, a diagram changed since
 * is stale_read and nothing is written. Needs write access.
 */
export async function restoreRevision(deps: AppDeps, caller: Caller, id: string, rev: string, precondition: { expectedUpdatedAt?: string | null | undefined; ifMatch?: IfMatch | undefined }) {
  const { record, elementsJson } = await revisionWithScene(deps, caller, id, rev);
  const restored = JSON.parse(elementsJson) as SceneElement[];
  const stamp = writeStamp(deps);
  const from = revisionId(record.seq);
  const { result, etag } = await writeContent(
    deps,
    caller,
    id,
    writePrecondition(precondition.expectedUpdatedAt ?? null, precondition.ifMatch),
    { kind: 'restore', lead: `restored ${from}`, detail: { restoredFrom: record.seq }, reopenComments: true },
    (current) => ({ elements: restoredOver(current(), restored, stamp) }),
  );
  return {
    // With history off the restore is written but recorded nowhere: it has no revision of its own.
    rev: result.revision === null ? null : revisionId(result.revision),
    restoredFrom: from,
    docUpdatedAt: result.docUpdatedAt,
    elements: restored.length,
    unresolvedComments: result.reopenedComments,
    etag,
  };
}
