/**
 * Two instances of the service on one PostgreSQL database, as behind a load
 * balancer: a person on each sees the other's changes and presence live
 * (LISTEN/NOTIFY, no polling), an API write on either reaches both, and the
 * stored scene holds every change once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { connectLive, type LiveClient, rect } from '../helpers/live-client.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn } from '../helpers/web-session.ts';

describe('live collaboration across two servers on one PostgreSQL', { skip: skipWithoutPostgres }, () => {
  let first: ListeningHarness;
  let second: ListeningHarness;
  let owner: TestUser;
  let guest: TestUser;
  const open: LiveClient[] = [];

  before(async () => {
    first = await startHarness({ engine: 'postgres', listen: true });
    second = await startHarness({ engine: 'postgres', listen: true, databaseUrl: first.config.databaseUrl! });
    owner = await first.user();
    guest = await first.user();
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await first.close();
    await second.close();
  });

  async function on(server: ListeningHarness, diagramId: string, user: TestUser): Promise<LiveClient> {
    const client = await connectLive(server.baseUrl, diagramId, { cookie: (await signIn(server, user.id)).cookie });
    open.push(client);
    return client;
  }

  test('a person on each server sees the other arrive, move their pointer, draw and leave; the store holds both drawings once', async () => {
    const created = await first.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'two servers', scene: { elements: [rect('base', 1)] } } });
    const id = created.json().id as string;
    await first.store.sharing.shareDiagram(id, guest.id, 'editor');
    const alice = await on(first, id, owner);
    const aliceWelcome = await alice.next('welcome');
    const bob = await on(second, id, guest);
    const bobWelcome = await bob.next('welcome');
    // Bob's server learns of Alice from hers (its room asks when it opens).
    const seenByBob = await bob.until((m) => (m.type === 'joined' && m.peer.peerId === aliceWelcome.you.peerId) || bobWelcome.peers.some((p: { peerId: string }) => p.peerId === aliceWelcome.you.peerId));
    assert.ok(seenByBob);
    assert.equal((await alice.next('joined')).peer.peerId, bobWelcome.you.peerId);

    bob.send({ type: 'presence', pointer: { x: 5, y: 6, tool: 'laser' } });
    const pointer = await alice.until((m) => m.type === 'presence' && m.peer.peerId === bobWelcome.you.peerId);
    assert.deepEqual(pointer.peer.pointer, { x: 5, y: 6, tool: 'laser' });

    alice.send({ type: 'elements', seq: 1, elements: [rect('by-alice', 1)] });
    bob.send({ type: 'elements', seq: 1, elements: [rect('by-bob', 1)] });
    const toBob = await bob.until((m) => m.type === 'elements' && m.elements.some((e: { id: string }) => e.id === 'by-alice'));
    assert.equal(toBob.from, aliceWelcome.you.peerId);
    await alice.until((m) => m.type === 'elements' && m.elements.some((e: { id: string }) => e.id === 'by-bob'));
    await alice.next('saved');
    await bob.next('saved');
    const stored = (await second.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token })).json().scene.elements as { id: string }[];
    assert.deepEqual(stored.map((e) => e.id).sort(), ['base', 'by-alice', 'by-bob']);

    const patched = await second.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner.token, body: { ops: [{ op: 'move', id: 'base', dx: 7, dy: 0 }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const apiToAlice = await alice.until((m) => m.type === 'elements' && m.from === null);
    assert.equal(apiToAlice.elements[0].x, 7);
    await bob.until((m) => m.type === 'elements' && m.from === null);

    await bob.close();
    assert.equal((await alice.until((m) => m.type === 'left')).peerId, bobWelcome.you.peerId);
  });

  test('a regenerate with a scene on one server replaces the scene in both rooms; changes made on it travel between them, late ones made on the old scene do not', async () => {
    const created = await first.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'replaced', scene: { elements: [rect('base', 1), rect('old', 1)] } } });
    const id = created.json().id as string;
    await first.store.sharing.shareDiagram(id, guest.id, 'editor');
    const alice = await on(first, id, owner);
    const aliceWelcome = await alice.next('welcome');
    const bob = await on(second, id, guest);
    await bob.next('welcome');
    await alice.until((m) => m.type === 'joined');

    const sent = [rect('new', 3, { updated: 42 }), rect('base', 1, { x: 5 })];
    const regenerated = await second.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: owner.token, body: { scene: { elements: sent } } });
    assert.equal(regenerated.statusCode, 200, regenerated.body);
    const byId = (els: Array<{ id: string }>) => [...els].sort((x, y) => (x.id < y.id ? -1 : 1));
    const toAlice = await alice.next('scene');
    const toBob = await bob.next('scene');
    assert.deepEqual(byId(toAlice.elements), byId(sent));
    assert.deepEqual(byId(toBob.elements), byId(sent));

    // Alice's late change made on the old scene is dropped on her server; her change made on the new one reaches Bob.
    alice.send({ type: 'elements', seq: 1, elements: [rect('old', 4)] });
    alice.send({ type: 'elements', seq: 2, scene: toAlice.docUpdatedAt, elements: [rect('new', 4, { x: 70 })] });
    const heard = await bob.until((m) => m.type === 'elements' && m.from === aliceWelcome.you.peerId);
    assert.deepEqual(heard.elements.map((e: { id: string; x: number }) => [e.id, e.x]), [['new', 70]]);
    await alice.until((m) => m.type === 'saved' && m.upTo === 2);
    const stored = (await first.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token })).json().scene.elements as Array<Record<string, unknown>>;
    assert.deepEqual(byId(stored as Array<{ id: string }>).map((e) => e.id), ['base', 'new']);
    assert.deepEqual(stored.find((e) => e.id === 'base'), sent[1], 'an element no one changed since stays exactly as sent');
  });

  test('when the listening connections drop, each server listens again and the rooms hear writes as before', async () => {
    const created = await first.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'outage', scene: { elements: [rect('base', 1)] } } });
    const id = created.json().id as string;
    const alice = await on(first, id, owner);
    await alice.next('welcome');
    const killed = await sql(`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
    assert.ok(killed.length >= 2, 'both servers were listening');
    const deadline = Date.now() + 10_000;
    for (;;) {
      const listening = await sql(`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
      if (listening.length >= 2 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const patched = await second.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner.token, body: { ops: [{ op: 'move', id: 'base', dx: 3, dy: 0 }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const heard = await alice.until((m) => m.type === 'elements' && m.from === null && m.elements[0]?.x === 3);
    assert.equal(heard.elements[0].id, 'base');
  });

  async function sql(text: string): Promise<unknown[]> {
    const client = new pg.Client({ connectionString: first.config.databaseUrl! });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  }
});
