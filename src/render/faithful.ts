/**
 * The faithful renderer's SVG: the editor's own SVG exporter (hand-drawn
 * strokes, its fonts, embedded icons), run in a render worker process
 * (faithful-worker.ts) since it needs the editor's browser bundle and a DOM.
 */
import { embeddedFontFaces } from './embed-fonts.ts';
import type { ExcalidrawModule } from './editor-runtime.ts';
import { editorFontFiles } from './font-files.ts';
import { faithfulScene } from './faithful-scene.ts';
import { inLightDocument } from './light-dom.ts';
import { exportLook, sizedSvg } from './options.ts';
import { sanitizeSvgTree } from './sanitize.ts';
import { serializeSvg } from './svg-xml.ts';
import { applyExportLook } from './svg-theme.ts';
import { textRunsOf } from './text-runs.ts';
import { oversizedSvgBytes, type RenderJob, type RenderOutput } from './types.ts';

/** The job's SVG (its PNG and PDF come from the canvas exporter: faithful-canvas.ts). */
export async function renderFaithful(editor: ExcalidrawModule, job: RenderJob, scene = faithfulScene(editor, job.elementsJson, job.options)): Promise<RenderOutput> {
  if (scene === null) return { empty: true };
  if ('invalidSelection' in scene) return { invalidSelection: scene.invalidSelection };
  const { elements, files, exportingFrame } = scene;
  const look = exportLook(job.options ?? {});
  // In a light document (light-dom.ts): jsdom is only for loading the editor's bundle.
  const root = await inLightDocument(() => editor.exportToSvg({
    elements,
    appState: look.appState,
    files,
    exportPadding: look.exportPadding,
    ...(exportingFrame ? { exportingFrame } : {}),
    skipInliningFonts: true,
  }));
  sanitizeSvgTree(root);
  applyExportLook(root, look);
  const fonts = editorFontFiles(job.fontsDirectory);
  const output: RenderOutput = {
    ...(scene.imagesTruncated ? { imagesTruncated: true } : {}),
    ...(scene.textTruncated ? { textTruncated: true } : {}),
  };
  if (job.svg) {
    const css = await embeddedFontFaces(textRunsOf(root), fonts);
    if (css !== '') {
      let style = root.querySelector('defs > style');
      if (!style) {
        const defs = root.querySelector('defs') ?? root.insertBefore(root.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'defs'), root.firstChild);
        style = defs.appendChild(root.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'style'));
      }
      style.textContent = css;
    }
    const svg = sizedSvg(serializeSvg(root), job.options ?? {});
    const svgTooLarge = oversizedSvgBytes(svg);
    if (svgTooLarge !== null) return { svgTooLarge };
    output.svg = svg;
  }
  return output;
}
