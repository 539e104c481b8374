import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

/** A shape with a label, another shape, and a frame holding a third: enough to crop, size and theme. */
function scene() {
  const base = { angle: 0, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 0, opacity: 100, seed: 1, version: 1, versionNonce: 1, isDeleted: false, groupIds: [], frameId: null, roundness: null, boundElements: null, updated: 1, link: null, locked: false };
  return {
    elements: [
      { ...base, id: 'a', type: 'rectangle', x: 0, y: 0, width: 200, height: 100, backgroundColor: '#a5d8ff', boundElements: [{ id: 'a-label', type: 'text' }] },
      { ...base, id: 'a-label', type: 'text', x: 60, y: 38, width: 80, height: 25, text: 'Alpha', originalText: 'Alpha', fontSize: 20, fontFamily: 5, textAlign: 'center', verticalAlign: 'middle', containerId: 'a', autoResize: true, lineHeight: 1.25 },
      { ...base, id: 'b', type: 'ellipse', x: 400, y: 0, width: 100, height: 100 },
      { ...base, id: 'f', type: 'frame', x: 0, y: 300, width: 300, height: 150, name: 'Frame' },
      { ...base, id: 'in-f', type: 'diamond', x: 50, y: 330, width: 100, height: 80, frameId: 'f' },
    ],
  };
}

function cacheFileCount(h: Harness): number {
  const directory = path.join(h.config.dataDir, 'render-cache');
  if (!fs.existsSync(directory)) return 0;
  return fs.readdirSync(directory).reduce((count, shard) => count + fs.readdirSync(path.join(directory, shard)).filter((name) => !name.endsWith('.tmp')).length, 0);
}

/** The RGBA of one pixel of a PNG. */
function pixel(png: Buffer, x: number, y: number): [number, number, number, number] {
  const image = PNG.sync.read(png);
  const at = (image.width * y + x) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!, image.data[at + 3]!];
}

for (const quality of ['faithful', 'fast'] as const) {
  describe(`render options (${quality})`, () => {
    let h: Harness;
    let token: string;
    let id: string;
    const render = (query: string) => h.call('GET', `/api/v1/diagrams/${id}/render?quality=${quality}&${query}`, { token });

    before(async () => {
      h = await startHarness({ env: { RENDER_WORKERS: '1' } });
      ({ token } = await h.user());
      const created = await h.call('POST', '/api/v1/diagrams', { token, body: { title: 'options', scene: scene() } });
      assert.equal(created.statusCode, 201, created.body);
      id = created.json().id;
    });
    after(() => h.close());

    test('width makes the PNG that wide; scale multiplies the drawing size; without either it is 1024 wide', async () => {
      const plain = await render('format=png');
      assert.equal(plain.headers['x-render-quality'], quality);
      assert.equal(pngSize(plain.rawPayload).width, 1024);
      const narrow = await render('format=png&width=300');
      assert.equal(narrow.statusCode, 200, narrow.body);
      assert.equal(pngSize(narrow.rawPayload).width, 300);
      const scaled = await render('format=png&scale=2');
      // The drawing is 500 × 450 scene px plus 10 px of padding on each side.
      assert.deepEqual(pngSize(scaled.rawPayload), { width: 1040, height: 940 });
    });

    test('for SVG, width and scale set the root size and keep the viewBox', async () => {
      const plain = (await render('format=svg')).body;
      const wide = (await render('format=svg&width=2080')).body;
      const viewBox = /viewBox="([^"]+)"/.exec(plain)![1];
      assert.equal(/viewBox="([^"]+)"/.exec(wide)![1], viewBox);
      assert.match(wide, /^<svg[^>]* width="2080" height="1880"/);
      assert.match((await render('format=svg&scale=3')).body, /^<svg[^>]* width="1560" height="1410"/);
    });

    test('padding grows the drawing by that much on each side', async () => {
      assert.deepEqual(pngSize((await render('format=png&scale=1&padding=0')).rawPayload), { width: 500, height: 450 });
      assert.deepEqual(pngSize((await render('format=png&scale=1&padding=100')).rawPayload), { width: 700, height: 650 });
    });

    test('background: a colour fills the corners, transparent leaves them clear; dark defaults to the editor dark canvas', async () => {
      assert.deepEqual(pixel((await render('format=png')).rawPayload, 2, 2), [255, 255, 255, 255]);
      assert.deepEqual(pixel((await render('format=png&background=%230d1117')).rawPayload, 2, 2), [13, 17, 23, 255]);
      assert.equal(pixel((await render('format=png&background=transparent')).rawPayload, 2, 2)[3], 0);
      const dark = pixel((await render('format=png&theme=dark')).rawPayload, 2, 2);
      // #121212, within the rounding of the filter's 8-bit steps.
      assert.ok(dark.slice(0, 3).every((c) => Math.abs(c - 18) <= 2) && dark[3] === 255, `the dark canvas: ${dark}`);
      assert.deepEqual(pixel((await render('format=png&theme=dark&background=%23ffffff')).rawPayload, 2, 2), [255, 255, 255, 255]);
    });

    test('the dark theme draws dark strokes light, through the editor filter', async () => {
      const light = await render('format=svg');
      const dark = await render('format=svg&theme=dark');
      assert.doesNotMatch(light.body, /filter="url\(#theme-dark\)"/);
      assert.match(dark.body, /<filter id="theme-dark"[^>]*>.*<feFuncR type="table" tableValues="0.93 0.07"\/>.*<feColorMatrix type="hueRotate" values="180"\/>/s);
      assert.match(dark.body, /<g filter="url\(#theme-dark\)">/);
      // The rectangle's light blue fill (#a5d8ff) is drawn dark, and blue still.
      const [lr, lg, lb] = pixel((await render('format=png&scale=1&padding=0')).rawPayload, 100, 20);
      const [r, g, b] = pixel((await render('format=png&theme=dark&scale=1&padding=0')).rawPayload, 100, 20);
      assert.ok(lr + lg + lb > 500, `light: ${[lr, lg, lb]}`);
      assert.ok(r + g + b < 250 && b > r, `dark: ${[r, g, b]}`);
    });

    test('elements draws only those elements and their labels, sized to them', async () => {
      const response = await render('format=svg&elements=a');
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.body, /viewBox="0 0 220 120"/);
      assert.match(response.body, />Alpha</);
      assert.deepEqual(pngSize((await render('format=png&elements=b&scale=1')).rawPayload), { width: 120, height: 120 });
    });

    test('frame draws the frame as the editor exports one: exactly its size, no padding, no name', async () => {
      const response = await render('format=svg&frame=f');
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.body, /viewBox="0 0 300 150"/);
      assert.doesNotMatch(response.body, />Frame</);
      assert.doesNotMatch(response.body, />Alpha</);
    });

    test('ids naming nothing drawn, or a frame id that is not a frame, are 400 invalid_selection and nothing is cached', async () => {
      const files = cacheFileCount(h);
      for (const query of ['elements=a,nope', 'frame=a', 'frame=nope', 'elements=nope']) {
        for (const format of ['png', 'json']) {
          const response = await render(`format=${format}&${query}`);
          assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
          assert.equal(response.json().error, 'invalid_selection');
          assert.match(response.json().message, /nope|not a frame/);
        }
      }
      assert.equal(cacheFileCount(h), files);
    });

    test('malformed options are 400 bad_request naming the parameter, and nothing is rendered or cached', async () => {
      const files = cacheFileCount(h);
      for (const [query, name] of [['width=100', 'width'], ['width=800&scale=2', 'scale'], ['scale=9', 'scale'], ['padding=x', 'padding'], ['background=red', 'background'], ['theme=blue', 'theme'], ['elements=a&frame=f', 'frame']]) {
        const response = await render(`format=png&${query}`);
        assert.equal(response.statusCode, 400, query);
        assert.equal(response.json().error, 'bad_request');
        assert.match(response.json().message, new RegExp(name!));
      }
      assert.equal(cacheFileCount(h), files);
    });

    if (quality === 'faithful') {
      test('each set of options is cached on its own: the same options hit the cache, others render afresh, never a stale hit', async () => {
        const first = await render('format=png&width=640&theme=dark');
        const files = cacheFileCount(h);
        const again = await render('theme=dark&width=640&format=png');
        assert.ok(again.rawPayload.equals(first.rawPayload));
        assert.equal(cacheFileCount(h), files, 'the same options (in any order) are a cache hit');
        const seen = new Set([first.rawPayload.toString('base64')]);
        for (const query of ['width=641&theme=dark', 'width=640', 'width=640&theme=dark&padding=30', 'width=640&theme=dark&background=transparent', 'width=640&theme=dark&elements=a']) {
          const other = await render(`format=png&${query}`);
          assert.equal(other.statusCode, 200, other.body);
          assert.ok(!seen.has(other.rawPayload.toString('base64')), `${query} is a rendering of its own`);
          seen.add(other.rawPayload.toString('base64'));
        }
        assert.equal(cacheFileCount(h), files + 5);
      });

      test('the envelope applies the options to both its SVG and its PNG and keeps its shape', async () => {
        const envelope = (await render('width=512&theme=dark')).json();
        assert.deepEqual(Object.keys(envelope).sort(), ['elementCount', 'isEmpty', 'png', 'quality', 'svg']);
        assert.equal(pngSize(Buffer.from(envelope.png, 'base64')).width, 512);
        assert.match(envelope.svg, /^<svg[^>]* width="512"/);
      });
    }
  });
}

describe('format=pdf', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness();
    ({ token } = await h.user());
  });
  after(() => h.close());

  test('a diagram renders to a one-page PDF with the render headers and an inline file name from the title', async () => {
    const id = (await h.call('POST', '/api/v1/diagrams', { token, body: { title: 'Plan ü', scene: scene() } })).json().id;
    for (const quality of ['faithful', 'fast']) {
      const response = await h.call('GET', `/api/v1/diagrams/${id}/render?format=pdf&quality=${quality}`, { token });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'application/pdf');
      assert.equal(response.headers['x-render-quality'], quality);
      assert.match(String(response.headers['content-disposition']), /^inline; filename="Plan _\.pdf"; filename\*=UTF-8''Plan%20%C3%BC\.pdf$/);
      assert.equal(response.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    }
  });

  test('an empty diagram is 204 for a PDF too', async () => {
    const id = (await h.call('POST', '/api/v1/diagrams', { token, body: { title: 'empty', scene: { elements: [] } } })).json().id;
    assert.equal((await h.call('GET', `/api/v1/diagrams/${id}/render?format=pdf`, { token })).statusCode, 204);
  });
});
