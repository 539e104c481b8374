import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness } from '../helpers/harness.ts';

let h: Harness;
describe('http/folders', () => {
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('folders: create, nest, list flat, rename', async () => {
    const alice = await h.user();
    const empty = await h.call('GET', '/api/v1/folders', { token: alice.token });
    assert.deepEqual(empty.json(), { items: [] });

    const top = await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: '  Projects\n' } });
    assert.equal(top.statusCode, 201);
    assert.deepEqual(Object.keys(top.json()).sort(), ['id', 'name', 'parentId']);
    assert.equal(top.json().name, 'Projects');
    assert.equal(top.json().parentId, null);
    const child = await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Drawbridge', parentId: top.json().id } });
    assert.equal(child.json().parentId, top.json().id);

    const list = (await h.call('GET', '/api/v1/folders', { token: alice.token })).json();
    assert.deepEqual(list.items, [top.json(), child.json()]);

    const renamed = await h.call('PATCH', `/api/v1/folders/${child.json().id}`, { token: alice.token, body: { name: 'Renamed' } });
    assert.equal(renamed.statusCode, 200);
    assert.deepEqual(renamed.json(), { ...child.json(), name: 'Renamed' });
  });

  test('deleting a folder unfiles its diagrams and lifts its subfolders to its parent', async () => {
    const alice = await h.user();
    const top = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Top' } })).json();
    const middle = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Middle', parentId: top.id } })).json();
    const bottom = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Bottom', parentId: middle.id } })).json();
    const inMiddle = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { folderId: middle.id, scene: sceneOf(1) } })).json();
    const inBottom = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { folderId: bottom.id, scene: sceneOf(1) } })).json();

    const res = await h.call('DELETE', `/api/v1/folders/${middle.id}`, { token: alice.token });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');

    const folders = (await h.call('GET', '/api/v1/folders', { token: alice.token })).json().items;
    assert.deepEqual(folders, [top, { ...bottom, parentId: top.id }]);
    const read = async (id: string) => (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json();
    assert.equal((await read(inMiddle.id)).folderId, null);
    assert.equal((await read(inMiddle.id)).deletedAt, null, 'the diagram itself is not deleted');
    assert.equal((await read(inBottom.id)).folderId, bottom.id);
    assert.equal((await h.call('DELETE', `/api/v1/folders/${middle.id}`, { token: alice.token })).statusCode, 404);
  });

  test('folder names must be strings that are not empty after sanitising (400)', async () => {
    const alice = await h.user();
    for (const body of [{}, { name: '' }, { name: ' \t\u0000 ' }, { name: 5 }, { name: 'x', parentId: 'nope' }, { name: 'x', color: 'red' }]) {
      const res = await h.call('POST', '/api/v1/folders', { token: alice.token, body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().error, 'bad_request');
    }
    const folder = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Keep' } })).json();
    for (const body of [{}, { name: '   ' }, { name: null }, { parentId: null }]) {
      const res = await h.call('PATCH', `/api/v1/folders/${folder.id}`, { token: alice.token, body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
    }
    assert.deepEqual((await h.call('GET', '/api/v1/folders', { token: alice.token })).json().items, [folder]);
  });

  test("a parentId that is not the caller's folder is 403 folder_forbidden", async () => {
    const alice = await h.user();
    const bob = await h.user();
    const bobs = (await h.call('POST', '/api/v1/folders', { token: bob.token, body: { name: 'Bob' } })).json();
    for (const parentId of [bobs.id, randomUUID()]) {
      const res = await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Sneaky', parentId } });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error, 'folder_forbidden');
    }
    assert.deepEqual((await h.call('GET', '/api/v1/folders', { token: alice.token })).json().items, []);
  });

  test("another user's folder cannot be renamed or deleted (404, like a missing one)", async () => {
    const alice = await h.user();
    const bob = await h.user();
    const bobs = (await h.call('POST', '/api/v1/folders', { token: bob.token, body: { name: 'Bob' } })).json();
    const missing = randomUUID();
    for (const [method, body] of [['PATCH', { name: 'Mine now' }], ['DELETE', undefined]] as const) {
      const res = await h.call(method, `/api/v1/folders/${bobs.id}`, { token: alice.token, ...(body ? { body } : {}) });
      const none = await h.call(method, `/api/v1/folders/${missing}`, { token: alice.token, ...(body ? { body } : {}) });
      assert.equal(res.statusCode, 404);
      assert.equal(res.body, none.body);
    }
    assert.deepEqual((await h.call('GET', '/api/v1/folders', { token: bob.token })).json().items, [bobs]);
  });
});
