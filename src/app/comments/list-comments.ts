import type { CommentRecord } from '../../store/store.ts';
import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** The comments on a diagram the caller may view. */
export async function listComments(deps: AppDeps, caller: Caller, diagramId: string): Promise<CommentRecord[]> {
  const diagram = await diagramFor(deps, caller, diagramId, 'read');
  return deps.store.comments.list(diagram.id);
}
