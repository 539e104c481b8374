import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

/** The embeddable images /p/:slug.svg and /p/:slug.png follow the public page: publish, unpublish, password, edits. */
let h: Harness;
let alice: TestUser;
describe('http/public-image', () => {
  before(async () => {
    h = await startHarness({ env: { RENDER_WORKERS: '1' } });
    alice = await h.user();
  });
  after(() => h.close());

  async function published(password?: string): Promise<{ id: string; slug: string }> {
    const id = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'Embedded', scene: sceneOf(2) } })).json().id as string;
    const link = await setLink(id, { enabled: true, ...(password ? { password } : {}) });
    return { id, slug: link.slug };
  }

  async function setLink(id: string, body: unknown) {
    const response = await h.call('PUT', `/api/v1/diagrams/${id}/public-link`, { token: alice.token, body });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  }

  const image = (path: string, headers: Record<string, string> = {}) => h.call('GET', path, { headers });

  test('a published diagram is an SVG and a PNG anyone can fetch, with the render headers, ETag, Last-Modified and Cache-Control', async () => {
    const { id, slug } = await published();
    const svg = await image(`/p/${slug}.svg`);
    assert.equal(svg.statusCode, 200, svg.body);
    assert.equal(svg.headers['content-type'], 'image/svg+xml; charset=utf-8');
    assert.match(svg.body, /^<svg[\s>]/);
    assert.equal(svg.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:");
    assert.equal(svg.headers['x-render-quality'], 'faithful');
    assert.equal(svg.headers['cache-control'], 'public, no-cache');
    assert.match(String(svg.headers.etag), /^"[\w-]{20,}"$/);
    const diagram = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json();
    assert.equal(svg.headers['last-modified'], new Date(diagram.updatedAt).toUTCString());

    const png = await image(`/p/${slug}.png`);
    assert.equal(png.statusCode, 200);
    assert.equal(png.headers['content-type'], 'image/png');
    assert.equal(pngSize(png.rawPayload).width, 1024);
    assert.notEqual(png.headers.etag, svg.headers.etag);
  });

  test('the options apply, and each set of options has its own ETag; other parameters (a cache buster) are ignored', async () => {
    const { slug } = await published();
    const plain = await image(`/p/${slug}.png`);
    const narrow = await image(`/p/${slug}.png?width=300&theme=dark`);
    assert.equal(narrow.statusCode, 200, narrow.body);
    assert.equal(pngSize(narrow.rawPayload).width, 300);
    assert.notEqual(narrow.headers.etag, plain.headers.etag);
    const busted = await image(`/p/${slug}.png?v=2`);
    assert.equal(busted.statusCode, 200);
    assert.equal(busted.headers.etag, plain.headers.etag);
    const bad = await image(`/p/${slug}.png?width=10`);
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'bad_request');
    const unknown = await image(`/p/${slug}.svg?elements=nope`);
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().error, 'invalid_selection');
  });

  test('a matching If-None-Match is 304 with no body and the same validators; a stale one is the full image', async () => {
    const { slug } = await published();
    for (const format of ['svg', 'png']) {
      const first = await image(`/p/${slug}.${format}`);
      const etag = String(first.headers.etag);
      const again = await image(`/p/${slug}.${format}`, { 'if-none-match': etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
      assert.equal(again.headers.etag, etag);
      assert.equal(again.headers['cache-control'], 'public, no-cache');
      assert.equal(again.headers['last-modified'], first.headers['last-modified']);
      assert.equal((await image(`/p/${slug}.${format}`, { 'if-none-match': `"other", W/${etag}` })).statusCode, 304, 'a list, and a weak tag, match');
      assert.equal((await image(`/p/${slug}.${format}`, { 'if-none-match': '"stale"' })).statusCode, 200);
    }
  });

  test('If-Modified-Since at or after Last-Modified is 304; before it, the full image; If-None-Match wins over it', async () => {
    const { slug } = await published();
    const first = await image(`/p/${slug}.svg`);
    const lastModified = String(first.headers['last-modified']);
    assert.equal((await image(`/p/${slug}.svg`, { 'if-modified-since': lastModified })).statusCode, 304);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    assert.equal((await image(`/p/${slug}.svg`, { 'if-modified-since': earlier })).statusCode, 200);
    assert.equal((await image(`/p/${slug}.svg`, { 'if-modified-since': lastModified, 'if-none-match': '"stale"' })).statusCode, 200);
  });

  test('an edit changes the image, its ETag and Last-Modified at once: the old ETag no longer matches', async () => {
    const { id, slug } = await published();
    const before = await image(`/p/${slug}.svg`);
    const patched = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'move', id: 'el-0', dx: 300, dy: 200 }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const after = await image(`/p/${slug}.svg`, { 'if-none-match': String(before.headers.etag) });
    assert.equal(after.statusCode, 200);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.notEqual(after.body, before.body);
    assert.ok(Date.parse(String(after.headers['last-modified'])) >= Date.parse(String(before.headers['last-modified'])));
  });

  test('unpublishing makes both images 404 at once, and publishing again brings them back', async () => {
    const { id, slug } = await published();
    const etag = String((await image(`/p/${slug}.png`)).headers.etag);
    await setLink(id, { enabled: false });
    for (const format of ['svg', 'png']) {
      const gone = await image(`/p/${slug}.${format}`, { 'if-none-match': etag });
      assert.equal(gone.statusCode, 404, 'not even a 304 for a copy held from before');
      assert.equal(gone.json().error, 'not_found');
    }
    await setLink(id, { enabled: true });
    assert.equal((await image(`/p/${slug}.png`)).statusCode, 200);
  });

  test('a password-protected link has no image (404, as an unknown slug); clearing the password brings it back', async () => {
    const { id, slug } = await published('hunter2');
    assert.equal((await image(`/p/${slug}.svg`)).statusCode, 404);
    assert.equal((await image(`/p/${slug}.png`)).statusCode, 404);
    const unknown = await image('/p/ABCDEFGHIJKLMNOPQRSTUVWX.svg');
    assert.equal(unknown.statusCode, 404);
    assert.equal((await image(`/p/${slug}.svg`)).body, unknown.body);
    await setLink(id, { enabled: true, password: null });
    assert.equal((await image(`/p/${slug}.svg`)).statusCode, 200);
    await setLink(id, { enabled: true, password: 'again' });
    assert.equal((await image(`/p/${slug}.svg`)).statusCode, 404, 'setting a password hides it at once');
  });

  test('a trashed diagram has no image', async () => {
    const { id, slug } = await published();
    assert.equal((await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: alice.token })).statusCode, 204);
    assert.equal((await image(`/p/${slug}.png`)).statusCode, 404);
  });

  test('an empty published diagram is 204', async () => {
    const id = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'empty', scene: { elements: [] } } })).json().id as string;
    const { slug } = await setLink(id, { enabled: true });
    assert.equal((await image(`/p/${slug}.svg`)).statusCode, 204);
  });

  test('the images share the public pages budget per client address: past it, 429 rate_limited with Retry-After', async () => {
    const limited = await startHarness({ env: { RATE_LIMIT_PAGES_PER_MIN: '3' } });
    try {
      const owner = await limited.user();
      const id = (await limited.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'limited', scene: sceneOf(1) } })).json().id as string;
      const { slug } = (await limited.call('PUT', `/api/v1/diagrams/${id}/public-link`, { token: owner.token, body: { enabled: true } })).json();
      const from = (remoteAddress: string, url: string) => limited.app.inject({ method: 'GET', url, remoteAddress });
      assert.equal((await from('10.9.0.1', `/p/${slug}`)).statusCode, 200);
      assert.equal((await from('10.9.0.1', `/p/${slug}.svg`)).statusCode, 200);
      assert.equal((await from('10.9.0.1', `/p/${slug}.png`)).statusCode, 200);
      const refused = await from('10.9.0.1', `/p/${slug}.svg`);
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().error, 'rate_limited');
      assert.match(String(refused.headers['retry-after']), /^\d+$/);
      assert.equal((await from('10.9.0.2', `/p/${slug}.svg`)).statusCode, 200, 'another address has its own budget');
    } finally {
      await limited.close();
    }
  });
});
