import type { ExportedSource } from '../../domain/export/export.ts';
import type { ExportLanguage } from '../../domain/export/languages.ts';
import { diagramWithElementsFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { sceneWork } from './content.ts';

/** A diagram written as text (the spec it draws, Mermaid or DOT), in a scene worker: however large the scene, other callers are not kept waiting. */
export async function diagramSource(deps: ServiceDeps, caller: Caller, id: string, language: ExportLanguage): Promise<ExportedSource> {
  const diagram = await diagramWithElementsFor(deps, caller, id, 'read');
  return sceneWork<ExportedSource>(deps, { task: 'export', elementsJson: diagram.elementsJson, language }, caller);
}
