/**
 * The faithful renderer beside the editor's own export: each golden scene
 * drawn by Drawbridge (its PNG, and its SVG as Chromium shows it) and by the
 * editor's exporter in a Chromium page (`exportToBlob`, `exportToSvg`: the
 * bench's peer page, bench/chromium-peer.ts), compared pixel by pixel. The
 * browser is the tests' headless shell (test/helpers/browser.ts).
 *
 * Scenes whose text is the point (fonts, scripts, emoji) are left to the
 * golden images: the page draws text through the browser's font stack and
 * hinting, Drawbridge through the editor's fonts alone, so their glyph edges
 * differ on every line. What is compared is the drawing: shapes, fills,
 * arrowheads, labelled arrows, catalog icons, the dark theme.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { type Browser, chromium } from 'playwright-core';
import { type ChromiumPeer, startChromiumPeer } from '../../bench/chromium-peer.ts';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { renderFaithful } from '../../src/render/faithful.ts';
import { renderFaithfulJob } from '../../src/render/faithful-job.ts';
import { imageFiles } from '../../src/render/image-files.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';
import { CHROMIUM_PATH, INSTALL_HINT } from '../helpers/browser.ts';
import { svgAsShown } from '../helpers/svg-screenshot.ts';

/** Share of pixels that may differ (beyond pixelmatch's per-pixel threshold): anti-aliasing of hand-drawn strokes and label glyphs. */
const MAX_DIFFERENT_SHARE = 0.015;
const COMPARED = ['shapes', 'arrowheads', 'dark-fills', 'icons', 'flowchart'] as const;
const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-editor-export-fonts-'));

function differentShare(ours: Buffer, theirs: Buffer, name: string): number {
  const [a, b] = [PNG.sync.read(ours), PNG.sync.read(theirs)];
  assert.deepEqual([a.width, a.height], [b.width, b.height], `${name}: the same size`);
  const diff = new PNG({ width: a.width, height: a.height });
  const share = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: 0.1 }) / (a.width * a.height);
  if (share > MAX_DIFFERENT_SHARE) fs.writeFileSync(path.join(os.tmpdir(), `drawbridge-editor-export-${name}.diff.png`), PNG.sync.write(diff));
  return share;
}

describe('the faithful renderer beside the editor’s own export in Chromium', { skip: fs.existsSync(CHROMIUM_PATH) ? false : INSTALL_HINT }, () => {
  let peer: ChromiumPeer;
  let browser: Browser;
  before(async () => {
    [peer, browser] = await Promise.all([
      startChromiumPeer(GOLDEN_SCENES.shapes!(), 1024, 0, CHROMIUM_PATH),
      chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] }),
    ]);
  });
  after(() => Promise.all([peer?.close(), browser?.close()]));

  for (const name of COMPARED) {
    test(`the ${name} scene: Drawbridge's PNG is the editor's PNG`, async () => {
      const elements = GOLDEN_SCENES[name]!();
      const output = await renderFaithfulJob(await loadExcalidraw(), { elementsJson: JSON.stringify(elements), svg: false, png: true, fontsDirectory });
      const theirs = await peer.png(elements, 1024, imageFiles(elements as Record<string, unknown>[]).files);
      const share = differentShare(Buffer.from(output.png!), theirs, `${name}.png`);
      assert.ok(share <= MAX_DIFFERENT_SHARE, `${name}: ${(share * 100).toFixed(2)} % of pixels differ from the editor's export`);
    });
  }

  for (const name of COMPARED) {
    test(`the ${name} scene: Drawbridge's SVG shows as the editor's SVG`, async () => {
      const elements = GOLDEN_SCENES[name]!();
      const output = await renderFaithful(await loadExcalidraw(), { elementsJson: JSON.stringify(elements), svg: true, png: false, fontsDirectory });
      const theirs = await peer.svg(elements, imageFiles(elements as Record<string, unknown>[]).files);
      const share = differentShare(await svgAsShown(browser, output.svg!), await svgAsShown(browser, theirs), `${name}.svg`);
      assert.ok(share <= MAX_DIFFERENT_SHARE, `${name}: ${(share * 100).toFixed(2)} % of pixels differ from the editor's export`);
    });
  }
});
