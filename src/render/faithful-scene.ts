/**
 * A stored scene made ready for the editor's exporters (SVG in faithful.ts,
 * canvas in faithful-canvas.ts): text cut to the text limits, elements
 * restored, catalog icons looked up. One job prepares it once for every part.
 */
import type { ExcalidrawModule } from './editor-runtime.ts';
import { type BinaryFile, imageFiles } from './image-files.ts';
import { limitSceneText } from './text-limits.ts';

export interface FaithfulScene {
  /** Restored by the editor: every element has the fields the exporters read. */
  elements: any[];
  files: Record<string, BinaryFile>;
  imagesTruncated: boolean;
  textTruncated: boolean;
}

/** The scene ready to export, or null when nothing would be drawn (every element deleted). */
export function faithfulScene(editor: ExcalidrawModule, elementsJson: string): FaithfulScene | null {
  const limited = limitSceneText(JSON.parse(elementsJson) as Record<string, unknown>[]);
  // Scenes are stored as supplied: restore gives every element the fields the exporter reads.
  const elements = editor.restoreElements(limited.elements, null, { repairBindings: true });
  if (!elements.some((element) => !element.isDeleted)) return null;
  const { files, truncated } = imageFiles(elements);
  return { elements, files, imagesTruncated: truncated, textTruncated: limited.truncated };
}
