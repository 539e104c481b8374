/**
 * The faithful renderer's SVG: the editor's own SVG exporter (hand-drawn
 * strokes, its fonts, embedded icons), run in a render worker process
 * (faithful-worker.ts) since it needs the editor's browser bundle and a DOM.
 */
import { embeddedFontFaces } from './embed-fonts.ts';
import type { ExcalidrawModule } from './editor-runtime.ts';
import { editorFontFiles } from './font-files.ts';
import { sanitizeSvgTree, serializeSvg } from './sanitize.ts';
import { faithfulScene } from './faithful-scene.ts';
import { exportLook, sizedSvg } from './options.ts';
import { applyExportLook } from './svg-theme.ts';
import { oversizedSvgBytes, type RenderJob, type RenderOutput } from './types.ts';

/** The job's SVG (its PNG and PDF come from the canvas exporter: faithful-canvas.ts). */
export async function renderFaithful(editor: ExcalidrawModule, job: RenderJob, scene = faithfulScene(editor, job.elementsJson, job.options)): Promise<RenderOutput> {
  if (scene === null) return { empty: true };
  if ('invalidSelection' in scene) return { invalidSelection: scene.invalidSelection };
  const { elements, files, exportingFrame } = scene;
  const look = exportLook(job.options ?? {});
  const root = await editor.exportToSvg({
    elements,
    appState: look.appState,
    files,
    exportPadding: look.exportPadding,
    ...(exportingFrame ? { exportingFrame } : {}),
    skipInliningFonts: true,
  });
  sanitizeSvgTree(root);
  applyExportLook(root, look);
  const fonts = editorFontFiles(job.fontsDirectory);
  const output: RenderOutput = {
    ...(scene.imagesTruncated ? { imagesTruncated: true } : {}),
    ...(scene.textTruncated ? { textTruncated: true } : {}),
  };
  if (job.svg) {
    const runs = [...root.querySelectorAll('text')].map((text) => ({ fontFamily: text.getAttribute('font-family') ?? '', text: text.textContent ?? '' }));
    const css = await embeddedFontFaces(runs, fonts);
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
