import { ApiError } from '../../errors.ts';
import type { DiagramMeta, DiagramRecord } from '../../store/store.ts';
import { diagramFor, diagramWithElementsFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** A diagram with its scene, for anyone who may view it; not_found for everyone else. */
export function getDiagram(deps: AppDeps, caller: Caller, id: string): Promise<DiagramRecord> {
  return diagramWithElementsFor(deps, caller, id, 'read');
}

/** A diagram's metadata if the caller may still view it, else null (deleted for good, or access withdrawn). */
export async function diagramIfVisible(deps: AppDeps, caller: Caller, id: string): Promise<DiagramMeta | null> {
  try {
    return await diagramFor(deps, caller, id, 'read');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}
