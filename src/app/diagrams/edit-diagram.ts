import type { EditFragmentInput } from '../../domain/edit/schema.ts';
import type { EditedScene } from '../../workers/scene-worker.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { sceneWork } from './content.ts';
import { type IfMatch, writePrecondition } from './etag.ts';
import { writeContent } from './write-content.ts';

/**
 * Merges a fragment that has passed its schema (new nodes placed around the existing ones, changed ones
 * updated) in a scene worker. With `ifMatch`, a diagram changed since is
 * stale_read and nothing is written. Returns the diagram's new ETag too.
 */
export async function editDiagram(deps: ServiceDeps, caller: Caller, id: string, fragment: EditFragmentInput, ifMatch?: IfMatch) {
  const now = deps.now().getTime();
  const { next, etag } = await writeContent(deps, caller, id, writePrecondition(null, ifMatch), { kind: 'edit' }, (_elements, current) =>
    sceneWork<EditedScene>(deps, { task: 'edit', elementsJson: current.elementsJson, fragment, now }, caller),
  );
  return { added: next.added, updated: next.updated, merged: next.merged, etag };
}
