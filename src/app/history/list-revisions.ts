import * as present from '../../api/presenters/history.ts';
import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { revisionInQuery } from '../../api/revision-id.ts';


/**
 * A diagram's history, newest first, a page at a time: the cursor is the last
 * revision served. Whoever may read the diagram may read its history.
 */
export async function listRevisions(deps: AppDeps, caller: Caller, id: string, page: { cursor?: string | undefined; limit: number }) {
  const diagram = await diagramFor(deps, caller, id, 'read');
  const { limit } = page;
  const beforeSeq = page.cursor === undefined ? null : revisionInQuery(page.cursor, 'cursor');
  // One more than the page, to know whether another follows.
  const records = await deps.store.history.list(diagram.id, { beforeSeq, limit: limit + 1 });
  const items = records.slice(0, limit).map(present.revision);
  return { items, nextCursor: records.length > limit ? items[items.length - 1]!.rev : null };
}
