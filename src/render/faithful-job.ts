/**
 * One faithful render job: the SVG from the editor's SVG exporter
 * (faithful.ts), the PNG and the PDF from its canvas exporter
 * (faithful-canvas.ts), all from one prepared scene.
 */
import type { ExcalidrawModule } from './editor-runtime.ts';
import { renderCanvasPdf, renderCanvasPng } from './faithful-canvas.ts';
import { faithfulScene } from './faithful-scene.ts';
import { renderFaithful } from './faithful.ts';
import type { RenderJob, RenderOutput } from './types.ts';

export async function renderFaithfulJob(editor: ExcalidrawModule, job: RenderJob): Promise<RenderOutput> {
  const scene = faithfulScene(editor, job.elementsJson, job.options);
  if (scene === null) return { empty: true };
  if ('invalidSelection' in scene) return { invalidSelection: scene.invalidSelection };
  const output: RenderOutput = {
    ...(scene.imagesTruncated ? { imagesTruncated: true } : {}),
    ...(scene.textTruncated ? { textTruncated: true } : {}),
  };
  if (job.svg) {
    const svg = await renderFaithful(editor, job, scene);
    if (svg.svgTooLarge !== undefined) return { svgTooLarge: svg.svgTooLarge };
    output.svg = svg.svg;
  }
  if (job.png) output.png = await renderCanvasPng(editor, scene, job);
  if (job.pdf) output.pdf = await renderCanvasPdf(editor, scene, job);
  return output;
}
