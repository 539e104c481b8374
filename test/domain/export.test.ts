/**
 * A diagram's scene back as text: the spec it draws, Mermaid, DOT. Every
 * diagram of the real corpus read, drawn, written back and read again is the
 * same graph (ids, labels, edges, containers); Graphviz's own dot reads every
 * DOT written; a scene drawn by hand (shapes, bound texts, arrows, a frame, a
 * box around others) reads as nodes, edges and containers, with warnings for
 * what a spec cannot hold.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { importEntry, loadRealCorpus } from '../../bench/quality/real.ts';
import type { SceneElement } from '../../src/domain/edit/types.ts';
import { regenerateKeeping } from '../../src/domain/edit/keep.ts';
import { exportScene } from '../../src/domain/export/export.ts';
import { sceneSpec } from '../../src/domain/export/scene-spec.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { readSource } from '../../src/domain/source/read-source.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';
import { metIssues } from '../helpers/lint.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { SHAPES } from '../../src/domain/spec/types.ts';

type SpecLike = { nodes?: Array<Record<string, any>>; edges?: Array<Record<string, any> | string> };
const draw = (spec: unknown) => sceneFromSpec(parseSpec(spec, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph }) as SceneElement[];

/**
 * The graph a spec says, as sorted lines: each node with its label (a
 * marker's is never drawn) and container, each edge with its label. Nodes
 * that draw nothing (invisible, or without outline, fill or label) and the
 * edges to them are left out, as are invisible edges: a drawing cannot hold them.
 */
function graphOf(spec: SpecLike): { nodes: string[]; edges: string[] } {
  const blank = (n: Record<string, any>) => n.invisible === true || (n.strokeColor === 'transparent' && !n.backgroundColor && String(n.label ?? n.id).trim() === '');
  const hidden = new Set((spec.nodes ?? []).filter(blank).map((n) => n.id as string));
  const marker = (n: Record<string, any>) => ['start', 'end', 'fork'].includes(n.shape);
  const nodes = (spec.nodes ?? []).filter((n) => !blank(n)).map((n) => `${n.id} "${marker(n) ? '' : (n.label ?? n.id)}" in ${hidden.has(n.parent) ? '-' : (n.parent ?? '-')}`);
  const edges = (spec.edges ?? [])
    .map((e) => (typeof e === 'string' ? { from: e, to: e } : e))
    .filter((e) => e.style !== 'invisible' && !hidden.has(e.from) && !hidden.has(e.to))
    .map((e) => `${e.from} -> ${e.to} "${e.label ?? ''}"`);
  return { nodes: nodes.sort(), edges: edges.sort() };
}

/** Corpus diagrams whose graph a language cannot carry back whole, and why. */
const CANNOT: Record<string, Record<string, string>> = { mermaid: {}, dot: {} };

describe('export: the real corpus written back', () => {
  for (const language of ['mermaid', 'dot'] as const) {
    test(`every ${language === 'mermaid' ? 'Mermaid' : 'DOT'} diagram of the corpus, drawn and written back as ${language}, reads as the same graph`, async () => {
      const differ: string[] = [];
      let compared = 0;
      for (const entry of loadRealCorpus()) {
        if (language === 'mermaid' && entry.language !== 'mermaid') continue;
        const { spec } = await importEntry(entry);
        const written = exportScene(draw(spec), language);
        const back = await readSource({ language, text: written.text }, { isIcon: isCatalogIcon });
        assert.equal(back.problems.length, 0, `${entry.name}: ${back.problems[0]?.message}\n${written.text}`);
        if (CANNOT[language]![entry.name]) continue;
        compared++;
        const [before, after] = [graphOf(spec as SpecLike), graphOf(back.spec as SpecLike)];
        try {
          assert.deepEqual(after, before);
        } catch {
          differ.push(entry.name);
        }
      }
      assert.deepEqual(differ, []);
      assert.ok(compared >= (language === 'mermaid' ? 91 : 170), `${compared} diagrams compared`);
    });
  }

  test('a label whose author broke it where Drawbridge breaks a word comes back with the author\'s break; a state machine whose ids a flowchart cannot hold comes back as a state diagram', async () => {
    // "v1beta1.metrics.k8s.io<br>APIService": the author's break lies exactly where Drawbridge breaks a word too wide for an arrow's label.
    const entry = loadRealCorpus().find((e) => e.name === 'enhancements-kep-5207-1')!;
    const { spec } = await importEntry(entry);
    const written = exportScene(draw(spec), 'mermaid');
    assert.match(written.text, /"v1beta1\.metrics\.k8s\.io<br>APIService"/);
    const neon = loadRealCorpus().find((e) => e.name === 'neon-timeline-archive')!;
    const states = exportScene(draw((await importEntry(neon)).spec), 'mermaid');
    assert.match(states.text, /^stateDiagram-v2\n/);
    assert.match(states.text, /\n {2}\[\*\] --> Active\(warm\)\n/);
    assert.deepEqual(states.warnings, []);
  });

  const skip = spawnSync('dot', ['-V']).status === 0 ? false : 'Graphviz dot is not installed';
  test('Graphviz\'s own dot reads every DOT file written from the corpus, and boxes every container as a cluster', { skip }, async () => {
    const refused: string[] = [];
    for (const entry of loadRealCorpus()) {
      const { spec } = await importEntry(entry);
      const text = exportScene(draw(spec), 'dot').text;
      const run = spawnSync('dot', ['-Tsvg'], { input: text, encoding: 'utf8' });
      if (run.status !== 0) refused.push(`${entry.name}: ${run.stderr.slice(0, 200)}`);
      const containers = new Set(((spec as SpecLike).nodes ?? []).map((n) => n.parent).filter(Boolean));
      assert.equal((run.stdout.match(/<g id="[^"]*" class="cluster">/g) ?? []).length, containers.size, `${entry.name}: one cluster per container`);
    }
    assert.deepEqual(refused, []);
  });
});

describe('export: Drawbridge\'s own drawings', () => {
  test('every spec shape, colour, width, dash, bold and italic is read back from the drawing as it was given', () => {
    const nodes = SHAPES.map((shape, i) => ({
      id: `n${i}`,
      label: shape === 'start' || shape === 'end' || shape === 'fork' ? undefined : `A ${shape}`,
      shape,
      ...(i % 3 === 0 && shape !== 'text' ? { strokeColor: '#1971c2' } : {}),
      ...(i % 4 === 1 && shape !== 'text' && shape !== 'end' ? { backgroundColor: '#ffec99' } : {}),
      ...(i % 5 === 2 && !['text', 'start', 'end', 'fork'].includes(shape) ? { strokeWidth: 4 } : {}),
      ...(i === 4 ? { strokeStyle: 'dashed' as const, bold: true, italic: true } : {}),
    }));
    const spec = { layout: { direction: 'LR' }, nodes, edges: [{ from: 'n0', to: 'n1', label: 'go', style: 'dashed', strokeColor: '#e03131', strokeWidth: 4, arrowhead: 'dot', startArrowhead: 'bar' }] };
    const { spec: back, warnings } = sceneSpec(draw(spec));
    assert.deepEqual(warnings, []);
    const clean = (node: Record<string, unknown>) => Object.fromEntries(Object.entries(node).filter(([, v]) => v !== undefined));
    assert.deepEqual(back.nodes, nodes.map(clean).map((n) => (n.shape === 'rectangle' ? (({ shape: _, ...rest }) => rest)(n) : n)));
    assert.deepEqual(back.edges, spec.edges);
    assert.equal(back.layout.direction, 'LR');
  });

  test('containers nest, keep their own direction, and an edge to a container stays one; the caption and head and tail labels come back', () => {
    const spec = {
      caption: 'Checkout',
      nodes: [{ id: 'shop', label: 'Shop' }, { id: 'api', parent: 'shop', label: 'API' }, { id: 'queue', parent: 'shop', direction: 'LR' as const, label: 'Queue' }, { id: 'q1', parent: 'queue' }, { id: 'q2', parent: 'queue' }, { id: 'user' }],
      edges: ['user -> shop : buys', 'api -> queue', 'q1 -> q2', { from: 'api', to: 'user', headLabel: '1', tailLabel: '*' }],
    };
    const { spec: back } = sceneSpec(draw(spec));
    assert.deepEqual(back.nodes.map((n) => `${n.id}<${n.parent ?? ''}>${n.direction ?? ''}`), ['shop<>', 'queue<shop>LR', 'api<shop>', 'q1<queue>', 'q2<queue>', 'user<>']);
    assert.deepEqual(back.edges, [{ from: 'user', to: 'shop', label: 'buys' }, { from: 'api', to: 'queue' }, { from: 'q1', to: 'q2' }, { from: 'api', to: 'user', headLabel: '1', tailLabel: '*' }]);
    assert.equal(back.caption, 'Checkout');
    const mermaid = exportScene(draw(spec), 'mermaid').text;
    assert.match(mermaid, /^---\ntitle: "Checkout"\n---\nflowchart TB\n {2}subgraph shop \["Shop"\]\n {4}subgraph queue \["Queue"\]\n {6}direction LR\n/);
    assert.match(mermaid, / {2}user -->\|"buys"\| shop\n/);
    const dot = exportScene(draw(spec), 'dot');
    assert.match(dot.text, /subgraph "cluster_shop" \{\n {4}id="shop"/);
    // An edge to a container ends at its first node, cut at the cluster's border.
    assert.match(dot.text, /"user" -> "q1" \[lhead="cluster_shop", label="buys"\]/);
    assert.match(dot.text, /"api" -> "user" \[headlabel="1", taillabel="\*"\]/);
    assert.ok(dot.warnings.some((w) => w.message.startsWith('a container\'s own direction is left out')));
  });

  test('a word Drawbridge broke to fit its box comes back whole, from the label it recorded or else by wrapping again; a line break its author wrote stays', () => {
    const long = 'StaticFileJarProvider::header_by_block_number_and_segment';
    const spec = { nodes: [{ id: 'a', label: long }, { id: 'b', label: 'tryReload\nDiff the configs' }], edges: [{ from: 'a', to: 'b', label: `calls ${long}` }] };
    const elements = draw(spec);
    assert.match(String(elements.find((e) => e.id === 'a-label')!.originalText), /\n/, 'the drawn label holds a break inside the word');
    const { spec: back } = sceneSpec(elements);
    assert.equal(back.nodes[0]!.label, long);
    assert.equal(back.nodes[1]!.label, 'tryReload\nDiff the configs');
    assert.equal(back.edges[0]!.label, `calls ${long}`);
    // Without the recorded label (a scene from an older Drawbridge), or with one a later edit made stale, the wrap decides.
    const bare = elements.map((e) => (e.customData ? { ...e, customData: { authoredLabel: 'stale' } } : e));
    const { spec: read } = sceneSpec(bare);
    assert.deepEqual([read.nodes[0]!.label, read.edges[0]!.label], [long, `calls ${long}`]);
  });

  test('Mermaid: labels escaped so that its parser reads them back; ids it cannot take renamed, warned', async () => {
    const spec = { nodes: [{ id: 'end', label: 'Quote " hash # <b>tag</b> & amp; `tick` back\\n slash' }, { id: 'two words', label: '' }, { id: 'style' }], edges: [{ from: 'end', to: 'two words' }, { from: 'two words', to: 'style' }] };
    const written = exportScene(draw(spec), 'mermaid');
    assert.deepEqual(written.warnings.map((w) => w.elementIds[0]), ['end', 'two words', 'style']);
    const back = await readSource({ language: 'mermaid', text: written.text }, { isIcon: isCatalogIcon });
    assert.deepEqual(back.problems, []);
    const nodes = (back.spec as SpecLike).nodes!;
    assert.equal(nodes[0]!.label, spec.nodes[0]!.label);
    assert.deepEqual(nodes.map((n) => n.id), ['end_', 'two_words', 'style_']);
    assert.equal(nodes[1]!.label, '');
  });
});

describe('export: state machines as state diagrams', () => {
  test('a state machine whose ids a flowchart cannot hold is written as a state diagram: composite states, markers in their scope, names, descriptions and labelled transitions come back', async () => {
    const source = 'stateDiagram-v2\n  direction LR\n  [*] --> Idle\n  Idle --> Busy(1) : start job\n  state "Working hard" as Busy(1) {\n    [*] --> Active(cold)\n    Active(cold) --> [*]\n  }\n  Busy(1) --> [*]\n  Idle : waiting\n  Idle : for work\n  state "Long name" as L\n  Idle --> L\n';
    const first = await readSource({ language: 'mermaid', text: source }, { isIcon: isCatalogIcon });
    const written = exportScene(draw(first.spec), 'mermaid');
    assert.match(written.text, /^stateDiagram-v2\n/);
    assert.match(written.text, /\n {2}state "Working hard" as Busy\(1\) \{\n(.*\n)* {4}\[\*\] --> Active\(cold\)\n/);
    assert.match(written.text, /\n {2}Idle : waiting\n {2}Idle : for work\n/);
    const back = await readSource({ language: 'mermaid', text: written.text }, { isIcon: isCatalogIcon });
    assert.deepEqual(back.problems, [], written.text);
    assert.deepEqual(graphOf(back.spec as SpecLike), graphOf(first.spec as SpecLike));
  });

  test('a state machine with a colour, or a flowchart whose ids it can hold, stays a flowchart', async () => {
    const styled = { nodes: [{ id: 'a(1)', backgroundColor: '#ffec99' }, { id: 'b' }], edges: [{ from: 'a(1)', to: 'b' }] };
    assert.match(exportScene(draw(styled), 'mermaid').text, /^flowchart TB\n/);
    assert.match(exportScene(draw({ nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] }), 'mermaid').text, /^flowchart TB\n/);
  });
});

describe('export: a scene drawn by hand', () => {
  const base = { angle: 0, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', isDeleted: false, frameId: null, groupIds: [] };
  const box = (id: string, type: string, x: number, y: number, width: number, height: number, extra: Record<string, unknown> = {}): SceneElement => ({ ...base, id, type, x, y, width, height, ...extra });
  const text = (id: string, containerId: string | null, value: string, x = 0, y = 0): SceneElement => ({ ...base, id, type: 'text', x, y, width: 50, height: 25, text: value, originalText: value, containerId });
  const arrow = (id: string, from: string | null, to: string | null, extra: Record<string, unknown> = {}): SceneElement => ({
    ...base,
    id,
    type: 'arrow',
    x: 0,
    y: 0,
    width: 10,
    height: 10,
    points: [[0, 0], [10, 10]],
    startBinding: from ? { elementId: from, focus: 0, gap: 4 } : null,
    endBinding: to ? { elementId: to, focus: 0, gap: 4 } : null,
    startArrowhead: null,
    endArrowhead: 'arrow',
    ...extra,
  });
  const scene: SceneElement[] = [
    box('vpc', 'rectangle', 0, 0, 600, 400),
    text('vpc-title', 'vpc', 'VPC'),
    box('web', 'rectangle', 40, 60, 160, 80),
    text('t1', 'web', 'Web server'),
    box('db', 'ellipse', 300, 60, 160, 80, { backgroundColor: '#a5d8ff' }),
    text('t2', 'db', 'Database'),
    box('gate', 'diamond', 40, 240, 120, 120),
    box('frame1', 'frame', 700, 0, 400, 300, { name: 'Monitoring' }),
    box('graf', 'rectangle', 740, 60, 160, 80, { frameId: 'frame1' }),
    text('t3', 'graf', 'Grafana'),
    { ...text('note', null, 'A note', 720, 200), frameId: 'frame1' },
    arrow('a1', 'web', 'db', { strokeStyle: 'dashed', endArrowhead: 'triangle_outline' }),
    text('a1-text', 'a1', 'SQL'),
    arrow('a2', 'db', 'graf', { startArrowhead: 'arrow', endArrowhead: null }),
    arrow('loose', 'web', null),
    { ...base, id: 'scribble', type: 'freedraw', x: 0, y: 500, width: 20, height: 20, points: [[0, 0], [20, 20]] },
    { ...base, id: 'rule', type: 'line', x: 0, y: 600, width: 100, height: 0, points: [[0, 0], [100, 0]] },
    box('gone', 'rectangle', 0, 0, 10, 10, { isDeleted: true }),
  ];

  test('shapes with their text are nodes, a box around others and a frame are containers, bound arrows edges; the rest is warned about', () => {
    const { spec, warnings } = sceneSpec(scene);
    assert.deepEqual(spec.nodes, [
      // A container drawn solid says so: the spec draws containers dashed unless told.
      { id: 'vpc', label: 'VPC', strokeStyle: 'solid' },
      { id: 'web', label: 'Web server', parent: 'vpc' },
      { id: 'db', shape: 'ellipse', label: 'Database', parent: 'vpc', backgroundColor: '#a5d8ff' },
      { id: 'gate', shape: 'diamond', label: '', parent: 'vpc' },
      { id: 'frame1', label: 'Monitoring', strokeStyle: 'solid' },
      { id: 'graf', label: 'Grafana', parent: 'frame1' },
      { id: 'note', shape: 'text', label: 'A note', parent: 'frame1' },
    ]);
    assert.deepEqual(spec.edges, [
      { from: 'web', to: 'db', label: 'SQL', arrowhead: 'triangle', style: 'dashed' },
      { from: 'db', to: 'graf', arrowhead: 'none', startArrowhead: 'arrow' },
    ]);
    assert.deepEqual(warnings.map((w) => w.elementIds), [['a1'], ['loose'], ['scribble'], ['rule']]);
    assert.match(warnings[0]!.message, /triangle_outline arrowhead is written as triangle/);
    assert.match(warnings[1]!.message, /not bound to a shape at both ends/);
  });

  test('as Mermaid and DOT, which their own parsers read back as the same graph', async () => {
    const { spec } = sceneSpec(scene);
    for (const language of ['mermaid', 'dot'] as const) {
      const written = exportScene(scene, language);
      const back = await readSource({ language, text: written.text }, { isIcon: isCatalogIcon });
      assert.deepEqual(back.problems, [], written.text);
      const flip = (g: ReturnType<typeof graphOf>) => ({ ...g, edges: g.edges.map((e) => e.replace('db -> graf', 'graf -> db')) });
      // Mermaid has no link with a head at its start only: that one is written the other way round (warned).
      assert.deepEqual(graphOf(back.spec as SpecLike), language === 'mermaid' ? flip(graphOf(spec)) : graphOf(spec), language);
    }
    assert.ok(exportScene(scene, 'mermaid').warnings.some((w) => w.message.startsWith('a link with a head only at its start')));
  });

  test('the spec it exports is one the API takes', () => {
    const { spec } = sceneSpec(scene);
    assert.doesNotThrow(() => parseSpec(JSON.parse(exportScene(scene, 'spec').text), { isIcon: isCatalogIcon }));
    assert.deepEqual(JSON.parse(exportScene(scene, 'spec').text), spec);
  });
});

describe('export, then regenerate keeping the arrangement', () => {
  test('every diagram of the real corpus takes a keep regenerate that removes a node, adds one linked to another and gives a third a label too long for it', async () => {
    const refused: string[] = [];
    let placedAnew = 0;
    for (const entry of loadRealCorpus()) {
      const { spec } = (await importEntry(entry)) as { spec: { nodes: Array<Record<string, any>>; edges: Array<Record<string, any> | string>; layout?: { sameRank?: string[][] } } };
      const plain = spec.nodes.filter((n) => !spec.nodes.some((m) => m.parent === n.id) && !['start', 'end', 'fork'].includes(n.shape));
      if (plain.length === 0) continue;
      const [kept, relabelled, gone] = [plain[0]!, plain[1], plain.length > 2 ? plain[plain.length - 1] : undefined];
      const touches = (e: Record<string, any> | string, id: string | undefined) => id !== undefined && (typeof e === 'string' ? new RegExp(`(^|[^\\w.-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w.-])`).test(e) : e.from === id || e.to === id);
      const next = {
        ...spec,
        ...(spec.layout?.sameRank ? { layout: { ...spec.layout, sameRank: spec.layout.sameRank.map((g) => g.filter((id) => id !== gone?.id)).filter((g) => g.length > 0) } } : {}),
        nodes: [...spec.nodes.filter((n) => n !== gone).map((n) => (n === relabelled ? { ...n, label: 'A label far longer than the node was ever sized for, which cannot fit in place at any font size the editor allows' } : n)), { id: 'zz-new', label: 'New step', ...(kept.parent ? { parent: kept.parent } : {}) }],
        edges: [...spec.edges.filter((e) => !touches(e, gone?.id)), { from: kept.id, to: 'zz-new', label: 'then' }],
      };
      try {
        const result = regenerateKeeping(draw(spec), next as never, parseSpec(next, { isIcon: isCatalogIcon }), { now: 99, nonce: () => 1 }, { isIcon: isCatalogIcon, layout: layoutGraph });
        if (result?.placed.includes(relabelled?.id ?? '')) placedAnew++;
      } catch (error) {
        refused.push(`${entry.name}: ${(error as Error).message.slice(0, 160)}`);
      }
    }
    assert.deepEqual(refused, []);
    assert.ok(placedAnew > 100, `a node whose new label does not fit is drawn anew, sized to it (${placedAnew})`);
  });

  test('a plain node given members becomes a container drawn where the node was, when it fits there; everything else stays', () => {
    const v1 = { layout: { direction: 'LR' }, nodes: [{ id: 'api' }, { id: 'jobs', label: 'Jobs' }, { id: 'db' }], edges: ['api -> jobs', 'jobs -> db'] };
    const v2 = { ...v1, nodes: [...v1.nodes, { id: 'cron', label: 'Cron', parent: 'jobs' }, { id: 'queue', label: 'Queue', parent: 'jobs' }], edges: [...v1.edges, 'cron -> queue'] };
    // Room around the node: the person moved its neighbours away.
    const drawn = draw(v1);
    const spread = drawn.map((e) => (['api', 'api-label'].includes(e.id) ? { ...e, x: Number(e.x) - 400 } : ['db', 'db-label'].includes(e.id) ? { ...e, x: Number(e.x) + 400 } : e));
    const kept = regenerateKeeping(spread, v2 as never, parseSpec(v2, { isIcon: isCatalogIcon }), { now: 99, nonce: () => 1 }, { isIcon: isCatalogIcon, layout: layoutGraph })!;
    assert.deepEqual([kept.kept, [...kept.placed].sort()], [['api', 'db'], ['cron', 'jobs', 'queue']]);
    const [was, now] = [spread.find((e) => e.id === 'jobs')!, kept.elements.find((e) => e.id === 'jobs')!];
    assert.deepEqual([now.x, now.y], [was.x, was.y], 'the container starts where the node was');
    for (const id of ['api', 'db']) assert.deepEqual(kept.elements.find((e) => e.id === id)!.x, spread.find((e) => e.id === id)!.x, `${id} stays`);
  });

  test('a container moved into another is drawn again inside it, which grows to hold it; what stays stays', () => {
    const v1 = { nodes: [{ id: 'A', label: 'Cluster A' }, { id: 'a1', parent: 'A' }, { id: 'B', label: 'Cluster B' }, { id: 'b1', parent: 'B' }, { id: 'c' }], edges: ['a1 -> b1', 'b1 -> c'] };
    const v2 = { ...v1, nodes: v1.nodes.map((n) => (n.id === 'B' ? { ...n, parent: 'A' } : n)) };
    const scene = draw(v1);
    const kept = regenerateKeeping(scene, v2 as never, parseSpec(v2, { isIcon: isCatalogIcon }), { now: 99, nonce: () => 1 }, { isIcon: isCatalogIcon, layout: layoutGraph })!;
    assert.ok(kept !== null, 'kept');
    assert.deepEqual([kept.kept, [...kept.placed].sort()], [['A', 'a1', 'c'], ['B', 'b1']]);
    const box = (id: string) => kept.elements.find((e) => e.id === id && e.isDeleted !== true)!;
    const [a, b] = [box('A'), box('B')];
    assert.ok(Number(b.x) > Number(a.x) && Number(b.y) > Number(a.y) && Number(b.x) + Number(b.width) < Number(a.x) + Number(a.width) && Number(b.y) + Number(b.height) < Number(a.y) + Number(a.height), 'B is inside A');
    for (const id of ['a1', 'c']) assert.deepEqual([box(id).x, box(id).y], [scene.find((e) => e.id === id)!.x, scene.find((e) => e.id === id)!.y], `${id} stays`);
    assert.deepEqual(metIssues(lintScene(kept.elements as never)).filter((i) => ['edge_through_shape', 'overlap', 'label_overlap'].includes(i.kind)), []);
  });

  test('a cylinder and an end marker that go, and a hexagon that becomes an ellipse, take the lines and dots drawn as part of them', () => {
    const v1 = { nodes: [{ id: 'a' }, { id: 'db', shape: 'cylinder' }, { id: 'e', shape: 'end' }, { id: 'h', shape: 'hexagon' }], edges: ['a -> db', 'db -> e', 'a -> h'] };
    const v2 = { nodes: [{ id: 'a' }, { id: 'h', shape: 'ellipse' }], edges: ['a -> h'] };
    const kept = regenerateKeeping(draw(v1), v2 as never, parseSpec(v2, { isIcon: isCatalogIcon }), { now: 99, nonce: () => 1 }, { isIcon: isCatalogIcon, layout: layoutGraph })!;
    assert.deepEqual([kept.kept, kept.placed, kept.removed], [['a'], ['h'], ['db', 'e']]);
    assert.deepEqual(kept.elements.filter((e) => e.isDeleted !== true).map((e) => e.id).sort(), ['a', 'a-label', 'a-to-h', 'h', 'h-label']);
    assert.equal(kept.elements.find((e) => e.id === 'h')!.type, 'ellipse');
  });


  test('every diagram of the real corpus, written as a spec and drawn again over itself, moves nothing and re-creates nothing', async () => {
    const moved: string[] = [];
    for (const entry of loadRealCorpus()) {
      const { spec } = await importEntry(entry);
      const scene = draw(spec);
      const { spec: written } = sceneSpec(scene);
      const kept = regenerateKeeping(scene, written as never, parseSpec(written, { isIcon: isCatalogIcon }), { now: 99, nonce: () => 1 }, { isIcon: isCatalogIcon, layout: layoutGraph });
      if (kept === null || JSON.stringify(kept.elements) !== JSON.stringify(scene) || kept.placed.length > 0 || kept.removed.length > 0) moved.push(entry.name);
    }
    assert.deepEqual(moved, []);
  });
});
