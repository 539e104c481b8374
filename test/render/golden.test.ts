/**
 * Golden images: each scene of test/fixtures/render/scenes.ts rendered by
 * both renderers, compared with the committed PNG beside it (pixelmatch, with
 * a tolerance for anti-aliasing). `UPDATE_GOLDENS=1 npm test -- golden`
 * rewrites them; look at the result in docs/rendering.md before committing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { renderFaithfulJob } from '../../src/render/faithful-job.ts';
import { renderFastSvg } from '../../src/render/fast-svg.ts';
import { editorFontFiles } from '../../src/render/font-files.ts';
import { rasterize } from '../../src/render/raster.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';

const GOLDEN_DIRECTORY = new URL('../fixtures/render/', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDENS === '1';
/** Share of pixels allowed to differ (beyond pixelmatch's per-pixel threshold): anti-aliasing across machines. */
const MAX_DIFFERENT_SHARE = 0.005;
const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-golden-fonts-'));

const renderers = {
  faithful: async (elements: unknown[]) => {
    const output = await renderFaithfulJob(await loadExcalidraw(), { elementsJson: JSON.stringify(elements), svg: false, png: true, fontsDirectory });
    return Buffer.from(output.png!);
  },
  fast: async (elements: unknown[]) => rasterize(renderFastSvg(elements as Record<string, unknown>[]), editorFontFiles(fontsDirectory)),
};

function compare(actual: Buffer, goldenFile: URL, name: string): void {
  const expected = PNG.sync.read(fs.readFileSync(goldenFile));
  const got = PNG.sync.read(actual);
  assert.deepEqual([got.width, got.height], [expected.width, expected.height], `${name}: the image size changed`);
  const diff = new PNG({ width: got.width, height: got.height });
  const different = pixelmatch(got.data, expected.data, diff.data, got.width, got.height, { threshold: 0.1 });
  const share = different / (got.width * got.height);
  if (share > MAX_DIFFERENT_SHARE) {
    const diffFile = path.join(os.tmpdir(), `drawbridge-golden-${name}.diff.png`);
    fs.writeFileSync(diffFile, PNG.sync.write(diff));
    assert.fail(`${name}: ${(share * 100).toFixed(2)} % of pixels differ from the golden image (diff: ${diffFile}; actual rendered to UPDATE_GOLDENS=1 to accept)`);
  }
}

for (const [quality, render] of Object.entries(renderers)) {
  describe(`${quality} renderer golden images`, () => {
    for (const [scene, build] of Object.entries(GOLDEN_SCENES)) {
      test(`the ${scene} scene renders as its golden image`, async () => {
        const png = await render(build());
        const goldenFile = new URL(`${scene}.${quality}.png`, GOLDEN_DIRECTORY);
        if (UPDATE || !fs.existsSync(goldenFile)) {
          if (!UPDATE) assert.fail(`no golden image ${goldenFile.pathname}: run UPDATE_GOLDENS=1 npm test -- golden`);
          fs.writeFileSync(goldenFile, png);
          return;
        }
        compare(png, goldenFile, `${scene}.${quality}`);
      });
    }
  });
}
