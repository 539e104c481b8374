// The editor's history routes (src/web/editor/editor-routes.ts) without a browser: who may list,
// read and restore revisions with a session, and what a refused restore leaves behind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';

let h: Harness;
let owner: { id: string; token: string };
let web: SignedIn;
let diagramId: string;
/** The diagram's revisions, newest first: the patch, then the creation. */
let patchRev: string;
let createRev: string;

describe('web/history-routes', () => {
  before(async () => {
    h = await startHarness();
    owner = await h.user();
    web = await signIn(h, owner.id);
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'History', spec: { nodes: [{ id: 'a', label: 'Alpha', icon: 'icon-server' }] } } });
    diagramId = created.json().id;
    const patched = await h.call('POST', `/api/v1/diagrams/${diagramId}/patch`, { token: owner.token, body: { ops: [{ op: 'move', id: 'a', dx: 40, dy: 0 }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const listed = await list();
    assert.equal(listed.statusCode, 200, listed.body);
    [patchRev, createRev] = listed.json().items.map((item: { rev: string }) => item.rev);
  });
  after(() => h.close());

  /** An element's content: what it is and looks like, without the version stamps a write gives it. */
  const content = (elements: unknown[]) => elements.map((e) => ({ ...(e as Record<string, unknown>), version: undefined, versionNonce: undefined, updated: undefined }));

  const list = (query = '', cookie = web.cookie) => h.call('GET', `/app/api/diagrams/${diagramId}/revisions${query}`, { headers: { cookie } });
  const readScene = async () => (await h.call('GET', `/api/v1/diagrams/${diagramId}`, { token: owner.token })).json() as { docUpdatedAt: string; scene: { elements: unknown[] } };

  function restore(rev: string, body: unknown, session: SignedIn = web, headers: Record<string, string> = { 'x-csrf-token': session.csrfToken }) {
    return h.call('POST', `/app/api/diagrams/${diagramId}/revisions/${rev}/restore`, { headers: { cookie: session.cookie, ...headers }, body });
  }

  test('the revisions list is newest first, pages with a cursor, and says who wrote each revision and through which token', async () => {
    const page = (await list('?limit=1')).json();
    assert.equal(page.items.length, 1);
    assert.equal(page.items[0].rev, patchRev);
    assert.equal(page.items[0].kind, 'patch');
    assert.equal(page.items[0].via.kind, 'token');
    assert.equal(typeof page.items[0].summary, 'string');
    assert.ok(page.nextCursor);
    const next = (await list(`?limit=1&cursor=${encodeURIComponent(page.nextCursor)}`)).json();
    assert.deepEqual(
      next.items.map((item: { rev: string }) => item.rev),
      [createRev],
    );
    assert.equal((await list('?limit=many')).statusCode, 400);
  });

  test('a revision comes with the images of the catalog icons it shows', async () => {
    const response = await h.call('GET', `/app/api/diagrams/${diagramId}/revisions/${createRev}`, { headers: { cookie: web.cookie } });
    assert.equal(response.statusCode, 200, response.body);
    const revision = response.json();
    assert.equal(revision.rev, createRev);
    assert.ok(revision.scene.elements.some((e: { fileId?: string }) => e.fileId === 'icon-server'));
    assert.deepEqual(Object.keys(revision.files), ['icon-server']);
    assert.equal((await h.call('GET', `/app/api/diagrams/${diagramId}/revisions/nope`, { headers: { cookie: web.cookie } })).statusCode, 404);
  });

  test('signed out, the history routes answer 401; for a stranger, 404', async () => {
    const stranger = await signIn(h, (await h.user()).id);
    for (const url of [`/app/api/diagrams/${diagramId}/revisions`, `/app/api/diagrams/${diagramId}/revisions/${createRev}`]) {
      assert.equal((await h.call('GET', url)).statusCode, 401, url);
      assert.equal((await h.call('GET', url, { headers: { cookie: stranger.cookie } })).statusCode, 404, url);
    }
    assert.equal((await restore(createRev, { expectedUpdatedAt: (await readScene()).docUpdatedAt }, stranger)).statusCode, 404);
  });

  test('a restore without the CSRF token, from another origin, or by a viewer is refused and writes nothing', async () => {
    const before = await readScene();
    const body = { expectedUpdatedAt: before.docUpdatedAt };
    const missing = await restore(createRev, body, web, {});
    assert.equal(missing.statusCode, 403);
    assert.equal(missing.json().error, 'csrf_failed');
    const foreign = await restore(createRev, body, web, { 'x-csrf-token': web.csrfToken, origin: 'https://evil.example' });
    assert.equal(foreign.json().error, 'csrf_failed');
    const viewer = await h.user();
    await h.store.sharing.shareDiagram(diagramId, viewer.id, 'viewer');
    const viewerSession = await signIn(h, viewer.id);
    assert.equal((await list('', viewerSession.cookie)).statusCode, 200, 'a viewer may read the history');
    const byViewer = await restore(createRev, body, viewerSession);
    assert.equal(byViewer.statusCode, 404, `a viewer's restore is refused as their saves are: ${byViewer.body}`);
    assert.deepEqual(await readScene(), before);
  });

  test('a restore based on an old revision is 409 stale_read and writes nothing', async () => {
    const before = await readScene();
    const stale = await restore(createRev, { expectedUpdatedAt: '2000-01-01T00:00:00.000Z' });
    assert.equal(stale.statusCode, 409);
    assert.equal(stale.json().error, 'stale_read');
    assert.deepEqual(await readScene(), before);
    assert.equal((await restore(createRev, {})).statusCode, 400, 'expectedUpdatedAt is required');
  });

  test('a restore writes the old content as a new revision made in the web editor', async () => {
    const original = (await h.call('GET', `/app/api/diagrams/${diagramId}/revisions/${createRev}`, { headers: { cookie: web.cookie } })).json();
    const restored = await restore(createRev, { expectedUpdatedAt: (await readScene()).docUpdatedAt });
    assert.equal(restored.statusCode, 200, restored.body);
    assert.equal(restored.json().restoredFrom, createRev);
    const after = await readScene();
    assert.equal(after.docUpdatedAt, restored.json().docUpdatedAt);
    assert.deepEqual(content(after.scene.elements), content(original.scene.elements));
    const newest = (await list('?limit=1')).json().items[0];
    assert.equal(newest.kind, 'restore');
    assert.equal(newest.restoredFrom, createRev);
    assert.deepEqual(newest.via, { kind: 'web', name: 'web editor' });
  });
});
