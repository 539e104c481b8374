import type { PatchOpInput } from '../../domain/patch/schema.ts';
import type { PatchedScene } from '../../workers/scene-worker.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { sceneWork } from './content.ts';
import { type IfMatch, writePrecondition } from './etag.ts';
import { writeContent } from './write-content.ts';

/**
 * Applies element operations that have passed their schema in order, all or nothing, in a scene worker: a
 * patch's cost grows with the scene (re-routing a hub's arrows), never the
 * event loop's. With `expectedUpdatedAt` or `ifMatch` (one of the two), a
 * diagram changed since is stale_read and nothing is written. Returns the
 * diagram's new ETag too.
 */
export async function patchDiagram(deps: ServiceDeps, caller: Caller, id: string, ops: PatchOpInput[], expectedUpdatedAt: string | null, ifMatch?: IfMatch) {
  const now = deps.now().getTime();
  const { next, result, etag } = await writeContent(deps, caller, id, writePrecondition(expectedUpdatedAt, ifMatch), { kind: 'patch' }, (_elements, current) =>
    sceneWork<PatchedScene>(deps, { task: 'patch', elementsJson: current.elementsJson, ops, now }, caller),
  );
  return { applied: next.applied, elements: next.elementCount, deleted: next.deleted, orphanedComments: result.orphanedComments, etag };
}
