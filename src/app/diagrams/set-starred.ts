import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** Stars or unstars an owned diagram (the list item's `starred`); anyone but the owner gets not_found. */
export async function setStarred(deps: AppDeps, caller: Caller, id: string, starred: boolean): Promise<void> {
  const diagram = await diagramFor(deps, caller, id, 'own');
  await deps.store.diagrams.setStarred(diagram.id, starred);
}
