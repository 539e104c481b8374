/** PNGs are encoded by src/render/png-encode.ts from resvg's pixels: the rule is that they decode to exactly resvg's own PNG's pixels. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import { encodePng } from '../../src/render/png-encode.ts';

const SCENES = {
  opaque: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 120"><rect width="300" height="120" fill="#fff"/><path d="M10 10 C 80 100, 150 -20, 290 110" stroke="#1e1e1e" stroke-width="3" fill="none"/></svg>',
  'translucent, on a transparent background': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><rect x="10" y="10" width="50" height="20" fill="#ff000080"/><circle cx="70" cy="25" r="20" fill="rgba(0,128,255,0.3)"/></svg>',
};

for (const [name, svg] of Object.entries(SCENES)) {
  test(`an ${name} render decodes to resvg's own PNG's pixels`, () => {
    const image = new Resvg(svg, { fitTo: { mode: 'width', value: 512 }, font: { loadSystemFonts: false } }).render();
    const ours = PNG.sync.read(encodePng(image.pixels, image.width, image.height));
    const theirs = PNG.sync.read(image.asPng());
    assert.deepEqual([ours.width, ours.height], [theirs.width, theirs.height]);
    assert.ok(ours.data.equals(theirs.data), 'the same RGBA bytes');
  });
}
