import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let alice: TestUser;
describe('http/spec', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  const create = (body: unknown) => h.call('POST', '/api/v1/diagrams', { token: alice.token, body });

  describe('POST /diagrams with a spec', () => {
    test('a spec sent without its { "spec": … } wrapper is refused with the hint to wrap it, on create and on validate; wrapped, it is taken', async () => {
      const bare = { layout: { direction: 'LR' }, nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] };
      for (const url of ['/api/v1/diagrams', '/api/v1/specs/validate']) {
        const res = await h.call('POST', url, { token: alice.token, body: bare });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error, 'bad_request');
        assert.match(res.json().message, /a spec goes inside "spec": send \{ "title": …, "spec": \{ "layout": …, "nodes": …, "edges": … \} \}/);
      }
      assert.equal((await create({ title: 'Wrapped', spec: bare })).statusCode, 201, 'following the hint succeeds');
      const sequence = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { kind: 'sequence', steps: ['a ->> b'] } });
      assert.match(sequence.json().message, /a spec goes inside "spec": send \{ "title": …, "spec": \{ "kind": …, "steps": … \} \}/, 'a sequence spec too, with its own fields');
      const other = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { colour: 'red' } });
      assert.doesNotMatch(other.json().message, /a spec goes inside/, 'an unknown key that is no spec field has no such hint');
    });

    test('lays the spec out into bound, labelled elements that lint clean', async () => {
      const res = await create({
        title: 'Checkout',
        spec: {
          version: '1',
          layout: { direction: 'LR' },
          nodes: [{ id: 'user', shape: 'ellipse', icon: 'icon-user' }, { id: 'api', label: 'Orders API' }, { id: 'db', label: 'Orders DB', icon: 'icon-postgresql' }],
          edges: ['user -> api : HTTPS', { from: 'api', to: 'db', style: 'dashed' }],
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().elementCount, 11);
      const { scene } = (await h.call('GET', `/api/v1/diagrams/${res.json().id}`, { token: alice.token })).json();
      const ids = scene.elements.map((e: { id: string }) => e.id).sort();
      assert.deepEqual(ids, ['api', 'api-label', 'api-to-db', 'db', 'db-icon', 'db-label', 'user', 'user-icon', 'user-label', 'user-to-api', 'user-to-api-label'].sort());
      const arrow = scene.elements.find((e: { id: string }) => e.id === 'api-to-db');
      assert.equal(arrow.startBinding.elementId, 'api');
      assert.equal(arrow.endBinding.elementId, 'db');
      assert.equal(arrow.strokeStyle, 'dashed');
      const lint = await h.call('GET', `/api/v1/diagrams/${res.json().id}/lint`, { token: alice.token });
      assert.equal(lint.statusCode, 200);
      assert.deepEqual(lint.json().issues, []);
    });

    test('the same spec twice gives byte-identical elements', async () => {
      const spec = { nodes: [{ id: 'a' }, { id: 'b', shape: 'diamond' }, { id: 'c' }], edges: ['a -> b : maybe', 'b -> c', 'c -> a'] };
      const [one, two] = await Promise.all([create({ spec }), create({ spec })]);
      const read = async (id: string) => JSON.stringify((await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().scene.elements);
      assert.equal(await read(one.json().id), await read(two.json().id));
    });

    test('every content-model code answers with its status and names the element, writing nothing', async () => {
      const before = (await h.call('GET', '/api/v1/diagrams?limit=100', { token: alice.token })).body;
      const cases: Array<[unknown, number, string, RegExp]> = [
        [{ nodes: 'x' }, 422, 'INVALID_SPEC', /nodes/],
        [{ version: '2', nodes: [] }, 422, 'UNSUPPORTED_VERSION', /"2"/],
        [{ nodes: [{ label: 'x' }] }, 422, 'MISSING_NODE_ID', /nodes\[0\]/],
        [{ nodes: [{ id: 'a' }, { id: 'a' }] }, 422, 'DUPLICATE_NODE_ID', /nodes\[1\]/],
        [{ nodes: [{ id: 'a', shape: 'star' }] }, 422, 'UNKNOWN_SHAPE', /nodes\[0\]/],
        [{ nodes: [{ id: 'a', icon: 'icon-does-not-exist' }] }, 422, 'UNKNOWN_ICON', /nodes\[0\]/],
        [{ nodes: [{ id: 'a' }], edges: ['a -> b'] }, 422, 'DANGLING_EDGE', /edges\[0\] "a -> b"/],
        [{ nodes: [{ id: 'a' }], edges: ['a >> a'] }, 422, 'MALFORMED_SHORTHAND', /edges\[0\]/],
        [{ nodes: [{ id: 'a' }], edges: [{ to: 'a' }] }, 422, 'MALFORMED_EDGE', /edges\[0\]/],
        [{ nodes: Array.from({ length: 1001 }, (_, i) => ({ id: `n${i}` })) }, 413, 'SPEC_TOO_LARGE', /1001/],
        [{ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'a-to-b' }], edges: ['a -> b'] }, 422, 'ID_COLLISION', /nodes\[2\]/],
        [JSON.parse('{"nodes":[{"id":"a","constructor":1}]}'), 422, 'PROTO_KEY', /constructor/],
        [{ nodes: Array.from({ length: 1000 }, (_, i) => ({ id: `n${i}`, icon: 'icon-user' })), edges: Array.from({ length: 1100 }, (_, i) => `n${i % 1000} -> n${(i * 7) % 1000} : x`) }, 413, 'SCENE_TOO_LARGE', /5000/],
      ];
      for (const [spec, status, code, message] of cases) {
        const res = await create({ spec });
        assert.equal(res.statusCode, status, `${code}: ${res.body}`);
        assert.equal(res.json().error, code);
        assert.match(res.json().message, message);
      }
      assert.equal((await h.call('GET', '/api/v1/diagrams?limit=100', { token: alice.token })).body, before);
    });
  });

  describe('scenes with icons', () => {
    test('an image element whose icon fileId is not in the catalog is 422 UNKNOWN_ICON', async () => {
      const res = await create({ scene: { elements: [{ id: 'img', type: 'image', fileId: 'icon-nope' }] } });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().error, 'UNKNOWN_ICON');
      assert.match(res.json().message, /elements\[0\]/);
      const ok = await create({ scene: { elements: [{ id: 'img', type: 'image', fileId: 'icon-database' }, { id: 'own', type: 'image', fileId: 'a1b2c3' }] } });
      assert.equal(ok.statusCode, 201);
    });
  });

  describe('GET /diagrams/:id/lint', () => {
    test('reports overlaps, unbound arrows, dangling bindings, outliers and low contrast', async () => {
      const scene = {
        elements: [
          { id: 'a', type: 'rectangle', x: 0, y: 0, width: 100, height: 60, boundElements: [] },
          { id: 'b', type: 'rectangle', x: 50, y: 30, width: 100, height: 60 },
          { id: 'far', type: 'rectangle', x: 90000, y: 90000, width: 10, height: 10 },
          { id: 'arr', type: 'arrow', x: 0, y: 100, width: 50, height: 0, points: [[0, 0], [50, 0]], startBinding: { elementId: 'ghost', focus: 0, gap: 4 }, endBinding: null },
          { id: 'pale', type: 'text', x: 0, y: 200, width: 50, height: 25, text: 'hi', fontSize: 20, fontFamily: 5, strokeColor: '#eeeeee' },
          ...sceneOf(0).elements,
        ],
      };
      const { id } = (await create({ scene })).json();
      const res = await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token });
      assert.equal(res.statusCode, 200);
      const kinds = res.json().issues.map((i: { kind: string }) => i.kind).sort();
      assert.deepEqual(kinds, ['dangling_binding', 'low_contrast', 'outlier', 'overlap', 'unbound_arrow']);
      for (const issue of res.json().issues) {
        assert.ok(issue.elementIds.length > 0);
        assert.equal(typeof issue.message, 'string');
      }
    });

    test('a label wider than its container is reported as clipped', async () => {
      const scene = {
        elements: [
          { id: 'box', type: 'rectangle', x: 0, y: 0, width: 60, height: 40, boundElements: [{ id: 'box-label', type: 'text' }] },
          { id: 'box-label', type: 'text', x: 5, y: 5, width: 50, height: 25, text: 'a label far too long for this box', fontSize: 20, fontFamily: 5, containerId: 'box' },
        ],
      };
      const { id } = (await create({ scene })).json();
      const issues = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json().issues;
      assert.deepEqual(issues.map((i: { kind: string }) => i.kind), ['clipped_label']);
      assert.deepEqual(issues[0].elementIds, ['box-label', 'box']);
    });

    test('an arrow through a box it does not connect is reported with both ids', async () => {
      const box = (id: string, x: number, arrow?: string) => ({ id, type: 'rectangle', x, y: 0, width: 100, height: 50, boundElements: arrow ? [{ id: arrow, type: 'arrow' }] : [] });
      const binding = (elementId: string) => ({ elementId, focus: 0, gap: 4 });
      const scene = {
        elements: [
          box('a', 0, 'a-to-b'),
          box('middle', 200),
          box('b', 400, 'a-to-b'),
          { id: 'a-to-b', type: 'arrow', x: 104, y: 25, width: 292, height: 0, points: [[0, 0], [292, 0]], startBinding: binding('a'), endBinding: binding('b') },
        ],
      };
      const { id } = (await create({ scene })).json();
      const issues = (await h.call('GET', `/api/v1/diagrams/${id}/lint`, { token: alice.token })).json().issues;
      assert.deepEqual(
        issues.map((i: { kind: string; elementIds: string[] }) => [i.kind, i.elementIds]),
        [['edge_through_shape', ['a-to-b', 'middle']]],
      );
    });
  });
});
