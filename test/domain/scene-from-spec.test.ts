import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';
import { MARGIN } from '../../src/domain/scene/node-plan.ts';
import { generatedElementCount, sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { centreOn } from '../../src/domain/scene/geometry.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { assertSurvivesRestore } from '../helpers/excalidraw.ts';
import { metIssues } from '../helpers/lint.ts';
import { TYPESCRIPT_ARGS } from '../helpers/typescript.ts';

const build = (raw: unknown) => sceneFromSpec(parseSpec(raw, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph });

const chain = (n: number) => ({ nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}` })), edges: Array.from({ length: n - 1 }, (_, i) => `n${i} -> n${i + 1}`) });
const tree = (depth: number, fan: number) => {
  const nodes = [{ id: 't' }];
  const edges: string[] = [];
  let level = ['t'];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const parent of level) for (let k = 0; k < fan; k++) {
      const id = `${parent}${k}`;
      nodes.push({ id });
      edges.push(`${parent} -> ${id}`);
      next.push(id);
    }
    level = next;
  }
  return { nodes, edges };
};

const SPECS: Record<string, unknown> = {
  'a chain': chain(6),
  'a tree': tree(3, 3),
  'a diamond of dependencies': { nodes: ['app', 'auth', 'billing', 'db'].map((id) => ({ id })), edges: ['app -> auth', 'app -> billing', 'auth -> db', 'billing -> db'] },
  'a cycle': { nodes: ['a', 'b', 'c'].map((id) => ({ id })), edges: ['a -> b', 'b -> c', 'c -> a'] },
  'a self-loop': { nodes: [{ id: 'retry', label: 'Retry loop' }, { id: 'done' }], edges: ['retry -> retry : again', 'retry -> done'] },
  'parallel edges': { nodes: [{ id: 'client' }, { id: 'server' }], edges: ['client -> server : request', 'client -> server : retry', 'server -> client : response', 'client <-> server'] },
  'long, multi-line and non-Latin labels': {
    nodes: [
      { id: 'long', label: 'A very long label that certainly does not fit on a single line of a normal rectangle and must wrap over several lines' },
      { id: 'multi', label: 'first line\nsecond line\nthird', shape: 'ellipse' },
      { id: 'cjk', label: '数据库服务器 主节点', shape: 'diamond' },
      { id: 'mixed', label: 'Ünïcödé — émoji 🚀 العربية', shape: 'rectangle' },
      { id: 'word', label: 'Supercalifragilisticexpialidocious-Antidisestablishmentarianism' },
      { id: 'note', label: 'A free-standing note that is long enough to wrap because it goes on and on past four hundred pixels of width', shape: 'text' },
    ],
    edges: ['long -> multi : a label on an arrow that is long enough to wrap', 'multi -> cjk', 'cjk -> mixed', 'mixed -> word', 'word -> note'],
  },
  'shapes, icons and styles': {
    nodes: [
      { id: 'user', label: 'User', shape: 'ellipse', icon: 'icon-user' },
      { id: 'api', label: 'API', icon: 'icon-server', backgroundColor: '#a5d8ff', fillStyle: 'hachure' },
      { id: 'db', label: '', icon: 'icon-postgresql' },
      { id: 'ok', label: 'OK?', shape: 'diamond', icon: 'icon-lock' },
      { id: 'tag', label: 'caption', shape: 'text', icon: 'icon-cloud' },
    ],
    edges: ['user -> api', { from: 'api', to: 'db', arrowhead: 'triangle', startArrowhead: 'dot', style: 'dotted' }, 'api --> ok', 'ok -- tag'],
  },
  containers: {
    nodes: [
      { id: 'vpc', label: 'VPC 10.0.0.0/16' },
      { id: 'public', label: 'Public subnet', parent: 'vpc' },
      { id: 'lb', label: 'Load balancer', parent: 'public' },
      { id: 'private', label: 'Private subnet', parent: 'vpc' },
      { id: 'app', label: 'App', parent: 'private' },
      { id: 'db', label: 'Database', shape: 'ellipse', parent: 'private' },
      { id: 'users', label: 'Users', shape: 'ellipse' },
    ],
    edges: ['users -> lb', 'lb -> app', 'app -> db'],
  },
};

function checkInvariants(elements: any[]) {
  const byId = new Map(elements.map((e) => [e.id, e]));
  assert.equal(byId.size, elements.length, 'ids are unique');
  for (const e of elements) {
    assert.ok(Number.isInteger(e.seed) && e.seed > 0, `${e.id} seed`);
    assert.equal(e.version, 1);
    if (e.type === 'arrow') {
      for (const end of ['startBinding', 'endBinding']) {
        const target = byId.get(e[end].elementId);
        assert.ok(target, `${e.id} ${end} names an element`);
        assert.ok(target.boundElements.some((b: any) => b.id === e.id && b.type === 'arrow'), `${target.id} points back to ${e.id}`);
      }
      assert.deepEqual(e.points[0], [0, 0]);
    }
    if (e.type === 'text' && e.containerId) {
      const container = byId.get(e.containerId);
      assert.ok(container.boundElements.some((b: any) => b.id === e.id && b.type === 'text'), `${container.id} points back to its label`);
    }
  }
}

describe('generated scenes', () => {
  for (const [name, spec] of Object.entries(SPECS)) {
    for (const direction of ['TB', 'BT', 'LR', 'RL']) {
      test(`${name} (${direction}) lints clean, keeps every binding and survives the editor's restore unchanged`, async () => {
        const elements = build({ ...(spec as object), layout: { direction } });
        assert.equal(elements.length, generatedElementCount(parseSpec({ ...(spec as object), layout: { direction } }, { isIcon: isCatalogIcon })));
        checkInvariants(elements);
        assert.deepEqual(metIssues(lintScene(elements)), []);
        await assertSurvivesRestore(elements, { refreshDimensions: true });
      });
    }
  }

  test('a node\'s icon and the label under it are centred together in the shape, 8 px apart, the label clear of the rounded corners', async () => {
    const elements = build({
      nodes: [
        { id: 'gateway', label: 'Edge gateway (Raspberry Pi)', icon: 'icon-raspberry-pi' },
        { id: 'jira', label: "File a Jira issue with steps to reproduce and the customer's account id", icon: 'icon-jira' },
        { id: 'db', label: '', icon: 'icon-postgresql' },
      ],
      edges: [],
    });
    const byId = new Map(elements.map((e) => [e.id, e as unknown as { y: number; height: number }]));
    for (const id of ['gateway', 'jira', 'db']) {
      const [shape, icon, label] = [byId.get(id)!, byId.get(`${id}-icon`)!, byId.get(`${id}-label`)];
      const bottom = label ? label.y + label.height : icon.y + icon.height;
      const [above, below] = [icon.y - shape.y, shape.y + shape.height - bottom];
      assert.ok(Math.abs(above - below) < 0.51, `${id}: ${above} px above the block, ${below} px below it`);
      if (label) assert.ok(Math.abs(label.y - (icon.y + icon.height + 8)) < 0.01, `${id}: the label 8 px under the icon`);
    }
    assert.deepEqual(lintScene(elements as never).filter((issue) => issue.kind === 'label_near_outline'), []);
    await assertSurvivesRestore(elements, { refreshDimensions: true });
  });

  test('a label in a shape whose outline cuts in at the sides keeps the whole side margin once re-wrapped in its final box, and more when it is tall', async () => {
    // temporal-schedules-7: the re-wrap in the box, 60 px wider than the text, had filled that room, and the round ends cut the text.
    const label = 'addTasks: ProcessBuffer at backoff, or Execute immediate';
    const elements = build({ nodes: (['stadium', 'hexagon', 'parallelogram', 'subroutine'] as const).map((shape) => ({ id: shape, label, shape })), edges: [] });
    const byId = new Map(elements.map((e) => [e.id, e as unknown as { x: number; width: number }]));
    for (const [shape, margin] of [['stadium', MARGIN.stadium[0]], ['hexagon', MARGIN.hexagon[0]], ['parallelogram', MARGIN.parallelogram[0]], ['subroutine', MARGIN.subroutine[0]]] as const) {
      const [box, text] = [byId.get(shape)!, byId.get(`${shape}-label`)!];
      assert.ok(box.width - text.width >= margin + 10, `${shape}: ${box.width - text.width} px beside a ${text.width} px label`);
    }
    assert.deepEqual(lintScene(elements as never).filter((issue) => issue.kind === 'label_overlap' || issue.kind === 'label_near_outline'), []);
    await assertSurvivesRestore(elements, { refreshDimensions: true });
    // A tall label (graphviz-polypoly's six lines): the points, the slant and the round ends reach further in level with its first and last lines.
    const tall = build({ nodes: (['stadium', 'hexagon', 'parallelogram'] as const).map((shape) => ({ id: shape, label: Array(6).fill('MMMMMMMMMM').join('\n'), shape })), edges: [] });
    assert.deepEqual(lintScene(tall as never).filter((issue) => issue.kind === 'label_overlap' || issue.kind === 'label_near_outline').map((issue) => issue.message), []);
    const doc = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    assert.match(doc, new RegExp(`leaves its label ${MARGIN.stadium[0]}, ${MARGIN.hexagon[0]}, ${MARGIN.parallelogram[0]} or ${MARGIN.subroutine[0]} px of room across`), 'docs/spec.md states the margins');
  });

  test('an arrow whose label sits on its last segment keeps that segment whole, so the editor draws its arrowhead full size', () => {
    // pingora-phase-chart's "connection success": the padding that makes the label the middle point had halved the last segment down to 12 px (a 6 px head).
    const points = centreOn([[0, 0], [0, 16], [-95, 16], [-95, 97]], [-95, 48.5]);
    assert.equal(points.length % 2, 1);
    assert.deepEqual(points[(points.length - 1) / 2], [-95, 48.5]);
    const [a, b] = points.slice(-2) as [[number, number], [number, number]];
    assert.ok(Math.hypot(b[0] - a[0], b[1] - a[1]) >= 40, `the last segment is ${Math.hypot(b[0] - a[0], b[1] - a[1])} px`);
    for (let i = 1; i < points.length; i++) assert.ok(points[i - 1]![0] === points[i]![0] || points[i - 1]![1] === points[i]![1], 'still orthogonal');
    // And on a scene: no labelled arrow of a small flow ends in a segment shorter than the route's own.
    const elements = build({ nodes: ['a', 'b', 'c'].map((id) => ({ id })), edges: ['a -> b : connection success', 'a -> c : connection failure'] });
    for (const arrow of elements.filter((e) => e.type === 'arrow')) {
      const p = arrow.points as Array<[number, number]>;
      assert.ok(Math.hypot(p[p.length - 1]![0] - p[p.length - 2]![0], p[p.length - 1]![1] - p[p.length - 2]![1]) >= 16, `${arrow.id}: ${JSON.stringify(p)}`);
    }
  });

  test('ids follow the contract: node id, <id>-label, <id>-icon, <from>-to-<to>(-n), <arrow>-label', () => {
    const elements = build({ nodes: [{ id: 'a', icon: 'icon-user' }, { id: 'b' }], edges: ['a -> b : first', 'a -> b'] });
    assert.deepEqual(elements.map((e) => e.id).sort(), ['a', 'a-icon', 'a-label', 'a-to-b', 'a-to-b-2', 'a-to-b-label', 'b', 'b-label'].sort());
  });

  test('the same spec gives byte-identical elements, in this process and another', () => {
    const spec = SPECS['long, multi-line and non-Latin labels'];
    const first = JSON.stringify(build(spec));
    assert.equal(JSON.stringify(build(spec)), first);
    const script = `import { layoutGraph } from './src/domain/layout/layout.ts';
import { sceneFromSpec } from './src/domain/scene/from-spec.ts';
import { parseSpec } from './src/domain/spec/parse.ts';
import { isCatalogIcon } from './src/domain/icons/catalog.ts';
import { createHash } from 'node:crypto';
const spec = ${JSON.stringify(spec)};
process.stdout.write(createHash('sha256').update(JSON.stringify(sceneFromSpec(parseSpec(spec, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph }))).digest('hex'));`;
    const other = execFileSync(process.execPath, [...TYPESCRIPT_ARGS, '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(other, createHash('sha256').update(first).digest('hex'));
  });
});

describe('markers: start, end and fork', () => {
  test('a start is a small filled dot, an end a ring with a dot inside, a fork a bar across the flow; none draws a label, arrows bind to them', () => {
    for (const [direction, forkSize] of [['TB', [100, 8]], ['LR', [8, 100]]] as const) {
      const spec = parseSpec(
        { layout: { direction }, nodes: [{ id: 's', shape: 'start' }, { id: 'a', label: 'Work' }, { id: 'f', shape: 'fork', label: 'ignored' }, { id: 'e', shape: 'end', strokeColor: '#1971c2' }], edges: ['s -> a', 'a -> f', 'f -> e'] },
        { isIcon: () => false },
      );
      const elements = sceneFromSpec(spec, { updated: 1, layout: layoutGraph }) as Array<Record<string, any>>;
      const byId = new Map(elements.map((e) => [e.id, e]));
      const start = byId.get('s')!;
      assert.deepEqual([start.type, start.width, start.height, start.backgroundColor, start.fillStyle], ['ellipse', 24, 24, '#1e1e1e', 'solid']);
      const fork = byId.get('f')!;
      assert.deepEqual([fork.type, fork.width, fork.height, fork.fillStyle], ['rectangle', ...forkSize, 'solid'], direction);
      const [ring, dot] = [byId.get('e')!, byId.get('e-dot')!];
      assert.deepEqual([ring.type, ring.width, ring.backgroundColor, ring.strokeColor], ['ellipse', 28, 'transparent', '#1971c2']);
      assert.deepEqual([dot.type, dot.width, dot.backgroundColor], ['ellipse', 16, '#1971c2']);
      assert.deepEqual(ring.groupIds, dot.groupIds);
      assert.equal(Math.round(dot.x + dot.width / 2), Math.round(ring.x + ring.width / 2), 'the dot is centred in the ring');
      for (const id of ['s', 'f', 'e']) assert.ok(!elements.some((x) => x.type === 'text' && x.containerId === id), `${id} draws no label`);
      assert.equal(byId.get('f-to-e')!.endBinding.elementId, 'e');
      assert.equal(byId.get('s-to-a')!.startBinding.elementId, 's');
      assert.deepEqual(metIssues(lintScene(elements as never)), [], 'the dot inside the end ring is part of it: an arrow ending at the ring does not pass near another shape');
    }
  });

  test('the dot of an end is a generated id: a node named so collides', () => {
    assert.throws(() => parseSpec({ nodes: [{ id: 'x', shape: 'end' }, { id: 'x-dot' }] }, { isIcon: () => false }), /ID_COLLISION|collides with the id generated/);
  });
});

describe('the outlined shapes and the styles', () => {
  const byId = (elements: any[]) => (id: string) => elements.find((e) => e.id === id);
  const OUTLINED: Record<string, string[]> = {
    stadium: ['outline'],
    hexagon: ['outline'],
    parallelogram: ['outline'],
    document: ['outline'],
    cylinder: ['outline', 'top'],
    subroutine: ['left', 'right'],
  };

  for (const [shape, suffixes] of Object.entries(OUTLINED)) {
    test(`a ${shape}: a label-carrying rectangle grouped with its line outline, the arrow bound to the rectangle`, async () => {
      const elements = build({ nodes: [{ id: 'a', label: 'Orders service', shape, backgroundColor: '#e7f5ff' }, { id: 'b' }], edges: ['b -> a'] }) as any[];
      const get = byId(elements);
      const box = get('a');
      assert.equal(box.type, 'rectangle');
      assert.deepEqual(box.groupIds, ['a-group']);
      assert.deepEqual(box.boundElements, [{ id: 'a-label', type: 'text' }, { id: 'b-to-a', type: 'arrow' }]);
      assert.equal(get('a-label').containerId, 'a');
      assert.equal(get('b-to-a').endBinding.elementId, 'a');
      for (const suffix of suffixes) {
        const line = get(`a-${suffix}`);
        assert.equal(line?.type, 'line', suffix);
        assert.deepEqual(line.groupIds, ['a-group']);
        assert.deepEqual(line.points[0], [0, 0]);
        assert.ok(elements.indexOf(line) < elements.indexOf(box), 'drawn before the label-carrying rectangle (its label is drawn right after it)');
        // The outline stays inside the box.
        for (const [px, py] of line.points) {
          assert.ok(line.x + px >= box.x - 0.5 && line.x + px <= box.x + box.width + 0.5, `${suffix} x`);
          assert.ok(line.y + py >= box.y - 0.5 && line.y + py <= box.y + box.height + 0.5, `${suffix} y`);
        }
      }
      if (shape === 'subroutine') assert.equal(box.strokeColor, '#1e1e1e');
      else {
        assert.equal(box.strokeColor, 'transparent');
        assert.equal(get('a-outline').backgroundColor, '#e7f5ff', 'the outline carries the fill');
        const points = get('a-outline').points;
        assert.deepEqual(points[0].map(Math.round), points.at(-1).map(Math.round), 'the outline is closed');
      }
      // The label fits inside the visible outline: within the box less its shape's margin.
      const label = get('a-label');
      assert.ok(label.width <= box.width - 40 && label.height <= box.height - 16, `${label.width}×${label.height} in ${box.width}×${box.height}`);
      await assertSurvivesRestore(elements);
    });
  }

  test('a circle is an ellipse with equal sides', async () => {
    const elements = build({ nodes: [{ id: 'a', label: 'A rather long label', shape: 'circle' }, { id: 'b' }], edges: ['a -> b'] }) as any[];
    const circle = byId(elements)('a');
    assert.equal(circle.type, 'ellipse');
    assert.equal(circle.width, circle.height);
    assert.equal(byId(elements)('a-to-b').startBinding.elementId, 'a');
    await assertSurvivesRestore(elements);
  });

  test('a circle wraps its label into a block about as tall as wide, so the circle stays small; the editor wraps it the same way', async () => {
    // terminal's atlas renderer: "for each font face" on one line made a 294-px circle beside 60-px rectangles.
    const elements = build({ nodes: [{ id: 'a', label: 'for each font face', shape: 'circle' }] }) as any[];
    const circle = byId(elements)('a');
    const label = byId(elements)('a-label');
    assert.ok(circle.width < 180, `the circle is ${circle.width} px across`);
    assert.equal(label.text.split('\n').length, 2, 'two lines');
    assert.deepEqual(metIssues(lintScene(elements)).map((issue) => issue.kind), [], 'the label fits, clear of the outline');
    await assertSurvivesRestore(elements);
  });

  test('a double circle is a circle and a ring 5 px inside it, behind the ellipse that holds the label; it lints clean and survives restore', async () => {
    // A state machine's accepting states: Mermaid's a(((text))) and dot's shape=doublecircle.
    const elements = build({ nodes: [{ id: 'a', label: 'LR_0', shape: 'doublecircle' }, { id: 'b', label: 'accepting state', shape: 'doublecircle', backgroundColor: '#ffec99' }], edges: ['a -> b'] }) as any[];
    const get = byId(elements);
    for (const id of ['a', 'b']) {
      const [shape, outline, ring] = [get(id), get(`${id}-outline`), get(`${id}-ring`)];
      assert.equal(shape.type, 'ellipse');
      assert.equal(shape.width, shape.height, 'a circle');
      assert.ok(shape.width >= 100, `${id} is ${shape.width} px across`);
      assert.equal(shape.strokeColor, 'transparent', 'the lines draw the shape');
      assert.equal(outline.type, 'line');
      assert.equal(ring.type, 'line');
      assert.ok(Math.abs(outline.width - shape.width) < 1 && Math.abs(ring.width - (shape.width - 10)) < 1, 'the ring 5 px inside');
      assert.ok(elements.indexOf(ring) < elements.indexOf(shape) && elements.indexOf(outline) < elements.indexOf(ring), 'outline, ring, then the shape holding the label');
      assert.deepEqual(ring.groupIds, shape.groupIds, 'they move together');
    }
    assert.equal(get('b-outline').backgroundColor, '#ffec99', 'the outline carries the fill');
    assert.equal(get('b-ring').backgroundColor, 'transparent');
    assert.equal(get('a-to-b').endBinding.elementId, 'b');
    assert.deepEqual(metIssues(lintScene(elements)).map((issue) => issue.kind), []);
    await assertSurvivesRestore(elements);
  });

  test('outline ids are generated ids: a node named like one collides', () => {
    assert.throws(() => parseSpec({ nodes: [{ id: 'db', shape: 'cylinder' }, { id: 'db-top' }] }, { isIcon: isCatalogIcon }), /ID_COLLISION|collides with the id generated for the top of nodes\[0\]/);
  });

  test('textColor colours the label; strokeWidth and strokeStyle the outline', () => {
    const get = byId(build({ nodes: [{ id: 'a', strokeColor: '#1971c2', textColor: '#c92a2a', strokeWidth: 4, strokeStyle: 'dotted' }] }) as any[]);
    assert.equal(get('a').strokeColor, '#1971c2');
    assert.equal(get('a').strokeWidth, 4);
    assert.equal(get('a').strokeStyle, 'dotted');
    assert.equal(get('a-label').strokeColor, '#c92a2a');
    const plain = byId(build({ nodes: [{ id: 'a', strokeColor: '#1971c2' }] }) as any[]);
    assert.equal(plain('a-label').strokeColor, '#1971c2');
    assert.equal(plain('a').strokeWidth, 2);
  });

  test('bold and italic are recorded on the label, and a bold label is given more room', () => {
    const get = byId(build({ nodes: [{ id: 'a', label: 'Payments gateway service', bold: true, italic: true }, { id: 'b', label: 'Payments gateway service' }] }) as any[]);
    assert.deepEqual(get('a-label').customData, { fontWeight: 'bold', fontStyle: 'italic' });
    assert.equal(get('b-label').customData, undefined);
    assert.ok(get('a').width > get('b').width, `${get('a').width} > ${get('b').width}`);
    assert.deepEqual(byId(build({ nodes: [{ id: 'a', italic: true }] }) as any[])('a-label').customData, { fontStyle: 'italic' });
  });

  test('an edge styled invisible is laid out but draws nothing; strokeWidth and strokeColor style the others', () => {
    const spec = { nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], edges: [{ from: 'a', to: 'b', style: 'invisible', label: 'x' }, { from: 'a', to: 'c', strokeWidth: 3, strokeColor: '#e03131' }] };
    const elements = build(spec) as any[];
    const get = byId(elements);
    assert.equal(get('a-to-b'), undefined);
    assert.equal(get('a-to-b-label'), undefined);
    assert.ok(get('b').y > get('a').y + get('a').height, 'b is still ranked below a');
    assert.equal(get('a-to-c').strokeWidth, 3);
    assert.equal(get('a-to-c').strokeColor, '#e03131');
    assert.ok(!get('a').boundElements.some((ref: any) => ref.id === 'a-to-b'));
    assert.equal(elements.length, generatedElementCount(parseSpec(spec, { isIcon: isCatalogIcon })));
  });

  test('a container has square corners, so its top-left label never meets a rounded corner; its members keep theirs', () => {
    const spec = { layout: { direction: 'LR' }, nodes: [{ id: 'g', label: 'Client Node' }, { id: 'a', label: 'Client', parent: 'g' }, { id: 'b', label: 'Ztunnel', parent: 'g' }], edges: ['a -> b : Plain'] };
    const get = byId(build(spec) as any[]);
    assert.equal(get('g').roundness, null);
    assert.deepEqual(get('a').roundness, { type: 3 });
    assert.equal(get('g-label').containerId, 'g');
  });

  test('an invisible container draws nothing, its members laid out together', () => {
    const spec = { nodes: [{ id: 'g', label: 'Group', invisible: true }, { id: 'a', parent: 'g' }, { id: 'b', parent: 'g' }, { id: 'c' }], edges: ['a -> b', 'b -> c'] };
    const elements = build(spec) as any[];
    const get = byId(elements);
    assert.equal(get('g'), undefined);
    assert.equal(get('g-label'), undefined);
    assert.ok(get('a') && get('b') && get('c'));
    assert.equal(elements.length, generatedElementCount(parseSpec(spec, { isIcon: isCatalogIcon })));
    // An arrow to an invisible container binds to a transparent box.
    const touched = byId(build({ ...spec, edges: ['c -> g'] }) as any[]);
    assert.equal(touched('g').strokeColor, 'transparent');
    assert.equal(touched('g').backgroundColor, 'transparent');
    assert.equal(touched('c-to-g').endBinding.elementId, 'g');
  });

  test('the layout hints reach the layout input', () => {
    let seen: any = null;
    sceneFromSpec(
      parseSpec({ nodes: [{ id: 'g', direction: 'LR' }, { id: 'a', parent: 'g' }, { id: 'b' }], edges: [{ from: 'a', to: 'b', constraint: false, minLength: 2 }], layout: { fold: 'off', sameRank: [['a', 'b']] } }, { isIcon: isCatalogIcon }),
      { updated: 1, layout: (input) => ((seen = input), layoutGraph(input)) },
    );
    assert.equal(seen.nodes.find((n: any) => n.id === 'g').direction, 'LR');
    assert.deepEqual([seen.edges[0].constraint, seen.edges[0].minLength], [false, 2]);
    assert.equal(seen.fold, 'off');
    assert.deepEqual(seen.sameRank, [['a', 'b']]);
  });
});

test('docs/spec.md states the shapes, their count and their outline measures as the code has them', async () => {
  const fs = await import('node:fs');
  const { SHAPES } = await import('../../src/domain/spec/types.ts');
  const { OUTLINE, BOLD_WIDENS, MIN_SIZE, RING_INSET } = await import('../../src/domain/scene/node-plan.ts');
  const doc = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen'];
  assert.match(doc, new RegExp(`a shape outside the ${words[SHAPES.length]} \\|`));
  const table = doc.slice(doc.indexOf('## Shapes'), doc.indexOf('## Bold and italic'));
  for (const shape of SHAPES) assert.match(table, new RegExp(`\`${shape}\``), shape);
  assert.match(table, new RegExp(`each point ${OUTLINE.point} × the height`));
  assert.match(table, new RegExp(`shifted ${OUTLINE.slant} × the height`));
  assert.match(table, new RegExp(`wave ${OUTLINE.wave[0]}–${OUTLINE.wave[1]} px`));
  assert.match(table, new RegExp(`rims ${OUTLINE.rim[0]}–${OUTLINE.rim[1]} px`));
  assert.match(table, new RegExp(`bars ${OUTLINE.bar} px`));
  assert.match(table, new RegExp(`at least ${MIN_SIZE.circle[0]} px`));
  assert.match(table, new RegExp(`a ring ${RING_INSET} px inside it \\(\`<id>-ring\`\\), at least ${MIN_SIZE.doublecircle[0]} px`));
  assert.match(doc, new RegExp(`about ${Math.round((BOLD_WIDENS - 1) * 100)} % wider`));
});
