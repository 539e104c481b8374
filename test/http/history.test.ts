import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { SceneElement } from '../../src/domain/edit/types.ts';
import { pruneHistory } from '../../src/app/history/prune-history.ts';
import { loadConfig } from '../../src/config.ts';
import { applyDelta } from '../../src/domain/history/delta.ts';
import { type Engine, type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn } from '../helpers/web-session.ts';

const SPEC = { nodes: [{ id: 'api', label: 'API' }, { id: 'db', label: 'db', shape: 'ellipse' }, { id: 'cache', label: 'cache' }], edges: ['api -> db : SQL', 'api -> cache'] };

async function created(h: Harness, user: TestUser, body: unknown = { title: 'Shop', spec: SPEC }): Promise<string> {
  const res = await h.call('POST', '/api/v1/diagrams', { token: user.token, body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

const history = async (h: Harness, user: TestUser, id: string, query = '') => {
  const res = await h.call('GET', `/api/v1/diagrams/${id}/revisions${query}`, { token: user.token });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { items: any[]; nextCursor: string | null };
};
const elementsOf = async (h: Harness, user: TestUser, id: string): Promise<SceneElement[]> =>
  (await h.call('GET', `/api/v1/diagrams/${id}`, { token: user.token })).json().scene.elements;
const revisionElements = async (h: Harness, user: TestUser, id: string, rev: string): Promise<SceneElement[]> => {
  const res = await h.call('GET', `/api/v1/diagrams/${id}/revisions/${rev}`, { token: user.token });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().scene.elements;
};

for (const { engine, skip } of [
  { engine: 'sqlite' as Engine, skip: false as const },
  { engine: 'postgres' as Engine, skip: skipWithoutPostgres },
]) {
  describe(`history on ${engine}`, { skip }, () => {
    let h: Harness;
    let alice: TestUser;
    before(async () => {
      h = await startHarness({ engine });
      alice = await h.user();
      await h.store.db.updateTable('tokens').set({ name: 'agent-bot' }).where('id', '=', alice.tokenId).execute();
    });
    after(() => h.close());

    test('each write kind records one revision with its author and how it came: API token, MCP tool, web session', async () => {
      const id = await created(h, alice);
      const write = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
        h.call(method, `/api/v1/diagrams/${id}${path}`, { token: alice.token, body, headers }).then((res) => {
          assert.ok(res.statusCode < 300, res.body);
          return res;
        });
      await write('POST', '/edit', { addNodes: [{ id: 'queue', label: 'queue' }], addEdges: ['api -> queue'] });
      await write('POST', '/regenerate', { spec: SPEC });
      await write('POST', '/patch', { ops: [{ op: 'move', id: 'db', dx: 120, dy: 0 }] }, { 'drawbridge-mcp-tool': 'patch_diagram' });
      await write('PATCH', '', { title: 'Shop v2' });
      const web = await signIn(h, alice.id);
      const current = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json();
      const saved = await h.call('PUT', `/app/api/diagrams/${id}/scene`, {
        headers: { cookie: web.cookie, 'x-csrf-token': web.csrfToken },
        body: { elements: current.scene.elements.filter((e: SceneElement) => e.id !== 'cache' && e.id !== 'cache-label' && e.id !== 'api-to-cache'), expectedUpdatedAt: current.docUpdatedAt },
      });
      assert.equal(saved.statusCode, 200, saved.body);
      const { items } = await history(h, alice, id);
      const token = { id: alice.tokenId, name: 'agent-bot' };
      assert.deepEqual(
        items.map((r) => [r.kind, r.via]),
        [
          ['save', { kind: 'web', name: 'web editor' }],
          ['rename', { kind: 'token', name: 'agent-bot', token }],
          ['patch', { kind: 'mcp', name: 'patch_diagram', tool: 'patch_diagram', token }],
          ['regenerate', { kind: 'token', name: 'agent-bot', token }],
          ['edit', { kind: 'token', name: 'agent-bot', token }],
          ['create', { kind: 'token', name: 'agent-bot', token }],
        ],
      );
      for (const item of items) assert.deepEqual(item.author, { id: alice.id, email: alice.email });
      assert.match(items[2].summary, /moved db/);
      assert.equal(items[1].summary, 'renamed "Shop" to "Shop v2"');
      assert.match(items[0].summary, /deleted cache/);
      assert.deepEqual(
        items.map((r) => r.rev),
        ['r6', 'r5', 'r4', 'r3', 'r2', 'r1'],
      );
      assert.equal(items[0].elementCount, (await elementsOf(h, alice, id)).length);
    });

    test('restore writes the old scene as a new revision; a stale expectedUpdatedAt writes nothing', async () => {
      const id = await created(h, alice);
      const original = await elementsOf(h, alice, id);
      const patched = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'delete', id: 'cache' }] } });
      assert.equal(patched.statusCode, 200, patched.body);
      const { docUpdatedAt } = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json();

      const stale = await h.call('POST', `/api/v1/diagrams/${id}/revisions/r1/restore`, { token: alice.token, body: { expectedUpdatedAt: '2020-01-01T00:00:00.000Z' } });
      assert.equal(stale.statusCode, 409, stale.body);
      assert.equal(stale.json().error, 'stale_read');
      assert.equal((await history(h, alice, id)).items.length, 2, 'nothing written');

      const restored = await h.call('POST', `/api/v1/diagrams/${id}/revisions/r1/restore`, { token: alice.token, body: { expectedUpdatedAt: docUpdatedAt } });
      assert.equal(restored.statusCode, 200, restored.body);
      assert.deepEqual({ ...(restored.json() as object), docUpdatedAt: undefined }, { id, rev: 'r3', restoredFrom: 'r1', docUpdatedAt: undefined, elements: original.length, unresolvedComments: 0 });
      assert.ok(restored.headers.etag);
      const now = await elementsOf(h, alice, id);
      const bookkeeping = ({ version: _v, versionNonce: _n, updated: _u, ...rest }: SceneElement) => rest;
      assert.deepEqual(now.map(bookkeeping), original.map(bookkeeping), 'the original scene is back');
      const [top] = (await history(h, alice, id)).items;
      assert.equal(top.kind, 'restore');
      assert.equal(top.restoredFrom, 'r1');
      assert.match(top.summary, /^restored r1: added cache/);
      // A restore without a body at all is a restore without a precondition.
      const again = await h.call('POST', `/api/v1/diagrams/${id}/revisions/r2/restore`, { token: alice.token });
      assert.equal(again.statusCode, 200, again.body);
    });

    test("another user's diagram is 404 in every history route; a viewer reads history but cannot restore", async () => {
      const id = await created(h, alice);
      const bob = await h.user();
      for (const [method, path] of [
        ['GET', '/revisions'],
        ['GET', '/revisions/r1'],
        ['GET', '/revisions/r1/diff'],
        ['POST', '/revisions/r1/restore'],
        ['GET', '/render?rev=r1&format=svg&quality=fast'],
      ] as const) {
        const res = await h.call(method, `/api/v1/diagrams/${id}${path}`, { token: bob.token });
        assert.equal(res.statusCode, 404, `${method} ${path}: ${res.body}`);
      }
      await h.store.sharing.shareDiagram(id, bob.id, 'viewer');
      assert.equal((await history(h, bob, id)).items.length, 1);
      assert.equal((await h.call('GET', `/api/v1/diagrams/${id}/revisions/r1`, { token: bob.token })).statusCode, 200);
      const refused = await h.call('POST', `/api/v1/diagrams/${id}/revisions/r1/restore`, { token: bob.token });
      assert.equal(refused.statusCode, 404, refused.body);
      assert.equal((await history(h, alice, id)).items.length, 1, 'nothing written');
      for (const rev of ['r2', 'x', 'r0', 'r01']) {
        assert.equal((await h.call('GET', `/api/v1/diagrams/${id}/revisions/${rev}`, { token: alice.token })).statusCode, 404, rev);
      }
      const badAgainst = await h.call('GET', `/api/v1/diagrams/${id}/revisions/r1/diff?against=nope`, { token: alice.token });
      assert.equal(badAgainst.statusCode, 400, badAgainst.body);
    });

    test('a malformed Drawbridge-Mcp-Tool header is 400 bad_request and writes nothing', async () => {
      const id = await created(h, alice);
      for (const tool of ['Patch', 'patch diagram', 'x'.repeat(65), '']) {
        const res = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, headers: { 'drawbridge-mcp-tool': tool }, body: { ops: [{ op: 'delete', id: 'cache' }] } });
        assert.equal(res.statusCode, 400, `${JSON.stringify(tool)}: ${res.body}`);
        assert.equal(res.json().error, 'bad_request');
      }
      assert.equal((await history(h, alice, id)).items.length, 1);
      assert.equal((await elementsOf(h, alice, id)).some((e) => e.id === 'cache'), true);
    });

    test('render ?rev= draws the past revision', async () => {
      const id = await created(h, alice, { scene: { elements: [{ id: 'only', type: 'rectangle', x: 0, y: 0, width: 100, height: 60 }] } });
      await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: alice.token, body: { scene: { elements: [] } } });
      const now = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg&quality=fast`, { token: alice.token });
      assert.equal(now.statusCode, 204, 'the current scene is empty');
      const past = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg&quality=fast&rev=r1`, { token: alice.token });
      assert.equal(past.statusCode, 200, past.body);
      assert.match(past.body, /<svg/);
    });
  });
}

describe('a long random history', () => {
  let h: Harness;
  let alice: TestUser;
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  const step = fc.oneof(
    fc.record({ kind: fc.constant('patch' as const), dx: fc.integer({ min: -50, max: 50 }), target: fc.constantFrom('api', 'db') }),
    fc.record({ kind: fc.constant('edit' as const), n: fc.nat(50) }),
    fc.record({ kind: fc.constant('regenerate' as const), drop: fc.boolean() }),
    fc.record({ kind: fc.constant('restyle' as const), color: fc.constantFrom('#ffec99', '#a5d8ff', '#b2f2bb'), target: fc.constantFrom('api', 'db') }),
  );

  test('every revision reads back exactly the scene current then, and diff(a, b) applied to a gives b', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 20 }), async (steps) => {
        const id = await created(h, alice);
        const seen = [await elementsOf(h, alice, id)];
        for (const s of steps) {
          const path = `/api/v1/diagrams/${id}`;
          const res =
            s.kind === 'patch'
              ? await h.call('POST', `${path}/patch`, { token: alice.token, body: { ops: [{ op: 'move', id: s.target, dx: s.dx, dy: 0 }] } })
              : s.kind === 'restyle'
                ? await h.call('POST', `${path}/patch`, { token: alice.token, body: { ops: [{ op: 'restyle', id: s.target, backgroundColor: s.color }] } })
                : s.kind === 'edit'
                  ? await h.call('POST', `${path}/edit`, { token: alice.token, body: { addNodes: [{ id: `n${s.n}`, label: `node ${s.n}` }], addEdges: [`api -> n${s.n}`] } })
                  : await h.call('POST', `${path}/regenerate`, { token: alice.token, body: { spec: s.drop ? { nodes: SPEC.nodes.slice(0, 2), edges: [SPEC.edges[0]] } : SPEC } });
          assert.equal(res.statusCode, 200, res.body);
          seen.push(await elementsOf(h, alice, id));
        }
        const revs: string[] = [];
        for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
          const page: { items: any[]; nextCursor: string | null } = await history(h, alice, id, `?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
          revs.push(...page.items.map((r) => r.rev));
          cursor = page.nextCursor;
        }
        revs.reverse();
        assert.equal(revs.length, seen.length);
        for (const [i, rev] of revs.entries()) assert.deepEqual(await revisionElements(h, alice, id, rev), seen[i], `revision ${rev}`);
        const [a, b] = [revs[0]!, revs[revs.length - 1]!];
        for (const [from, to] of [
          [a, b],
          [b, a],
        ] as const) {
          const diff = (await h.call('GET', `/api/v1/diagrams/${id}/revisions/${to}/diff?against=${from}`, { token: alice.token })).json();
          const applied = applyDelta(await revisionElements(h, alice, id, from), { upsert: diff.elements, remove: diff.removed, ...(diff.order ? { order: diff.order } : {}) });
          assert.deepEqual(applied, await revisionElements(h, alice, id, to));
        }
      }),
      { numRuns: 6 },
    );
  });
});

describe('retention', () => {
  test('the hourly pruning keeps what the settings say, and always the newest revision, which still reads back', async () => {
    const h = await startHarness({ env: { HISTORY_KEEP_ALL_DAYS: '0', HISTORY_KEEP_DAILY_DAYS: '0', HISTORY_KEEP_LATEST: '2' } });
    try {
      const alice = await h.user();
      const id = await created(h, alice);
      for (const dx of [10, 20, 30]) {
        const res = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'move', id: 'db', dx, dy: 0 }] } });
        assert.equal(res.statusCode, 200, res.body);
      }
      const current = await elementsOf(h, alice, id);
      const dropped = await pruneHistory({ config: h.config, store: h.store, now: () => new Date(Date.now() + 60_000) });
      assert.equal(dropped, 2);
      const { items } = await history(h, alice, id);
      assert.deepEqual(
        items.map((r) => r.rev),
        ['r4', 'r3'],
      );
      assert.deepEqual(await revisionElements(h, alice, id, 'r4'), current);
      const diff = (await h.call('GET', `/api/v1/diagrams/${id}/revisions/r4/diff`, { token: alice.token })).json();
      assert.equal(diff.from, 'r3');
      assert.deepEqual(diff.changed.map((c: { id: string }) => c.id).includes('db'), true);
    } finally {
      await h.close();
    }
  });

  test('with HISTORY=off no create, write or rename is recorded', async () => {
    const h = await startHarness({ env: { HISTORY: 'off' } });
    try {
      const alice = await h.user();
      const id = await created(h, alice);
      await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'delete', id: 'cache' }] } });
      await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { title: 'Renamed' } });
      assert.deepEqual(await history(h, alice, id), { items: [], nextCursor: null });
      assert.equal((await h.call('GET', `/api/v1/diagrams/${id}/revisions/r1`, { token: alice.token })).statusCode, 404);
    } finally {
      await h.close();
    }
  });

  test('a history setting that is not a number of days stops the server at start, naming it', () => {
    assert.throws(() => loadConfig({ HISTORY_KEEP_ALL_DAYS: 'a month' }), /HISTORY_KEEP_ALL_DAYS/);
    assert.throws(() => loadConfig({ HISTORY_KEEP_DAILY_DAYS: '-1' }), /HISTORY_KEEP_DAILY_DAYS/);
    assert.throws(() => loadConfig({ HISTORY_KEEP_LATEST: '0' }), /HISTORY_KEEP_LATEST/);
    assert.equal(loadConfig({ HISTORY_KEEP_DAILY_DAYS: 'forever' }).historyRetention.keepDailyDays, Infinity);
  });
});
