import type { SceneElement } from '../../domain/edit/types.ts';
import type { AppDeps, Caller, ServiceDeps } from '../deps.ts';
import { mayActOnDiagram } from '../access.ts';
import { checkScene } from './content.ts';
import { writeContent, writeStamp } from './write-content.ts';
import { stampChanges } from '../../domain/edit/stamp-changes.ts';

/**
 * Saves the elements a person edited in the editor, guarded by the revision
 * the editor last saw: a diagram changed since is stale_read and nothing is
 * written, so a newer version is never overwritten. The editor saves as the
 * person works: saves in one burst of work are one revision of the history.
 * Returns the new revision.
 */
export async function saveScene(deps: ServiceDeps, caller: Caller, id: string, elements: unknown[], expectedUpdatedAt: string): Promise<string> {
  await checkScene(deps, { elements }, caller);
  const valid = elements as SceneElement[];
  const stamp = writeStamp(deps);
  const { result } = await writeContent(deps, caller, id, { docUpdatedAt: expectedUpdatedAt }, { kind: 'save', joinsSaves: true }, (previous) => ({ elements: stampChanges(previous(), valid, stamp) }));
  return result.docUpdatedAt;
}

/** Whether the person may save the diagram (viewers of a shared diagram get the editor in view mode). */
export function mayEditDiagram(deps: AppDeps, caller: Caller, id: string): Promise<boolean> {
  return mayActOnDiagram(deps, caller, id, 'write');
}
