import type { EditedScene } from '../../workers/scene-worker.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { sceneWork } from './content.ts';
import { writeContent } from './write-content.ts';

/** Merges a fragment (new nodes placed around the existing ones, changed ones updated) in a scene worker. */
export async function editDiagram(deps: ServiceDeps, caller: Caller, id: string, fragment: unknown) {
  const now = deps.now().getTime();
  const { next } = await writeContent(deps, caller, id, null, (_elements, current) =>
    sceneWork<EditedScene>(deps, { task: 'edit', elementsJson: current.elementsJson, fragment, now }, caller),
  );
  return { added: next.added, updated: next.updated, merged: next.merged };
}
