import { notFound } from '../../errors.ts';
import type { CommentRecord } from '../../store/store.ts';
import { listComments } from './list-comments.ts';

type Deps = Parameters<typeof listComments>[0];
type Caller = Parameters<typeof listComments>[1];

/** One comment on a diagram the caller may view; not_found when the diagram or the comment is not there. */
export async function getComment(deps: Deps, caller: Caller, diagramId: string, commentId: string): Promise<CommentRecord> {
  const comment = (await listComments(deps, caller, diagramId)).find((c) => c.id === commentId);
  if (!comment) throw notFound();
  return comment;
}
