import * as present from '../../api/presenters/history.ts';
import { ApiError } from '../../errors.ts';
import type { DiagramMeta, RevisionRecord } from '../../store/store.ts';
import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { revisionInPath } from '../../api/revision-id.ts';

/** A diagram the caller may read, one of its revisions, and that revision's elements as JSON text (for an event, the content current then). */
export async function revisionWithScene(deps: AppDeps, caller: Caller, id: string, rev: string): Promise<{ diagram: DiagramMeta; record: RevisionRecord; elementsJson: string }> {
  const diagram = await diagramFor(deps, caller, id, 'read');
  const seq = revisionInPath(rev);
  const record = await deps.store.history.find(diagram.id, seq);
  const elementsJson = record ? await deps.store.history.scene(diagram.id, seq) : null;
  if (!record || elementsJson === null) throw new ApiError('not_found', `no revision ${rev} of this diagram`);
  return { diagram, record, elementsJson };
}

/** A past revision's scene. */
export async function getRevision(deps: AppDeps, caller: Caller, id: string, rev: string) {
  const { record, elementsJson } = await revisionWithScene(deps, caller, id, rev);
  return present.revisionElements(record, elementsJson);
}
