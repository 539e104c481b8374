/**
 * Renders scenes to PNG with the service's own faithful renderer (the editor's
 * exportToSvg in a worker, rasterised with the editor's fonts), for looking at
 * layouts outside the server: the gallery and `render-png.ts spec.json out.png`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { FAST_WORKERS_DEFAULT } from '../../src/config.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { Renderer } from '../../src/render/renderer.ts';

export interface PngRenderer {
  png(elements: readonly unknown[]): Promise<Buffer>;
  close(): Promise<void>;
}

export function startPngRenderer(): PngRenderer {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-png-'));
  const renderer = new Renderer({ faithful: true, workers: 1, fastWorkers: FAST_WORKERS_DEFAULT, timeoutMs: 60_000, dataDirectory, cacheBytes: 0, log: pino({ level: 'warn' }) });
  return {
    async png(elements) {
      const result = await renderer.render({ elementsJson: JSON.stringify(elements), elementCount: elements.length, format: 'png', quality: 'faithful' });
      if (!result.png || result.quality !== 'faithful') throw new Error(`the faithful renderer did not draw this scene (${result.note ?? result.quality})`);
      return result.png;
    },
    async close() {
      await renderer.close();
      fs.rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

export function sceneOfSpec(spec: unknown): unknown[] {
  return sceneFromSpec(parseSpec(spec, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: render-png.ts spec.json out.png');
  const raw = JSON.parse(fs.readFileSync(input, 'utf8'));
  const elements = Array.isArray(raw.elements) ? raw.elements : sceneOfSpec(raw.spec ?? raw);
  const renderer = startPngRenderer();
  try {
    fs.writeFileSync(output, await renderer.png(elements));
  } finally {
    await renderer.close();
  }
}
