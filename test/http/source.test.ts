/**
 * Content from a Mermaid or DOT source, through the REST API on both engines:
 * create, regenerate and validate read it with the language's own parser,
 * answer its warnings, use its title, and refuse a source that does not
 * parse with INVALID_SOURCE naming the line and column, writing nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

const MERMAID = `---
title: Checkout
---
flowchart LR
  web[Web app] -->|HTTPS| api(Orders API)
  api --> db[(Orders DB)]
  click web "https://example.com"
`;

const DOT = `digraph pipeline {
  rankdir=LR;
  label="Build pipeline";
  subgraph cluster_ci { label="CI"; build -> test; }
  test -> deploy [label="on main", headlabel="prod"];
}`;

type Element = { id: string; type: string; text?: string; containerId?: string | null; startBinding?: { elementId: string } | null; endBinding?: { elementId: string } | null };

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`content from a source on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    let h: Harness;
    let alice: TestUser;
    before(async () => {
      h = await startHarness({ engine });
      alice = await h.user({ quota: 100 });
    });
    after(() => h.close());

    const create = (body: unknown) => h.call('POST', '/api/v1/diagrams', { token: alice.token, body });
    const elementsOf = async (id: string): Promise<Element[]> => (await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().scene.elements;
    const labelOf = (elements: Element[], id: string) => elements.find((e) => e.containerId === id && e.type === 'text')?.text?.replace(/\n/g, ' ');
    const count = async () => (await h.call('GET', '/api/v1/diagrams', { token: alice.token })).json().items.length as number;

    test('a Mermaid flowchart becomes a laid-out diagram with its nodes, labels and arrows; its title and warnings come back', async () => {
      const res = await create({ source: { language: 'mermaid', text: MERMAID } });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.title, 'Checkout', 'the front matter title, as none was sent');
      assert.ok(body.warnings.some((w: { line: number; message: string }) => w.line === 7 && w.message === 'click handlers and links (click) are not kept'), JSON.stringify(body.warnings));
      const elements = await elementsOf(body.id);
      assert.equal(labelOf(elements, 'web'), 'Web app');
      assert.equal(labelOf(elements, 'api'), 'Orders API');
      assert.equal(labelOf(elements, 'db'), 'Orders DB');
      const arrow = elements.find((e) => e.type === 'arrow' && e.startBinding?.elementId === 'web');
      assert.equal(arrow?.endBinding?.elementId, 'api');
      assert.equal(elements.find((e) => e.containerId === arrow?.id)?.text, 'HTTPS');
      assert.equal(elements.find((e) => e.id === 'diagram-caption')?.text, 'Checkout', 'the title is drawn above, as Mermaid draws it');
    });

    test('a DOT graph becomes a diagram with its cluster as a container; a title sent wins over the graph label', async () => {
      const res = await create({ title: 'Mine', source: { language: 'dot', text: DOT } });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().title, 'Mine');
      assert.deepEqual(res.json().warnings, []);
      const elements = await elementsOf(res.json().id);
      assert.ok(elements.some((e) => e.id === 'cluster_ci' && e.type === 'rectangle'), 'the cluster is a container');
      assert.equal(labelOf(elements, 'cluster_ci'), 'CI', 'the cluster\'s label is the container\'s');
      for (const member of ['build', 'test']) assert.ok(elements.some((e) => e.id === member), `${member} is drawn`);
      const labelled = elements.find((e) => e.type === 'arrow' && e.startBinding?.elementId === 'test' && e.endBinding?.elementId === 'deploy');
      assert.equal(elements.find((e) => e.containerId === labelled?.id)?.text, 'on main');
      assert.equal(elements.find((e) => e.id === `${labelled?.id}-head-label`)?.text, 'prod', 'the head label is drawn beside the head');
      assert.equal(elements.find((e) => e.id === 'diagram-caption')?.text, 'Build pipeline', 'the graph label is drawn, whatever the title');
      const untitled = await create({ source: { language: 'dot', text: DOT } });
      assert.equal(untitled.json().title, 'Build pipeline');
    });

    test('a source that does not parse is 400 INVALID_SOURCE naming the line and column, and nothing is written', async () => {
      const before = await count();
      const mermaid = await create({ source: { language: 'mermaid', text: 'flowchart LR\n  a --> b\n  b -->> c\n' } });
      assert.equal(mermaid.statusCode, 400, mermaid.body);
      assert.equal(mermaid.json().error, 'INVALID_SOURCE');
      assert.match(mermaid.json().message, /^the Mermaid source does not parse at line 3, column \d+: unexpected/);
      const dot = await create({ source: { language: 'dot', text: 'digraph {\n  a -> ;\n}' } });
      assert.equal(dot.statusCode, 400);
      assert.match(dot.json().message, /^the DOT source does not parse at line 2, column 8: unexpected ";"; expected /);
      const pie = await create({ source: { language: 'mermaid', text: 'pie\n  "a" : 1' } });
      assert.equal(pie.json().error, 'INVALID_SOURCE');
      assert.match(pie.json().message, /pie chart is not read yet/);
      assert.equal(await count(), before);
    });

    test('a source of the wrong shape is INVALID_SOURCE; a source with a spec is bad_request', async () => {
      for (const [source, pattern] of [
        [{ language: 'plantuml', text: '@startuml' }, /source.language must be one of mermaid, dot; got "plantuml"/],
        [{ language: 'dot' }, /source.text must be a string/],
        [{ language: 'dot', text: 'x'.repeat(200_001) }, /200001 characters long; the limit is 200000/],
        [{ language: 'dot', text: 'graph {}', extra: 1 }, /unknown field "extra"/],
      ] as const) {
        const res = await create({ source });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error, 'INVALID_SOURCE');
        assert.match(res.json().message, pattern);
      }
      const both = await create({ spec: { nodes: [{ id: 'a' }] }, source: { language: 'dot', text: 'graph { a }' } });
      assert.equal(both.statusCode, 400);
      assert.equal(both.json().error, 'bad_request');
      assert.match(both.json().message, /exactly one of/);
    });

    test('regenerate from a source keeps the ids the source gives, answers its warnings', async () => {
      const created = await create({ source: { language: 'dot', text: DOT } });
      const id = created.json().id;
      const edited = DOT.replace('test -> deploy [label="on main", headlabel="prod"];', 'test -> deploy [label="on main", headlabel="prod"];\n  deploy -> verify [URL="https://x"];');
      const res = await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: alice.token, body: { source: { language: 'dot', text: edited } } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().warnings, [{ line: 6, message: 'links (URL, href) are not kept' }]);
      const elements = await elementsOf(id);
      for (const node of ['build', 'test', 'deploy', 'verify', 'cluster_ci']) assert.ok(elements.some((e) => e.id === node), `${node} is there by its own id`);
    });

    test('validate lists a syntax error with its line and column, and the warnings of a valid source', async () => {
      const bad = await h.call('POST', '/api/v1/specs/validate', { token: alice.token, body: { source: { language: 'dot', text: 'digraph {\n  a -> ;\n}' } } });
      assert.equal(bad.statusCode, 200);
      const [problem] = bad.json().problems;
      assert.equal(bad.json().valid, false);
      assert.equal(problem.code, 'INVALID_SOURCE');
      assert.equal(problem.line, 2);
      assert.equal(problem.column, 8);
      assert.equal(problem.path, '/text');
      assert.match(problem.hint, /^expected /);
      const good = await h.call('POST', '/api/v1/specs/validate', { token: alice.token, body: { source: { language: 'mermaid', text: MERMAID } } });
      assert.equal(good.json().valid, true);
      assert.deepEqual(good.json().problems, []);
      assert.ok(good.json().warnings.some((w: { line: number; message: string }) => w.line === 7 && /click/.test(w.message)), JSON.stringify(good.json().warnings));
    });
  });
}
