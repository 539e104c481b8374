// The editor's live client (src/web/client/live-*.ts, with the editor's own reconcileElements and
// restoreElements) against the real server over a real WebSocket, through a dropped connection: an
// element the person deleted (their deletion stored) and that the API then added again while the
// page was away stays added when the page comes back. The store keeps no tombstones, so the room
// that opens for the reconnect holds the new element at a version below the tombstone the page
// still holds; the page's unchanged tombstone must not win over it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { LiveClient, type LiveStatus } from '../../src/web/client/live-client.ts';
import type { LiveSocket } from '../../src/web/client/live-connection.ts';
import type { EditorFunctions } from '../../src/web/client/live-elements.ts';
import type { SceneElement } from '../../src/web/client/live-protocol.ts';
import { liveHubOf } from '../../src/web/live/live-routes.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { rect } from '../helpers/live-client.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';
import { ArrayScene, edited, editorFunctions } from './live-fakes.ts';

/** Waits until `read` returns something `test` accepts. */
async function eventually<T>(read: () => T | Promise<T>, test: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (test(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('web/live-reconnect', () => {
  let h: ListeningHarness;
  let owner: TestUser;
  let web: SignedIn;
  let editor: EditorFunctions;
  const stops: Array<() => void> = [];

  before(async () => {
    editor = await editorFunctions();
    h = await startHarness({ listen: true });
    owner = await h.user();
    web = await signIn(h, owner.id);
  });
  after(async () => {
    for (const stop of stops) stop();
    await h?.close();
  });

  async function stored(id: string): Promise<Array<Record<string, any>>> {
    const read = await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token });
    return read.json().scene.elements;
  }

  /** The editor's live client on `id`, over sockets the test can cut (`online`) and a scene held in memory. */
  async function openPage(id: string) {
    const read = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token })).json();
    const scene = new ArrayScene();
    scene.list = structuredClone(read.scene.elements) as SceneElement[];
    const statuses: LiveStatus['kind'][] = [];
    const net = { online: true, socket: null as WebSocket | null };
    const url = `${h.baseUrl.replace(/^http/, 'ws')}/app/api/diagrams/${id}/live`;
    const openSocket = (target: string): LiveSocket => {
      if (!net.online) {
        // No network: the try fails at once, as a refused connection does.
        const down = { readyState: 3, send() {}, close() {}, onopen: null, onmessage: null, onclose: null, onerror: null } as LiveSocket;
        queueMicrotask(() => down.onclose?.({ code: 1006 }));
        return down;
      }
      net.socket = new WebSocket(target, { headers: { cookie: web.cookie }, origin: h.baseUrl });
      return net.socket as unknown as LiveSocket;
    };
    const client = new LiveClient({
      url,
      editor,
      loaded: { elements: read.scene.elements, docUpdatedAt: read.docUpdatedAt },
      scene,
      onStatus: (status) => statuses.push(status.kind),
      onPeers: () => undefined,
      onRole: () => undefined,
      onFiles: () => undefined,
      onRevision: () => undefined,
      openSocket,
      reconnectDelayMs: 20,
    });
    stops.push(() => client.stop());
    client.start();
    const status = () => statuses.at(-1);
    await eventually(status, (s) => s === 'saved');
    assert.equal(status(), 'saved', `welcomed: ${statuses.join(', ')}`);
    return {
      client,
      scene,
      status,
      /** The person changes the scene in the editor, and the change is stored. */
      async edit(change: (list: SceneElement[]) => SceneElement[]) {
        scene.list = change(scene.list);
        client.changed();
        assert.equal(status(), 'saving');
        await eventually(status, (s) => s === 'saved');
        assert.equal(status(), 'saved', statuses.join(', '));
      },
      /** The connection drops and stays down; the room, emptied, closes. */
      async drop() {
        net.online = false;
        net.socket?.terminate();
        await eventually(status, (s) => s === 'offline');
        await eventually(() => liveHubOf(h.app)!.stats().rooms, (n) => n === 0);
        assert.equal(liveHubOf(h.app)!.stats().rooms, 0, 'the room closed with its last peer');
      },
      /** The network is back: the page reconnects and is welcomed with the room's scene. */
      async reconnect() {
        const before = statuses.length;
        net.online = true;
        client.reconnectNow();
        await eventually(() => statuses.slice(before), (s) => s.includes('saved'));
        assert.ok(statuses.slice(before).includes('saved'), statuses.join(', '));
      },
    };
  }

  test('an element deleted in the editor and added again through the API while the page was away stays added when the page reconnects', { timeout: 30_000 }, async () => {
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'reconnect', scene: { elements: [rect('base', 1), rect('cache', 1, { x: 200 })] } } });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id as string;
    const page = await openPage(id);

    // The person deletes `cache`, moving it twice first: their tombstone is version 4, and it is stored.
    await page.edit((list) => list.map((e) => (e.id === 'cache' ? edited(e, { x: 210 }) : e)));
    await page.edit((list) => list.map((e) => (e.id === 'cache' ? edited(e, { x: 220 }) : e)));
    await page.edit((list) => list.map((e) => (e.id === 'cache' ? edited(e, { isDeleted: true }) : e)));
    const tombstone = page.scene.get('cache')!;
    assert.equal(tombstone.isDeleted, true);
    assert.deepEqual((await stored(id)).map((e) => e.id), ['base'], 'the deletion is stored');

    // The page loses its connection; meanwhile an agent adds `cache` again through the API.
    await page.drop();
    const added = await h.call('POST', `/api/v1/diagrams/${id}/patch`, {
      token: owner.token,
      body: { ops: [{ op: 'add', element: { type: 'rectangle', id: 'cache', x: 300, y: 260, width: 220, height: 110 } }] },
    });
    assert.equal(added.statusCode, 200, added.body);
    const agents = (await stored(id)).find((e) => e.id === 'cache');
    assert.ok(agents, 'the agent added cache');

    // The page comes back, and the person then makes a change of their own, which is stored:
    // whatever the page sent on reconnecting is stored by then too.
    await page.reconnect();
    await page.edit((list) => list.map((e) => (e.id === 'base' ? edited(e, { x: 5 }) : e)));

    const final = await stored(id);
    assert.deepEqual(
      final.find((e) => e.id === 'cache'),
      agents,
      `the agent's cache, added after the person's deletion was stored, is still there (the page held a tombstone of version ${tombstone.version}, the agent's is version ${agents.version})`,
    );
    assert.equal(page.scene.get('cache')?.isDeleted, false, "the page shows the agent's cache");
    assert.equal(page.scene.get('cache')?.x, 300);
    const revisions = (await h.call('GET', `/api/v1/diagrams/${id}/revisions`, { token: owner.token })).json().items as Array<{ kind: string; summary: string }>;
    assert.equal(revisions[0]!.kind, 'save');
    assert.ok(!revisions[0]!.summary.includes('deleted'), `the save after the reconnect deletes nothing: ${JSON.stringify(revisions.map((r) => [r.kind, r.summary]))}`);
  });
});
