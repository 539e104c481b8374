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

    /** Two of the owner's connections to the diagram, each past its welcome; `you` is the first one's peer. */
    async function twoEditors(diagramId: string): Promise<{ a: LiveClient; b: LiveClient; you: { peerId: string } }> {
      const a = await connect(diagramId);
      const b = await connect(diagramId);
      const { you } = await a.next('welcome');
      await b.next('welcome');
      return { a, b, you };
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
      const { a, b, you } = await twoEditors(id);
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

    test("two people's live changes are one web-save revision of the history that lists them both", async () => {
      const id = await newDiagram();
      const guest = await h.user();
      await h.store.sharing.shareDiagram(id, guest.id, 'editor');
      const a = await connect(id);
      const b = await connect(id, await signIn(h, guest.id));
      await a.next('welcome');
      await b.next('welcome');
      a.send({ type: 'elements', seq: 1, elements: [rect('mine', 1)] });
      await a.next('saved');
      b.send({ type: 'elements', seq: 1, elements: [rect('theirs', 1)] });
      await b.next('saved');
      a.send({ type: 'elements', seq: 2, elements: [rect('mine', 2, { x: 50 })] });
      await a.next('saved');
      const { items } = (await h.call('GET', `/api/v1/diagrams/${id}/revisions`, { token: owner.token })).json();
      const [newest] = items;
      assert.equal(items.length, 2, 'the create, then one save');
      assert.equal(newest.kind, 'save');
      assert.equal(newest.saves.count, 3);
      assert.deepEqual(newest.contributors, [{ id: owner.id, email: owner.email }, { id: guest.id, email: guest.email }]);
    });

    test('an older copy of an element loses to the newer one, whichever arrives last', async () => {
      const id = await newDiagram();
      const { a, b } = await twoEditors(id);
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
      const { a, b } = await twoEditors(id);
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

    test('a patch through the API while people are connected reaches them as elements from no one, and a deletion as a tombstone', async () => {
      const id = await newDiagram([rect('base', 1), rect('doomed', 1, { x: 200 })]);
      const a = await connect(id);
      await a.next('welcome');
      const moved = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner.token, body: { ops: [{ op: 'move', id: 'base', dx: 40, dy: 0 }] } });
      assert.equal(moved.statusCode, 200, moved.body);
      const change = await a.next('elements');
      assert.equal(change.from, null);
      assert.equal(change.elements[0].id, 'base');
      assert.equal(change.elements[0].x, 40);
      assert.ok(change.elements[0].version > 1, 'the API bumped the version, so editors take it');
      assert.equal(typeof change.docUpdatedAt, 'string');
      const deleted = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner.token, body: { ops: [{ op: 'delete', id: 'doomed' }] } });
      assert.equal(deleted.statusCode, 200, deleted.body);
      const tombstone = await a.next('elements');
      assert.deepEqual(tombstone.elements.map((e: { id: string; isDeleted: boolean }) => [e.id, e.isDeleted]), [['doomed', true]]);
      // A stale copy of the deleted element does not bring it back.
      a.send({ type: 'elements', seq: 1, elements: [rect('doomed', 1, { x: 999 })] });
      await a.next('saved');
      assert.deepEqual((await stored(id)).map((e) => e.id), ['base']);
      // Nor does a tombstone of it, above the patch's, change anything stored: acknowledged, and no revision says "no changes".
      a.send({ type: 'elements', seq: 2, elements: [rect('doomed', tombstone.elements[0].version + 3, { isDeleted: true })] });
      await a.until((m) => m.type === 'saved' && m.upTo === 2);
      const revisions = (await h.call('GET', `/api/v1/diagrams/${id}/revisions`, { token: owner.token })).json().items as Array<{ kind: string; summary: string }>;
      assert.deepEqual(revisions.map((r) => r.kind), ['patch', 'patch', 'create'], JSON.stringify(revisions));
    });

    test('an element the API deletes and then adds again reaches open editors above their tombstone, and the room writes nothing of its own for it', async () => {
      const id = await newDiagram([rect('base', 1), rect('doomed', 1, { x: 200 })]);
      const a = await connect(id);
      await a.next('welcome');
      const deleted = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner.token, body: { ops: [{ op: 'delete', id: 'doomed' }] } });
      assert.equal(deleted.statusCode, 200, deleted.body);
      const tombstone = (await a.next('elements')).elements[0];
      assert.deepEqual([tombstone.id, tombstone.isDeleted], ['doomed', true]);
      // The API adds it afresh (version 1 in the store), below the tombstone the editor holds.
      const added = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner.token, body: { ops: [{ op: 'add', element: { type: 'rectangle', id: 'doomed', x: 300, y: 0, width: 80, height: 40 } }] } });
      assert.equal(added.statusCode, 200, added.body);
      const back = (await a.until((m) => m.type === 'elements' && m.elements.some((e: { id: string; isDeleted: boolean }) => e.id === 'doomed' && !e.isDeleted))).elements.find((e: { id: string }) => e.id === 'doomed');
      assert.ok(back.version > tombstone.version, `the editor takes it over its tombstone (version ${back.version} over ${tombstone.version})`);
      assert.equal(back.x, 300);
      const afterPatch = await stored(id);
      // The room's next write (a change of the person's) leaves the re-added element as the patch stored it.
      a.send({ type: 'elements', seq: 1, elements: [rect('base', 5, { x: 50 })] });
      await a.until((m) => m.type === 'saved' && m.upTo === 1);
      const final = await stored(id);
      assert.deepEqual(final.find((e) => e.id === 'doomed'), afterPatch.find((e) => e.id === 'doomed'), 'the room did not write the version it gave the editors');
      const revisions = (await h.call('GET', `/api/v1/diagrams/${id}/revisions`, { token: owner.token })).json().items as Array<{ kind: string; summary: string }>;
      assert.deepEqual(revisions.map((r) => r.kind), ['save', 'patch', 'patch', 'create']);
      assert.equal(revisions[0]!.summary, 'moved a rectangle', "the save holds the person's change alone");
      assert.equal(final.find((e) => e.id === 'base')!.x, 50);
    });

    test('a regenerate with a scene is stored exactly as sent, and open editors are told to replace their scene with it; changes made on the old scene are dropped', async () => {
      const id = await newDiagram([rect('base', 1), rect('old', 1, { x: 200 })]);
      const { a, b, you } = await twoEditors(id);
      // `base` reaches version 9 in the room and waits to be written when the scene is replaced.
      a.send({ type: 'elements', seq: 1, elements: [rect('base', 9, { x: 900 })] });
      await b.next('elements');
      const sent = [rect('fresh', 1, { x: 10, updated: 1234, versionNonce: 5 }), rect('base', 2, { x: 20, strokeColor: '#1971c2' })];
      const regenerated = await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: owner.token, body: { scene: { elements: sent } } });
      assert.equal(regenerated.statusCode, 200, regenerated.body);
      assert.deepEqual(await stored(id), sent, 'stored exactly as sent: versions, nonces and updated untouched');

      for (const client of [a, b]) {
        const scene = await client.next('scene');
        const byId = (els: Array<{ id: string }>) => [...els].sort((x, y) => (x.id < y.id ? -1 : 1));
        assert.deepEqual(byId(scene.elements), byId(sent), 'the new scene, as stored');
        assert.equal(scene.docUpdatedAt, (await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token })).json().docUpdatedAt);
      }
      // A change made on the old scene, arriving late, brings nothing back; one made on the new scene is taken.
      a.send({ type: 'elements', seq: 2, elements: [rect('old', 5, { x: 999 })] });
      const basis = a.received.find((m) => m.type === 'scene')!.docUpdatedAt as string;
      a.send({ type: 'elements', seq: 3, scene: basis, elements: [rect('fresh', 2, { x: 11 })] });
      const heard = await b.until((m) => m.type === 'elements' && m.from === you.peerId);
      assert.deepEqual(heard.elements.map((e: { id: string }) => e.id), ['fresh']);
      await a.until((m) => m.type === 'saved' && m.upTo === 3);
      const final = await stored(id);
      assert.deepEqual(final.map((e) => e.id).sort(), ['base', 'fresh']);
      assert.deepEqual(final.find((e) => e.id === 'base'), sent[1], 'the room did not write its older change of base over the new scene');
      assert.equal(final.find((e) => e.id === 'fresh')!.x, 11);
      assert.ok(!b.received.some((m) => m.type === 'elements' && m.elements.some((e: { id: string }) => e.id === 'old') && b.received.indexOf(m) > b.received.findIndex((x) => x.type === 'scene')));
    });

    test("after a scene is replaced, another server's changes made on the old scene are dropped and those made on the new one are taken", async () => {
      const id = await newDiagram([rect('base', 1)]);
      const a = await connect(id);
      const welcome = await a.next('welcome');
      const sent = [rect('fresh', 1)];
      assert.equal((await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: owner.token, body: { scene: { elements: sent } } })).statusCode, 200);
      const scene = await a.next('scene');
      // What the same room on another server relays: one change made on the scene it opened with, one on the new scene.
      const relay = (elements: unknown[], basis: string) => h.store.live.publish({ type: 'relay', diagramId: id, origin: 'another-server', event: { kind: 'elements', elements, from: 'someone', basis } });
      await relay([rect('base', 7, { x: 70 })], welcome.docUpdatedAt);
      await relay([rect('fresh', 2, { x: 20 })], scene.docUpdatedAt);
      const taken = await a.until((m) => m.type === 'elements' && m.from === 'someone');
      assert.deepEqual(taken.elements.map((e: { id: string }) => e.id), ['fresh']);
      assert.equal(a.received.filter((m) => m.type === 'elements').length, 1, 'the change made on the old scene was not passed on');
    });

    test('a regenerate with a spec still reaches open editors as elements they merge', async () => {
      const id = await newDiagram([rect('base', 1)]);
      const a = await connect(id);
      await a.next('welcome');
      const regenerated = await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: owner.token, body: { spec: { nodes: [{ id: 'n', label: 'N' }] } } });
      assert.equal(regenerated.statusCode, 200, regenerated.body);
      const change = await a.until((m) => m.type === 'elements' && m.from === null && m.elements.some((e: { id: string }) => e.id === 'n'));
      assert.ok(change.elements.some((e: { id: string; isDeleted?: boolean }) => e.id === 'base' && e.isDeleted), 'the dropped element as a tombstone');
      assert.ok(!a.received.some((m) => m.type === 'scene'));
    });

    test('an API change wins over an unsaved copy in the room that has a higher version, and everyone ends with the API change', async () => {
      const id = await newDiagram([rect('base', 1)]);
      const { a, b } = await twoEditors(id);
      // The room holds version 9 of `base` a moment before the store does; a patch based on the stored version 1 lands meanwhile.
      a.send({ type: 'elements', seq: 1, elements: [rect('base', 9, { x: 900 })] });
      await b.next('elements');
      const patched = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner.token, body: { ops: [{ op: 'restyle', id: 'base', strokeColor: '#ff0000' }] } });
      assert.equal(patched.statusCode, 200, patched.body);
      const final = await eventually(() => stored(id), (els) => els[0]?.strokeColor === '#ff0000');
      assert.equal(final[0]!.strokeColor, '#ff0000');
      const heard = await b.until((m) => m.type === 'elements' && m.from === null);
      assert.equal(heard.elements[0].strokeColor, '#ff0000');
      assert.ok(heard.elements[0].version > 9);
    });

    test('concurrent edits of many elements from three people converge: everyone and the store hold each final version, none twice', async () => {
      const id = await newDiagram([]);
      const clients = [await connect(id), await connect(id), await connect(id)];
      for (const c of clients) await c.next('welcome');
      const finals = new Map<string, number>();
      for (let round = 1; round <= 5; round++) {
        clients.forEach((c, i) => {
          const elements = [0, 1, 2, 3].map((n) => rect(`e${(n + i) % 4}`, round * 3 + i, { x: round * 10 + i }));
          c.send({ type: 'elements', seq: round, elements });
        });
      }
      // Expected: per element, the copy with the highest version (ties: lowest nonce) — round 5, sender 2 for every element.
      for (let n = 0; n < 4; n++) finals.set(`e${n}`, 5 * 3 + 2);
      for (const c of clients) await c.until((m) => m.type === 'saved' && m.upTo === 5);
      const elements = await eventually(() => stored(id), (els) => els.length === 4 && els.every((e) => e.version === 17));
      assert.deepEqual(elements.map((e) => [e.id, e.version]).sort(), [...finals].sort());
      for (const c of clients) {
        const seen = new Map<string, number>();
        for (const e of c.received.find((m) => m.type === 'welcome')!.elements) seen.set(e.id, e.version);
        for (const m of c.received) if (m.type === 'elements') for (const e of m.elements) if ((seen.get(e.id) ?? 0) <= e.version) seen.set(e.id, e.version);
        const own = clients.indexOf(c);
        for (let n = 0; n < 4; n++) seen.set(`e${(n + own) % 4}`, Math.max(seen.get(`e${(n + own) % 4}`) ?? 0, 15 + own));
        assert.deepEqual([...seen].sort(), [...finals].sort());
      }
    });

    test("changing a person's share through the API switches their editor's role at once, removing it closes their connection, and trashing the diagram closes everyone's", async () => {
      const id = await newDiagram();
      const guest = await h.user();
      const shared = await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner.token, body: { email: guest.email, role: 'editor' } });
      assert.equal(shared.statusCode, 200, shared.body);
      const theirs = await connect(id, await signIn(h, guest.id));
      const mine = await connect(id);
      assert.equal((await theirs.next('welcome')).role, 'editor');
      await mine.next('welcome');
      const demoted = await h.call('PATCH', `/api/v1/diagrams/${id}/shares/${guest.id}`, { token: owner.token, body: { role: 'viewer' } });
      assert.equal(demoted.statusCode, 200, demoted.body);
      assert.equal((await theirs.next('role')).role, 'viewer');
      const removed = await h.call('DELETE', `/api/v1/diagrams/${id}/shares/${guest.id}`, { token: owner.token });
      assert.equal(removed.statusCode, 204, removed.body);
      assert.equal((await theirs.next('gone')).reason, 'access');
      assert.equal((await theirs.closed).code, 4403);
      await mine.next('left');
      const trashed = await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: owner.token });
      assert.equal(trashed.statusCode, 204, trashed.body);
      assert.equal((await mine.next('gone')).reason, 'deleted');
      assert.equal((await mine.closed).code, 4404);
    });

    test("a workspace member's editor follows the workspace through the API: a role change switches it, removal or moving the diagram out closes it", async () => {
      const id = await newDiagram();
      const created = await h.call('POST', '/api/v1/workspaces', { token: owner.token, body: { name: 'Live team' } });
      assert.equal(created.statusCode, 201, created.body);
      const workspaceId = created.json().id;
      const moved = await h.call('PUT', `/api/v1/diagrams/${id}/workspace`, { token: owner.token, body: { workspaceId } });
      assert.equal(moved.statusCode, 200, moved.body);
      const member = await h.user();
      const otherMember = await h.user();
      for (const person of [member, otherMember]) {
        const invited = await h.call('POST', `/api/v1/workspaces/${workspaceId}/members`, { token: owner.token, body: { email: person.email, role: 'editor' } });
        assert.equal(invited.statusCode, 200, invited.body);
      }
      const theirs = await connect(id, await signIn(h, member.id));
      const others = await connect(id, await signIn(h, otherMember.id));
      assert.equal((await theirs.next('welcome')).role, 'editor');
      assert.equal((await others.next('welcome')).role, 'editor');
      const demoted = await h.call('PATCH', `/api/v1/workspaces/${workspaceId}/members/${member.id}`, { token: owner.token, body: { role: 'viewer' } });
      assert.equal(demoted.statusCode, 200, demoted.body);
      assert.equal((await theirs.next('role')).role, 'viewer');
      const removed = await h.call('DELETE', `/api/v1/workspaces/${workspaceId}/members/${member.id}`, { token: owner.token });
      assert.equal(removed.statusCode, 204, removed.body);
      assert.equal((await theirs.next('gone')).reason, 'access');
      assert.equal((await theirs.closed).code, 4403);
      const out = await h.call('PUT', `/api/v1/diagrams/${id}/workspace`, { token: owner.token, body: { workspaceId: null } });
      assert.equal(out.statusCode, 200, out.body);
      assert.equal((await others.next('gone')).reason, 'access');
      assert.equal((await others.closed).code, 4403);
      const revisions = await h.call('GET', `/api/v1/diagrams/${id}/revisions`, { token: owner.token });
      assert.deepEqual(
        revisions.json().items.filter((r: { kind: string }) => r.kind === 'move').map((r: { summary: string }) => r.summary),
        ['moved out of workspace "Live team"', 'moved into workspace "Live team"'],
      );
    });

    test("when the first writer of a batch has lost access unnoticed, the others' changes in it are still stored, and the writer is sent away", async () => {
      const id = await newDiagram();
      const guest = await h.user();
      await h.store.sharing.shareDiagram(id, guest.id, 'editor');
      const theirs = await connect(id, await signIn(h, guest.id));
      const mine = await connect(id);
      await theirs.next('welcome');
      await mine.next('welcome');
      // The share goes without a word on the bus: the room still takes the guest for an editor.
      await h.store.db.deleteFrom('diagram_shares').where('diagram_id', '=', id).where('user_id', '=', guest.id).execute();
      theirs.send({ type: 'elements', seq: 1, elements: [rect('from-guest', 1)] });
      mine.send({ type: 'elements', seq: 1, elements: [rect('from-owner', 1)] });
      assert.equal((await theirs.next('gone')).reason, 'access');
      assert.equal((await mine.next('saved')).upTo, 1);
      const elements = await eventually(() => stored(id), (els) => els.some((e) => e.id === 'from-owner'));
      assert.ok(elements.some((e) => e.id === 'from-owner'), "the owner's change is stored");
    });

    test('signing out closes that session\'s connections with gone', async () => {
      const id = await newDiagram();
      const session = await signIn(h, owner.id);
      const client = await connect(id, session);
      await client.next('welcome');
      const out = await h.call('POST', '/logout', { headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `_csrf=${session.csrfToken}` });
      assert.equal(out.statusCode, 303);
      assert.equal((await client.next('gone')).reason, 'signed_out');
      assert.equal((await client.closed).code, 4401);
    });

    test('closing the server writes what its rooms hold and closes their connections instead of waiting for the clients', async () => {
      const other = await startHarness({ engine, listen: true });
      const user = await other.user();
      const created = await other.call('POST', '/api/v1/diagrams', { token: user.token, body: { title: 'x', scene: { elements: [] } } });
      const id = created.json().id as string;
      const client = await connectLive(other.baseUrl, id, { cookie: (await signIn(other, user.id)).cookie });
      await client.next('welcome');
      client.send({ type: 'elements', seq: 1, elements: [rect('last-words', 1)] });
      await client.until((m) => m.type === 'error' || m.type === 'saved', 100).catch(() => null);
      await other.app.close();
      assert.equal((await client.closed).code, 1001);
      const found = await other.store.diagrams.findForUser(id, user.id);
      assert.deepEqual(JSON.parse(found!.diagram.elementsJson).map((e: { id: string }) => e.id), ['last-words']);
      await other.close();
    });

    test("presence goes to the others: pointer, selection and status", async () => {
      const id = await newDiagram();
      const { a, b, you } = await twoEditors(id);
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
