/**
 * GET /api/v1/diagrams/:id/source on both engines: a diagram made from
 * Mermaid, a spec or a raw scene comes back as a spec, Mermaid or DOT that
 * create and regenerate read again as the same graph; the text alone with
 * its media type; warnings for what a spec cannot hold; an unknown language
 * refused, and a diagram the caller cannot read not found. A render with
 * embed=scene carries the scene, and create takes the file back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

const MERMAID = `flowchart LR
  subgraph shop [Shop]
    web[Web app] -->|HTTPS| api(Orders API)
  end
  api --> db[(Orders DB)]
  api -.-> audit{{Audit}}
  style db fill:#d0ebff
`;

type Spec = { nodes: Array<{ id: string; label?: string; parent?: string; shape?: string }>; edges: Array<{ from: string; to: string; label?: string }> };
const graph = (spec: Spec) => ({
  nodes: spec.nodes.map((n) => `${n.id} "${n.label ?? n.id}" ${n.shape ?? 'rectangle'} in ${n.parent ?? '-'}`).sort(),
  edges: spec.edges.map((e) => `${e.from} -> ${e.to} "${e.label ?? ''}"`).sort(),
});

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`a diagram's source on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    let h: Harness;
    let alice: TestUser;
    let bob: TestUser;
    before(async () => {
      h = await startHarness({ engine });
      alice = await h.user({ quota: 100 });
      bob = await h.user({ quota: 100 });
    });
    after(() => h.close());

    const create = async (body: unknown) => {
      const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    const source = (id: string, query: string, token = alice.token) => h.call('GET', `/api/v1/diagrams/${id}/source${query}`, { token });

    test('a diagram made from Mermaid comes back as Mermaid, DOT and a spec, each read again as the same graph', async () => {
      const id = await create({ source: { language: 'mermaid', text: MERMAID } });
      const asSpec = (await source(id, '')).json();
      assert.equal(asSpec.language, 'spec', 'spec is the default');
      const spec = JSON.parse(asSpec.text) as Spec;
      assert.deepEqual(graph(spec), {
        nodes: ['api "Orders API" rectangle in shop', 'audit "Audit" hexagon in -', 'db "Orders DB" cylinder in -', 'shop "Shop" rectangle in -', 'web "Web app" rectangle in shop'],
        edges: ['api -> audit ""', 'api -> db ""', 'web -> api "HTTPS"'],
      });
      assert.equal(spec.nodes.find((n) => n.id === 'db') && (spec.nodes.find((n) => n.id === 'db') as Record<string, unknown>).backgroundColor, '#d0ebff');
      for (const language of ['mermaid', 'dot'] as const) {
        const res = await source(id, `?language=${language}`);
        assert.equal(res.statusCode, 200, res.body);
        const { text, warnings } = res.json();
        assert.deepEqual(warnings, []);
        const copy = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { source: { language, text } } });
        assert.equal(copy.statusCode, 201, `${language}: ${copy.body}\n${text}`);
        const back = JSON.parse((await source(copy.json().id, '')).json().text) as Spec;
        assert.deepEqual(graph(back), graph(spec), language);
      }
    });

    test('format=text answers the text alone, with its media type and the warnings counted', async () => {
      const id = await create({ spec: { nodes: [{ id: 'a', label: 'A' }, { id: 'b' }], edges: [{ from: 'a', to: 'b', headLabel: '1' }] } });
      const mermaid = await source(id, '?language=mermaid&format=text');
      assert.equal(mermaid.statusCode, 200);
      assert.match(String(mermaid.headers['content-type']), /^text\/plain; charset=utf-8/);
      assert.equal(mermaid.headers['x-export-warnings'], '1', 'Mermaid has no head label');
      assert.equal(mermaid.body, 'flowchart TB\n  a["A"]\n  b\n  a --> b\n');
      const dot = await source(id, '?language=dot&format=text');
      assert.match(String(dot.headers['content-type']), /^text\/vnd\.graphviz/);
      assert.equal(dot.headers['x-export-warnings'], '0');
      assert.match(dot.body, /"a" -> "b" \[headlabel="1"\]/);
      const spec = await source(id, '?format=text');
      assert.match(String(spec.headers['content-type']), /^text\/plain/);
      assert.deepEqual(JSON.parse(spec.body).edges, [{ from: 'a', to: 'b', headLabel: '1' }]);
    });

    test('a raw scene: shapes with their text are nodes, a bound arrow an edge; a free line is warned about; regenerate takes the spec back', async () => {
      const base = { angle: 0, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, groupIds: [], frameId: null, roundness: null, seed: 1, version: 1, versionNonce: 1, isDeleted: false, updated: 1, link: null, locked: false };
      const elements = [
        { ...base, id: 'box1', type: 'rectangle', x: 0, y: 0, width: 120, height: 60, boundElements: [{ id: 'txt1', type: 'text' }, { id: 'arr', type: 'arrow' }] },
        { ...base, id: 'txt1', type: 'text', x: 10, y: 20, width: 100, height: 25, text: 'Client', originalText: 'Client', fontSize: 20, fontFamily: 5, textAlign: 'center', verticalAlign: 'middle', containerId: 'box1', autoResize: true, lineHeight: 1.25, boundElements: [] },
        { ...base, id: 'box2', type: 'ellipse', x: 0, y: 200, width: 120, height: 60, boundElements: [{ id: 'arr', type: 'arrow' }] },
        { ...base, id: 'arr', type: 'arrow', x: 60, y: 64, width: 0, height: 132, points: [[0, 0], [0, 132]], startBinding: { elementId: 'box1', focus: 0, gap: 4 }, endBinding: { elementId: 'box2', focus: 0, gap: 4 }, startArrowhead: null, endArrowhead: 'arrow', lastCommittedPoint: null, boundElements: [] },
        { ...base, id: 'rule', type: 'line', x: 200, y: 0, width: 100, height: 0, points: [[0, 0], [100, 0]], startBinding: null, endBinding: null, startArrowhead: null, endArrowhead: null, lastCommittedPoint: null, boundElements: [] },
      ];
      const id = await create({ scene: { type: 'excalidraw', version: 2, elements } });
      const res = (await source(id, '?language=spec')).json();
      const spec = JSON.parse(res.text);
      assert.deepEqual(spec.nodes, [{ id: 'box1', label: 'Client' }, { id: 'box2', shape: 'ellipse', label: '' }]);
      assert.deepEqual(spec.edges, [{ from: 'box1', to: 'box2' }]);
      assert.deepEqual(res.warnings, [{ message: 'lines that are not an arrow between two shapes are left out', elementIds: ['rule'] }]);
      const regenerated = await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: alice.token, body: { spec } });
      assert.equal(regenerated.statusCode, 200, regenerated.body);
    });

    test('an unknown language is refused; a diagram another account cannot read is not found', async () => {
      const id = await create({ spec: { nodes: [{ id: 'a' }] } });
      const bad = await source(id, '?language=plantuml');
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().error, 'bad_request');
      assert.match(bad.json().message, /language: Invalid option: expected one of "spec"\|"mermaid"\|"dot"/);
      const other = await source(id, '?language=mermaid', bob.token);
      assert.equal(other.statusCode, 404);
      assert.equal(other.json().error, 'not_found');
    });

    test('embed=scene: the PNG (faithful and fast) and the SVG carry the scene, and create takes the file back as the same elements; a PDF carries none', async () => {
      const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec: { nodes: [{ id: 'web', label: 'Web' }, { id: 'db', shape: 'cylinder' }], edges: ['web -> db : SQL'] } } });
      const id = created.json().id as string;
      const elements = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().scene.elements;
      const files: string[] = [];
      for (const quality of ['faithful', 'fast'] as const) {
        const png = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png&quality=${quality}&embed=scene`, { token: alice.token });
        assert.equal(png.statusCode, 200);
        assert.match(String(png.headers['content-type']), /^image\/png/);
        files.push(`data:image/png;base64,${png.rawPayload.toString('base64')}`);
      }
      const svg = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg&embed=scene`, { token: alice.token });
      assert.match(svg.body, /<!-- payload-type:application\/vnd\.excalidraw\+json -->/);
      files.push(svg.body);
      const envelope = (await h.call('GET', `/api/v1/diagrams/${id}/render?embed=scene&quality=fast`, { token: alice.token })).json();
      files.push(envelope.svg, `data:image/png;base64,${envelope.png}`);
      for (const file of files) {
        const copy = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: file } });
        assert.equal(copy.statusCode, 201, copy.body);
        assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${copy.json().id}`, { token: alice.token })).json().scene.elements, elements, file.slice(0, 40));
      }
      const plain = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png&quality=fast`, { token: alice.token });
      const refused = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: `data:image/png;base64,${plain.rawPayload.toString('base64')}` } });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.equal(refused.json().error, 'NOT_A_SCENE');
      assert.match(refused.json().message, /this PNG carries no scene/);
      const pdf = await h.call('GET', `/api/v1/diagrams/${id}/render?format=pdf&embed=scene`, { token: alice.token });
      assert.equal(pdf.statusCode, 400);
      assert.match(pdf.json().message, /embed=scene applies to png, svg and json renders/);
    });
  });
}
