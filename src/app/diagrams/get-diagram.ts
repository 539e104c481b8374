import type { DiagramRecord } from '../../store/store.ts';
import { diagramWithElementsFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** A diagram with its scene, for anyone who may view it; not_found for everyone else. */
export function getDiagram(deps: AppDeps, caller: Caller, id: string): Promise<DiagramRecord> {
  return diagramWithElementsFor(deps, caller, id, 'read');
}
