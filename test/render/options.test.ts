import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  colourBeforeThemeFilter,
  exportLook,
  exportSelection,
  InvalidRenderOption,
  InvalidSelection,
  pngSize,
  renderOptionsKey,
  renderOptionsOf,
  sizedSvg,
  throughThemeFilter,
} from '../../src/render/options.ts';
import { RenderOptionsQuery } from '../../src/api/render-options.ts';
import { ApiError } from '../../src/errors.ts';
import { parseWith } from '../../src/edge/validate.ts';

/** A query as the render route reads it: each option checked by its schema, then the options together. */
const parseRenderOptions = (query: Record<string, unknown>) => renderOptionsOf(parseWith(RenderOptionsQuery, query, 'query'));

describe('reading render options from a query', () => {
  test('every option is read and normalised: background lower case #rrggbb, element ids sorted and unique', () => {
    assert.deepEqual(parseRenderOptions({ width: '800', padding: '0', background: '#ABC', theme: 'dark', elements: 'b, a,b' }), {
      width: 800,
      padding: 0,
      theme: 'dark',
      background: '#aabbcc',
      elementIds: ['a', 'b'],
    });
    assert.deepEqual(parseRenderOptions({ scale: '2.5', frame: 'f1', background: 'white' }), { scale: 2.5, frameId: 'f1' });
    assert.deepEqual(parseRenderOptions({ background: 'Transparent' }), { background: 'transparent' });
  });

  test('no options, and options at their defaults, read as the empty options with the empty cache key', () => {
    for (const query of [{}, { padding: '10' }, { theme: 'light' }, { background: '#FFF' }, { format: 'png', quality: 'fast', v: '2' }]) {
      const options = parseRenderOptions(query);
      assert.deepEqual(options, {}, JSON.stringify(query));
      assert.equal(renderOptionsKey(options), '');
    }
    assert.deepEqual(parseRenderOptions({ theme: 'dark', background: '#121212' }), parseRenderOptions({ theme: 'dark' }), "the dark theme's default background");
  });

  test('a value out of range, malformed, repeated, or two options that exclude each other is refused with a message naming it', () => {
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ width: '255' }, /^width: must be from 256 to 4096/],
      [{ width: '4097' }, /^width: /],
      [{ width: '1e3' }, /^width: must be a whole number/],
      [{ width: '800', scale: '2' }, /width or scale, not both/],
      [{ scale: '0.5' }, /^scale: must be a number from 1 to 4/],
      [{ scale: '4.5' }, /^scale: /],
      [{ scale: 'x' }, /^scale: /],
      [{ padding: '201' }, /^padding: must be from 0 to 200/],
      [{ padding: '-1' }, /^padding: /],
      [{ background: 'red' }, /^background: must be transparent, white, or a colour/],
      [{ background: '#12345' }, /^background: /],
      [{ theme: 'sepia' }, /^theme: must be light or dark/],
      [{ elements: ' , ' }, /^elements: must list element ids/],
      [{ elements: 'a', frame: 'f' }, /elements or frame, not both/],
      [{ frame: '' }, /^frame: /],
      [{ width: ['800', '900'] }, /^width: may be given once/],
    ];
    for (const [query, message] of refused) {
      assert.throws(
        () => parseRenderOptions(query),
        (error: unknown) => (error instanceof ApiError || error instanceof InvalidRenderOption) && message.test((error as Error).message),
        JSON.stringify(query),
      );
    }
  });

  test('different options have different cache keys; the same options in any order have one', () => {
    const keys = [{ width: '800' }, { width: '801' }, { scale: '2' }, { padding: '20' }, { background: 'transparent' }, { theme: 'dark' }, { elements: 'a' }, { frame: 'a' }].map((query) => renderOptionsKey(parseRenderOptions(query)));
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(renderOptionsKey(parseRenderOptions({ elements: 'b,a', theme: 'dark' })), renderOptionsKey(parseRenderOptions({ theme: 'dark', elements: 'a,b,a' })));
  });
});

describe('the export look', () => {
  test('the defaults are the editor export the renderers always made', () => {
    assert.deepEqual(exportLook({}), {
      appState: { exportBackground: true, viewBackgroundColor: '#ffffff', exportWithDarkMode: false, exportEmbedScene: false },
      exportPadding: 10,
      underlay: null,
    });
  });

  test('dark without a background is the editor dark export: the white canvas through the theme filter, #121212', () => {
    const look = exportLook({ theme: 'dark' });
    assert.equal(look.appState.exportWithDarkMode, true);
    assert.equal(look.appState.exportBackground, true);
    assert.equal(throughThemeFilter(look.appState.viewBackgroundColor), '#121212');
    assert.equal(look.underlay, null);
  });

  test('a background asked for in the dark theme is painted beneath the filter, exactly that colour', () => {
    const look = exportLook({ theme: 'dark', background: '#0d1117', padding: 30 });
    assert.equal(look.underlay, '#0d1117');
    assert.equal(look.appState.exportBackground, false);
    assert.equal(look.exportPadding, 30);
    assert.equal(throughThemeFilter(colourBeforeThemeFilter('#334455')), '#334455');
  });

  test('transparent draws no background in either theme', () => {
    for (const theme of ['light', 'dark'] as const) {
      const look = exportLook({ theme, background: 'transparent' });
      assert.equal(look.appState.exportBackground, false);
      assert.equal(look.underlay, null);
    }
  });
});

describe('the part of the scene drawn', () => {
  const scene = [
    { id: 'a', type: 'rectangle', frameId: null },
    { id: 'a-label', type: 'text', containerId: 'a' },
    { id: 'b', type: 'ellipse' },
    { id: 'gone', type: 'rectangle', isDeleted: true },
    { id: 'f', type: 'frame' },
    { id: 'in-f', type: 'diamond', frameId: 'f' },
    { id: 'in-f-label', type: 'text', containerId: 'in-f', frameId: 'f' },
  ];
  const ids = (selection: { elements: Array<{ id: string }> }) => selection.elements.map((e) => e.id);

  test('elements draws those elements and the text bound to them', () => {
    assert.deepEqual(ids(exportSelection(scene, { elementIds: ['a'] })), ['a', 'a-label']);
    assert.deepEqual(ids(exportSelection(scene, { elementIds: ['b', 'a'] })), ['a', 'a-label', 'b']);
  });

  test('a frame among the elements brings what it holds', () => {
    assert.deepEqual(ids(exportSelection(scene, { elementIds: ['f'] })), ['f', 'in-f', 'in-f-label']);
  });

  test('frame exports that frame as the editor does: the exporter gets every drawn element and the frame', () => {
    const selection = exportSelection(scene, { frameId: 'f' });
    assert.equal(selection.exportingFrame?.id, 'f');
    assert.ok(!ids(selection).includes('gone'));
  });

  test('an unknown or deleted id, or a frame id that is not a frame, is an invalid selection naming it', () => {
    assert.throws(() => exportSelection(scene, { elementIds: ['a', 'nope'] }), (error: unknown) => error instanceof InvalidSelection && /"nope"/.test((error as Error).message));
    assert.throws(() => exportSelection(scene, { elementIds: ['gone'] }), InvalidSelection);
    assert.throws(() => exportSelection(scene, { frameId: 'a' }), /is a rectangle, not a frame/);
    assert.throws(() => exportSelection(scene, { frameId: 'nope' }), InvalidSelection);
  });
});

describe('sizes', () => {
  test('by default a PNG is 1024 px wide and at most 8192 tall, as it always was', () => {
    assert.deepEqual(pngSize(500, 250), { width: 1024, height: 512 });
    assert.deepEqual(pngSize(100, 5000), { width: 1024, height: 8192 });
    assert.deepEqual(pngSize(5000, 1), { width: 1024, height: 1 });
  });

  test('width makes the PNG that wide; scale multiplies the drawing; both stay within 4096 × 4096 pixels', () => {
    assert.deepEqual(pngSize(500, 250, { width: 300 }), { width: 300, height: 150 });
    assert.deepEqual(pngSize(500, 250, { scale: 2 }), { width: 1000, height: 500 });
    assert.deepEqual(pngSize(400, 4000, { width: 4096 }), { width: 4096, height: 4096 });
    const big = pngSize(3000, 3000, { scale: 4 });
    assert.ok(big.width * big.height <= 4096 * 4096);
    assert.equal(big.width, big.height);
  });

  test('an SVG keeps its viewBox; width or scale set its root size', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 100" width="400" height="100"><rect/></svg>';
    assert.equal(sizedSvg(svg, {}), svg);
    assert.match(sizedSvg(svg, { width: 800 }), /^<svg width="800" height="200" [^>]*viewBox="0 0 400 100"/);
    assert.match(sizedSvg(svg, { scale: 1.5 }), /^<svg width="600" height="150" /);
  });
});
