import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let alice: TestUser;
describe('http/public-link', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  async function diagram(scene: unknown = sceneOf(1), title = 'Published') {
    return (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title, scene } })).json().id as string;
  }

  const put = (id: string, body: unknown) => h.call('PUT', `/api/v1/diagrams/${id}/public-link`, { token: alice.token, body });

  test('enabling gives a fixed slug, an absolute url and version 1; each PUT bumps the version', async () => {
    const id = await diagram();
    const first = await put(id, { enabled: true });
    assert.equal(first.statusCode, 200);
    const link = first.json();
    assert.deepEqual(Object.keys(link).sort(), ['enabled', 'hasPassword', 'slug', 'url', 'version']);
    assert.match(link.slug, /^[0-9A-Za-z]{20,}$/);
    assert.equal(link.enabled, true);
    assert.equal(link.hasPassword, false);
    assert.equal(link.version, 1);
    assert.equal(link.url, `http://drawbridge.test/p/${link.slug}`);

    const off = (await put(id, { enabled: false })).json();
    assert.deepEqual(off, { slug: link.slug, enabled: false, hasPassword: false, version: 2, url: null });
    const offAgain = (await put(id, { enabled: false })).json();
    assert.equal(offAgain.version, 3, 'the same state can be re-entered');
    const on = (await put(id, { enabled: true })).json();
    assert.equal(on.slug, link.slug, 'the slug is fixed for the life of the diagram');
    assert.equal(on.version, 4);
  });

  test('the password is set, kept when the key is absent, and cleared with null', async () => {
    const id = await diagram();
    assert.equal((await put(id, { enabled: true, password: 'hunter2' })).json().hasPassword, true);
    assert.equal((await put(id, { enabled: false })).json().hasPassword, true);
    assert.equal((await put(id, { enabled: true })).json().hasPassword, true);
    assert.equal((await put(id, { enabled: true, password: null })).json().hasPassword, false);
  });

  test('bad public-link bodies are 400 and change nothing', async () => {
    const id = await diagram();
    const before = (await put(id, { enabled: true })).json();
    for (const body of [{}, { enabled: 'yes' }, { enabled: true, password: '' }, { enabled: true, password: 5 }, { enabled: true, slug: 'mine' }]) {
      const res = await put(id, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().error, 'bad_request');
    }
    assert.equal((await put(id, { enabled: true })).json().version, before.version + 1);
  });

  test('the public page shows an enabled diagram, escaped, with no script allowed', async () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const id = await diagram({ elements: [{ id: 't', type: 'text', text: hostile }] }, `Title ${hostile}`);
    const { slug } = (await put(id, { enabled: true })).json();
    const page = await h.call('GET', `/p/${slug}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.match(page.headers['content-security-policy'] as string, /default-src 'none'/);
    assert.ok(page.body.includes('&#60;script&#62;alert(1)&#60;/script&#62;'));
    assert.ok(!page.body.includes('<script>'));
    assert.doesNotMatch(page.body, /<img(?! class="diagram" src="data:image\/svg\+xml;base64,)/, 'the only image is the rendered diagram, as a data: URL');
    assert.match(page.body, /<img class="diagram" src="data:image\/svg\+xml;base64,/);
    assert.ok(!page.body.includes(alice.email), 'nothing of the account is shown');
  });

  test('disabled, trashed and unknown slugs are 404', async () => {
    const id = await diagram();
    const { slug } = (await put(id, { enabled: true })).json();
    assert.equal((await h.call('GET', `/p/${slug}`)).statusCode, 200);
    await put(id, { enabled: false });
    assert.equal((await h.call('GET', `/p/${slug}`)).statusCode, 404);
    await put(id, { enabled: true });
    await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: alice.token });
    assert.equal((await h.call('GET', `/p/${slug}`)).statusCode, 404);
    await h.call('POST', `/api/v1/diagrams/${id}/restore`, { token: alice.token });
    assert.equal((await h.call('GET', `/p/${slug}`)).statusCode, 200);
    assert.equal((await h.call('GET', '/p/AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode, 404);
    assert.equal((await h.call('GET', '/p/x')).statusCode, 404);
  });

  test('a password-protected page asks for the password first', async () => {
    const id = await diagram({ elements: [{ id: 't', type: 'text', text: 'Secret plan' }] });
    const { slug } = (await put(id, { enabled: true, password: 'correct horse' })).json();
    const form = await h.call('GET', `/p/${slug}`);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /type="password"/);
    assert.ok(!form.body.includes('Secret plan'));

    const post = (password: string) =>
      h.app.inject({ method: 'POST', url: `/p/${slug}`, payload: new URLSearchParams({ password }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const wrong = await post('wrong');
    assert.equal(wrong.statusCode, 401);
    assert.ok(!wrong.body.includes('Secret plan'));
    const right = await post('correct horse');
    assert.equal(right.statusCode, 200);
    assert.ok(right.body.includes('Secret plan'));
  });
});
