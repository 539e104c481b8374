import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness } from '../helpers/harness.ts';
import { createdRevision } from '../../src/app/history/recording.ts';

let h: Harness;
describe('http/diagrams.happy', () => {
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

  test('create from a scene stores the elements exactly as supplied and drops appState', async () => {
    const alice = await h.user();
    const elements = [
      { id: 'r1', type: 'rectangle', x: 1.5, y: -2, width: 10, height: 20, customData: { nested: [1, { deep: 'ü' }] }, link: 'https://example.com' },
      { id: 't1', type: 'text', text: 'héllo\nworld 🌍', containerId: null, link: 'mailto:a@example.com' },
    ];
    const created = await h.call('POST', '/api/v1/diagrams', {
      token: alice.token,
      body: { title: 'Architecture', scene: { type: 'excalidraw', elements, appState: { viewBackgroundColor: '#000' }, files: {} } },
    });
    assert.equal(created.statusCode, 201);
    const summary = created.json();
    assert.deepEqual(Object.keys(summary).sort(), ['createdAt', 'editorUrl', 'elementCount', 'folderId', 'id', 'ownerId', 'title', 'updatedAt']);
    assert.equal(summary.editorUrl, `http://drawbridge.test/app/d/${summary.id}`);
    assert.equal(summary.title, 'Architecture');
    assert.equal(summary.elementCount, 2);
    assert.equal(summary.ownerId, alice.id);
    assert.equal(summary.folderId, null);
    assert.match(summary.createdAt, ISO);

    const read = await h.call('GET', `/api/v1/diagrams/${summary.id}`, { token: alice.token });
    assert.equal(read.statusCode, 200);
    const diagram = read.json();
    assert.deepEqual(diagram.scene, { elements, appState: {} });
    assert.equal(diagram.deletedAt, null);
    assert.match(diagram.docUpdatedAt, ISO);
    assert.deepEqual(Object.keys(diagram).sort(), ['createdAt', 'deletedAt', 'docUpdatedAt', 'editorUrl', 'folderId', 'id', 'ownerId', 'scene', 'title', 'updatedAt']);
    assert.equal(diagram.editorUrl, `http://drawbridge.test/app/d/${summary.id}`);
  });

  test('titles are sanitised and an empty one becomes "Untitled diagram"', async () => {
    const alice = await h.user();
    const cases: Array<[unknown, string]> = [
      ['  Hello\u0001\u0007   \t world \n', 'Hello world'],
      ['\u202Eevil\u202C name', 'evil name'],
      ['x'.repeat(250), 'x'.repeat(200)],
      ['🌍'.repeat(210), '🌍'.repeat(200)],
      ['   ', 'Untitled diagram'],
      [undefined, 'Untitled diagram'],
    ];
    for (const [title, expected] of cases) {
      const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { ...(title === undefined ? {} : { title }), scene: sceneOf(0) } });
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().title, expected);
    }
  });

  test('create into an owned folder files it there', async () => {
    const alice = await h.user();
    const folder = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Work' } })).json();
    const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { folderId: folder.id, scene: sceneOf(1) } });
    assert.equal(created.statusCode, 201);
    assert.equal(created.json().folderId, folder.id);
  });

  test('list is newest first with an opaque cursor that is stable across creates', async () => {
    const alice = await h.user();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: `d${i}`, scene: sceneOf(1) } })).json().id);
    }
    const first = await h.call('GET', '/api/v1/diagrams?limit=3', { token: alice.token });
    assert.equal(first.statusCode, 200);
    const page1 = first.json();
    assert.deepEqual(page1.items.map((d: { title: string }) => d.title), ['d6', 'd5', 'd4']);
    assert.deepEqual(Object.keys(page1.items[0]).sort(), ['createdAt', 'editorUrl', 'folderId', 'id', 'starred', 'title', 'updatedAt']);
    assert.equal(page1.items[0].editorUrl, `http://drawbridge.test/app/d/${ids[6]}`);
    assert.equal(page1.items[0].starred, false);
    assert.equal(typeof page1.nextCursor, 'string');

    // A diagram created between pages appears on no later page and shifts nothing.
    await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'late', scene: sceneOf(1) } });
    const page2 = (await h.call('GET', `/api/v1/diagrams?limit=3&cursor=${encodeURIComponent(page1.nextCursor)}`, { token: alice.token })).json();
    assert.deepEqual(page2.items.map((d: { title: string }) => d.title), ['d3', 'd2', 'd1']);
    const page3 = (await h.call('GET', `/api/v1/diagrams?limit=3&cursor=${encodeURIComponent(page2.nextCursor)}`, { token: alice.token })).json();
    assert.deepEqual(page3.items.map((d: { title: string }) => d.title), ['d0']);
    assert.equal(page3.nextCursor, null);
  });

  test('limit is clamped to 1..100 and defaults to 50', async () => {
    const alice = await h.user();
    for (let i = 0; i < 3; i++) await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: sceneOf(0) } });
    const zero = (await h.call('GET', '/api/v1/diagrams?limit=0', { token: alice.token })).json();
    assert.equal(zero.items.length, 1);
    assert.notEqual(zero.nextCursor, null);
    const negative = (await h.call('GET', '/api/v1/diagrams?limit=-5', { token: alice.token })).json();
    assert.equal(negative.items.length, 1);
    const huge = (await h.call('GET', '/api/v1/diagrams?limit=100000', { token: alice.token })).json();
    assert.equal(huge.items.length, 3);
    assert.equal(huge.nextCursor, null);

    const bob = await h.user();
    for (let i = 0; i < 120; i++) {
      await h.store.diagrams.create(
        {
          id: crypto.randomUUID(),
          ownerId: bob.id,
          title: `b${i}`,
          folderId: null,
          workspaceId: null,
          starred: false,
          elementsJson: '[]',
          elementCount: 0,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          updatedAt: new Date().toISOString(),
          docUpdatedAt: null,
          deletedAt: null,
        },
        10_000,
        createdRevision({ userId: bob.id, via: null }, 0),
      );
    }
    const byDefault = (await h.call('GET', '/api/v1/diagrams', { token: bob.token })).json();
    assert.equal(byDefault.items.length, 50);
    const capped = (await h.call('GET', '/api/v1/diagrams?limit=101', { token: bob.token })).json();
    assert.equal(capped.items.length, 100);
  });

  test('rename and move with PATCH; the folderId key decides the move', async () => {
    const alice = await h.user();
    const folder = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'F' } })).json();
    const { id } = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'Old', scene: sceneOf(1) } })).json();

    const renamed = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { title: '  New\tname ' } });
    assert.equal(renamed.statusCode, 200);
    assert.deepEqual(Object.keys(renamed.json()).sort(), ['createdAt', 'deletedAt', 'editorUrl', 'folderId', 'id', 'ownerId', 'title', 'updatedAt']);
    assert.equal(renamed.json().editorUrl, `http://drawbridge.test/app/d/${id}`);
    assert.equal(renamed.json().title, 'New name');
    assert.equal(renamed.json().folderId, null);

    const moved = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { folderId: folder.id } });
    assert.equal(moved.json().folderId, folder.id);
    assert.equal(moved.json().title, 'New name');

    const retitled = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { title: 'Kept in folder' } });
    assert.equal(retitled.json().folderId, folder.id, 'absent folderId leaves the location unchanged');

    const toRoot = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { folderId: null } });
    assert.equal(toRoot.json().folderId, null);
    assert.ok(toRoot.json().updatedAt >= renamed.json().updatedAt);
  });

  test('trash and restore are idempotent, keep the diagram readable, and free quota', async () => {
    const alice = await h.user({ quota: 1 });
    const { id } = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: sceneOf(1) } })).json();
    const blocked = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: sceneOf(1) } });
    assert.equal(blocked.statusCode, 403);
    assert.equal(blocked.json().error, 'quota_exceeded');

    const trashed = await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: alice.token });
    assert.equal(trashed.statusCode, 204);
    assert.equal(trashed.body, '');
    const deletedAt = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().deletedAt;
    assert.match(deletedAt, ISO);
    assert.equal((await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: alice.token })).statusCode, 204);
    assert.equal((await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().deletedAt, deletedAt, 'a second trash keeps the first deletedAt');

    const active = (await h.call('GET', '/api/v1/diagrams', { token: alice.token })).json();
    assert.equal(active.items.length, 0);
    const trash = (await h.call('GET', '/api/v1/diagrams?filter=trash', { token: alice.token })).json();
    assert.deepEqual(trash.items.map((d: { id: string }) => d.id), [id]);

    const second = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: sceneOf(1) } });
    assert.equal(second.statusCode, 201, 'a trashed diagram does not count toward the quota');

    const restored = await h.call('POST', `/api/v1/diagrams/${id}/restore`, { token: alice.token });
    assert.equal(restored.statusCode, 204);
    assert.equal(restored.body, '');
    assert.equal((await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().deletedAt, null);
    assert.equal((await h.call('POST', `/api/v1/diagrams/${id}/restore`, { token: alice.token })).statusCode, 204, 'restoring an active diagram is a no-op');
  });

  test('PATCH on a trashed diagram answers with its deletedAt', async () => {
    const alice = await h.user();
    const { id } = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: sceneOf(1) } })).json();
    await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: alice.token });
    const res = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { title: 'In the bin' } });
    assert.equal(res.statusCode, 200);
    assert.match(res.json().deletedAt, ISO);
  });

  test('a shared editor may rename but not move the diagram', async () => {
    const alice = await h.user();
    const bob = await h.user();
    const bobsFolder = (await h.call('POST', '/api/v1/folders', { token: bob.token, body: { name: 'Mine' } })).json();
    const { id } = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'Shared', scene: sceneOf(1) } })).json();
    await h.admin('diagram', 'share', '--id', id, '--email', bob.email, '--role', 'editor');
    const rename = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: bob.token, body: { title: 'By Bob' } });
    assert.equal(rename.statusCode, 200);
    assert.equal(rename.json().title, 'By Bob');
    const move = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: bob.token, body: { folderId: bobsFolder.id } });
    assert.equal(move.statusCode, 403);
    assert.equal(move.json().error, 'folder_forbidden');
    assert.equal((await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().folderId, null);
  });
});
