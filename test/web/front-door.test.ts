import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn } from '../helpers/web-session.ts';

let h: Harness;
describe('web/front-door', () => {
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const get = (url: string, headers: Record<string, string> = {}) => h.call('GET', url, { headers });

  /** The `href`s of the page's links, in order. */
  const linksOf = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) => match[1]!);

  /** Runs `check` with SIGNUP set to `mode` on the running server (the pages read the setting on each request). */
  async function withSignup(mode: Harness['config']['signup'], check: () => Promise<void>) {
    const before = h.config.signup;
    h.config.signup = mode;
    try {
      await check();
    } finally {
      h.config.signup = before;
    }
  }

  describe('the landing page', () => {
    test('signed out, / says what Drawbridge is and links to sign in, sign up, the API docs and the MCP setup', async () => {
      const page = await get('/');
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
      assert.match(page.body, /self-hostable diagram service/);
      assert.match(page.body, /SVG, PNG or PDF/);
      assert.match(page.body, /MCP/);
      const links = linksOf(page.body);
      for (const href of ['/login', '/signup', '/docs/api', '/docs/mcp']) assert.ok(links.includes(href), `links to ${href}`);
      assert.match(page.body, />Sign up</);
      assert.match(page.body, /<img src="\/static\/landing-example.png"/);
      const example = await get('/static/landing-example.png');
      assert.equal(example.statusCode, 200);
      assert.equal(example.headers['content-type'], 'image/png');
      assert.ok(pngSize(example.rawPayload).width >= 800, 'the example picture is sharp at twice the size it is shown');
    });

    test('with SIGNUP=invite the sign-up link says it is by invitation', () =>
      withSignup('invite', async () => {
        const page = await get('/');
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /<a [^>]*href="\/signup"[^>]*>Sign up \(by invitation\)<\/a>/);
        assert.doesNotMatch(page.body, />Sign up</);
        assert.ok(linksOf(page.body).includes('/login'));
      }));

    test('with SIGNUP=closed there is no sign-up link, and sign-in stays', () =>
      withSignup('closed', async () => {
        const page = await get('/');
        assert.equal(page.statusCode, 200);
        assert.ok(!linksOf(page.body).includes('/signup'), 'no link to /signup');
        assert.doesNotMatch(page.body, /Sign up/);
        assert.ok(linksOf(page.body).includes('/login'));
        assert.match(page.body, /made by its operator/);
        for (const docs of ['/docs/api', '/docs/mcp']) assert.ok(!linksOf((await get(docs)).body).includes('/signup'), `${docs} has no sign-up link either`);
      }));

    test('a signed-in visitor is sent to their diagrams; an unknown session cookie is not', async () => {
      const user = await h.user();
      const { cookie } = await signIn(h, user.id);
      const signedIn = await get('/', { cookie });
      assert.equal(signedIn.statusCode, 303);
      assert.equal(signedIn.headers.location, '/app');
      const stale = await get('/', { cookie: 'drawbridge_session=not-a-session' });
      assert.equal(stale.statusCode, 200);
      assert.match(stale.body, /self-hostable/);
    });

    test('a signed-in visitor is sent to their diagrams on PostgreSQL too', { skip: skipWithoutPostgres }, async () => {
      const pg = await startHarness({ engine: 'postgres' });
      try {
        const user = await pg.user();
        const { cookie } = await signIn(pg, user.id);
        const signedIn = await pg.call('GET', '/', { headers: { cookie } });
        assert.equal(signedIn.statusCode, 303);
        assert.equal(signedIn.headers.location, '/app');
        assert.equal((await pg.call('GET', '/')).statusCode, 200);
      } finally {
        await pg.close();
      }
    });

    test("the landing page's example request creates a diagram from its spec", async () => {
      const page = await get('/');
      const shown = /-d &#39;([\s\S]*?)&#39;/.exec(page.body)?.[1];
      assert.ok(shown, 'the page shows a request body');
      const body = shown.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
      const user = await h.user();
      const created = await h.call('POST', '/api/v1/diagrams', { token: user.token, body });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().title, 'Overview');
      assert.match(page.body, /http:\/\/drawbridge\.test\/api\/v1\/diagrams\/\$ID\/render\?format=svg/);
    });

    test('PUBLIC_URL is escaped wherever a page shows it', async () => {
      const odd = await startHarness({ env: { PUBLIC_URL: 'http://drawbridge.test/<b>"x' } });
      try {
        for (const url of ['/', '/docs/mcp']) {
          const page = await odd.call('GET', url);
          assert.equal(page.statusCode, 200);
          assert.doesNotMatch(page.body, /<b>|"x/, `${url} shows the address as text`);
          assert.match(page.body, /http:\/\/drawbridge\.test\/&#60;b&#62;&#34;x/);
        }
      } finally {
        await odd.close();
      }
    });
  });

  describe('the docs pages', () => {
    test('/docs/api loads Redoc from this server over the published OpenAPI document, under a policy that allows its search worker', async () => {
      const page = await get('/docs/api');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<redoc spec-url="\/api\/v1\/openapi.json"/);
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'/);
      assert.match(csp, /worker-src blob:/);
      assert.doesNotMatch(csp, /https?:/, 'no other host is allowed anything');
      const script = /<script src="(\/docs\/api\/assets\/[0-9a-f]{16}\/redoc\.standalone\.js)"><\/script>/.exec(page.body)?.[1];
      assert.ok(script, 'the page loads the bundle from this server');
      assert.equal((await get('/api/v1/openapi.json')).statusCode, 200);

      const bundle = await get(script);
      assert.equal(bundle.statusCode, 200);
      assert.equal(bundle.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(bundle.headers['cache-control'], 'public, max-age=31536000, immutable');
      // (Never assert.match on the bundle: a failure would print all of it.)
      assert.ok(bundle.body.includes('spec-url'), "Redoc's bundle, which starts itself on the page's <redoc spec-url> element");
      assert.ok(bundle.body.length > 500_000, 'the whole standalone bundle');
      assert.ok(!bundle.body.includes('cdn.redoc.ly'), "Redocly's logo is not fetched from their CDN");
      assert.ok(!bundle.body.trimEnd().split('\n').at(-1)!.startsWith('//# sourceMappingURL'), 'no source map is named (none is served)');

      const zipped = await get(script, { 'accept-encoding': 'gzip' });
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.ok(zipped.rawPayload.length < bundle.rawPayload.length / 2);
      assert.ok(gunzipSync(zipped.rawPayload).equals(bundle.rawPayload), 'the gzip copy is the same script');
      assert.equal((await get(script, { 'if-none-match': String(bundle.headers.etag) })).statusCode, 304);
      assert.equal((await get('/docs/api/assets/0000000000000000/redoc.standalone.js')).statusCode, 404, 'another build is not found');
    });

    test("/docs/mcp shows this server's MCP endpoint and API address in every snippet, each with a Copy button", async () => {
      const page = await get('/docs/mcp');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<code>http:\/\/drawbridge\.test\/mcp<\/code>/);
      assert.match(page.body, /&#34;url&#34;: &#34;http:\/\/drawbridge\.test\/mcp&#34;/);
      assert.match(page.body, /claude mcp add --transport http drawbridge http:\/\/drawbridge\.test\/mcp/);
      assert.match(page.body, /&#34;SERVICE_API_URL&#34;: &#34;http:\/\/drawbridge\.test&#34;/);
      assert.match(page.body, /drawbridge-mcp --health/);
      const snippets = [...page.body.matchAll(/<code id="(snippet-[a-z-]+)">/g)].map((match) => match[1]);
      assert.ok(snippets.length >= 6);
      for (const id of snippets) assert.match(page.body, new RegExp(`data-copy="${id}"`), `${id} has a Copy button`);
      const script = await get('/docs/copy.js');
      assert.equal(script.statusCode, 200);
      assert.match(String(script.headers['content-type']), /^text\/javascript/);
      assert.match(page.body, /<script src="\/docs\/copy.js" defer><\/script>/);
    });
  });

  describe('icons', () => {
    test('every page links the favicon, the Apple touch icon and the manifest', async () => {
      const user = await h.user();
      const { cookie } = await signIn(h, user.id);
      const pages = [await get('/'), await get('/login'), await get('/docs/api'), await get('/app', { cookie }), await get('/p/no-such-link')];
      for (const page of pages) {
        for (const link of ['<link rel="icon" href="/favicon.svg" type="image/svg+xml">', '<link rel="icon" href="/favicon.ico"', '<link rel="apple-touch-icon" href="/apple-touch-icon.png">', '<link rel="manifest" href="/manifest.webmanifest">']) {
          assert.ok(page.body.includes(link), `${link} on a page answering ${page.statusCode}`);
        }
        assert.match(String(page.headers['content-security-policy']), /img-src 'self'/);
        assert.match(String(page.headers['content-security-policy']), /manifest-src 'self'/);
      }
    });

    test('the favicon is an SVG, a Windows icon of PNGs, and square PNGs at 180, 192 and 512 px', async () => {
      const svg = await get('/favicon.svg');
      assert.equal(svg.statusCode, 200);
      assert.equal(svg.headers['content-type'], 'image/svg+xml; charset=utf-8');
      assert.match(svg.body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 64 64">/);
      assert.match(String(svg.headers['cache-control']), /max-age=86400/);

      const ico = await get('/favicon.ico');
      assert.equal(ico.statusCode, 200);
      assert.equal(ico.headers['content-type'], 'image/x-icon');
      const bytes = ico.rawPayload;
      assert.deepEqual([bytes.readUInt16LE(0), bytes.readUInt16LE(2)], [0, 1], 'an icon file');
      const sizes = Array.from({ length: bytes.readUInt16LE(4) }, (_, i) => {
        const entry = 6 + 16 * i;
        const [width, length, offset] = [bytes.readUInt8(entry), bytes.readUInt32LE(entry + 8), bytes.readUInt32LE(entry + 12)];
        const png = pngSize(bytes.subarray(offset, offset + length));
        assert.deepEqual(png, { width, height: width }, 'each entry is the PNG its directory says');
        return width;
      });
      assert.deepEqual(sizes, [16, 32, 48]);

      for (const [url, size] of [['/apple-touch-icon.png', 180], ['/icons/icon-192.png', 192], ['/icons/icon-512.png', 512]] as const) {
        const png = await get(url);
        assert.equal(png.statusCode, 200, url);
        assert.equal(png.headers['content-type'], 'image/png');
        assert.deepEqual(pngSize(png.rawPayload), { width: size, height: size }, url);
      }
      const touch = PNG.sync.read((await get('/apple-touch-icon.png')).rawPayload);
      assert.equal(touch.data[3], 255, 'the Apple touch icon fills its square (iOS shows transparency as black)');
      const app = PNG.sync.read((await get('/icons/icon-192.png')).rawPayload);
      assert.equal(app.data[3], 0, "the app icon's corners are rounded off");
    });

    test('the manifest names the app and its icons, each of which answers', async () => {
      const res = await get('/manifest.webmanifest');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/manifest+json; charset=utf-8');
      const manifest = res.json();
      assert.equal(manifest.name, 'Drawbridge');
      assert.equal(manifest.start_url, '/app');
      const sizes = [];
      for (const icon of manifest.icons) {
        const answer = await get(icon.src);
        assert.equal(answer.statusCode, 200, icon.src);
        assert.equal(answer.headers['content-type']?.toString().split(';')[0], icon.type);
        sizes.push(icon.sizes);
      }
      assert.deepEqual(sizes, ['192x192', '512x512', 'any']);
    });

    test('an icon the browser already has is a 304', async () => {
      const first = await get('/favicon.ico');
      const again = await get('/favicon.ico', { 'if-none-match': String(first.headers.etag) });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
    });
  });
});
