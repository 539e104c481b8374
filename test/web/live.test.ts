/**
 * The live protocol over real WebSockets against a listening server, on both
 * engines: who may connect, what each side hears, what the store ends up
 * holding.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Engine, type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { connectLive, type LiveClient, rect } from '../helpers/live-client.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';

/** Waits until `read` returns something `test` accepts (the store is written a moment after a change). */
async function eventually<T>(read: () => Promise<T>, test: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (test(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const { engine, skip } of [
  { engine: 'sqlite' as Engine, skip: false as const },
  { engine: 'postgres' as Engine, skip: skipWithoutPostgres },
]) {
  describe(`live collaboration on ${engine}`, { skip }, () => {
    let h: ListeningHarness;
    let owner: TestUser;
    let web: SignedIn;
    const open: LiveClient[] = [];

    before(async () => {
      h = await startHarness({ engine, listen: true });
      owner = await h.user();
      web = await signIn(h, owner.id);
    });
    after(async () => {
      await Promise.all(open.map((c) => c.close()));
      await h.close();
    });

    async function newDiagram(elements: unknown[] = [rect('base', 1)]): Promise<string> {
      const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'live', scene: { elements } } });
      assert.equal(created.statusCode, 201, created.body);
      return created.json().id;
    }

    async function connect(diagramId: string, session: SignedIn = web): Promise<LiveClient> {
      const client = await connectLive(h.baseUrl, diagramId, { cookie: session.cookie });
      open.push(client);
      return client;
    }

    async function stored(diagramId: string): Promise<Array<Record<string, any>>> {
      const read = await h.call('GET', `/api/v1/diagrams/${diagramId}`, { token: owner.token });
      return read.json().scene.elements;
    }

    test('a person who connects is welcomed with the scene, their role, the revision and who else is there', async () => {
      const id = await newDiagram();
      const first = await connect(id);
      const welcome = await first.next('welcome');
      assert.equal(welcome.role, 'editor');
      assert.deepEqual(welcome.elements.map((e: { id: string }) => e.id), ['base']);
      assert.equal(welcome.you.userId, owner.id);
      assert.equal(welcome.you.name, owner.email.split('@')[0]);
      assert.match(welcome.you.color.background, /^#[0-9a-f]{6}$/);
      assert.deepEqual(welcome.peers, []);
      assert.equal(typeof welcome.docUpdatedAt, 'string');
      const second = await connect(id);
      const again = await second.next('welcome');
      assert.deepEqual(again.peers.map((p: { peerId: string }) => p.peerId), [welcome.you.peerId]);
      const joined = await first.next('joined');
      assert.equal(joined.peer.peerId, again.you.peerId);
      await second.close();
      assert.equal((await first.next('left')).peerId, again.you.peerId);
    });

    test("two editors exchange changes at once, never echoed to the sender, and the store holds each once", async () => {
      const id = await newDiagram();
      const a = await connect(id);
      const b = await connect(id);
      const { you } = await a.next('welcome');
      await b.next('welcome');
      a.send({ type: 'elements', seq: 1, elements: [rect('from-a', 1)] });
      b.send({ type: 'elements', seq: 1, elements: [rect('from-b', 1)] });
      assert.equal((await b.until((m) => m.type === 'elements' && m.elements[0]?.id === 'from-a')).from, you.peerId);
      await a.until((m) => m.type === 'elements' && m.elements[0]?.id === 'from-b');
      const saved = await a.next('saved');
      assert.equal(saved.upTo, 1);
      assert.ok(!a.received.some((m) => m.type === 'elements' && m.elements.some((e: { id: string }) => e.id === 'from-a')), 'not echoed');
      const elements = await eventually(() => stored(id), (els) => els.length === 3);
      assert.deepEqual(elements.map((e) => e.id).sort(), ['base', 'from-a', 'from-b']);
    });

    test('an older copy of an element loses to the newer one, whichever arrives last', async () => {
      const id = await newDiagram();
      const a = await connect(id);
      const b = await connect(id);
      await a.next('welcome');
      await b.next('welcome');
      a.send({ type: 'elements', seq: 1, elements: [rect('base', 5, { x: 500 })] });
      await b.until((m) => m.type === 'elements');
      b.send({ type: 'elements', seq: 1, elements: [rect('base', 3, { x: 300 })] });
      await b.next('saved');
      await a.next('saved');
      assert.ok(!a.received.some((m) => m.type === 'elements'), 'the losing change is passed on to no one');
      const elements = await eventually(() => stored(id), (els) => els[0]?.x === 500);
      assert.equal(elements[0]!.x, 500);
      assert.equal(elements[0]!.version, 5);
    });

    test('a viewer hears changes but cannot send any: an error, and nothing changes', async () => {
      const id = await newDiagram();
      const viewer = await h.user();
      await h.store.sharing.shareDiagram(id, viewer.id, 'viewer');
      const watching = await connect(id, await signIn(h, viewer.id));
      const welcome = await watching.next('welcome');
      assert.equal(welcome.role, 'viewer');
      watching.send({ type: 'elements', seq: 7, elements: [rect('sneaky', 1)] });
      const refused = await watching.next('error');
      assert.equal(refused.code, 'forbidden');
      assert.equal(refused.seq, 7);
      const editor = await connect(id);
      await editor.next('welcome');
      editor.send({ type: 'elements', seq: 1, elements: [rect('real', 1)] });
      await watching.until((m) => m.type === 'elements' && m.elements[0]?.id === 'real');
      await editor.next('saved');
      assert.deepEqual((await stored(id)).map((e) => e.id).sort(), ['base', 'real']);
    });

    test('a connection from another origin, without a session, or to a diagram the person may not read is refused before upgrading', async () => {
      const id = await newDiagram();
      await assert.rejects(connectLive(h.baseUrl, id, { cookie: web.cookie, origin: 'https://evil.example' }), { status: 403 });
      await assert.rejects(connectLive(h.baseUrl, id, { cookie: web.cookie, origin: null }), { status: 403 });
      await assert.rejects(connectLive(h.baseUrl, id, {}), { status: 401 });
      const stranger = await signIn(h, (await h.user()).id);
      await assert.rejects(connectLive(h.baseUrl, id, { cookie: stranger.cookie }), { status: 404 });
      await assert.rejects(connectLive(h.baseUrl, '00000000-0000-4000-8000-000000000000', { cookie: web.cookie }), { status: 404 });
    });

    test('a malformed or invalid message is an error for its sender alone and changes nothing', async () => {
      const id = await newDiagram();
      const a = await connect(id);
      const b = await connect(id);
      await a.next('welcome');
      await b.next('welcome');
      a.socket.send('not json');
      assert.equal((await a.next('error')).code, 'invalid_json');
      a.send({ type: 'shout' });
      assert.equal((await a.next('error')).code, 'bad_request');
      a.send({ type: 'elements', seq: 2, elements: [rect('x', 1, { link: 'javascript:alert(1)' })] });
      const bad = await a.next('error');
      assert.equal(bad.code, 'BAD_LINK_SCHEME');
      assert.equal(bad.seq, 2);
      a.send({ type: 'presence', status: 'idle' });
      assert.equal((await b.next('presence')).peer.status, 'idle');
      assert.ok(!b.received.some((m) => m.type === 'elements' || m.type === 'error'));
      assert.deepEqual((await stored(id)).map((e) => e.id), ['base']);
    });

    test("presence goes to the others: pointer, selection and status", async () => {
      const id = await newDiagram();
      const a = await connect(id);
      const b = await connect(id);
      const { you } = await a.next('welcome');
      await b.next('welcome');
      a.send({ type: 'presence', pointer: { x: 10, y: 20, tool: 'pointer' }, button: 'down', selectedElementIds: { base: true } });
      const seen = await b.next('presence');
      assert.equal(seen.peer.peerId, you.peerId);
      assert.deepEqual(seen.peer.pointer, { x: 10, y: 20, tool: 'pointer' });
      assert.equal(seen.peer.button, 'down');
      assert.deepEqual(seen.peer.selectedElementIds, { base: true });
      assert.equal(seen.peer.status, 'active');
      assert.ok(!a.received.some((m) => m.type === 'presence'), 'not echoed');
    });
  });
}
