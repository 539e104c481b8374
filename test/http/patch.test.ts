import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ICON_GAP } from '../../src/domain/scene/node-plan.ts';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let alice: TestUser;
describe('http/patch', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  const read = async (id: string) => (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json();
  const patch = (id: string, body: unknown) => h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body });
  const byId = (diagram: any) => new Map<string, any>(diagram.scene.elements.map((e: any) => [e.id, e]));

  async function diagram() {
    const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec: { nodes: [{ id: 'api' }, { id: 'db', shape: 'ellipse' }, { id: 'cache' }], edges: ['api -> db : SQL', 'api -> cache'] } } });
    return res.json().id as string;
  }

  test('move carries the label and re-routes bound arrows; restyle and delete cascade', async () => {
    const id = await diagram();
    const before = byId(await read(id));
    const res = await patch(id, {
      ops: [
        { op: 'move', id: 'db', dx: 200, dy: 0 },
        { op: 'restyle', id: 'api', backgroundColor: '#ffec99' },
        { op: 'delete', id: 'cache' },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { id, applied: 3, elements: 7, deleted: 2, orphanedComments: 0 });
    const after = byId(await read(id));
    assert.equal(after.get('db').x, before.get('db').x + 200);
    assert.equal(after.get('db-label').x, before.get('db-label').x + 200, 'the label moved with its shape');
    const arrow = after.get('api-to-db');
    assert.equal(arrow.endBinding.elementId, 'db', 'still bound');
    assert.notDeepEqual(arrow.points, before.get('api-to-db').points, 're-routed');
    assert.equal(after.get('api').backgroundColor, '#ffec99');
    assert.equal(after.has('cache') || after.has('cache-label'), false);
    assert.equal(after.get('api-to-cache').endBinding, null, 'arrows to a deleted shape are unbound, not deleted');
    assert.ok(after.get('db').version > before.get('db').version);
    const lint = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json().issues;
    assert.deepEqual(
      lint.map((i: { kind: string }) => i.kind),
      ['unbound_arrow'],
    );
  });

  test('a patched label never covers its shape’s icon: the shape grows until it holds both', async () => {
    const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec: { nodes: [{ id: 'user', label: 'User', icon: 'icon-user' }, { id: 'api' }], edges: ['user -> api'] } } });
    const id = created.json().id as string;
    const before = byId(await read(id));
    const res = await patch(id, { ops: [{ op: 'update', id: 'user-label', set: { text: 'Administrators and operators of the platform' } }] });
    assert.equal(res.statusCode, 200, res.body);
    const after = byId(await read(id));
    const [user, label, icon] = [after.get('user'), after.get('user-label'), after.get('user-icon')];
    assert.ok(user.height > before.get('user').height, 'the shape grew');
    assert.equal(user.width, before.get('user').width, 'the label wraps in the shape’s width');
    assert.ok(label.y >= icon.y + icon.height + ICON_GAP - 0.5, `the label (top ${label.y}) is below the icon (bottom ${icon.y + icon.height})`);
    assert.ok(icon.y >= user.y && label.y + label.height <= user.y + user.height, 'both inside the shape');
    assert.equal(after.get('user-to-api').startBinding.elementId, 'user', 'its arrow is still bound');
  });

  test('a failing op at the end of the list leaves the diagram byte-identical', async () => {
    const id = await diagram();
    const before = JSON.stringify(await read(id));
    const res = await patch(id, { ops: [{ op: 'move', id: 'db', dx: 50, dy: 0 }, { op: 'delete', id: 'api' }, { op: 'resize', id: 'ghost', width: 10, height: 10 }] });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error, 'INVALID_SPEC');
    assert.match(res.json().message, /ops\[2\]/);
    assert.equal(JSON.stringify(await read(id)), before);
  });

  test('patch with a stale expectedUpdatedAt is 409 and writes nothing', async () => {
    const id = await diagram();
    const { docUpdatedAt } = await read(id);
    assert.equal((await patch(id, { ops: [{ op: 'move', id: 'db', dx: 1, dy: 0 }], expectedUpdatedAt: docUpdatedAt })).statusCode, 200);
    const current = JSON.stringify(await read(id));
    const stale = await patch(id, { ops: [{ op: 'delete', id: 'db' }], expectedUpdatedAt: docUpdatedAt });
    assert.equal(stale.statusCode, 409);
    assert.equal(stale.json().error, 'stale_read');
    assert.equal(JSON.stringify(await read(id)), current);
  });

  test('deleting an element resolves the comments anchored to it', async () => {
    const id = await diagram();
    await h.call('POST', `/api/v1/diagrams/${id}/comments`, { token: alice.token, body: { elementId: 'cache', body: 'Do we need this?' } });
    await h.call('POST', `/api/v1/diagrams/${id}/comments`, { token: alice.token, body: { elementId: 'api', body: 'Keep' } });
    const res = await patch(id, { ops: [{ op: 'delete', id: 'cache' }] });
    assert.equal(res.json().orphanedComments, 1);
    const comments = (await h.call('GET', `/api/v1/diagrams/${id}/comments`, { token: alice.token })).json().items;
    assert.deepEqual(comments.map((c: any) => [c.elementId, c.resolved, c.resolvedReason]), [['cache', true, 'element_removed'], ['api', false, null]]);
  });

  test('past 5000 elements is 413 SCENE_TOO_LARGE; malformed bodies are 400 or 422', async () => {
    const id = await diagram();
    const ops = Array.from({ length: 500 }, (_, i) => ({ op: 'add', element: { type: 'rectangle', id: `r${i}`, x: i * 200, y: 2000 } }));
    for (let round = 0; round < 9; round++) {
      const res = await patch(id, { ops: ops.map((o) => ({ ...o, element: { ...o.element, id: `${o.element.id}-${round}` } })) });
      assert.equal(res.statusCode, 200, res.body);
    }
    const tooMany = await patch(id, { ops: ops.map((o) => ({ ...o, element: { ...o.element, id: `${o.element.id}-last` } })) });
    assert.equal(tooMany.statusCode, 413);
    assert.equal(tooMany.json().error, 'SCENE_TOO_LARGE');
    for (const [body, status] of [[{}, 400], [{ ops: 'x' }, 400], [{ ops: [] }, 422], [{ ops: [{ op: 'explode', id: 'api' }] }, 422], [{ ops: [{ op: 'update', id: 'api', set: { type: 'ellipse' } }] }, 422]] as const) {
      const res = await patch(id, body);
      assert.equal(res.statusCode, status, JSON.stringify(body));
    }
  });
});
