import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';

let h: ListeningHarness;
let owner: { id: string; token: string };
let web: SignedIn;
let diagramId: string;

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

test("someone else's diagram is 404 in the editor, its API and its event stream", async () => {
  const stranger = await signIn(h, (await h.user()).id);
  for (const url of [`/app/d/${diagramId}`, `/app/api/diagrams/${diagramId}`, `/app/api/diagrams/${diagramId}/events`]) {
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

/** Reads server-sent events from a stream as they come. */
function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    async next(): Promise<{ event: string; data: unknown } | null> {
      for (;;) {
        const match = /event: (\w+)\ndata: (.*)\n\n/.exec(buffered);
        if (match) {
          buffered = buffered.slice(match.index + match[0].length);
          return { event: match[1]!, data: JSON.parse(match[2]!) };
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffered += decoder.decode(value, { stream: true });
      }
    },
  };
}

test('signing out ends the event stream with a gone event', async () => {
  const session = await signIn(h, owner.id);
  const controller = new AbortController();
  const response = await fetch(`${h.baseUrl}/app/api/diagrams/${diagramId}/events`, { headers: { cookie: session.cookie }, signal: controller.signal });
  const events = eventReader(response);
  try {
    assert.equal((await events.next())?.event, 'revision');
    const out = await h.call('POST', '/logout', { headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `_csrf=${session.csrfToken}` });
    assert.equal(out.statusCode, 303);
    assert.equal((await events.next())?.event, 'gone');
    assert.equal(await events.next(), null, 'the stream ended');
  } finally {
    controller.abort();
  }
});

test('closing the server ends open event streams instead of waiting for their clients', async () => {
  const other = await startHarness({ listen: true });
  const user = await other.user();
  const session = await signIn(other, user.id);
  const created = await other.call('POST', '/api/v1/diagrams', { token: user.token, body: { title: 'x', scene: { elements: [] } } });
  const response = await fetch(`${other.baseUrl}/app/api/diagrams/${created.json().id}/events`, { headers: { cookie: session.cookie } });
  const events = eventReader(response);
  assert.equal((await events.next())?.event, 'revision');
  await other.close();
  assert.equal(await events.next(), null, 'the stream ended with the server');
});

test('the event stream sends the current revision, then each change made through the API', async () => {
  const controller = new AbortController();
  const response = await fetch(`${h.baseUrl}/app/api/diagrams/${diagramId}/events`, { headers: { cookie: web.cookie }, signal: controller.signal });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type')!, /^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const nextRevision = async (): Promise<string> => {
    for (;;) {
      const match = /event: revision\ndata: (.*)\n\n/.exec(buffered);
      if (match) {
        buffered = buffered.slice(match.index + match[0].length);
        return JSON.parse(match[1]!).docUpdatedAt;
      }
      const { value, done } = await reader.read();
      assert.ok(!done, 'the stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };
  try {
    const first = await nextRevision();
    assert.equal(first, (await load()).docUpdatedAt);
    const patched = await h.call('POST', `/api/v1/diagrams/${diagramId}/patch`, { token: owner.token, body: { ops: [{ op: 'move', id: 'a', dx: 10, dy: 0 }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const announced = await nextRevision();
    assert.notEqual(announced, first);
    assert.equal(announced, (await load()).docUpdatedAt);
  } finally {
    controller.abort();
  }
});
