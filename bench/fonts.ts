/**
 * What the fonts for every script and emoji cost: SVG bytes added by the
 * embedded subsets and render times, for a Latin diagram and for the same
 * diagram with the labels "用户 👩‍💻" and "数据库 🗄️", fast and faithful.
 * `node --import tsx bench/fonts.ts` (RUNS, default 20; the first run of each is
 * a warm-up: fonts decompressed to TrueType, harfbuzz loaded).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layoutGraph } from '../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../src/domain/scene/from-spec.ts';
import { parseSpec } from '../src/domain/spec/parse.ts';
import { loadExcalidraw } from '../src/render/editor-runtime.ts';
import { withEmbeddedFallbackFonts } from '../src/render/embed-fonts.ts';
import { renderFaithful } from '../src/render/faithful.ts';
import { renderFastSvg } from '../src/render/fast-svg.ts';
import { editorFontFiles } from '../src/render/font-files.ts';
import { rasterize } from '../src/render/raster.ts';

const RUNS = Number(process.env.RUNS ?? 20);
const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-bench-fonts-'));
const fonts = editorFontFiles(fontsDirectory);

function diagram(user: string, database: string): Record<string, unknown>[] {
  const spec = parseSpec({ nodes: [{ id: 'user', label: user }, { id: 'db', label: database }], edges: [{ from: 'user', to: 'db', label: 'SQL' }] }, { isIcon: () => false });
  return sceneFromSpec(spec, { updated: 1, layout: layoutGraph }) as Record<string, unknown>[];
}

async function median(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let at = 0; at < RUNS; at++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const editor = await loadExcalidraw();
const scenes = { latin: diagram('User', 'Database'), 'cjk + emoji': diagram('用户 👩‍💻', '数据库 🗄️') };
console.log(`| scene | fast SVG bytes | fast SVG ms (embedding) | fast PNG ms | faithful SVG bytes | faithful SVG ms | faithful PNG ms |`);
console.log('|---|---|---|---|---|---|---|');
for (const [name, elements] of Object.entries(scenes)) {
  const plain = renderFastSvg(elements);
  const fastSvg = await withEmbeddedFallbackFonts(plain, fonts);
  const embedMs = await median(() => withEmbeddedFallbackFonts(renderFastSvg(elements), fonts));
  const fastPngMs = await median(() => rasterize(plain, fonts));
  const job = (svg: boolean, png: boolean) => ({ elementsJson: JSON.stringify(elements), svg, png, fontsDirectory });
  const faithfulSvg = (await renderFaithful(editor, job(true, false))).svg!;
  const faithfulSvgMs = await median(() => renderFaithful(editor, job(true, false)));
  const faithfulPngMs = await median(() => renderFaithful(editor, job(false, true)));
  console.log(
    `| ${name} | ${Buffer.byteLength(fastSvg)} (${Buffer.byteLength(plain)} without fonts) | ${embedMs.toFixed(1)} | ${fastPngMs.toFixed(1)} | ${Buffer.byteLength(faithfulSvg)} | ${faithfulSvgMs.toFixed(1)} | ${faithfulPngMs.toFixed(1)} |`,
  );
}
