import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';

let h: ListeningHarness;
let owner: { id: string; token: string };
let web: SignedIn;
let diagramId: string;

describe('web/editor', () => {
  before(async () => {
    h = await startHarness({ listen: true });
    owner = await h.user();
    web = await signIn(h, owner.id);
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Edit <me>', spec: { nodes: [{ id: 'a', label: 'Alpha', icon: 'icon-server' }] } } });
    diagramId = created.json().id;
  });
  after(() => h.close());

  const headers = (extra: Record<string, string> = {}) => ({ cookie: web.cookie, ...extra });

  async function load() {
    const response = await h.call('GET', `/app/api/diagrams/${diagramId}`, { headers: headers() });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { docUpdatedAt: string; scene: { elements: Array<Record<string, unknown>> } };
  }

  function save(elements: unknown[], expectedUpdatedAt: string, extra: Record<string, string> = { 'x-csrf-token': web.csrfToken }) {
    return h.call('PUT', `/app/api/diagrams/${diagramId}/scene`, { headers: headers(extra), body: { elements, expectedUpdatedAt } });
  }

  test('the editor page mounts the bundled editor with the diagram id and the session CSRF token, title escaped', async () => {
    const page = await h.call('GET', `/app/d/${diagramId}`, { headers: headers() });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<div id="editor" data-diagram-id="${diagramId}" data-csrf-token="${web.csrfToken}"`));
    assert.match(page.body, /<script type="module" src="\/assets\/[0-9a-f]+\/editor\.js"><\/script>/);
    assert.match(page.body, /Edit &#60;me&#62;/);
    assert.match(page.headers['content-security-policy'] as string, /script-src 'self'/);
  });

  test('the editor gets the images of the catalog icons its scene shows', async () => {
    const diagram = (await h.call('GET', `/app/api/diagrams/${diagramId}`, { headers: headers() })).json();
    assert.deepEqual(Object.keys(diagram.files), ['icon-server']);
    assert.match(diagram.files['icon-server'].dataURL, /^data:image\/svg\+xml;base64,/);
    assert.ok(diagram.scene.elements.some((e: { fileId?: string }) => e.fileId === 'icon-server'));
  });

  test('a viewer of a shared diagram gets the editor in view mode, and a save from them is 404 with nothing written', async () => {
    const viewer = await h.user();
    await h.store.sharing.shareDiagram(diagramId, viewer.id, 'viewer');
    const session = await signIn(h, viewer.id);
    const page = await h.call('GET', `/app/d/${diagramId}`, { headers: { cookie: session.cookie } });
    assert.match(page.body, /data-can-edit="false"/);
    const ownPage = await h.call('GET', `/app/d/${diagramId}`, { headers: headers() });
    assert.match(ownPage.body, /data-can-edit="true"/);
    const before = await load();
    const saved = await h.call('PUT', `/app/api/diagrams/${diagramId}/scene`, {
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
      body: { elements: [], expectedUpdatedAt: before.docUpdatedAt },
    });
    assert.equal(saved.statusCode, 404);
    assert.deepEqual(await load(), before);
  });

  test('signed out, the editor page sends you to sign in and its API answers 401', async () => {
    const page = await h.call('GET', `/app/d/${diagramId}`);
    assert.equal(page.statusCode, 303);
    assert.equal(page.headers.location, `/login?next=${encodeURIComponent(`/app/d/${diagramId}`)}`);
    assert.equal((await h.call('GET', `/app/api/diagrams/${diagramId}`)).statusCode, 401);
  });

  test("someone else's diagram is 404 in the editor and its API", async () => {
    const stranger = await signIn(h, (await h.user()).id);
    for (const url of [`/app/d/${diagramId}`, `/app/api/diagrams/${diagramId}`]) {
      assert.equal((await h.call('GET', url, { headers: { cookie: stranger.cookie } })).statusCode, 404, url);
    }
  });

  test('a save writes the scene through the revision clock, and the API reads it back', async () => {
    const before = await load();
    const elements = [...before.scene.elements, { id: 'added', type: 'rectangle', x: 400, y: 0, width: 80, height: 40 }];
    const saved = await save(elements, before.docUpdatedAt);
    assert.equal(saved.statusCode, 200, saved.body);
    const { docUpdatedAt } = saved.json();
    assert.ok(docUpdatedAt > before.docUpdatedAt);
    const read = (await h.call('GET', `/api/v1/diagrams/${diagramId}`, { token: owner.token })).json();
    assert.equal(read.docUpdatedAt, docUpdatedAt);
    assert.ok(read.scene.elements.some((e: { id: string }) => e.id === 'added'));
  });

  test('a save based on an old revision is 409 stale_read and writes nothing', async () => {
    const before = await load();
    const stale = await save([], '2000-01-01T00:00:00.000Z');
    assert.equal(stale.statusCode, 409);
    assert.equal(stale.json().error, 'stale_read');
    assert.deepEqual(await load(), before);
  });

  test('a save without the CSRF token, or from another origin (null included), is refused and writes nothing', async () => {
    const before = await load();
    const missing = await save([], before.docUpdatedAt, {});
    assert.equal(missing.statusCode, 403);
    assert.equal(missing.json().error, 'csrf_failed');
    for (const origin of ['https://evil.example', 'null']) {
      const foreign = await save([], before.docUpdatedAt, { 'x-csrf-token': web.csrfToken, origin });
      assert.equal(foreign.statusCode, 403, origin);
      assert.equal(foreign.json().error, 'csrf_failed', origin);
    }
    assert.deepEqual(await load(), before);
  });

  test('a save is validated like a scene sent to the API: a javascript: link is refused', async () => {
    const before = await load();
    const bad = await save([{ id: 'x', type: 'rectangle', link: 'javascript:alert(1)' }], before.docUpdatedAt);
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().error, 'BAD_LINK_SCHEME');
    assert.deepEqual(await load(), before);
  });
});
