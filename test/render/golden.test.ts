/**
 * Golden images: each scene of test/fixtures/render/scenes.ts rendered by
 * both renderers, compared with the committed PNG beside it (pixelmatch, with
 * a tolerance for anti-aliasing). The scenes of scripts and emoji are also
 * drawn from their SVGs by Chromium (the browser tests' headless shell,
 * test/helpers/browser.ts), as a browser shows them, on a system
 * with no font but the two the fast renderer's stacks name (Liberation Sans,
 * Cascadia Code): every other glyph must come from the fonts the SVG embeds.
 * `UPDATE_GOLDENS=1 npm test -- golden` rewrites them; look at the result in
 * docs/rendering.md before committing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pixelmatch from 'pixelmatch';
import { type Browser, chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { editorFontFaces } from '../../src/render/editor-fonts.ts';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { withEmbeddedFallbackFonts } from '../../src/render/embed-fonts.ts';
import { renderFaithful } from '../../src/render/faithful.ts';
import { renderFaithfulJob } from '../../src/render/faithful-job.ts';
import { renderFastSvg } from '../../src/render/fast-svg.ts';
import { editorFontFiles } from '../../src/render/font-files.ts';
import { rasterize } from '../../src/render/raster.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';
import { CHROMIUM_PATH, INSTALL_HINT } from '../helpers/browser.ts';
import { svgAsShown } from '../helpers/svg-screenshot.ts';

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

const svgRenderers = {
  faithful: async (elements: unknown[]) => {
    const output = await renderFaithful(await loadExcalidraw(), { elementsJson: JSON.stringify(elements), svg: true, png: false, fontsDirectory });
    return output.svg!;
  },
  fast: async (elements: unknown[]) => withEmbeddedFallbackFonts(renderFastSvg(elements as Record<string, unknown>[]), editorFontFiles(fontsDirectory)),
};
/** The scenes whose SVGs are also drawn by a browser. */
const SVG_SCENES = ['scripts', 'emoji'];

/** A fontconfig holding only the editor's Liberation Sans and Cascadia Code, as the only fonts of the browser's system. */
async function bareFontconfig(): Promise<string> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-golden-fontconfig-'));
  const files = editorFontFiles(fontsDirectory);
  for (const family of ['Liberation Sans', 'Cascadia']) {
    const ttf = await files.face(editorFontFaces().find((face) => face.family === family)!);
    fs.copyFileSync(ttf.path, path.join(directory, path.basename(ttf.path)));
  }
  const alias = (name: string, family: string) => `<alias><family>${name}</family><prefer><family>${family}</family></prefer></alias>`;
  fs.writeFileSync(
    path.join(directory, 'fonts.conf'),
    `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>${directory}</dir><cachedir>${directory}/cache</cachedir>` +
      `${alias('Helvetica', 'Liberation Sans')}${alias('Arial', 'Liberation Sans')}${alias('sans-serif', 'Liberation Sans')}${alias('monospace', 'Cascadia Code')}</fontconfig>`,
  );
  return path.join(directory, 'fonts.conf');
}

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

describe('SVG golden images, as Chromium shows them with only the embedded fonts', () => {
  let browser: Browser | undefined;
  let launchError: Error | undefined;
  before(async () => {
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--font-render-hinting=none'],
        env: { ...process.env, FONTCONFIG_FILE: await bareFontconfig() },
      });
    } catch (error) {
      launchError = new Error(`chromium at ${CHROMIUM_PATH} did not start (${INSTALL_HINT}): ${(error as Error).message}`);
    }
  });
  after(async () => browser?.close());

  for (const [quality, render] of Object.entries(svgRenderers)) {
    for (const scene of SVG_SCENES) {
      test(`the ${scene} scene's ${quality} SVG shows in Chromium as its golden image`, async () => {
        if (!browser) throw launchError ?? new Error('chromium did not start');
        const png = await svgAsShown(browser, await render(GOLDEN_SCENES[scene]!()));
        const goldenFile = new URL(`${scene}.${quality}.svg.png`, GOLDEN_DIRECTORY);
        if (UPDATE || !fs.existsSync(goldenFile)) {
          if (!UPDATE) assert.fail(`no golden image ${goldenFile.pathname}: run UPDATE_GOLDENS=1 npm test -- golden`);
          fs.writeFileSync(goldenFile, png);
          return;
        }
        compare(png, goldenFile, `${scene}.${quality}.svg`);
      });
    }
  }
});
