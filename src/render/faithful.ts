/**
 * The faithful renderer: the editor's own exporter (hand-drawn strokes, its
 * fonts, embedded icons), run in a render worker process (faithful-worker.ts)
 * since it needs the editor's browser bundle and a DOM.
 */
import { embeddedFontFaces } from './embed-fonts.ts';
import type { ExcalidrawModule } from './editor-runtime.ts';
import { editorFontFiles } from './font-files.ts';
import { rasterize } from './raster.ts';
import { inLightDocument } from './light-dom.ts';
import { sanitizeSvgTree } from './sanitize.ts';
import { serializeSvg } from './svg-xml.ts';
import { imageFiles } from './image-files.ts';
import { limitSceneText } from './text-limits.ts';
import { textRunsOf } from './text-runs.ts';
import { EXPORT_PADDING, oversizedSvgBytes, type RenderJob, type RenderOutput } from './types.ts';

/**
 * A copy of the export for resvg, which sizes an `<image width="100%">` inside
 * a viewBox-less `<symbol>` against the whole document rather than the `<use>`
 * (browsers follow SVG 2 and use the `<use>`'s size): each use of an image
 * symbol becomes the image itself, at the use's size.
 */
function withImagesInlined(root: SVGSVGElement): string {
  const copy = root.cloneNode(true) as SVGSVGElement;
  for (const use of [...copy.querySelectorAll('use')]) {
    const id = (use.getAttribute('href') ?? '').slice(1);
    const image = [...copy.querySelectorAll('symbol')].find((symbol) => symbol.id === id)?.querySelector('image');
    if (!image) continue;
    const inlined = image.cloneNode(true) as Element;
    for (const name of ['width', 'height', 'opacity', 'x', 'y', 'clip-path', 'mask', 'filter']) {
      const value = use.getAttribute(name);
      if (value === null) inlined.removeAttribute(name);
      else inlined.setAttribute(name, value);
    }
    use.replaceWith(inlined);
  }
  return serializeSvg(copy);
}

export async function renderFaithful(editor: ExcalidrawModule, job: RenderJob): Promise<RenderOutput> {
  const limited = limitSceneText(JSON.parse(job.elementsJson) as Record<string, unknown>[]);
  // Scenes are stored as supplied: restore gives every element the fields the exporter reads.
  const elements = editor.restoreElements(limited.elements, null, { repairBindings: true });
  if (!elements.some((element) => !element.isDeleted)) return { empty: true };
  const { files, truncated } = imageFiles(elements);
  // In a light document (light-dom.ts): jsdom is only for loading the editor's bundle.
  const root = await inLightDocument(() => editor.exportToSvg({
    elements,
    appState: { exportBackground: true, viewBackgroundColor: '#ffffff', exportWithDarkMode: false, exportEmbedScene: false },
    files,
    exportPadding: EXPORT_PADDING,
    skipInliningFonts: true,
  }));
  sanitizeSvgTree(root);
  const fonts = editorFontFiles(job.fontsDirectory);
  const output: RenderOutput = {
    ...(truncated ? { imagesTruncated: true } : {}),
    ...(limited.truncated ? { textTruncated: true } : {}),
  };
  if (job.png) {
    const forRaster = withImagesInlined(root);
    const svgTooLarge = oversizedSvgBytes(forRaster);
    if (svgTooLarge !== null) return { svgTooLarge };
    output.png = await rasterize(forRaster, fonts);
  }
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
    const svg = serializeSvg(root);
    const svgTooLarge = oversizedSvgBytes(svg);
    if (svgTooLarge !== null) return { svgTooLarge };
    output.svg = svg;
  }
  return output;
}
