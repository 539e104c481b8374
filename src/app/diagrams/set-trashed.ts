import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { publishAccessChanged } from '../live/notify.ts';

/**
 * Moves an owned diagram to the trash (`trashed` true) or back (false). Both
 * are idempotent; a trashed diagram keeps its first deletedAt and stops
 * counting toward the quota. Anyone but the owner gets not_found.
 */
export async function setTrashed(deps: AppDeps, caller: Caller, id: string, trashed: boolean): Promise<void> {
  const diagram = await diagramFor(deps, caller, id, 'own');
  await deps.store.diagrams.setTrashed(diagram.id, trashed, deps.now().toISOString());
  // Live rooms close for everyone once the diagram is in the trash.
  await publishAccessChanged(deps, { diagramId: diagram.id });
}
