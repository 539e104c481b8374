/**
 * One fast render job: Drawbridge's own SVG writer (fast-svg.ts), resvg for
 * the PNG, and the SVG painted on a PDF page for the PDF (fast-pdf.ts); or
 * the large-scene placeholder rasterised. Runs in a worker process
 * (fast-worker.ts).
 */
import { iconDataUrl } from '../domain/icons/catalog.ts';
import { sceneWithEditorDefaults } from '../domain/scene/editor-defaults.ts';
import { renderFastPdf } from './fast-pdf.ts';
import { renderFastSvg, sceneBounds } from './fast-svg.ts';
import { withEmbeddedFallbackFonts } from './embed-fonts.ts';
import { editorFontFiles } from './font-files.ts';
import { exportLook, InvalidSelection, type SelectableElement, selectedElements, sizedSvg } from './options.ts';
import { rasterize } from './raster.ts';
import { limitSceneText } from './text-limits.ts';
import { oversizedSvgBytes, type RenderJob, type RenderOutput } from './types.ts';

/** A scene to render, or the large-scene placeholder to rasterise (`pdf`: a PDF of it too). */
export type FastJob = RenderJob | { placeholderSvg: string; fontsDirectory: string; pdf?: boolean };

export async function renderFastJob(job: FastJob): Promise<RenderOutput> {
  const fonts = editorFontFiles(job.fontsDirectory);
  if ('placeholderSvg' in job) {
    const placeholder = { svg: job.placeholderSvg, png: await rasterize(job.placeholderSvg, fonts) };
    return job.pdf ? { ...placeholder, pdf: await renderFastPdf(job.placeholderSvg, job.fontsDirectory) } : placeholder;
  }
  const options = job.options ?? {};
  let chosen: Record<string, unknown>[];
  try {
    chosen = selectedElements(JSON.parse(job.elementsJson) as Array<Record<string, unknown> & SelectableElement>, options);
  } catch (error) {
    if (error instanceof InvalidSelection) return { invalidSelection: error.message };
    throw error;
  }
  // The editor's defaults for what the stored elements lack, as the faithful renderer fills them.
  const { elements, truncated } = limitSceneText(sceneWithEditorDefaults(chosen));
  // Empty as the faithful renderer sees it: nothing it would draw (deleted or unknown elements only).
  if (sceneBounds(elements) === null) return { empty: true };
  const look = exportLook(options);
  const svg = renderFastSvg(elements, {
    background: look.appState.exportBackground ? look.appState.viewBackgroundColor : 'transparent',
    canvas: look.appState.viewBackgroundColor,
    padding: look.exportPadding,
    dark: look.appState.exportWithDarkMode,
    underlay: look.underlay,
    ...(options.frameId !== undefined ? { exportingFrameId: options.frameId } : {}),
    imageData: iconDataUrl,
  });
  const svgTooLarge = oversizedSvgBytes(svg);
  if (svgTooLarge !== null) return { svgTooLarge };
  const output: RenderOutput = truncated ? { textTruncated: true } : {};
  if (job.svg) {
    const embedded = sizedSvg(await withEmbeddedFallbackFonts(svg, fonts), options);
    const embeddedTooLarge = oversizedSvgBytes(embedded);
    if (embeddedTooLarge !== null) return { svgTooLarge: embeddedTooLarge };
    output.svg = embedded;
  }
  if (job.pdf) output.pdf = await renderFastPdf(svg, job.fontsDirectory);
  if (job.png) {
    try {
      output.png = await rasterize(svg, fonts, options);
    } catch (error) {
      output.pngFailed = error instanceof Error ? error.message : String(error);
    }
  }
  return output;
}
