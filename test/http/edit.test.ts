import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ICON_GAP } from '../../src/domain/scene/node-plan.ts';
import { getBoundTextMaxHeight, getBoundTextMaxWidth, measureText, wrapText } from '../../src/domain/text/metrics.ts';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { metIssues } from '../helpers/lint.ts';

let h: Harness;
let alice: TestUser;
describe('http/edit', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  const read = async (id: string) => (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json();
  const edit = (id: string, body: unknown, token = alice.token) => h.call('POST', `/api/v1/diagrams/${id}/edit`, { token, body });

  async function diagram() {
    const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec: { nodes: [{ id: 'web' }, { id: 'api' }], edges: ['web -> api'] } } });
    return res.json().id as string;
  }

  test('edit adds bound nodes and edges without moving anything, visible to the next read', async () => {
    const id = await diagram();
    const before = await read(id);
    const res = await edit(id, { addNodes: [{ id: 'db', shape: 'ellipse', label: 'Orders DB' }], addEdges: ['api -> db : SQL'], updateNodes: [{ id: 'web', backgroundColor: '#a5d8ff', label: 'Web app' }] });
    assert.equal(res.statusCode, 200, res.body);
    const result = res.json();
    assert.deepEqual(result.added, ['db', 'api-to-db']);
    assert.deepEqual(result.updated, ['web']);
    assert.ok(Number.isInteger(result.merged) && result.merged > 0);

    const after = await read(id);
    assert.ok(after.docUpdatedAt > before.docUpdatedAt);
    const byId = new Map(after.scene.elements.map((e: any) => [e.id, e]));
    for (const old of before.scene.elements) {
      const now: any = byId.get(old.id);
      for (const field of ['x', 'y', 'width', 'height', 'points']) {
        if (old.type === 'text' && old.containerId === 'web') continue;
        assert.deepEqual(now[field], old[field], `${old.id}.${field} unchanged`);
      }
    }
    const arrow: any = byId.get('api-to-db');
    assert.equal(arrow.startBinding.elementId, 'api');
    assert.equal(arrow.endBinding.elementId, 'db');
    assert.ok((byId.get('db') as any).boundElements.some((b: any) => b.id === 'api-to-db'));
    assert.equal((byId.get('web') as any).backgroundColor, '#a5d8ff');
    assert.equal((byId.get('web-label') as any).originalText, 'Web app');
    assert.ok((byId.get('web') as any).version > 1, 'touched elements get a new version');
    const lint = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json();
    assert.deepEqual(lint.issues, []);
  });

  test('bad fragments are refused with the content codes, naming the item, and write nothing', async () => {
    const id = await diagram();
    const before = JSON.stringify(await read(id));
    const cases: Array<[unknown, number, string, RegExp]> = [
      [{ updateNodes: [{ id: 'web', width: 300 }] }, 422, 'INVALID_SPEC', /updateNodes\[0\].*width/],
      [{ updateNodes: [{ id: 'web', x: 1 }] }, 422, 'INVALID_SPEC', /"x"/],
      [{ updateNodes: [{ id: 'web', shape: 'ellipse' }] }, 422, 'INVALID_SPEC', /shape/],
      [{ updateNodes: [{ id: 'ghost', label: 'x' }] }, 422, 'INVALID_SPEC', /ghost/],
      [{ addNodes: [{ id: 'api' }] }, 422, 'DUPLICATE_NODE_ID', /addNodes\[0\].*"api"/],
      [{ addNodes: [{ label: 'no id' }] }, 422, 'MISSING_NODE_ID', /addNodes\[0\]/],
      [{ addNodes: [{ id: 'q', shape: 'cloud' }] }, 422, 'UNKNOWN_SHAPE', /addNodes\[0\]/],
      [{ addNodes: [{ id: 'q', icon: 'icon-nope' }] }, 422, 'UNKNOWN_ICON', /addNodes\[0\]/],
      [{ addEdges: ['api -> nowhere'] }, 422, 'DANGLING_EDGE', /addEdges\[0\]/],
      [{ addEdges: ['api'] }, 422, 'MALFORMED_SHORTHAND', /addEdges\[0\]/],
      [{ addEdges: [{ from: 'api' }] }, 422, 'MALFORMED_EDGE', /addEdges\[0\]/],
      [{ addNodes: 'db' }, 400, 'bad_request', /addNodes/],
      [{ removeNodes: ['web'] }, 400, 'bad_request', /removeNodes/],
    ];
    for (const [body, status, code, message] of cases) {
      const res = await edit(id, body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().error, code);
      assert.match(res.json().message, message);
    }
    assert.equal(JSON.stringify(await read(id)), before);
  });

  /** A diagram with a 150 × 60 rectangle "orders" and a node "user" drawn with an icon. */
  async function diagramWithSmallNodes() {
    const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec: { nodes: [{ id: 'api' }, { id: 'user', label: 'User', icon: 'icon-user' }], edges: ['user -> api'] } } });
    const id = res.json().id as string;
    assert.equal((await edit(id, { addNodes: [{ id: 'orders', label: 'Orders', width: 150, height: 60 }] })).statusCode, 200);
    return id;
  }

  const elementsOf = (diagram: any) => new Map<string, any>(diagram.scene.elements.map((e: any) => [e.id, e]));
  const box = (e: any) => [e.x, e.y, e.width, e.height];

  test('a label too big for its node at its font size is drawn smaller in the node as it stands, below the node’s icon', async () => {
    const id = await diagramWithSmallNodes();
    const before = elementsOf(await read(id));
    const label = 'Order service: validates carts and reserves stock';
    const res = await edit(id, { updateNodes: [{ id: 'orders', label }, { id: 'user', label: 'Site reliability engineers' }] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().updated, ['orders', 'user']);

    const after = elementsOf(await read(id));
    for (const nodeId of ['orders', 'user', 'user-icon']) assert.deepEqual(box(after.get(nodeId)), box(before.get(nodeId)), `${nodeId} keeps its place and size`);
    const text = after.get('orders-label');
    assert.equal(text.originalText, label);
    assert.ok(text.fontSize < 20 && text.fontSize >= 12, `shrunk to ${text.fontSize} px, within the floor`);
    const [areaWidth, areaHeight] = [getBoundTextMaxWidth('rectangle', 150), getBoundTextMaxHeight('rectangle', 60)];
    assert.equal(text.text, wrapText(label, text.fontSize, areaWidth, text.fontFamily), 'wrapped as the editor wraps it in that node');
    const measured = measureText(text.text, text.fontSize, text.fontFamily);
    assert.deepEqual([text.width, text.height], [measured.width, measured.height]);
    assert.ok(measured.width <= areaWidth && measured.height <= areaHeight, `${measured.width} × ${measured.height} fits ${areaWidth} × ${areaHeight}`);
    const [icon, userLabel] = [after.get('user-icon'), after.get('user-label')];
    assert.ok(userLabel.fontSize < 20);
    assert.ok(userLabel.y >= icon.y + icon.height + ICON_GAP - 0.5, 'the label is below the icon, clear of it');
    const lint = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json();
    const mine = new Set(['orders', 'orders-label', 'user', 'user-label', 'user-icon']);
    assert.deepEqual(metIssues(lint.issues as Array<{ kind: string; elementIds: string[] }>).filter((i) => i.elementIds.some((e: string) => mine.has(e))), []);
  });

  test('a label that fits its node at no font size is 422 INVALID_SPEC saying so, and writes nothing', async () => {
    const id = await diagramWithSmallNodes();
    const before = JSON.stringify(await read(id));
    const label = 'Order service: validates carts, reserves stock, takes payments, and emails the customer a receipt';
    const res = await edit(id, { updateNodes: [{ id: 'api', backgroundColor: '#a5d8ff' }, { id: 'orders', label }] });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error, 'INVALID_SPEC');
    assert.match(
      res.json().message,
      /^updateNodes\[1\] \(id "orders"\)\.label does not fit the rectangle even at the smallest font size, 12 px \(shrunk from 20 px\): it needs \d+ × \d+ px and the rectangle leaves 140 × 50 px for its label/,
    );
    assert.equal(JSON.stringify(await read(id)), before, 'nothing written: same scene, same revision');
  });

  test('a viewer cannot edit; an editor can', async () => {
    const id = await diagram();
    const viewer = await h.user();
    const editor = await h.user();
    await h.admin('diagram', 'share', '--id', id, '--email', viewer.email, '--role', 'viewer');
    await h.admin('diagram', 'share', '--id', id, '--email', editor.email, '--role', 'editor');
    assert.equal((await edit(id, { addNodes: [{ id: 'x' }] }, viewer.token)).statusCode, 404);
    assert.equal((await edit(id, { addNodes: [{ id: 'x' }] }, editor.token)).statusCode, 200);
  });

  test('concurrent edits without expectedUpdatedAt all land: none overwrites another', async () => {
    const id = await diagram();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => edit(id, { addNodes: [{ id: `n${i}` }], addEdges: [`api -> n${i}`] })));
    assert.deepEqual(results.map((r) => r.statusCode), [200, 200, 200, 200, 200]);
    const ids = new Set((await read(id)).scene.elements.map((e: { id: string }) => e.id));
    for (let i = 0; i < 5; i++) assert.ok(ids.has(`n${i}`) && ids.has(`api-to-n${i}`), `edit ${i} landed`);
  });
});
