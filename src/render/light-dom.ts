/**
 * A light document for the editor's SVG exporter. The exporter only builds a
 * tree (createElementNS, setAttribute, textContent, appendChild, a few
 * queries); jsdom, which the editor's bundle needs to load, does that with a
 * full DOM's bookkeeping and spends as long on it as the exporter on its
 * drawing. The exporter is handed a document of plain objects (svg-tree.ts)
 * for the length of one export, in place of the global `document` it creates
 * its root and text nodes with; the rest of the tree it creates through its
 * root's ownerDocument.
 *
 * The exporter also asks the global document for a canvas, to measure a frame
 * name too wide for its frame: canvases come from the document the editor was
 * loaded with (jsdom, whose canvas has the stub context editor-runtime.ts gives it).
 */
import { TreeDocument } from './svg-tree.ts';

let lightDocument: TreeDocument | undefined;

/**
 * Runs `build` with the light document as the global `document`, and puts the
 * previous one back after (a render worker runs one export at a time; the
 * editor's other uses of the DOM keep jsdom's).
 */
export async function inLightDocument<T>(build: () => Promise<T>): Promise<T> {
  const previous = Object.getOwnPropertyDescriptor(globalThis, 'document');
  const loadingDocument = previous?.value as Document | undefined;
  lightDocument ??= new TreeDocument(() => {
    if (!loadingDocument) throw new Error('no document to make a canvas in: load the editor first (editor-runtime.ts)');
    return loadingDocument.createElement('canvas');
  });
  Object.defineProperty(globalThis, 'document', { value: lightDocument, configurable: true, writable: true });
  try {
    return await build();
  } finally {
    if (previous) Object.defineProperty(globalThis, 'document', previous);
    else delete (globalThis as { document?: unknown }).document;
  }
}
