/**
 * `node --import tsx bench/faithful-canvas.ts`: the faithful PNG (and PDF) of
 * the scenes bench/render.ts builds (about 50, 1,000 and 5,000 elements), in one warm
 * process, through the editor's canvas exporter on Skia (today's path) beside
 * its SVG exporter rasterised by resvg (the path before it). No server, no
 * worker pool: the renderer alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layoutGraph } from '../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../src/domain/scene/from-spec.ts';
import { isCatalogIcon } from '../src/domain/icons/catalog.ts';
import { parseSpec } from '../src/domain/spec/parse.ts';
import { loadExcalidraw } from '../src/render/editor-runtime.ts';
import { renderFaithfulJob } from '../src/render/faithful-job.ts';
import { type FaithfulScene, faithfulScene } from '../src/render/faithful-scene.ts';
import { editorFontFiles } from '../src/render/font-files.ts';
import { rasterize } from '../src/render/raster.ts';
import { sanitizeSvgTree } from '../src/render/sanitize.ts';
import { serializeSvg } from '../src/render/svg-xml.ts';
import { EXPORT_PADDING } from '../src/render/types.ts';
import { SIZES, spec } from './render-scenes.ts';

const RUNS = Number(process.env.RUNS ?? 20);

const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-bench-fonts-'));
const editor = await loadExcalidraw();

/** The PNG as it was made before the canvas path: the editor's SVG export rasterised by resvg. */
async function svgThroughResvg(elementsJson: string): Promise<Buffer> {
  const scene = faithfulScene(editor, elementsJson) as FaithfulScene;
  const root = await editor.exportToSvg({
    elements: scene.elements,
    appState: { exportBackground: true, viewBackgroundColor: '#ffffff', exportWithDarkMode: false, exportEmbedScene: false },
    files: scene.files,
    exportPadding: EXPORT_PADDING,
    skipInliningFonts: true,
  });
  sanitizeSvgTree(root);
  return rasterize(serializeSvg(root), editorFontFiles(fontsDirectory));
}

const ways: Record<string, (elementsJson: string) => Promise<unknown>> = {
  'PNG, SVG export + resvg (before)': svgThroughResvg,
  'PNG, canvas export on Skia': (elementsJson) => renderFaithfulJob(editor, { elementsJson, svg: false, png: true, fontsDirectory }),
  'PDF, canvas export on Skia': (elementsJson) => renderFaithfulJob(editor, { elementsJson, svg: false, png: false, pdf: true, fontsDirectory }),
};

const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
console.log(`# faithful PNG/PDF, one warm process — ${os.cpus().length} CPU(s), node ${process.version}; ${RUNS} runs each, p50 (min)`);
for (const [name, [nodes, edges, labelled]] of Object.entries(SIZES)) {
  const scenes = Array.from({ length: RUNS + 2 }, (_, variant) => JSON.stringify(sceneFromSpec(parseSpec(spec(nodes, edges, variant, labelled), { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph })));
  console.log(`## ${name} (${(JSON.parse(scenes[0]!) as unknown[]).length})`);
  for (const [label, render] of Object.entries(ways)) {
    // Two renders to warm up (fonts decompressed and registered, code paths compiled), then the runs.
    await render(scenes[0]!);
    await render(scenes[1]!);
    const times: number[] = [];
    for (const scene of scenes.slice(2)) {
      const start = performance.now();
      await render(scene);
      times.push(performance.now() - start);
    }
    console.log(`${label.padEnd(36)} p50 ${p50(times).toFixed(1).padStart(7)} ms   min ${Math.min(...times).toFixed(1).padStart(7)} ms`);
  }
}
