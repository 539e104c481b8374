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
import { EXPORT_PADDING, oversizedSvgBytes, type RenderJob, type RenderOutput } from './types.ts';

/** The job's SVG (its PNG and PDF come from the canvas exporter: faithful-canvas.ts). */
export async function renderFaithful(editor: ExcalidrawModule, job: RenderJob, scene = faithfulScene(editor, job.elementsJson, job.options)): Promise<RenderOutput> {
  if (scene === null) return { empty: true };
  if ('invalidSelection' in scene) return { invalidSelection: scene.invalidSelection };
  const { elements, files } = scene;
  const root = await editor.exportToSvg({
    elements,
    appState: { exportBackground: true, viewBackgroundColor: '#ffffff', exportWithDarkMode: false, exportEmbedScene: false },
    files,
    exportPadding: EXPORT_PADDING,
    skipInliningFonts: true,
  });
  sanitizeSvgTree(root);
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
    const svg = serializeSvg(root);
    const svgTooLarge = oversizedSvgBytes(svg);
    if (svgTooLarge !== null) return { svgTooLarge };
    output.svg = svg;
  }
  return output;
}
