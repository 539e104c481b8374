import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

// POST /api/v1/specs/validate: every problem at once, over a real server, on both engines.
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`validating content on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    let h: Harness;
    let alice: TestUser;
    let reader: TestUser;
    let bob: TestUser;
    let diagramId: string;
    let created: { docUpdatedAt: string };
    before(async () => {
      h = await startHarness({ engine });
      alice = await h.user();
      bob = await h.user();
      reader = { ...alice, token: (await h.admin('token', 'mint', '--email', alice.email, '--caps', 'read', '--name', 'reader')).token };
      const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec: { nodes: [{ id: 'web', label: 'Web app' }, { id: 'api' }], edges: ['web -> api'] } } });
      assert.equal(res.statusCode, 201, res.body);
      diagramId = res.json().id;
      created = (await h.call('GET', `/api/v1/diagrams/${diagramId}`, { token: alice.token })).json();
    });
    after(() => h.close());

    const validate = (body: unknown, token = alice.token) => h.call('POST', '/api/v1/specs/validate', { token, body });

    test('a spec with five mistakes answers 200 with five problems, each with its code, path and hint', async () => {
      const res = await validate({
        spec: {
          direction: 'LR',
          nodes: [{ id: 'web', shape: 'box' }, { id: 'api', color: 'red' }, { label: 'Orders DB' }],
          edges: ['web => api', { from: 'api', to: 'web', arrowhead: 'open' }],
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      const report = res.json();
      assert.equal(report.valid, false);
      assert.deepEqual(
        report.problems.map((p: any) => [p.code, p.path]),
        [
          ['INVALID_SPEC', '/direction'],
          ['UNKNOWN_SHAPE', '/nodes/0/shape'],
          ['INVALID_SPEC', '/nodes/1/color'],
          ['MISSING_NODE_ID', '/nodes/2/id'],
          ['MALFORMED_SHORTHAND', '/edges/0'],
          ['MALFORMED_EDGE', '/edges/1/arrowhead'],
        ],
      );
      const byPath = new Map(report.problems.map((p: any) => [p.path, p]));
      assert.equal((byPath.get('/direction') as any).hint, 'direction belongs in layout.direction: "layout": { "direction": "LR" }');
      assert.equal((byPath.get('/nodes/0/shape') as any).hint, 'shape must be one of rectangle, ellipse, diamond, text, cylinder, stadium, circle, doublecircle, hexagon, parallelogram, subroutine, document, start, end, fork — use rectangle for a box');
      assert.match((byPath.get('/nodes/1/color') as any).hint, /strokeColor/);
      assert.match((byPath.get('/nodes/2/id') as any).hint, /"orders-db"/);
      assert.match((byPath.get('/edges/1/arrowhead') as any).hint, /use "arrow" for "open"/);
      assert.equal((byPath.get("/edges/0") as any).hint, 'write "web -> api"');
      assert.match((byPath.get('/edges/0') as any).message, /^edges\[0\] "web => api"/);
    });

    test('a valid spec, edit, ops and scene answer { valid: true, problems: [] }', async () => {
      for (const body of [
        { spec: { version: '1', layout: { direction: 'LR' }, nodes: [{ id: 'a' }, { id: 'b', shape: 'ellipse', icon: 'icon-postgresql' }], edges: ['a -> b : SQL'] } },
        { edit: { addNodes: [{ id: 'db' }], addEdges: ['api -> db'] } },
        { ops: [{ op: 'move', id: 'api', dx: 10, dy: 0 }] },
        { scene: { elements: [{ id: 'r', type: 'rectangle', x: 0, y: 0, width: 10, height: 10 }] } },
      ]) {
        const res = await validate(body);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { valid: true, problems: [] }, JSON.stringify(body));
      }
    });

    test('with diagramId, an edit and ops are checked against that diagram too', async () => {
      const edit = { addNodes: [{ id: 'web' }, { id: 'db' }], addEdges: ['api -> cache'], updateNodes: [{ id: 'ghost', label: 'x' }] };
      const alone = (await validate({ edit })).json();
      assert.deepEqual(alone, { valid: true, problems: [] }, 'without the diagram, nothing is wrong with the fragment itself');
      const res = await validate({ edit, diagramId });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().problems.map((p: any) => [p.code, p.path]),
        [
          ['DUPLICATE_NODE_ID', '/addNodes/0/id'],
          ['DANGLING_EDGE', '/addEdges/0'],
          ['INVALID_SPEC', '/updateNodes/0/id'],
        ],
      );
      const ops = await validate({ diagramId, ops: [{ op: 'delete', id: 'ghost' }, { op: 'move', id: 'api', dx: 5, dy: 5 }, { op: 'resize', id: 'web-to-api', width: 3, height: 3 }] });
      assert.deepEqual(
        ops.json().problems.map((p: any) => [p.code, p.path]),
        [
          ['INVALID_SPEC', '/0/id'],
          ['INVALID_SPEC', '/2'],
        ],
      );
      assert.equal(ops.json().problems[0].message, 'ops[0]: no element has id "ghost"');
      assert.match(ops.json().problems[1].message, /^ops\[2\]: "web-to-api" .*follows its points/);
      const read = (await h.call('GET', `/api/v1/diagrams/${diagramId}`, { token: alice.token })).json();
      assert.equal(read.docUpdatedAt, created.docUpdatedAt, 'validating writes nothing');
    });

    test('a diagram the caller cannot read, or none, is 404 not_found', async () => {
      for (const id of [diagramId, '00000000-0000-4000-8000-000000000000', 'nope']) {
        const res = await validate({ ops: [{ op: 'delete', id: 'api' }], diagramId: id }, id === diagramId ? bob.token : alice.token);
        assert.equal(res.statusCode, 404, res.body);
        assert.equal(res.json().error, 'not_found');
      }
    });

    test('a body without exactly one of spec, edit, ops and scene is 400 bad_request', async () => {
      for (const body of [{}, { spec: { nodes: [] }, scene: { elements: [] } }, { diagramId }, { spec: { nodes: [] }, extra: 1 }, { spec: { nodes: [] }, diagramId }]) {
        const res = await validate(body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        assert.equal(res.json().error, 'bad_request');
      }
    });

    test('a read-only token may validate, against a diagram it can read too', async () => {
      const res = await validate({ diagramId, edit: { addNodes: [{ id: 'cache' }], addEdges: ['api -> cache'] } }, reader.token);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { valid: true, problems: [] });
    });

    test('the write endpoints answer with the first problem, code and message, the hint after it', async () => {
      const spec = { nodes: [{ id: 'a', shape: 'box' }, { id: 'a' }], edges: ['a -> ghost'] };
      const [first] = (await validate({ spec })).json().problems;
      const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec } });
      assert.equal(created.statusCode, 422, created.body);
      assert.deepEqual(created.json(), { error: first.code, message: `${first.message}; ${first.hint}` });
      assert.equal(created.json().error, 'UNKNOWN_SHAPE');
      assert.match(created.json().message, /^nodes\[0\] \(id "a"\)\.shape "box" is not a shape; shape must be one of rectangle, ellipse, diamond, text, cylinder, stadium, circle, doublecircle, hexagon, parallelogram, subroutine, document, start, end, fork — use rectangle for a box$/);

      const regenerated = await h.call('POST', `/api/v1/diagrams/${diagramId}/regenerate`, { token: alice.token, body: { spec: { nodes: [{ id: 'a' }], edges: ['a -> b'] } } });
      assert.equal(regenerated.json().error, 'DANGLING_EDGE', regenerated.body);
      const edited = await h.call('POST', `/api/v1/diagrams/${diagramId}/edit`, { token: alice.token, body: { addNodes: [{ id: 'x', text: 'X' }] } });
      assert.equal(edited.json().error, 'INVALID_SPEC', edited.body);
      assert.match(edited.json().message, /^addNodes\[0\] \(id "x"\) has an unknown field "text"; use "label"/);
      const patched = await h.call('POST', `/api/v1/diagrams/${diagramId}/patch`, { token: alice.token, body: { ops: [{ op: 'remove', id: 'api' }] } });
      assert.equal(patched.json().error, 'INVALID_SPEC', patched.body);
      assert.match(patched.json().message, /^ops\[0\]: "op" must be one of add, update, move, resize, restyle, delete; got "remove"; .*use "delete"/);
      const scene = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: { elements: [{ id: 'a', type: 'image', fileId: 'icon-nope' }] } } });
      assert.equal(scene.json().error, 'UNKNOWN_ICON', scene.body);
    });
  });
}
