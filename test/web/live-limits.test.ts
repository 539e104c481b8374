/**
 * The live socket's limits, over real WebSockets on both engines: a client
 * flooding element changes or pointer updates is refused, then closed
 * (1008), while another person's REST calls and another editor's live
 * changes keep being answered, and afterwards what the server holds for the
 * flood (held-back presence, relays waiting for the bus, connections) is
 * back to idle; the caps on connections per session and per person close the
 * quietest connection; the caps on one message; a silent connection closes.
 * No timing thresholds: answered, refused, closed, codes and counts.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { BODY_LIMIT_BYTES } from '../../src/edge/validate.ts';
import { GONE_CLOSE_CODES, MAX_LIVE_ELEMENTS } from '../../src/app/live/protocol.ts';
import { PRESENCE_INTERVAL_MS } from '../../src/app/live/room.ts';
import { SETTINGS } from '../../src/config.ts';
import { SEND_DELAY_MS } from '../../src/web/client/live-client.ts';
import { MIN_INTERVAL_MS } from '../../src/web/client/live-presence.ts';
import { LIVE_BUDGET, LIVE_CLOSE_CODES, liveHubOf, MAX_BUFFERED_BYTES } from '../../src/web/live/live-routes.ts';
import { type Engine, type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { connectLive, type LiveClient, rect } from '../helpers/live-client.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';

/** Waits until `read()` satisfies `test`, checking after each turn of the event loop and every few ms. */
async function eventually<T>(read: () => T, test: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (test(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The close of a connection, or a failure naming it if it does not come (a hang guard, not a timing check). */
function closeOf(client: LiveClient, what: string): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} was not closed`)), 30_000);
  });
  return Promise.race([client.closed, hang]).finally(() => clearTimeout(timer));
}

/** More messages than the burst allows and the refusals before the close, sent at once. */
const FLOOD = 3 * (LIVE_BUDGET.messageBurst + LIVE_BUDGET.refusalBurst);

const selectionOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, true]));

for (const { engine, skip } of [
  { engine: 'sqlite' as Engine, skip: false as const },
  { engine: 'postgres' as Engine, skip: skipWithoutPostgres },
]) {
  describe(`live limits on ${engine}`, { skip }, () => {
    let h: ListeningHarness;
    let owner: TestUser;
    let web: SignedIn;
    const open: LiveClient[] = [];

    before(async () => {
      h = await startHarness({ engine, listen: true, env: { LIVE_CONNECTIONS_PER_SESSION: '3', LIVE_CONNECTIONS_PER_USER: '4' } });
      owner = await h.user();
      web = await signIn(h, owner.id);
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((c) => c.close()));
      // Each test counts connections from none.
      await eventually(() => liveHubOf(h.app)!.stats().connections, (n) => n === 0);
    });
    after(() => h.close());

    async function newDiagram(): Promise<string> {
      const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'limits', scene: { elements: [rect('base', 1)] } } });
      assert.equal(created.statusCode, 201, created.body);
      return created.json().id;
    }

    async function connect(diagramId: string, session: SignedIn): Promise<LiveClient> {
      const client = await connectLive(h.baseUrl, diagramId, { cookie: session.cookie });
      open.push(client);
      await client.next('welcome');
      return client;
    }

    /** Someone the owner shares the diagram with as an editor, signed in. */
    async function editor(diagramId: string): Promise<SignedIn> {
      const user = await h.user();
      await h.store.sharing.shareDiagram(diagramId, user.id, 'editor');
      return signIn(h, user.id);
    }

    const isOpen = (client: LiveClient) => client.socket.readyState === WebSocket.OPEN;

    async function idleAgain(expectedConnections: number): Promise<void> {
      const stats = await eventually(
        () => liveHubOf(h.app)!.stats(),
        (s) => s.presencePending === 0 && s.relayWaiting === 0 && !s.relaySending && s.connections === expectedConnections,
      );
      assert.deepEqual(
        { presencePending: stats.presencePending, relayWaiting: stats.relayWaiting, relaySending: stats.relaySending, connections: stats.connections },
        { presencePending: 0, relayWaiting: 0, relaySending: false, connections: expectedConnections },
        'nothing of the flood is held any more',
      );
    }

    /** A diagram with three people in its room: one who will flood, another editor, and the owner watching. */
    async function floodScene() {
      const id = await newDiagram();
      const flooder = await connect(id, await editor(id));
      const other = await connect(id, await editor(id));
      const watcher = await connect(id, web);
      const peerOf = (client: LiveClient): { peerId: string } => client.received.find((m) => m.type === 'welcome')!.you;
      return { flooder, other, watcher, flooderPeer: peerOf(flooder), otherPeer: peerOf(other) };
    }

    test('a flood of element changes is refused, then closed with 1008, while another editor and another person are answered; then nothing of it is held', async () => {
      const { flooder, other, watcher, otherPeer } = await floodScene();

      for (let seq = 1; seq <= FLOOD; seq++) {
        flooder.send({ type: 'elements', seq, elements: Array.from({ length: 50 }, (_, i) => rect(`f${i}`, seq + 1)) });
      }
      other.send({ type: 'elements', seq: 1, elements: [rect('other', 1)] });
      const me = await Promise.all(Array.from({ length: 10 }, () => h.call('GET', '/api/v1/me', { token: owner.token })));

      assert.deepEqual(me.map((r) => r.statusCode), Array(10).fill(200), "another person's REST calls are answered");
      assert.equal((await other.next('saved', 30_000)).upTo, 1, "another editor's change is stored");
      const heard = await watcher.until((m) => m.type === 'elements' && m.from === otherPeer.peerId, 30_000);
      assert.deepEqual(heard.elements.map((e: { id: string }) => e.id), ['other'], 'and passed on to the others');
      assert.equal((await closeOf(flooder, 'the flooder')).code, LIVE_CLOSE_CODES.policy, 'the flooder is closed for policy');
      const refusals = flooder.received.filter((m) => m.type === 'error');
      assert.ok(refusals.length > 0, 'refused before it was closed');
      for (const refusal of refusals) {
        assert.equal(refusal.code, 'rate_limited');
        assert.ok(Number.isInteger(refusal.seq), 'a refused change is named by its seq, so the editor sends it again');
      }
      await idleAgain(2);
      assert.ok(isOpen(other) && isOpen(watcher), 'the others stay connected');
    });

    test('a flood of pointer updates with large selections is refused, then closed, and reaches the others coalesced; a third person\'s pointer still arrives', async () => {
      const { flooder, other, watcher, flooderPeer, otherPeer } = await floodScene();
      const selection = selectionOf(2000);

      for (let i = 0; i < FLOOD; i++) flooder.send({ type: 'presence', pointer: { x: i, y: i, tool: 'pointer' }, selectedElementIds: selection });
      other.send({ type: 'presence', pointer: { x: 42, y: 43, tool: 'laser' } });

      const pointer = await watcher.until((m) => m.type === 'presence' && m.peer.peerId === otherPeer.peerId, 30_000);
      assert.deepEqual(pointer.peer.pointer, { x: 42, y: 43, tool: 'laser' });
      assert.equal((await closeOf(flooder, 'the flooder')).code, LIVE_CLOSE_CODES.policy);
      assert.ok(flooder.received.some((m) => m.type === 'error' && m.code === 'rate_limited' && m.seq === undefined), 'refused first');
      await idleAgain(2);
      const relayed = watcher.received.filter((m) => m.type === 'presence' && m.peer.peerId === flooderPeer.peerId);
      assert.ok(relayed.length > 0 && relayed.length < FLOOD, `coalesced: ${relayed.length} of ${FLOOD} passed on`);
      assert.equal(relayed.at(-1)!.peer.selectedElementIds.s1999, true);
    });

    test('past the cap of a session, then of a person, a new connection closes the quietest one of theirs with 4408', async () => {
      const id = await newDiagram();
      const first = await connect(id, web);
      const second = await connect(id, web);
      const third = await connect(id, web);
      first.send({ type: 'presence', status: 'active' });
      await second.until((m) => m.type === 'presence');
      const fourth = await connect(id, web);
      assert.deepEqual(await closeOf(second, 'the second connection'), { code: LIVE_CLOSE_CODES.idle, reason: 'replaced by a newer connection' }, 'the session had 3: its quietest went');
      assert.ok(isOpen(first) && isOpen(third) && isOpen(fourth));

      const elsewhere = await signIn(h, owner.id);
      const fifth = await connect(id, elsewhere);
      assert.ok(isOpen(third), 'four of the person: within their cap');
      const sixth = await connect(id, elsewhere);
      assert.equal((await closeOf(third, 'the third connection')).code, LIVE_CLOSE_CODES.idle, 'the person had 4: their quietest went, in either session');
      assert.ok([first, fourth, fifth, sixth].every(isOpen));
      assert.equal(await eventually(() => liveHubOf(h.app)!.stats().connections, (n) => n === 4), 4);
    });

    test('one message carries at most a whole scene: a paste of that many passes, one more is refused with its seq, as is a larger selection', async () => {
      const id = await newDiagram();
      const client = await connect(id, web);
      const paste = Array.from({ length: MAX_LIVE_ELEMENTS }, (_, i) => rect(`p${i}`, 1));
      client.send({ type: 'elements', seq: 1, elements: [...paste, rect('one-more', 1)] });
      const refused = await client.next('error');
      assert.deepEqual([refused.code, refused.seq], ['bad_request', 1]);
      client.send({ type: 'presence', selectedElementIds: selectionOf(MAX_LIVE_ELEMENTS + 1) });
      assert.equal((await client.next('error')).code, 'bad_request');
      client.send({ type: 'elements', seq: 2, elements: paste.slice(0, MAX_LIVE_ELEMENTS - 1) });
      assert.equal((await client.next('saved', 30_000)).upTo, 2, 'a paste up to the scene limit is stored');
      assert.equal(client.received.filter((m) => m.type === 'error').length, 2);
    });

    test('a frame over the size limit closes with 1009 and is logged as the client\'s doing, without a stack', async () => {
      const id = await newDiagram();
      const client = await connect(id, web);
      const logsBefore = h.logs().length;
      client.socket.send('x'.repeat(BODY_LIMIT_BYTES + 1));
      assert.equal((await closeOf(client, 'the sender of the large frame')).code, 1009);
      await h.logged(/WS_ERR_UNSUPPORTED_MESSAGE_LENGTH/);
      const lines = h.logs().slice(logsBefore).split('\n').filter((line) => line.includes('WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'));
      for (const line of lines) {
        const entry = JSON.parse(line) as { level: number; err?: unknown };
        assert.ok(entry.level <= 40, `info or warn, not error: ${line}`);
        assert.doesNotMatch(line, /"stack"/);
      }
      assert.doesNotMatch(h.logs().slice(logsBefore), /"level":(50|60)\b/);
    });
  });
}

describe('a silent live connection', () => {
  let h: ListeningHarness;
  before(async () => {
    h = await startHarness({ listen: true, env: { LIVE_IDLE_TIMEOUT_SECONDS: '1' } });
  });
  after(() => h.close());

  test('is closed with 4408 once it has sent nothing for the idle timeout; one that keeps sending stays', async () => {
    const owner = await h.user();
    const web = await signIn(h, owner.id);
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'idle', scene: { elements: [] } } });
    const silent = await connectLive(h.baseUrl, created.json().id, { cookie: web.cookie });
    const busy = await connectLive(h.baseUrl, created.json().id, { cookie: web.cookie });
    const keepSending = setInterval(() => busy.send({ type: 'presence', status: 'active' }), 100);
    try {
      assert.deepEqual(await closeOf(silent, 'the silent connection'), { code: LIVE_CLOSE_CODES.idle, reason: 'idle' });
      assert.equal(busy.socket.readyState, WebSocket.OPEN);
    } finally {
      clearInterval(keepSending);
      await busy.close();
    }
  });
});

test('the guide states the live limits the code has', () => {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/web.md'), 'utf8');
  const start = doc.indexOf('### Live limits');
  const section = doc.slice(start, doc.indexOf('\n### ', start + 1)).replace(/\s+/g, ' ');
  const MiB = 1024 * 1024;
  const setting = (name: string) => SETTINGS.find((s) => s.name === name)!.default;
  const b = LIVE_BUDGET;
  for (const fact of [
    `${b.messagesPerSecond} messages a second, with bursts of up to ${b.messageBurst}, and ${b.bytesPerSecond / MiB} MiB a second, with bursts of up to ${b.byteBurst / MiB} MiB`,
    `refused more than ${b.refusalsPerSecond} times a second (bursts of ${b.refusalBurst})`,
    `at most ${MAX_LIVE_ELEMENTS} elements (a whole scene), and a selection of at most ${MAX_LIVE_ELEMENTS} ids`,
    `at most once every ${PRESENCE_INTERVAL_MS} ms for each peer`,
    `presence at most every ${MIN_INTERVAL_MS} ms and its changes at most every ${SEND_DELAY_MS} ms`,
    `\`LIVE_CONNECTIONS_PER_SESSION\` (${setting('LIVE_CONNECTIONS_PER_SESSION')})`,
    `\`LIVE_CONNECTIONS_PER_USER\` (${setting('LIVE_CONNECTIONS_PER_USER')})`,
    `\`LIVE_IDLE_TIMEOUT_SECONDS\` (${Number(setting('LIVE_IDLE_TIMEOUT_SECONDS')) / 60} minutes`,
    `more than ${MAX_BUFFERED_BYTES / MiB} MiB behind`,
    `larger one closes the connection with 1009`,
  ]) {
    assert.ok(section.includes(fact), `docs/web.md, Live limits, says: ${fact}`);
  }
  for (const code of [...Object.values(LIVE_CLOSE_CODES), ...Object.values(GONE_CLOSE_CODES), 1009]) {
    assert.match(section, new RegExp(`\\| [0-9, ]*\\b${code}\\b[0-9, ]* \\|`), `the table of close codes has ${code}`);
  }
});
