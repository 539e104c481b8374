/**
 * A diagram's scene as text: the spec it draws (JSON), Mermaid flowchart text
 * or Graphviz DOT, with what the chosen language cannot say as warnings.
 */
import type { SceneElement } from '../edit/types.ts';
import { specToDot } from './dot-text.ts';
import type { ExportLanguage } from './languages.ts';
import { specToMermaid } from './mermaid-text.ts';
import { type ExportWarning, sceneSpec } from './scene-spec.ts';
import { sequenceOfScene, sequenceToMermaid } from './sequence-text.ts';
import { structureOfScene, structureToMermaid } from './structure-text.ts';


export interface ExportedSource {
  language: ExportLanguage;
  text: string;
  warnings: ExportWarning[];
}

export function exportScene(elements: readonly SceneElement[], language: ExportLanguage): ExportedSource {
  const sequence = language === 'dot' ? null : sequenceOfScene(elements);
  if (sequence) {
    if (language === 'spec') return { language, text: `${JSON.stringify(sequence, null, 2)}\n`, warnings: [] };
    const written = sequenceToMermaid(sequence);
    return { language, text: written.text, warnings: written.warnings.map((message) => ({ message, elementIds: [] })) };
  }
  const structure = language === 'dot' ? null : structureOfScene(elements);
  if (structure) {
    if (language === 'spec') return { language, text: `${JSON.stringify(structure.spec, null, 2)}\n`, warnings: [] };
    const written = structureToMermaid(structure);
    return { language, text: written.text, warnings: written.warnings.map((message) => ({ message, elementIds: [] })) };
  }
  const { spec, warnings } = sceneSpec(elements);
  if (language === 'spec') return { language, text: `${JSON.stringify(spec, null, 2)}\n`, warnings };
  const written = language === 'mermaid' ? specToMermaid(spec) : specToDot(spec);
  return { language, text: written.text, warnings: [...warnings, ...written.warnings] };
}
