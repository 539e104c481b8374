/**
 * A stored scene made ready for the editor's exporters (SVG in faithful.ts,
 * canvas in faithful-canvas.ts): the part the options select, text cut to the
 * text limits, elements given the editor's defaults and restored, catalog
 * icons looked up. One job prepares it once for every part.
 */
import { sceneWithEditorDefaults } from '../domain/scene/editor-defaults.ts';
import type { ExcalidrawModule } from './editor-runtime.ts';
import { type BinaryFile, imageFiles } from './image-files.ts';
import { InvalidSelection, type SelectableElement, selectedElements } from './options.ts';
import { limitSceneText } from './text-limits.ts';
import type { RenderOptions } from './types.ts';

export interface FaithfulScene {
  /** Restored by the editor: every element has the fields the exporters read. */
  elements: any[];
  files: Record<string, BinaryFile>;
  imagesTruncated: boolean;
  textTruncated: boolean;
  /** The frame the options export (restored), as the exporters' `exportingFrame`; null for none. */
  exportingFrame: unknown;
}

/**
 * The scene ready to export; null when nothing would be drawn (every element
 * deleted); `{ invalidSelection }` when the options' elements or frame name
 * nothing drawn (options.ts, exportSelection).
 */
export function faithfulScene(editor: ExcalidrawModule, elementsJson: string, options: RenderOptions = {}): FaithfulScene | { invalidSelection: string } | null {
  let chosen: Record<string, unknown>[];
  try {
    chosen = selectedElements(JSON.parse(elementsJson) as Array<Record<string, unknown> & SelectableElement>, options);
  } catch (error) {
    if (error instanceof InvalidSelection) return { invalidSelection: error.message };
    throw error;
  }
  const limited = limitSceneText(sceneWithEditorDefaults(chosen));
  // Scenes are stored as supplied: the defaults and restore give every element the fields the exporter reads.
  const elements = editor.restoreElements(limited.elements, null, { repairBindings: true });
  if (!elements.some((element) => !element.isDeleted)) return null;
  const { files, truncated } = imageFiles(elements);
  const exportingFrame = options.frameId === undefined ? null : (elements.find((element) => element.id === options.frameId && !element.isDeleted) ?? null);
  return { elements, files, imagesTruncated: truncated, textTruncated: limited.truncated, exportingFrame };
}
