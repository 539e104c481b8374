import type { SceneChain } from '../../domain/history/delta.ts';
import { type DiffSides, revisionDiffJson } from '../../domain/history/revision-diff.ts';
import { ApiError } from '../../errors.ts';
import type { DiffText } from '../../workers/scene-worker.ts';
import { diagramFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { sceneWork } from '../diagrams/content.ts';
import { revisionId, revisionInPath, revisionInQuery } from '../../api/revision-id.ts';

/**
 * Two revisions whose scenes are kept in more JSON than this together are
 * compared in a scene worker. Below it (about 40 rectangles a side),
 * comparing them on the event loop costs under half a millisecond, about
 * what the hop to a worker and back costs.
 */
export const DIFFED_HERE_MAX_CHARS = 16_384;

const NOTHING: SceneChain = { snapshotJson: '[]', deltasJson: [] };
const lengthOf = (chain: SceneChain) => chain.deltasJson.reduce((sum, delta) => sum + delta.length, chain.snapshotJson.length);

/**
 * What changed between two revisions (by default, from the one before), as
 * JSON text: the ids added, removed and changed with which aspects changed,
 * a line a person reads, and the delta that turns the first scene into the
 * second (the changed and added elements as they are in `rev`, the removed
 * ids, and the order when it is not implied).
 */
export async function diffRevisions(deps: ServiceDeps, caller: Caller, id: string, rev: string, against?: string): Promise<string> {
  const diagram = await diagramFor(deps, caller, id, 'read');
  const history = deps.store.history;
  const seq = revisionInPath(rev);
  const to = await history.find(diagram.id, seq);
  if (!to) throw new ApiError('not_found', `no revision ${rev} of this diagram`);
  const from = against === undefined ? await history.previous(diagram.id, seq) : await history.find(diagram.id, revisionInQuery(against, 'against'));
  if (against !== undefined && !from) throw new ApiError('not_found', `no revision ${against} of this diagram`);
  const [toChain, fromChain] = await Promise.all([history.sceneChain(diagram.id, seq), from ? history.sceneChain(diagram.id, from.seq) : NOTHING]);
  if (toChain === null || fromChain === null) throw new ApiError('not_found', `no revision ${rev} of this diagram`);
  // The revision's own line says it best when it is the step from the revision just before (a rename, a restore).
  const summary = against === undefined && from !== null && from.seq === seq - 1 ? to.summary : null;
  const sides: DiffSides = { from: from ? revisionId(from.seq) : null, to: revisionId(seq), summary };
  if (lengthOf(fromChain) + lengthOf(toChain) <= DIFFED_HERE_MAX_CHARS) return revisionDiffJson(fromChain, toChain, sides);
  return (await sceneWork<DiffText>(deps, { task: 'diff', from: fromChain, to: toChain, sides }, caller)).diffJson;
}
