import type { SceneElement } from '../../domain/edit/types.ts';
import { sceneDelta } from '../../domain/history/delta.ts';
import { describeDelta } from '../../domain/history/describe.ts';
import { ApiError } from '../../errors.ts';
import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { revisionId, revisionInPath, revisionInQuery } from './revision-id.ts';

/**
 * What changed between two revisions (by default, from the one before):
 * the ids added, removed and changed with which aspects changed, a line a
 * person reads, and the delta that turns the first scene into the second
 * (the changed and added elements as they are in `rev`, the removed ids, and
 * the order when it is not implied).
 */
export async function diffRevisions(deps: AppDeps, caller: Caller, id: string, rev: string, against?: string) {
  const diagram = await diagramFor(deps, caller, id, 'read');
  const history = deps.store.history;
  const seq = revisionInPath(rev);
  const to = await history.find(diagram.id, seq);
  if (!to) throw new ApiError('not_found', `no revision ${rev} of this diagram`);
  const from = against === undefined ? await history.previous(diagram.id, seq) : await history.find(diagram.id, revisionInQuery(against, 'against'));
  if (against !== undefined && !from) throw new ApiError('not_found', `no revision ${against} of this diagram`);
  const [toJson, fromJson] = await Promise.all([history.scene(diagram.id, seq), from ? history.scene(diagram.id, from.seq) : '[]']);
  if (toJson === null || fromJson === null) throw new ApiError('not_found', `no revision ${rev} of this diagram`);
  const before = JSON.parse(fromJson) as SceneElement[];
  const delta = sceneDelta(before, JSON.parse(toJson) as SceneElement[]);
  const changes = describeDelta(before, delta);
  // The revision's own line says it best when it is the step from the revision just before (a rename, a restore).
  const summary = against === undefined && from !== null && from.seq === seq - 1 ? to.summary : changes.summary;
  return {
    from: from ? revisionId(from.seq) : null,
    to: revisionId(seq),
    added: changes.added,
    removed: delta.remove,
    changed: changes.changed,
    summary,
    elements: delta.upsert,
    ...(delta.order === undefined ? {} : { order: delta.order }),
  };
}
