import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { editorFontsDirectory } from '../../src/render/editor-fonts.ts';
import { assetUrl, prepareWebAssets, type WebAssets, webAssets, webAssetsHash } from '../../src/web/assets.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { TYPESCRIPT_ARGS } from '../helpers/typescript.ts';

let h: Harness;
let assets: WebAssets;

describe('web/assets', () => {
  before(async () => {
    assets = await webAssets();
    h = await startHarness();
  });
  after(() => h.close());

  const builtJavaScript = () =>
    Object.entries(assets.files)
      .filter(([name]) => name.endsWith('.js'))
      .map(([, file]) => fs.readFileSync(file.path, 'utf8'));

  test('the build holds the editor entry, its stylesheet, its chunks and the editor fonts', () => {
    const names = Object.keys(assets.files);
    for (const name of ['editor.js', 'editor.css', 'fonts/Virgil/Virgil-Regular.woff2']) assert.ok(names.includes(name), name);
    assert.ok(names.some((name) => /^chunk-[A-Z0-9]+\.js$/.test(name)), 'code-split chunks');
    assert.equal(path.basename(assets.dir), webAssetsHash());
  });

  test('the bundle is minified production code with nothing left for Node to define', () => {
    const entry = fs.readFileSync(assets.files['editor.js']!.path, 'utf8');
    // Minified code is long lines (the few line breaks left are inside template literals).
    assert.ok(entry.length / entry.split('\n').length > 1000, 'minified');
    for (const code of builtJavaScript()) assert.doesNotMatch(code, /process\.env\.NODE_ENV/);
  });

  test('the bundle names no CDN: the editor falls back to its fonts here, not on esm.sh', () => {
    for (const code of builtJavaScript()) assert.doesNotMatch(code, /esm\.sh|unpkg\.com|jsdelivr/);
  });

  test('the entry script is served as JavaScript, cacheable for a year, with an ETag', async () => {
    const res = await h.call('GET', assetUrl('editor.js'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(String(res.headers.etag), /^"[\w-]+"$/);
    assert.equal(res.body, fs.readFileSync(assets.files['editor.js']!.path, 'utf8'));
  });

  test('the stylesheet is served as CSS', async () => {
    const res = await h.call('GET', assetUrl('editor.css'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/css; charset=utf-8');
    assert.match(res.body, /\.excalidraw/);
    assert.match(res.body, /\.db-topbar/);
  });

  test('a client that accepts gzip gets the precompressed copy of the same bytes', async () => {
    const res = await h.app.inject({ method: 'GET', url: assetUrl('editor.js'), headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers.vary, 'accept-encoding');
    assert.deepEqual(zlib.gunzipSync(res.rawPayload), fs.readFileSync(assets.files['editor.js']!.path));
  });

  test('a client that refuses gzip (q=0) or does not mention it gets the plain bytes', async () => {
    for (const encoding of ['gzip;q=0, br', 'identity', 'br']) {
      const res = await h.app.inject({ method: 'GET', url: assetUrl('editor.css'), headers: { 'accept-encoding': encoding } });
      assert.equal(res.headers['content-encoding'], undefined, encoding);
      assert.equal(res.body, fs.readFileSync(assets.files['editor.css']!.path, 'utf8'));
    }
  });

  test('a request carrying the current ETag is answered 304 without a body', async () => {
    const first = await h.call('GET', assetUrl('editor.css'));
    const again = await h.call('GET', assetUrl('editor.css'), { headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, first.headers.etag);
  });

  test('every chunk the entry imports is served', async () => {
    const entry = fs.readFileSync(assets.files['editor.js']!.path, 'utf8');
    const chunks = [...new Set([...entry.matchAll(/"\.\/(chunk-[A-Z0-9]+\.js)"/g)].map((m) => m[1]!))];
    assert.ok(chunks.length > 0);
    for (const chunk of chunks) {
      const res = await h.call('GET', assetUrl(chunk));
      assert.equal(res.statusCode, 200, chunk);
      assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    }
  });

  test('every font the editor code refers to is served from the editor package as font/woff2', async () => {
    const referenced = new Set(builtJavaScript().flatMap((code) => [...code.matchAll(/"\.\/(fonts\/[^"]+\.woff2)"/g)].map((m) => m[1]!)));
    assert.ok(referenced.size > 50, `fonts referenced: ${referenced.size}`);
    for (const font of referenced) assert.ok(assets.files[font], font);

    const res = await h.call('GET', assetUrl('fonts/Virgil/Virgil-Regular.woff2'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'font/woff2');
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.deepEqual(res.rawPayload, fs.readFileSync(path.join(editorFontsDirectory(), 'Virgil', 'Virgil-Regular.woff2')));
  });

  test('the fonts the stylesheet refers to are served next to it', async () => {
    const css = fs.readFileSync(assets.files['editor.css']!.path, 'utf8');
    const fonts = [...css.matchAll(/url\("?\.\/([^")]+\.woff2)"?\)/g)].map((m) => m[1]!);
    assert.ok(fonts.length > 0);
    for (const font of fonts) {
      const res = await h.call('GET', assetUrl(font));
      assert.equal(res.statusCode, 200, font);
      assert.equal(res.headers['content-type'], 'font/woff2');
    }
  });

  test('only listed files are served: traversal, absolute paths and other builds are 404', async () => {
    const build = `/assets/${webAssetsHash()}`;
    const attempts = [
      `${build}/../../package.json`,
      `${build}/%2e%2e/%2e%2e/package.json`,
      `${build}/%2E%2E%2F%2E%2E%2Fpackage.json`,
      `${build}/fonts/../../../../package.json`,
      `${build}/fonts/%2e%2e/%2e%2e/index.js`,
      `${build}/fonts/Virgil/..%2f..%2f..%2fpackage.json`,
      `${build}/fonts/Virgil/..%5c..%5cindex.js`,
      `${build}/%2fetc%2fpasswd`,
      `${build}//etc/passwd`,
      `${build}/${encodeURIComponent(path.resolve('package.json'))}`,
      `${build}/${encodeURIComponent(assets.files['editor.js']!.path)}`,
      `${build}/editor.js.gz`,
      `${build}/__proto__`,
      `${build}/constructor`,
      `${build}/fonts`,
      `${build}/`,
      `/assets/0000000000000000/editor.js`,
      `/assets/..%2f..%2fpackage.json/editor.js`,
    ];
    for (const url of attempts) {
      const res = await h.call('GET', url);
      assert.equal(res.statusCode, 404, url);
      assert.doesNotMatch(res.body, /"name": "drawbridge"|root:x:0/, url);
    }
  });

  test('a later start reuses the cached build instead of building again', async () => {
    const again = await prepareWebAssets();
    assert.equal(again.dir, assets.dir);
    const script = `import { prepareWebAssets } from ${JSON.stringify(new URL('../../src/web/assets.ts', import.meta.url).href)};
const { built, dir } = await prepareWebAssets();
console.log(JSON.stringify({ built, dir }));`;
    const output = execFileSync(process.execPath, [...TYPESCRIPT_ARGS, '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(output.trim().split('\n').pop()!), { built: false, dir: assets.dir });
  });
});
