/**
 * The fast renderer, in a worker process: Drawbridge's own SVG writer
 * (fast-svg.ts) and resvg for the PNG. Also rasterises the large-scene
 * placeholder. Never needs the editor's bundle, so it starts in a moment.
 */
import { iconDataUrl } from '../domain/icons/catalog.ts';
import { serveProcessWorker } from '../workers/pool.ts';
import { renderFastSvg, sceneBounds } from './fast-svg.ts';
import { withEmbeddedFallbackFonts } from './embed-fonts.ts';
import { editorFontFiles } from './font-files.ts';
import { rasterize } from './raster.ts';
import { limitSceneText } from './text-limits.ts';
import { oversizedSvgBytes, type RenderJob, type RenderOutput } from './types.ts';

export type FastJob = RenderJob | { placeholderSvg: string; fontsDirectory: string };

async function renderFast(job: FastJob): Promise<RenderOutput> {
  const fonts = editorFontFiles(job.fontsDirectory);
  if ('placeholderSvg' in job) return { svg: job.placeholderSvg, png: await rasterize(job.placeholderSvg, fonts) };
  const { elements, truncated } = limitSceneText(JSON.parse(job.elementsJson) as Record<string, unknown>[]);
  // Empty as the faithful renderer sees it: nothing it would draw (deleted or unknown elements only).
  if (sceneBounds(elements) === null) return { empty: true };
  const svg = renderFastSvg(elements, job.icons ? { imageData: iconDataUrl } : {});
  const svgTooLarge = oversizedSvgBytes(svg);
  if (svgTooLarge !== null) return { svgTooLarge };
  const output: RenderOutput = truncated ? { textTruncated: true } : {};
  if (job.svg) {
    const embedded = await withEmbeddedFallbackFonts(svg, fonts);
    const embeddedTooLarge = oversizedSvgBytes(embedded);
    if (embeddedTooLarge !== null) return { svgTooLarge: embeddedTooLarge };
    output.svg = embedded;
  }
  if (job.png) {
    try {
      output.png = await rasterize(svg, fonts);
    } catch (error) {
      output.pngFailed = error instanceof Error ? error.message : String(error);
    }
  }
  return output;
}

serveProcessWorker<FastJob, RenderOutput>(renderFast);
