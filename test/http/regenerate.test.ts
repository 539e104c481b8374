import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let alice: TestUser;
describe('http/regenerate', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  const spec = (ids: string[]) => ({ nodes: ids.map((id) => ({ id })), edges: ids.slice(1).map((id, i) => `${ids[i]} -> ${id}`) });
  const read = async (id: string) => (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json();
  const regenerate = (id: string, body: unknown, token = alice.token) => h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token, body });

  async function fromSpec(ids: string[]) {
    const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'Flow', spec: spec(ids) } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  }

  describe('POST /diagrams/:id/regenerate', () => {
    test('replaces the scene in place, moves docUpdatedAt and keeps id and title', async () => {
      const id = await fromSpec(['a', 'b']);
      const before = await read(id);
      const res = await regenerate(id, { spec: spec(['a', 'b', 'c']) });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { id, replaced: 8, orphanedComments: 0, layout: 'fresh' }, 'a diagram not changed since it was laid out is laid out afresh');
      const afterRead = await read(id);
      assert.equal(afterRead.title, 'Flow');
      assert.equal(afterRead.scene.elements.length, 8);
      assert.ok(afterRead.docUpdatedAt > before.docUpdatedAt);
      assert.ok(afterRead.updatedAt >= before.updatedAt);
      const versions = new Map(before.scene.elements.map((e: { id: string; version: number }) => [e.id, e.version]));
      for (const element of afterRead.scene.elements) {
        const was = before.scene.elements.find((e: { id: string }) => e.id === element.id);
        if (was === undefined) assert.equal(element.version, 2, `${element.id} is new: a version above the generated one`);
        else if (JSON.stringify(was) === JSON.stringify(element)) assert.equal(element.version, versions.get(element.id), `${element.id} came out the same: kept as it was`);
        else assert.equal(element.version, (versions.get(element.id) as number) + 1, `${element.id} changed: it continues its version so open editors take it`);
      }
      assert.ok(afterRead.scene.elements.some((e: { id: string; version: number }) => versions.has(e.id) && e.version > (versions.get(e.id) as number)), 'some reused element changed');
    });

    test('a raw scene is swapped in exactly as supplied, version, versionNonce and updated untouched, with an optional rename', async () => {
      const id = await fromSpec(['a']);
      const scene = sceneOf(3);
      scene.elements[1] = { ...scene.elements[1]!, version: 7, versionNonce: 1234, updated: 99 } as (typeof scene.elements)[number];
      const res = await regenerate(id, { scene, title: '  Renamed\n' });
      assert.deepEqual(res.json(), { id, replaced: 3, orphanedComments: 0, title: 'Renamed' });
      const diagram = await read(id);
      assert.deepEqual(diagram.scene.elements, scene.elements);
      assert.equal(diagram.title, 'Renamed');
      // An element the stored scene holds at a higher version is still stored as sent.
      const older = [{ ...scene.elements[1]!, version: 1, versionNonce: 1, x: 500 }];
      assert.equal((await regenerate(id, { scene: { elements: older } })).statusCode, 200);
      assert.deepEqual((await read(id)).scene.elements, older);
    });

    test('bad bodies are refused and nothing is written', async () => {
      const id = await fromSpec(['a']);
      const before = JSON.stringify(await read(id));
      const cases: Array<[unknown, number, string]> = [
        [{}, 400, 'bad_request'],
        [{ spec: spec(['a']), scene: sceneOf(1) }, 400, 'bad_request'],
        [{ spec: spec(['a']), title: ' \u0000 ' }, 400, 'bad_request'],
        [{ spec: { nodes: [{ id: 'a' }], edges: ['a -> z'] } }, 422, 'DANGLING_EDGE'],
        [{ scene: { elements: 'no' } }, 422, 'NOT_A_SCENE'],
        [{ spec: spec(['a']), expectedUpdatedAt: 5 }, 400, 'bad_request'],
      ];
      for (const [body, status, code] of cases) {
        const res = await regenerate(id, body);
        assert.equal(res.statusCode, status, res.body);
        assert.equal(res.json().error, code);
      }
      assert.equal(JSON.stringify(await read(id)), before);
    });

    test('a stale expectedUpdatedAt is 409 stale_read and writes nothing', async () => {
      const id = await fromSpec(['a', 'b']);
      const first = await read(id);
      assert.equal((await regenerate(id, { spec: spec(['a']), expectedUpdatedAt: first.docUpdatedAt })).statusCode, 200);
      const current = JSON.stringify(await read(id));
      const stale = await regenerate(id, { spec: spec(['x', 'y']), expectedUpdatedAt: first.docUpdatedAt, title: 'Nope' });
      assert.equal(stale.statusCode, 409);
      assert.equal(stale.json().error, 'stale_read');
      assert.equal(JSON.stringify(await read(id)), current);
    });

    test('of 10 concurrent regenerates with the same expectedUpdatedAt exactly one succeeds', async () => {
      const id = await fromSpec(['a', 'b']);
      const { docUpdatedAt } = await read(id);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => regenerate(id, { spec: spec([`n${i}`, 'z']), expectedUpdatedAt: docUpdatedAt })));
      const codes = results.map((r) => r.statusCode).sort();
      assert.deepEqual(codes, [200, ...Array(9).fill(409)]);
      const winner = results.findIndex((r) => r.statusCode === 200);
      assert.ok((await read(id)).scene.elements.some((e: { id: string }) => e.id === `n${winner}`));
    });

    test('a viewer may not regenerate; an editor may', async () => {
      const id = await fromSpec(['a']);
      const viewer = await h.user();
      const editor = await h.user();
      await h.admin('diagram', 'share', '--id', id, '--email', viewer.email, '--role', 'viewer');
      await h.admin('diagram', 'share', '--id', id, '--email', editor.email, '--role', 'editor');
      assert.equal((await regenerate(id, { spec: spec(['b']) }, viewer.token)).statusCode, 404);
      assert.equal((await regenerate(id, { spec: spec(['b']) }, editor.token)).statusCode, 200);
    });
  });

  describe('comments', () => {
    test('comments on reused ids stay anchored; those on removed elements are resolved and counted', async () => {
      const id = await fromSpec(['api', 'db', 'cache']);
      const add = (body: unknown) => h.call('POST', `/api/v1/diagrams/${id}/comments`, { token: alice.token, body });
      const onApi = await add({ elementId: 'api', body: 'Rate limit this' });
      assert.equal(onApi.statusCode, 201, onApi.body);
      assert.deepEqual(Object.keys(onApi.json()).sort(), ['authorId', 'body', 'createdAt', 'elementId', 'id', 'resolved', 'resolvedReason']);
      await add({ elementId: 'db', body: 'Back this up' });
      await add({ elementId: 'db-label', body: 'Rename' });
      await add({ body: 'General remark' });

      const res = await regenerate(id, { spec: spec(['api', 'cache']) });
      assert.equal(res.json().orphanedComments, 2);
      const comments = (await h.call('GET', `/api/v1/diagrams/${id}/comments`, { token: alice.token })).json().items;
      const state = Object.fromEntries(comments.map((c: any) => [c.body, [c.resolved, c.resolvedReason]]));
      assert.deepEqual(state, {
        'Rate limit this': [false, null],
        'Back this up': [true, 'element_removed'],
        Rename: [true, 'element_removed'],
        'General remark': [false, null],
      });
      assert.equal((await regenerate(id, { spec: spec(['api']) })).json().orphanedComments, 0, 'resolved comments are not counted again');
    });

    test('a comment needs a body and an element of the scene', async () => {
      const id = await fromSpec(['api']);
      for (const body of [{}, { body: '  ' }, { body: 'x', elementId: 'ghost' }, { body: 5 }, { body: 'x', extra: 1 }]) {
        const res = await h.call('POST', `/api/v1/diagrams/${id}/comments`, { token: alice.token, body });
        assert.equal(res.statusCode, 400, JSON.stringify(body));
      }
      assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${id}/comments`, { token: alice.token })).json(), { items: [] });
    });
  });
});
