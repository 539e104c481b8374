import type { SceneElement } from '../../domain/edit/types.ts';
import { isCatalogIcon } from '../../domain/icons/catalog.ts';
import { validateScene } from '../../domain/scene/validate.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { mayActOnDiagram } from '../access.ts';
import { writeContent, writeStamp } from './write-content.ts';
import { stampChanges } from '../../domain/edit/stamp-changes.ts';

/**
 * Saves the elements a person edited in the editor, guarded by the revision
 * the editor last saw: a diagram changed since is stale_read and nothing is
 * written, so a newer version is never overwritten. The editor saves as the
 * person works: saves in one burst of work are one revision of the history.
 * Returns the new revision.
 */
export async function saveScene(deps: AppDeps, caller: Caller, id: string, elements: unknown[], expectedUpdatedAt: string): Promise<string> {
  const valid = validateScene({ elements }, { isIcon: isCatalogIcon }).elements as SceneElement[];
  const stamp = writeStamp(deps);
  const { result } = await writeContent(deps, caller, id, { docUpdatedAt: expectedUpdatedAt }, { kind: 'save', joinsSaves: true }, (previous) => ({ elements: stampChanges(previous(), valid, stamp) }));
  return result.docUpdatedAt;
}

/** Whether the person may save the diagram (viewers of a shared diagram get the editor in view mode). */
export function mayEditDiagram(deps: AppDeps, caller: Caller, id: string): Promise<boolean> {
  return mayActOnDiagram(deps, caller, id, 'write');
}
