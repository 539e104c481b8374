import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { loadCorpus } from '../../bench/quality/corpus.ts';
import { contentProblems } from '../../src/domain/content-problems.ts';
import { EditFragment } from '../../src/domain/edit/schema.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { PatchOp } from '../../src/domain/patch/schema.ts';
import { Scene, SceneElement } from '../../src/domain/scene/schema.ts';
import { AnySpec } from '../../src/domain/spec/any-spec.ts';
import { DiagramSpec, SpecEdge, SpecLayout, SpecNode } from '../../src/domain/spec/schema.ts';

const options = { isIcon: isCatalogIcon };
const DOCS = path.join(import.meta.dirname, '../../docs');

/** Every JSON body the docs show: fenced json blocks, and curl `-d '…'` bodies. */
function docBodies(): Array<{ where: string; body: Record<string, unknown> }> {
  const bodies: Array<{ where: string; body: Record<string, unknown> }> = [];
  for (const file of fs.readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
    const text = fs.readFileSync(path.join(DOCS, file), 'utf8');
    // The validation example is wrong on purpose; its answer is checked below.
    const curls = [...text.matchAll(/curl -s (\S+)[^\n]*?-d '(\{[\s\S]*?\})'/g)].filter((m) => !m[1]!.includes('/specs/validate')).map((m) => m[2]!);
    const candidates = [...[...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!), ...curls];
    for (const candidate of candidates) {
      try {
        const body = JSON.parse(candidate);
        if (body && typeof body === 'object' && !Array.isArray(body)) bodies.push({ where: file, body });
      } catch {
        // prose with ellipses, not a body
      }
    }
  }
  return bodies;
}

describe('the content schemas accept every example', () => {
  test('every spec in the quality corpus', () => {
    const corpus = loadCorpus();
    assert.ok(corpus.length > 10);
    for (const { name, spec } of corpus) {
      const parsed = DiagramSpec.safeParse(spec);
      assert.ok(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues.slice(0, 2))}`);
      assert.deepEqual(contentProblems('spec', spec, null, options), [], name);
    }
  });

  test('every spec, edit fragment and patch in the docs', () => {
    const seen = { spec: 0, edit: 0, ops: 0 };
    for (const { where, body } of docBodies()) {
      const spec = 'spec' in body ? body.spec : 'nodes' in body ? body : undefined;
      if (spec !== undefined) {
        seen.spec++;
        assert.ok(AnySpec.safeParse(spec).success, `${where}: ${JSON.stringify(spec).slice(0, 80)}`);
        assert.deepEqual(contentProblems('spec', spec, null, options), [], where);
      }
      if ('addNodes' in body || 'addEdges' in body || 'updateNodes' in body) {
        seen.edit++;
        assert.ok(EditFragment.safeParse(body).success, where);
        assert.deepEqual(contentProblems('edit', body, null, options), [], where);
      }
      if (Array.isArray(body.ops)) {
        seen.ops++;
        for (const op of body.ops) assert.ok(PatchOp.safeParse(op).success, `${where}: ${JSON.stringify(op)}`);
        assert.deepEqual(contentProblems('ops', body.ops, null, options), [], where);
      }
    }
    assert.ok(seen.spec >= 2 && seen.edit >= 1 && seen.ops >= 1, JSON.stringify(seen));
  });

  test('each schema carries an id and a description, and turns into JSON Schema', () => {
    for (const schema of [DiagramSpec, SpecNode, SpecEdge, SpecLayout, EditFragment, PatchOp, Scene, SceneElement]) {
      const meta = z.globalRegistry.get(schema);
      assert.ok(meta?.id && meta.description, String(meta?.id));
      const json = z.toJSONSchema(schema) as Record<string, unknown>;
      assert.ok(json.$schema, String(meta.id));
    }
    const spec = JSON.stringify(z.toJSONSchema(DiagramSpec));
    assert.match(spec, /"pattern"/, 'the shorthand grammar is a pattern');
    assert.match(spec, /"maxItems":1000/);
  });

  test('the JSON Schema shows the shapes, styles and layout hints with their ranges', () => {
    const json = z.toJSONSchema(DiagramSpec) as any;
    const defs = json.$defs ?? {};
    const node = defs.SpecNode.properties;
    const shapes = JSON.stringify(node.shape);
    for (const shape of ['cylinder', 'stadium', 'circle', 'hexagon', 'parallelogram', 'subroutine', 'document', 'start', 'end', 'fork']) assert.match(shapes, new RegExp(`"${shape}"`));
    for (const key of ['textColor', 'bold', 'italic', 'strokeWidth', 'strokeStyle', 'invisible', 'direction']) assert.ok(node[key], key);
    assert.match(JSON.stringify(node.strokeWidth), /"minimum":0.5.*"maximum":16/);
    const edge = defs.SpecEdgeObject.properties;
    for (const key of ['strokeWidth', 'strokeColor', 'constraint', 'minLength']) assert.ok(edge[key], key);
    assert.match(JSON.stringify(edge.style), /"invisible"/);
    assert.match(JSON.stringify(edge.minLength), /"type":"integer".*"minimum":0.*"maximum":10/);
    const layout = defs.SpecLayout.properties;
    assert.match(JSON.stringify(layout.fold), /"auto".*"off"/);
    assert.match(JSON.stringify(layout.sameRank), /"type":"array"/);
  });
});

describe('every problem at once', () => {
  test('the validation example in the API docs is what the server answers', () => {
    const text = fs.readFileSync(path.join(DOCS, 'api.md'), 'utf8');
    const request = /curl -s \$API\/specs\/validate[^\n]*-d '(\{[\s\S]*?\})'/.exec(text);
    const answer = /```\n(\{ "valid": false[\s\S]*?)```/.exec(text);
    assert.ok(request && answer, 'the example is in docs/api.md');
    const { spec } = JSON.parse(request[1]!);
    const documented = JSON.parse(answer[1]!);
    const problems = contentProblems('spec', spec, null, options);
    assert.deepEqual(documented, { valid: false, problems });
  });

  test('a spec with seven mistakes has seven problems, each with its code, path and hint', () => {
    const spec = {
      direction: 'LR',
      nodes: [{ id: 'web', shape: 'box' }, { label: 'no id' }, { id: 'db', color: 'red' }, { id: 'db' }],
      edges: ['web => db', 'web -> cache'],
    };
    const problems = contentProblems('spec', spec, null, options);
    assert.deepEqual(
      problems.map((p) => [p.code, p.path]),
      [
        ['INVALID_SPEC', '/direction'],
        ['UNKNOWN_SHAPE', '/nodes/0/shape'],
        ['MISSING_NODE_ID', '/nodes/1/id'],
        ['INVALID_SPEC', '/nodes/2/color'],
        ['MALFORMED_SHORTHAND', '/edges/0'],
        ['DUPLICATE_NODE_ID', '/nodes/3/id'],
        ['DANGLING_EDGE', '/edges/1'],
      ],
    );
    const hints = Object.fromEntries(problems.map((p) => [p.path, p.hint]));
    assert.equal(hints['/direction'], 'direction belongs in layout.direction: "layout": { "direction": "LR" }');
    assert.equal(hints['/nodes/0/shape'], 'shape must be one of rectangle, ellipse, diamond, text, cylinder, stadium, circle, doublecircle, hexagon, parallelogram, subroutine, document, start, end, fork — use rectangle for a box');
    assert.match(hints['/nodes/2/color']!, /strokeColor/);
    assert.match(hints['/edges/0']!, /->/);
    for (const problem of problems) assert.match(problem.message, /^(spec|nodes\[\d\]|edges\[\d\])/);
  });

  test('the hints for the usual mistakes', () => {
    const hint = (spec: unknown) => contentProblems('spec', spec, null, options)[0]?.hint;
    assert.match(hint({ nodes: [{ id: 'a', type: 'circle' }] })!, /use "shape": "circle"/);
    assert.match(hint({ nodes: [{ id: 'a', type: 'oval' }] })!, /use "shape".*use ellipse for an oval/);
    assert.match(hint({ nodes: [{ id: 'a', shape: 'cloud' }] })!, /a rectangle with "icon": "icon-cloud"/);
    assert.match(hint({ nodes: [{ id: 'a', shape: 'database' }] })!, /use cylinder for a database/);
    assert.match(hint({ nodes: [{ id: 'a', shape: 'pill' }] })!, /use stadium for a pill/);
    assert.match(hint({ nodes: [{ id: 'a', text: 'A' }] })!, /"label"/);
    assert.match(hint({ nodes: [{ id: 'a', fill: '#fff' }] })!, /"backgroundColor"/);
    assert.match(hint({ nodes: [{ id: 'a', children: ['b'] }] })!, /set "parent" .* on each child/);
    assert.match(hint({ nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ source: 'a', target: 'b' }] })!, /"from"/);
    assert.match(hint({ nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'a', arrowhead: 'dashed' }] })!, /"style"/);
    assert.match(hint({ nodes: [], layout: { direction: 'TD' } })!, /use "TB"/);
    assert.match(hint({ nodes: [{ id: 'a', shape: 'rhombus' }] })!, /use diamond/);
    assert.match(hint({ nodes: [{ id: 'a', icon: 'database' }] })!, /use "icon-database"/);
    assert.match(hint({ nodes: [{ id: 'api', label: 'API' }], edges: ['API -> api'] })!, /label of node "api"/);
    assert.match(contentProblems('scene', { nodes: [], edges: [] }, null, options)[0]!.hint!, /DiagramSpec/);
    assert.match(contentProblems('ops', [{ op: 'remove', id: 'a' }], null, options)[0]!.hint!, /use "delete"/);
    assert.match(contentProblems('edit', { nodes: [{ id: 'a' }] }, null, options)[0]!.hint!, /addNodes/);
  });

  test('edit fragments, ops and scenes list every problem too', () => {
    const edit = contentProblems('edit', { addNodes: [{ id: 'a', shape: 'star' }, { id: 'a' }], addEdges: ['a ->'], updateNodes: [{ id: 'b', width: 3 }] }, null, options);
    assert.deepEqual(edit.map((p) => [p.code, p.path]), [
      ['UNKNOWN_SHAPE', '/addNodes/0/shape'],
      ['MALFORMED_SHORTHAND', '/addEdges/0'],
      ['INVALID_SPEC', '/updateNodes/0/width'],
      ['DUPLICATE_NODE_ID', '/addNodes/1/id'],
    ]);
    const ops = contentProblems('ops', [{ op: 'move', id: 'a', dx: 1 }, { op: 'restyle', id: 'a', opacity: 300 }, { op: 'resize', id: 'a', width: 1, height: 1, x: 3 }], null, options);
    assert.deepEqual(ops.map((p) => [p.code, p.path]), [
      ['INVALID_SPEC', '/0/dy'],
      ['INVALID_SPEC', '/1/opacity'],
      ['INVALID_SPEC', '/2/x'],
    ]);
    const scene = contentProblems('scene', { elements: [{ id: 'a' }, { type: 'rectangle' }, { id: 'a', type: 'text', link: 'javascript:x' }] }, null, options);
    assert.deepEqual(scene.map((p) => [p.code, p.path]), [
      ['NOT_A_SCENE', '/elements/0/type'],
      ['NOT_A_SCENE', '/elements/1/id'],
      ['NOT_A_SCENE', '/elements/2/id'],
      ['BAD_LINK_SCHEME', '/elements/2/link'],
    ]);
  });
});
