import type { LintReport } from '../../domain/lint/lint.ts';
import { diagramWithElementsFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { sceneWork } from './content.ts';

/** The layout problems of a diagram's scene, found in a scene worker: however large the scene, other callers are not kept waiting. */
export async function lintDiagram(deps: ServiceDeps, caller: Caller, id: string): Promise<LintReport> {
  const diagram = await diagramWithElementsFor(deps, caller, id, 'read');
  return sceneWork<LintReport>(deps, { task: 'lint', elementsJson: diagram.elementsJson }, caller);
}
