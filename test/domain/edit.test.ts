import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { EDIT_LIMITS } from '../../src/domain/edit/apply.ts';
import { LABEL_CLEARANCE } from '../../src/domain/edit/placement.ts';
import type { SceneElement, WriteStamp } from '../../src/domain/edit/types.ts';
import { ApiError } from '../../src/errors.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';
import { ICON_GAP } from '../../src/domain/scene/node-plan.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { fontSizeFloor } from '../../src/domain/edit/label-fit.ts';
import { getBoundTextMaxHeight, getBoundTextMaxWidth, HEADER_SIDE_INSET, measureText, wrapText } from '../../src/domain/text/metrics.ts';
import { assertLabelAsTheEditorDrawsIt, assertSurvivesRestore } from '../helpers/excalidraw.ts';
import { metIssues } from '../helpers/lint.ts';
import { editAsServed } from '../helpers/content.ts';

const NOW = 1_750_000_000_000;
const options = { isIcon: isCatalogIcon };

function stampOf(now = NOW): WriteStamp {
  let next = 1000;
  return { now, nonce: () => next++ };
}

const build = (raw: unknown): SceneElement[] => sceneFromSpec(parseSpec(raw, options), { updated: 1, layout: layoutGraph }) as SceneElement[];
const edit = (elements: SceneElement[], fragment: unknown) => editAsServed(elements, fragment, stampOf(), options);
const byId = (elements: SceneElement[]) => new Map(elements.map((e) => [e.id, e as any]));

const SERVICES = {
  nodes: [{ id: 'web', label: 'Web app' }, { id: 'api', label: 'API server' }, { id: 'db', label: 'Orders DB', shape: 'ellipse' }, { id: 'queue', shape: 'diamond' }],
  edges: ['web -> api', 'api -> db : writes', 'api --> queue'],
};

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const boxOf = (e: any): Rect => ({ x: e.x, y: e.y, width: e.width, height: e.height });
const gapBetween = (a: Rect, b: Rect) =>
  Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width), b.y - (a.y + a.height), a.y - (b.y + b.height));
const geometry = (e: any) => JSON.stringify([e.x, e.y, e.width, e.height, e.points ?? null]);

/** Throws the ApiError `fn` throws, after checking its code and that its message matches. */
function assertRefused(fn: () => unknown, code: string, message: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return true;
  });
}

/** Every binding has both sides; every label's container exists and lists it; ids are unique. */
function assertConsistent(elements: SceneElement[]): void {
  const index = byId(elements);
  assert.equal(index.size, elements.length, 'ids are unique');
  for (const e of elements as any[]) {
    if (e.isDeleted) continue;
    if (e.type === 'arrow') {
      for (const end of ['startBinding', 'endBinding']) {
        const binding = e[end];
        if (!binding) continue;
        const target = index.get(binding.elementId);
        assert.ok(target && !target.isDeleted, `${e.id}.${end} names a live element`);
        assert.ok(target.boundElements?.some((b: any) => b.id === e.id && b.type === 'arrow'), `${target.id} lists ${e.id}`);
      }
    }
    if (e.type === 'text' && e.containerId) {
      const container = index.get(e.containerId);
      assert.ok(container && !container.isDeleted, `the container of ${e.id} exists`);
      assert.ok(container.boundElements?.some((b: any) => b.id === e.id && b.type === 'text'), `${container.id} lists its label ${e.id}`);
    }
    for (const ref of e.boundElements ?? []) {
      const other = index.get(ref.id);
      assert.ok(other, `${e.id} lists ${ref.id}, which exists`);
      if (ref.type === 'text') assert.equal(other.containerId, e.id, `${ref.id} is contained by ${e.id}`);
      else assert.ok(other.startBinding?.elementId === e.id || other.endBinding?.elementId === e.id, `${ref.id} is bound to ${e.id}`);
    }
  }
}

describe('additive merge', () => {
  test('existing elements keep their geometry byte for byte; only their bindings, style and labels change', () => {
    const before = build(SERVICES);
    const frozen = structuredClone(before);
    const result = edit(before, {
      addNodes: [{ id: 'cache', label: 'Redis cache', icon: 'icon-server' }, { id: 'audit', shape: 'ellipse' }],
      addEdges: ['api -> cache : reads', 'cache -> db', 'queue -> audit', 'web -> db'],
      updateNodes: [{ id: 'queue', backgroundColor: '#ffec99', fillStyle: 'hachure' }, { id: 'web', label: 'Web and mobile apps' }],
    });
    assert.deepEqual(before, frozen, 'the input is not mutated');
    const after = byId(result.elements);
    for (const old of before as any[]) {
      if (old.id === 'web-label') continue;
      assert.equal(geometry(after.get(old.id)), geometry(old), `${old.id} keeps x, y, width, height and points`);
    }
    assert.deepEqual(result.elements.slice(0, before.length).map((e) => e.id), before.map((e) => e.id), 'existing elements keep their order');
  });

  test('untouched elements stay identical; each changed one is stamped once; new ones start at version 1', () => {
    const before = build(SERVICES);
    const result = edit(before, { addNodes: [{ id: 'cache' }], addEdges: ['api -> cache', 'cache -> api'], updateNodes: [{ id: 'api', strokeColor: '#1971c2' }] });
    const after = byId(result.elements);
    const changed = new Set(['api', 'api-label']);
    for (const old of before as any[]) {
      const now = after.get(old.id);
      if (!changed.has(old.id)) {
        assert.equal(now, old, `${old.id} is the very same element`);
        continue;
      }
      assert.equal(now.version, old.version + 1, `${old.id} version + 1, once`);
      assert.notEqual(now.versionNonce, old.versionNonce);
      assert.equal(now.updated, NOW);
    }
    for (const id of ['cache', 'cache-label', 'api-to-cache', 'cache-to-api']) {
      assert.equal(after.get(id).version, 1, `${id} is new`);
      assert.equal(after.get(id).updated, NOW);
    }
    assert.equal(result.merged, 4 + changed.size, 'created plus changed');
  });

  test('the result names the new nodes and arrows, the updated nodes, and counts every element written', () => {
    const result = edit(build(SERVICES), {
      addNodes: [{ id: 'cache', icon: 'icon-server' }, { id: 'note', shape: 'text', label: 'to do' }],
      addEdges: ['api -> cache : reads', 'note -- cache'],
      updateNodes: [{ id: 'queue', label: 'Jobs' }],
    });
    assert.deepEqual(result.added, ['cache', 'note', 'api-to-cache', 'note-to-cache']);
    assert.deepEqual(result.updated, ['queue']);
    // Created: cache, its label and icon, note, two arrows, an arrow label. Changed: api (a binding), queue and its label.
    assert.equal(result.merged, 7 + ['api', 'queue', 'queue-label'].length);
  });

  test('new elements get index keys after every existing one, in order', () => {
    const before = build(SERVICES);
    const result = edit(before, { addNodes: [{ id: 'a' }, { id: 'b', icon: 'icon-user' }], addEdges: ['a -> b : x'] });
    const keys = result.elements.map((e) => e.index as string);
    for (let i = 1; i < keys.length; i++) assert.ok(keys[i - 1]! < keys[i]!, `${keys[i - 1]} < ${keys[i]}`);
  });

  test('the same edit of the same scene gives the same elements', () => {
    const fragment = { addNodes: [{ id: 'x' }, { id: 'y', shape: 'diamond' }, { id: 'z' }], addEdges: ['api -> x', 'x -> y', 'y -> db', 'z -- z'] };
    assert.equal(JSON.stringify(edit(build(SERVICES), fragment)), JSON.stringify(edit(build(SERVICES), fragment)));
  });
});

describe('new nodes', () => {
  test('a node added into a container beside a node whose arrows leave just below it goes where no line crosses its arrow\'s label (otel-demo-telemetry-flow)', async () => {
    const { importEntry, loadRealCorpus } = await import('../../bench/quality/real.ts');
    const { spec } = await importEntry(loadRealCorpus().find((e) => e.name === 'otel-demo-telemetry-flow')!);
    // Below "Microservice" the room is free of shapes, but its two dotted arrows turn right there: a label in that gap sat on both.
    const result = edit(build(spec), { addNodes: [{ id: 'cache', label: 'Cache', parent: 'od' }], addEdges: ['ms -> cache : reads'] });
    const about = metIssues(lintScene(result.elements as never)).filter((issue) => issue.elementIds.some((id) => id.startsWith('ms-to-cache')));
    assert.deepEqual(about, []);
  });

  test('are drawn exactly as sceneFromSpec draws spec nodes: the shape, <id>-label, <id>-icon, the lines of an outline, the dot of a marker', () => {
    const nodes = [
      { id: 'long', label: 'A very long label that certainly does not fit on a single line and must wrap' },
      { id: 'round', label: 'Orders database', shape: 'ellipse' },
      { id: 'choice', label: 'Is the user signed in?', shape: 'diamond' },
      { id: 'iconic', label: 'Users', icon: 'icon-user' },
      { id: 'bare', label: '', icon: 'icon-lock' },
      { id: 'caption', label: 'A free-standing note that is long enough to wrap past four hundred pixels of width', shape: 'text' },
      { id: 'store', label: 'Orders', shape: 'cylinder', textColor: '#1971c2', bold: true },
      { id: 'pill', label: 'Checkout', shape: 'stadium' },
      { id: 'sub', label: 'Retry', shape: 'subroutine' },
      { id: 'begin', shape: 'start' },
      { id: 'finish', shape: 'end' },
    ];
    const result = byId(edit(build(SERVICES), { addNodes: nodes }).elements);
    for (const node of nodes) {
      const alone = byId(build({ nodes: [node], edges: [] }));
      for (const id of ['', '-label', '-icon', '-outline', '-top', '-left', '-right', '-dot'].map((suffix) => `${node.id}${suffix}`)) {
        const expected = alone.get(id);
        const actual = result.get(id);
        assert.equal(Boolean(actual), Boolean(expected), `${id} exists in both or neither`);
        if (!expected) continue;
        for (const field of ['type', 'width', 'height', 'text', 'originalText', 'autoResize', 'verticalAlign', 'containerId', 'fileId', 'roundness', 'groupIds', 'points', 'strokeColor', 'backgroundColor', 'customData']) {
          assert.deepEqual(actual[field], expected[field], `${id}.${field}`);
        }
        // Same place relative to the node.
        assert.deepEqual([actual.x - result.get(node.id).x, actual.y - result.get(node.id).y].map(Math.round), [expected.x - alone.get(node.id).x, expected.y - alone.get(node.id).y].map(Math.round), `${id} offset`);
      }
    }
  });

  test('honour explicit x, y, width and height, wrapping the label in that width', () => {
    const label = 'Payment service with a long name';
    const result = byId(edit(build(SERVICES), { addNodes: [{ id: 'pay', label, x: -500, y: 40, width: 130, height: 120 }] }).elements);
    const shape = result.get('pay');
    assert.deepEqual(boxOf(shape), { x: -500, y: 40, width: 130, height: 120 });
    const text = result.get('pay-label');
    assert.equal(text.originalText, label);
    assert.ok(text.text.split('\n').length >= 3, 'wrapped in the narrower box');
    assert.ok(text.width <= getBoundTextMaxWidth('rectangle', 130));
    assert.ok(text.height <= getBoundTextMaxHeight('rectangle', 120));
    assert.ok(Math.abs(text.x + text.width / 2 - (shape.x + 65)) < 0.01 && Math.abs(text.y + text.height / 2 - (shape.y + 60)) < 0.01, 'centred');
    assert.deepEqual(lintScene(result.size ? [...result.values()] : []).filter((i) => i.elementIds.includes('pay')), []);
  });

  test('an explicit width alone sets the height the wrapped label needs', () => {
    const result = byId(edit(build(SERVICES), { addNodes: [{ id: 'pay', label: 'Payment service with a long name', width: 120 }] }).elements);
    const shape = result.get('pay');
    assert.equal(shape.width, 120);
    assert.ok(result.get('pay-label').height <= getBoundTextMaxHeight('rectangle', shape.height));
  });

  test('placed automatically, they overlap nothing and keep 40 px from every shape, text and image', () => {
    const before = build(SERVICES);
    const result = edit(before, {
      addNodes: ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ id, shape: (['rectangle', 'ellipse', 'diamond', 'text'] as const)[i % 4], icon: i % 2 ? 'icon-cloud' : undefined })),
      addEdges: ['api -> a', 'api -> b', 'b -> c', 'db -> d', 'e -> db', 'queue -> f', 'f -> web'],
    });
    const index = byId(result.elements);
    const others = (result.elements as any[]).filter((e) => e.type !== 'arrow');
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const own = new Set([id, `${id}-label`, `${id}-icon`]);
      const box = ((e) => (e.type === 'text' && index.get(`${id}-icon`) ? { ...boxOf(e), y: index.get(`${id}-icon`).y, height: e.y + e.height - index.get(`${id}-icon`).y } : boxOf(e)))(index.get(id));
      for (const other of others) if (!own.has(other.id)) assert.ok(gapBetween(box, boxOf(other)) >= 40 - 1e-6, `${id} keeps 40 px from ${other.id}`);
    }
    assert.deepEqual(lintScene(result.elements).filter((i) => i.kind === 'overlap'), []);
  });

  test('a node following an existing one goes after it in the direction its arrows run', () => {
    for (const [direction, check] of [
      ['TB', (n: Rect, a: Rect) => n.y >= a.y + a.height],
      ['LR', (n: Rect, a: Rect) => n.x >= a.x + a.width],
      ['BT', (n: Rect, a: Rect) => n.y + n.height <= a.y],
    ] as const) {
      const before = build({ nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], edges: ['a -> b', 'b -> c'], layout: { direction } });
      const result = byId(edit(before, { addNodes: [{ id: 'd' }], addEdges: ['c -> d'] }).elements);
      assert.ok(check(boxOf(result.get('d')), boxOf(result.get('c'))), `${direction}: d follows c`);
    }
  });

  test('a node with no edges goes right of the scene, aligned with its top', () => {
    const before = build(SERVICES);
    const elements = before as any[];
    const right = Math.max(...elements.map((e) => e.x + e.width));
    const top = Math.min(...elements.map((e) => e.y));
    const result = byId(edit(before, { addNodes: [{ id: 'lonely' }, { id: 'other' }] }).elements);
    assert.ok(result.get('lonely').x > right);
    assert.equal(result.get('lonely').y, Math.round(top));
    assert.ok(result.get('other').y >= result.get('lonely').y + result.get('lonely').height + 40, 'the next one goes below it');
  });

  test('an empty scene takes new nodes and edges', async () => {
    const result = edit([], { addNodes: [{ id: 'a' }, { id: 'b' }], addEdges: ['a -> b'] });
    assert.equal(result.elements.length, 5);
    assertConsistent(result.elements);
    await assertSurvivesRestore(result.elements);
  });
});

describe('new nodes into a container (parent)', () => {
  const SYSTEM = {
    nodes: [
      { id: 'web', label: 'Web app' },
      { id: 'backend', label: 'Backend' },
      { id: 'api', label: 'Orders API', parent: 'backend' },
      { id: 'db', label: 'Orders DB', shape: 'cylinder', parent: 'backend' },
      { id: 'mail', label: 'Mail relay' },
      { id: 'cloud', label: 'Cloud' },
      { id: 'region', label: 'Region', parent: 'cloud' },
      { id: 'vm', label: 'VM', parent: 'region' },
    ],
    edges: ['web -> api : orders', 'api -> db', 'api -> mail', 'web -> backend', 'web -> vm'],
  };
  const inside = (inner: Rect, outer: Rect, by: number) =>
    inner.x >= outer.x + by - 1e-6 && inner.y >= outer.y + by - 1e-6 && inner.x + inner.width <= outer.x + outer.width - by + 1e-6 && inner.y + inner.height <= outer.y + outer.height - by + 1e-6;
  const meet = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  /** After the edit: each new node lies inside its container (20 px in, below its header), the containers around it hold it, and no two shapes meet that did not meet before. */
  function assertHeld(before: SceneElement[], after: SceneElement[], members: Record<string, string[]>) {
    const was = byId(before);
    const now = byId(after);
    for (const [node, chain] of Object.entries(members)) {
      let inner = boxOf(now.get(node));
      for (const container of chain) {
        const outer = boxOf(now.get(container));
        assert.ok(inside(inner, outer, 20), `${container} holds ${node} with 20 px to spare`);
        const header = now.get(`${container}-label`);
        assert.ok(header.y + header.height <= inner.y - 20 + 1e-6, `${node} sits below the header of ${container}`);
        assert.ok(inside(boxOf(header), outer, 0), `${container}'s label stays inside it`);
        inner = outer;
      }
    }
    const shapes = (after as any[]).filter((e) => ['rectangle', 'ellipse', 'diamond'].includes(e.type));
    for (const a of shapes) {
      for (const b of shapes) {
        if (a.id >= b.id || !meet(boxOf(a), boxOf(b)) || inside(boxOf(a), boxOf(b), 0) || inside(boxOf(b), boxOf(a), 0)) continue;
        assert.ok(was.get(a.id) && was.get(b.id) && meet(boxOf(was.get(a.id)), boxOf(was.get(b.id))), `${a.id} and ${b.id} meet only if they met before`);
      }
    }
    assertConsistent(after);
    assert.deepEqual(metIssues(lintScene(after)).filter((i) => ['overlap', 'edge_through_shape', 'label_overlap'].includes(i.kind)), []);
  }

  test('goes where there is room inside, and the container keeps its size', () => {
    const before = build({ ...SYSTEM, nodes: [...SYSTEM.nodes, { id: 'spare', label: 'Spare', parent: 'backend' }, { id: 'spare2', label: 'Spare 2', parent: 'backend' }] });
    // Room left where two members stood.
    const hollow = before.filter((e) => !['spare', 'spare-label', 'spare2', 'spare2-label'].includes(e.id)).map((e: any) => (e.boundElements ? { ...e, boundElements: e.boundElements.filter((b: any) => !b.id.startsWith('spare')) } : e));
    const result = edit(hollow, { addNodes: [{ id: 'cache', label: 'Cache', parent: 'backend' }] });
    assert.equal(geometry(byId(result.elements).get('backend')), geometry(byId(hollow).get('backend')), 'the container keeps its box');
    assertHeld(hollow, result.elements, { cache: ['backend'] });
  });

  test('a full container grows to hold it, and so do the containers around it, clear of every other shape', async () => {
    const before = build(SYSTEM);
    const result = edit(before, { addNodes: [{ id: 'cache', label: 'Redis cache', parent: 'backend' }, { id: 'vm2', label: 'VM 2', parent: 'region' }], addEdges: ['api -> cache : reads', 'vm -> vm2'] });
    const was = byId(before);
    const now = byId(result.elements);
    for (const id of ['backend', 'region', 'cloud']) assert.ok(boxOf(now.get(id)).width * boxOf(now.get(id)).height > boxOf(was.get(id)).width * boxOf(was.get(id)).height, `${id} grew`);
    assertHeld(before, result.elements, { cache: ['backend'], vm2: ['region', 'cloud'] });
    // An arrow ending on a container's side that moved ends there still.
    for (const arrow of (result.elements as any[]).filter((e) => e.type === 'arrow' && [e.startBinding?.elementId, e.endBinding?.elementId].includes('backend'))) {
      const end = arrow.endBinding.elementId === 'backend' ? arrow.points.at(-1) : arrow.points[0];
      const box = boxOf(now.get('backend'));
      const [x, y] = [arrow.x + end[0], arrow.y + end[1]];
      const off = Math.min(Math.abs(x - box.x), Math.abs(x - box.x - box.width), Math.abs(y - box.y), Math.abs(y - box.y - box.height));
      assert.ok(off <= 6, `${arrow.id} still ends on backend's outline (${off} px off)`);
    }
    await assertSurvivesRestore(result.elements);
  });

  test('a container whose label sits on the right grows with its icon still beside the label', () => {
    const spec = { ...SYSTEM, nodes: SYSTEM.nodes.map((node) => (node.id === 'backend' ? { ...node, icon: 'icon-kubernetes' } : node)) };
    const before = sceneFromSpec(parseSpec(spec, options), {
      updated: 1,
      layout: (input) => {
        const result = layoutGraph(input);
        result.nodes.backend!.labelAlign = 'right';
        return result;
      },
    }) as SceneElement[];
    const backend = boxOf(byId(before).get('backend'));
    const result = edit(before, { addNodes: [{ id: 'far', label: 'Far', parent: 'backend', x: backend.x + backend.width + 200, y: backend.y + 40 }] });
    const now = byId(result.elements);
    const [label, icon, grown] = [now.get('backend-label'), now.get('backend-icon'), boxOf(now.get('backend'))];
    assert.ok(grown.width > backend.width, 'backend grew to the right');
    assert.ok(Math.abs(label.x + label.width - (grown.x + grown.width - HEADER_SIDE_INSET)) < 1, `the label stays on the right, ${HEADER_SIDE_INSET} px in`);
    assert.ok(Math.abs(icon.x + icon.width + ICON_GAP - label.x) < 1, 'the icon stays just before the label');
  });

  test('an explicit position inside or outside: the containers grow to hold it', () => {
    const before = build(SYSTEM);
    const backend = boxOf(byId(before).get('backend'));
    const result = edit(before, { addNodes: [{ id: 'far', label: 'Far', parent: 'backend', x: backend.x + 20, y: backend.y + backend.height + 200 }] });
    const grown = boxOf(byId(result.elements).get('backend'));
    assert.ok(inside(boxOf(byId(result.elements).get('far')), grown, 20), 'backend reaches down to hold far');
  });
});

describe('new edges', () => {
  test('are bound at both ends, listed in both shapes, with contract ids that avoid existing ones', () => {
    const before = build({ nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] });
    const result = edit(before, { addEdges: ['a -> b : again', { from: 'b', to: 'a', arrowhead: 'triangle', startArrowhead: 'dot', style: 'dotted' }, 'a -> b'] });
    assert.deepEqual(result.added, ['a-to-b-2', 'b-to-a', 'a-to-b-3']);
    const index = byId(result.elements);
    for (const id of result.added) {
      const arrow = index.get(id);
      assert.equal(arrow.startBinding.gap, 4);
      assert.ok(Math.abs(arrow.startBinding.focus) <= 1 && Math.abs(arrow.endBinding.focus) <= 1);
      assert.deepEqual(arrow.points[0], [0, 0]);
      assert.equal(arrow.roundness, null);
    }
    const reverse = index.get('b-to-a');
    assert.deepEqual([reverse.startArrowhead, reverse.endArrowhead, reverse.strokeStyle], ['dot', 'triangle', 'dotted']);
    assert.equal(index.get('a-to-b-2-label').containerId, 'a-to-b-2');
    assert.deepEqual(index.get('a-to-b-2').boundElements, [{ id: 'a-to-b-2-label', type: 'text' }]);
    assertConsistent(result.elements);
    assert.deepEqual(metIssues(lintScene(result.elements)).filter((i) => i.kind !== 'outlier'), []);
  });

  test('end on the outlines with the binding gap and run orthogonally around what is in the way', () => {
    const before = build({ nodes: [{ id: 'top' }, { id: 'middle' }, { id: 'bottom', shape: 'ellipse' }], edges: ['top -> middle', 'middle -> bottom'] });
    const result = byId(edit(before, { addEdges: ['top -> bottom'] }).elements);
    const arrow = result.get('top-to-bottom');
    const points: Array<[number, number]> = arrow.points.map(([x, y]: number[]) => [arrow.x + x, arrow.y + y]);
    for (let i = 1; i < points.length; i++) assert.ok(points[i]![0] === points[i - 1]![0] || points[i]![1] === points[i - 1]![1], 'axis-parallel segments');
    const middle = boxOf(result.get('middle'));
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1]!, points[i]!];
      const inside = Math.max(a[0], b[0]) > middle.x && Math.min(a[0], b[0]) < middle.x + middle.width && Math.max(a[1], b[1]) > middle.y && Math.min(a[1], b[1]) < middle.y + middle.height;
      assert.ok(!inside, 'the route does not cross the shape in between');
    }
    const top = boxOf(result.get('top'));
    const start = points[0]!;
    assert.ok(Math.abs(gapBetween({ x: start[0], y: start[1], width: 0, height: 0 }, top) - 4) < 0.01, 'the start is 4 px off the source');
    const bottom = result.get('bottom');
    const end = points[points.length - 1]!;
    const [cx, cy, rx, ry] = [bottom.x + bottom.width / 2, bottom.y + bottom.height / 2, bottom.width / 2, bottom.height / 2];
    assert.ok(((end[0] - cx) / rx) ** 2 + ((end[1] - cy) / ry) ** 2 > 1, 'the end lies outside the ellipse');
  });

  test('a labelled edge to a new node keeps at least 20 px of visible arrow on each side of its label (docs/editing.md says how much)', async () => {
    const doc = (await readFile(new URL('../../docs/editing.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
    assert.match(doc, new RegExp(`at least ${LABEL_CLEARANCE} px of visible line on each side of its label`));
    /** The arrow's length before it enters its label's box, and after it leaves it. */
    const visibleEnds = (arrow: any, label: any): [number, number] => {
      const points: Array<[number, number]> = arrow.points.map(([x, y]: number[]) => [arrow.x + x, arrow.y + y]);
      const inside = ([x, y]: [number, number]) => x > label.x && x < label.x + label.width && y > label.y && y < label.y + label.height;
      const steps: boolean[] = [];
      let total = 0;
      for (let i = 1; i < points.length; i++) {
        const [a, b] = [points[i - 1]!, points[i]!];
        const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
        for (let t = 0; t < length; t++) steps.push(inside([a[0] + ((b[0] - a[0]) * t) / length, a[1] + ((b[1] - a[1]) * t) / length]));
        total += length;
      }
      const first = steps.indexOf(true);
      const last = steps.lastIndexOf(true);
      assert.ok(first >= 0, 'the label sits on its arrow');
      return [first, total - last - 1];
    };
    for (const direction of ['TB', 'LR'] as const) {
      const before = build({ nodes: [{ id: 'api', label: 'Orders API' }, { id: 'q', label: 'Queue', shape: 'cylinder' }], edges: ['api -> q : publish'], layout: { direction } });
      for (const label of ['consume', 'consume order events and send the receipts']) {
        const index = byId(edit(before, { addNodes: [{ id: 'mail', label: 'Mailer' }], addEdges: [`q -> mail : ${label}`] }).elements);
        const [head, tail] = visibleEnds(index.get('q-to-mail'), index.get('q-to-mail-label'));
        assert.ok(head >= LABEL_CLEARANCE - 1 && tail >= LABEL_CLEARANCE - 1, `${direction}, "${label}": ${head} and ${tail} px of arrow either side of the label`);
      }
    }
  });

  test('may join an existing node to itself or to a new node, and a standalone text', () => {
    const before = build({ nodes: [{ id: 'a' }, { id: 'note', shape: 'text' }], edges: [] });
    const result = edit(before, { addNodes: [{ id: 'b' }], addEdges: ['a -> a : retry', 'note -- b', 'b -> a'] });
    assertConsistent(result.elements);
    const index = byId(result.elements);
    assert.deepEqual(index.get('a').boundElements.filter((b: any) => b.type === 'arrow').map((b: any) => b.id), ['a-to-a', 'b-to-a']);
    assert.ok(index.get('a-to-a').width > 0 && index.get('a-to-a').height > 0);
  });
});

describe('updateNodes', () => {
  test('restyles the shape; a new strokeColor recolours its label', () => {
    const index = byId(edit(build(SERVICES), { updateNodes: [{ id: 'api', strokeColor: '#e03131', backgroundColor: '#ffc9c9', fillStyle: 'cross-hatch' }] }).elements);
    assert.deepEqual([index.get('api').strokeColor, index.get('api').backgroundColor, index.get('api').fillStyle], ['#e03131', '#ffc9c9', 'cross-hatch']);
    assert.equal(index.get('api-label').strokeColor, '#e03131');
  });

  test('a new label is wrapped and centred in the container, which keeps its size', () => {
    const before = byId(build(SERVICES));
    const label = 'Public API gateway';
    const index = byId(edit([...before.values()], { updateNodes: [{ id: 'api', label }] }).elements);
    const shape = index.get('api');
    assert.equal(geometry(shape), geometry(before.get('api')));
    const text = index.get('api-label');
    assert.equal(text.originalText, label);
    assert.ok(text.text.includes('\n'), 'wrapped');
    assert.deepEqual([text.width, text.height], [measureText(text.text, 20, 5).width, measureText(text.text, 20, 5).height]);
    assert.ok(text.width <= getBoundTextMaxWidth('rectangle', shape.width));
    assert.ok(Math.abs(text.x + text.width / 2 - (shape.x + shape.width / 2)) < 0.01 && Math.abs(text.y + text.height / 2 - (shape.y + shape.height / 2)) < 0.01, 're-centred');
  });

  test('a label too big at its font size keeps the node as it is and takes the largest smaller font size that fits', async () => {
    // A 49-character label on a 150 × 60 rectangle, with a label and without one yet.
    const label = 'Order service: validates carts and reserves stock';
    assert.equal(label.length, 49);
    const before = edit(build(SERVICES), {
      addNodes: [
        { id: 'orders', label: 'Orders', x: 0, y: 400, width: 150, height: 60 },
        { id: 'blank', label: '', x: 300, y: 400, width: 150, height: 60 },
      ],
    }).elements;
    const result = edit(before, { updateNodes: [{ id: 'orders', label }, { id: 'blank', label }] });
    const index = byId(result.elements);
    for (const id of ['orders', 'blank']) {
      const shape = index.get(id);
      assert.equal(geometry(shape), geometry(byId(before).get(id)), `${id} keeps its place and size`);
      const text = index.get(`${id}-label`);
      const [areaWidth, areaHeight] = [getBoundTextMaxWidth('rectangle', 150), getBoundTextMaxHeight('rectangle', 60)];
      const fits = (fontSize: number) => {
        const size = measureText(wrapText(label, fontSize, areaWidth, 5), fontSize, 5);
        return size.width <= areaWidth && size.height <= areaHeight;
      };
      assert.ok(!fits(20), 'the label does not fit at 20 px');
      assert.ok(text.fontSize < 20 && text.fontSize >= 12, `shrunk within the floor, to ${text.fontSize} px`);
      assert.ok(fits(text.fontSize) && !fits(text.fontSize + 1), 'the largest whole font size that fits');
      assert.equal(text.text, wrapText(label, text.fontSize, areaWidth, 5));
      assert.deepEqual([text.width, text.height], [measureText(text.text, text.fontSize, 5).width, measureText(text.text, text.fontSize, 5).height]);
      assert.ok(text.width <= areaWidth && text.height <= areaHeight, 'the wrapped text fits the text area');
      await assertLabelAsTheEditorDrawsIt(shape, text);
    }
    assertConsistent(result.elements);
    await assertSurvivesRestore(result.elements, { refreshDimensions: true });
  });

  test('a label shrinks to no less than 60 % of its font size, and never under 12 px', () => {
    assert.deepEqual([20, 28, 16, 36, 12, 10].map(fontSizeFloor), [12, 17, 12, 22, 12, 10]);
    // The ellipse's label fits at 12 px: the floor of a 20 px label, so it is accepted there.
    const index = byId(edit(build(SERVICES), { updateNodes: [{ id: 'db', label: 'The primary orders database cluster' }] }).elements);
    assert.equal(index.get('db-label').fontSize, 12);
  });

  test('a label that does not fit even at the smallest font size is refused with INVALID_SPEC, naming the node and the sizes, and nothing changes', () => {
    const before = build(SERVICES);
    const frozen = structuredClone(before);
    const db = byId(before).get('db');
    const room = `${getBoundTextMaxWidth('ellipse', db.width)} × ${getBoundTextMaxHeight('ellipse', db.height)} px`;
    assertRefused(
      () => edit(before, { updateNodes: [{ id: 'web', label: 'Web' }, { id: 'db', label: 'The primary orders database cluster, its read replicas and the nightly backups' }] }),
      'INVALID_SPEC',
      new RegExp(
        `^updateNodes\\[1\\] \\(id "db"\\)\\.label does not fit the ellipse even at the smallest font size, 12 px \\(shrunk from 20 px\\): ` +
          `it needs \\d+ × \\d+ px and the ellipse leaves ${room} for its label; an edit never resizes a node: shorten the label, or resize the node with patch first$`,
      ),
    );
    assert.deepEqual(before, frozen);
  });

  test('a node with an icon keeps the icon where it is; its new label goes below it, clear of it, shrinking if it must, or is refused', async () => {
    const before = build({ nodes: [{ id: 'user', label: 'User', icon: 'icon-user' }], edges: [] });
    const result = edit(before, { updateNodes: [{ id: 'user', label: 'Site reliability engineers' }] });
    const index = byId(result.elements);
    const [icon, label, shape] = [index.get('user-icon'), index.get('user-label'), index.get('user')];
    assert.equal(icon, byId(before).get('user-icon'));
    assert.equal(geometry(shape), geometry(byId(before).get('user')));
    assert.ok(label.fontSize < 20, `shrunk to ${label.fontSize} px`);
    assert.ok(label.y >= icon.y + icon.height + ICON_GAP - 0.5, 'below the icon, clear of it');
    assert.ok(label.y + label.height <= shape.y + shape.height);
    await assertLabelAsTheEditorDrawsIt(shape, label);
    await assertSurvivesRestore(result.elements, { refreshDimensions: true });
    assertRefused(
      () => edit(before, { updateNodes: [{ id: 'user', label: 'Administrators, operators, release managers and the on-call engineers' }] }),
      'INVALID_SPEC',
      /updateNodes\[0\] \(id "user"\)\.label does not fit the rectangle even at the smallest font size, 12 px \(shrunk from 20 px\): it needs \d+ × 60 px and the rectangle leaves 150 × 35 px for its label below its icon/,
    );
  });

  test('a node without a label gets <id>-label; a text node is re-measured where it stands', async () => {
    const before = build({ nodes: [{ id: 'box', label: '' }, { id: 'note', shape: 'text', label: 'short' }], edges: ['box -> note'] });
    const result = edit(before, { updateNodes: [{ id: 'box', label: 'Now named' }, { id: 'note', label: 'a much longer caption' }] });
    const index = byId(result.elements);
    assert.equal(index.get('box-label').containerId, 'box');
    assert.deepEqual(index.get('box').boundElements.at(-1), { id: 'box-label', type: 'text' });
    const note = index.get('note');
    const old = byId(before).get('note');
    assert.deepEqual([note.x, note.y], [old.x, old.y]);
    assert.equal(note.width, measureText('a much longer caption', 20, 5).width);
    assert.equal(result.merged, 3, 'box, its new label, note');
    assertConsistent(result.elements);
    await assertSurvivesRestore(result.elements);
  });
});

describe('refused fragments name the item and change nothing', () => {
  const scene = () => build({ nodes: [{ id: 'api' }, { id: 'db' }, { id: 'empty', label: '' }, { id: 'taken-label', shape: 'text' }, { id: 'round', shape: 'ellipse' }], edges: ['api -> db'] });
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['a fragment that is not an object', [], 'INVALID_SPEC', /edit fragment must be an object/],
    ['an unknown top-level field', { addNodes: [{ id: 'x' }], removeNodes: [] }, 'INVALID_SPEC', /unknown field "removeNodes"/],
    ['a list that is not an array', { addNodes: { id: 'x' } }, 'INVALID_SPEC', /addNodes must be an array/],
    ['an empty fragment', { addNodes: [], addEdges: [] }, 'INVALID_SPEC', /changes nothing/],
    ['a node without an id', { addNodes: [{ label: 'x' }] }, 'MISSING_NODE_ID', /^addNodes\[0\] has no id/],
    ['a node that is not an object', { addNodes: ['x'] }, 'MISSING_NODE_ID', /^addNodes\[0\]/],
    ['an unknown shape', { addNodes: [{ id: 'x', shape: 'octagon' }] }, 'UNKNOWN_SHAPE', /^addNodes\[0\] \(id "x"\)\.shape/],
    ['an unknown icon', { addNodes: [{ id: 'x', icon: 'icon-nope' }] }, 'UNKNOWN_ICON', /^addNodes\[0\] \(id "x"\)\.icon "icon-nope"/],
    ['an unknown node field', { addNodes: [{ id: 'x', colour: 'red' }] }, 'INVALID_SPEC', /addNodes\[0\] \(id "x"\) has an unknown field "colour"/],
    ['a bad colour', { addNodes: [{ id: 'x', strokeColor: 'red;' }] }, 'INVALID_SPEC', /addNodes\[0\] \(id "x"\)\.strokeColor/],
    ['a parent that is a plain node', { addNodes: [{ id: 'x', parent: 'api' }] }, 'INVALID_SPEC', /addNodes\[0\] \(id "x"\)\.parent names "api", a rectangle that holds nothing and has its label in the middle/],
    ['a parent the diagram lacks', { addNodes: [{ id: 'x', parent: 'nowhere' }] }, 'INVALID_SPEC', /addNodes\[0\] \(id "x"\)\.parent names "nowhere", which is not an element of the diagram/],
    ['a parent that is not a rectangle', { addNodes: [{ id: 'x', parent: 'round' }] }, 'INVALID_SPEC', /addNodes\[0\] \(id "x"\)\.parent names "round", an ellipse; a container is a rectangle/],
    ['x without y', { addNodes: [{ id: 'x', x: 10 }] }, 'INVALID_SPEC', /addNodes\[0\] \(id "x"\): give both x and y/],
    ['a width too small for the label', { addNodes: [{ id: 'x', label: 'a label of several words', width: 100, height: 30 }] }, 'INVALID_SPEC', /addNodes\[0\] \(id "x"\): its label needs a rectangle of at least \d+ × \d+ px/],
    ['a node id the diagram has', { addNodes: [{ id: 'db' }] }, 'DUPLICATE_NODE_ID', /addNodes\[0\] \(id "db"\): the diagram already has/],
    ['a node id a label in the diagram has', { addNodes: [{ id: 'api-label' }] }, 'DUPLICATE_NODE_ID', /addNodes\[0\] \(id "api-label"\)/],
    ['a node id twice', { addNodes: [{ id: 'x' }, { id: 'x' }] }, 'DUPLICATE_NODE_ID', /addNodes\[1\] \(id "x"\) repeats the id of addNodes\[0\]/],
    ['a node id the merge generates for an arrow', { addNodes: [{ id: 'x' }, { id: 'x-to-api' }], addEdges: ['x -> api'] }, 'ID_COLLISION', /addNodes\[1\] \(id "x-to-api"\) collides with the id generated for the arrow of addEdges\[0\] "x -> api"/],
    ['a node id the merge generates for a head label', { addNodes: [{ id: 'x' }, { id: 'x-to-api-head-label' }], addEdges: [{ from: 'x', to: 'api', headLabel: '1' }] }, 'ID_COLLISION', /addNodes\[1\] \(id "x-to-api-head-label"\) collides with the id generated for the head label of addEdges\[0\] "x -> api"/],
    ['a head label that is not text', { addEdges: [{ from: 'api', to: 'db', headLabel: 1 }] }, 'MALFORMED_EDGE', /addEdges\[0\] "api -> db"\.headLabel must be a string/],
    ['a node id the merge generates for a label', { addNodes: [{ id: 'x' }, { id: 'x-label' }] }, 'ID_COLLISION', /addNodes\[1\] \(id "x-label"\) collides with the id generated for the label of addNodes\[0\]/],
    ['a node id the merge generates for a new label', { addNodes: [{ id: 'empty-label' }], updateNodes: [{ id: 'empty', label: 'Named' }] }, 'ID_COLLISION', /addNodes\[0\] \(id "empty-label"\) collides/],
    ['a node whose label id the diagram has', { addNodes: [{ id: 'taken' }] }, 'ID_COLLISION', /addNodes\[0\] \(id "taken"\): the id "taken-label" generated for the label of addNodes\[0\] is already used/],
    ['an edge to nothing', { addEdges: ['api -> cache'] }, 'DANGLING_EDGE', /^addEdges\[0\] "api -> cache" names "cache", which is neither/],
    ['an edge to an arrow', { addEdges: ['api -> api-to-db'] }, 'DANGLING_EDGE', /addEdges\[0\] "api -> api-to-db" names "api-to-db", which is an arrow/],
    ['an edge to a label', { addEdges: [{ from: 'api-label', to: 'db' }] }, 'DANGLING_EDGE', /names "api-label", which is the label of "api"/],
    ['a shorthand without an arrow', { addEdges: ['api db'] }, 'MALFORMED_SHORTHAND', /^addEdges\[0\] "api db": the arrow is missing/],
    ['an edge object without a target', { addEdges: [{ from: 'api' }] }, 'MALFORMED_EDGE', /^addEdges\[0\] needs "to"/],
    ['a bad arrowhead', { addEdges: [{ from: 'api', to: 'db', arrowhead: 'spear' }] }, 'MALFORMED_EDGE', /addEdges\[0\] "api -> db"\.arrowhead/],
    ['a geometry field in an update', { updateNodes: [{ id: 'api', width: 300 }] }, 'INVALID_SPEC', /^updateNodes\[0\] \(id "api"\): "width" cannot be changed by edit; use patch/],
    ['a position in an update', { updateNodes: [{ id: 'api', x: 3 }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\): "x" cannot be changed by edit/],
    ['a shape in an update', { updateNodes: [{ id: 'api', shape: 'ellipse' }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\): "shape" cannot be changed by edit/],
    ['another field in an update', { updateNodes: [{ id: 'api', icon: 'icon-user' }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\) has an unknown field "icon"/],
    ['an update of an unknown id', { updateNodes: [{ id: 'ghost', label: 'x' }] }, 'INVALID_SPEC', /^updateNodes\[0\] \(id "ghost"\) is not a node of the diagram/],
    ['an update of an arrow', { updateNodes: [{ id: 'api-to-db', strokeColor: '#000' }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api-to-db"\) is an arrow, not a node/],
    ['an update without an id', { updateNodes: [{ label: 'x' }] }, 'INVALID_SPEC', /^updateNodes\[0\] needs "id"/],
    ['an update that changes nothing', { updateNodes: [{ id: 'api' }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\) changes nothing/],
    ['an empty label', { updateNodes: [{ id: 'api', label: '' }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\)\.label is empty/],
    ['a null field', { updateNodes: [{ id: 'api', strokeColor: null }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\)\.strokeColor is null/],
    ['a bad colour in an update', { updateNodes: [{ id: 'api', backgroundColor: 'url(x)' }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\)\.backgroundColor must be a CSS colour/],
    ['a bad fill style in an update', { updateNodes: [{ id: 'api', fillStyle: 'dots' }] }, 'INVALID_SPEC', /updateNodes\[0\] \(id "api"\)\.fillStyle must be one of/],
    ['the same node updated twice', { updateNodes: [{ id: 'api', label: 'a' }, { id: 'api', strokeColor: '#000' }] }, 'INVALID_SPEC', /updateNodes\[1\] \(id "api"\) repeats the id of updateNodes\[0\]/],
    ['a label over 500 characters', { updateNodes: [{ id: 'api', label: 'x'.repeat(501) }] }, 'SPEC_TOO_LARGE', /updateNodes\[0\] \(id "api"\)\.label is 501 characters long/],
    ['too many new nodes', { addNodes: Array.from({ length: EDIT_LIMITS.addNodes + 1 }, (_, i) => ({ id: `n${i}` })) }, 'SPEC_TOO_LARGE', /1001 addNodes; the limit is 1000/],
    ['too many new edges', { addEdges: Array.from({ length: EDIT_LIMITS.addEdges + 1 }, () => 'api -> db') }, 'SPEC_TOO_LARGE', /2001 addEdges; the limit is 2000/],
    ['too many updates', { updateNodes: Array.from({ length: EDIT_LIMITS.updateNodes + 1 }, () => ({ id: 'api', label: 'x' })) }, 'SPEC_TOO_LARGE', /1001 updateNodes; the limit is 1000/],
    ['a forbidden key', JSON.parse('{"addNodes":[{"id":"x","__proto__":{}}]}'), 'PROTO_KEY', /addNodes\[0\]\.__proto__/],
  ];
  for (const [name, fragment, code, message] of cases) {
    test(`${name}: ${code}`, () => {
      const before = scene();
      const frozen = structuredClone(before);
      assertRefused(() => edit(before, fragment), code, message);
      assert.deepEqual(before, frozen);
    });
  }

  test('a scene pushed past 5000 elements: SCENE_TOO_LARGE', () => {
    const before = Array.from({ length: 4995 }, (_, i) => ({ id: `r${i}`, type: 'rectangle', x: (i % 100) * 200, y: Math.floor(i / 100) * 100, width: 160, height: 70 }));
    assertRefused(() => edit(before, { addNodes: [{ id: 'a' }, { id: 'b' }], addEdges: ['a -> b : one more'] }), 'SCENE_TOO_LARGE', /5001 elements; the limit is 5000/);
  });
});

// ---------------------------------------------------------------------------
// Fuzz: random scenes from specs, random valid edits in sequence, invariants after each.

const WORDS = ['api', 'Orders', 'database', 'cache', 'queue', 'auth service', 'Billing', 'worker', 'gateway', 'search index', 'ü', '数据'];
const SHAPES = ['rectangle', 'ellipse', 'diamond', 'text'] as const;
const ICONS = ['icon-user', 'icon-server', 'icon-postgresql', 'icon-lock', 'icon-cloud'];

const labelArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const nodeArb = fc.record({ shape: fc.constantFrom(...SHAPES), label: fc.option(labelArb, { nil: undefined }), icon: fc.option(fc.constantFrom(...ICONS), { freq: 4, nil: undefined }) });
const specArb = fc.record({
  nodes: fc.array(nodeArb, { minLength: 2, maxLength: 7 }),
  edges: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 8 }),
  unlabelled: fc.nat({ max: 3 }),
  direction: fc.constantFrom('TB', 'LR', 'BT', 'RL'),
});
const stepArb = fc.record({
  nodes: fc.array(fc.record({ shape: fc.constantFrom(...SHAPES), label: fc.option(labelArb, { nil: undefined }), icon: fc.option(fc.constantFrom(...ICONS), { freq: 4, nil: undefined }), explicit: fc.nat({ max: 5 }) }), { maxLength: 3 }),
  edges: fc.array(fc.record({ from: fc.nat(), to: fc.nat(), label: fc.option(labelArb, { freq: 3, nil: undefined }), object: fc.boolean() }), { maxLength: 4 }),
  updates: fc.array(fc.record({ target: fc.nat(), colour: fc.option(fc.constantFrom('#e03131', '#1971c2', 'transparent'), { nil: undefined }), label: fc.option(fc.constantFrom('Renamed', 'db', 'New name', 'x', 'Order service: validates carts and reserves stock'), { nil: undefined }) }), { maxLength: 2 }),
  invalid: fc.option(fc.constantFrom('duplicate', 'dangling', 'geometry', 'unknown-update', 'collision'), { freq: 5, nil: undefined }),
});

function specFrom(input: any) {
  const nodes = input.nodes.map((n: any, i: number) => ({ id: `n${i}`, shape: n.shape, ...(n.label ? { label: n.label } : {}), ...(n.icon ? { icon: n.icon } : {}), ...(i < input.unlabelled ? { label: '' } : {}) }));
  const edges = input.edges.map(([a, b, labelled]: [number, number, boolean]) => `n${a % nodes.length} -> n${b % nodes.length}${labelled ? ' : uses' : ''}`);
  return { nodes, edges, layout: { direction: input.direction } };
}

function bindableIds(elements: SceneElement[]): string[] {
  return (elements as any[]).filter((e) => !e.isDeleted && (['rectangle', 'ellipse', 'diamond'].includes(e.type) || (e.type === 'text' && !e.containerId))).map((e) => e.id);
}

function fragmentFrom(step: any, elements: SceneElement[], stepNo: number) {
  const existing = bindableIds(elements);
  const all = elements as any[];
  const bottom = Math.max(0, ...all.map((e) => e.y + Math.max(e.height, 0)));
  const left = Math.min(0, ...all.map((e) => e.x));
  const addNodes = step.nodes.map((n: any, k: number) => ({
    id: `s${stepNo}n${k}`,
    shape: n.shape,
    ...(n.label ? { label: n.label } : {}),
    ...(n.icon ? { icon: n.icon } : {}),
    // Explicit positions go below everything, so they too overlap nothing.
    ...(n.explicit === 0 ? { x: Math.round(left), y: Math.round(bottom + 200 + k * 300) } : {}),
  }));
  const ids = [...existing, ...addNodes.map((n: any) => n.id)];
  const addEdges = step.edges.map((e: any) => {
    const [from, to] = [ids[e.from % ids.length]!, ids[e.to % ids.length]!];
    return e.object ? { from, to, ...(e.label ? { label: e.label } : {}) } : `"${from}" -> "${to}"${e.label ? ` : ${e.label}` : ''}`;
  });
  const targets = [...new Set(step.updates.map((u: any) => existing[u.target % existing.length]!))];
  const updateNodes = targets
    .map((id, k) => {
      const u = step.updates[k];
      return { id, ...(u.colour ? { strokeColor: u.colour } : {}), ...(u.label ? { label: u.label } : {}) };
    })
    .filter((u: any) => Object.keys(u).length > 1);
  return { addNodes, addEdges, updateNodes };
}

function invalidFrom(kind: string, elements: SceneElement[], fragment: any): { fragment: unknown; code: string } {
  const existing = bindableIds(elements);
  switch (kind) {
    case 'duplicate':
      return { fragment: { ...fragment, addNodes: [...fragment.addNodes, { id: existing[0] }] }, code: 'DUPLICATE_NODE_ID' };
    case 'dangling':
      return { fragment: { ...fragment, addEdges: [...fragment.addEdges, `"${existing[0]}" -> nowhere`] }, code: 'DANGLING_EDGE' };
    case 'geometry':
      return { fragment: { ...fragment, updateNodes: [...fragment.updateNodes.filter((u: any) => u.id !== existing[0]), { id: existing[0], height: 10 }] }, code: 'INVALID_SPEC' };
    case 'unknown-update':
      return { fragment: { ...fragment, updateNodes: [{ id: 'no-such-node', label: 'x' }] }, code: 'INVALID_SPEC' };
    default:
      return { fragment: { ...fragment, addNodes: [{ id: 'fresh' }, { id: 'fresh-to-fresh' }], addEdges: ['fresh -> fresh'] }, code: 'ID_COLLISION' };
  }
}

/** Elements the fragment creates: each node, its label and icon, each arrow and its label, each label an update adds. */
function expectedCreated(fragment: any, elements: SceneElement[]): number {
  const index = byId(elements);
  const labelled = new Set((elements as any[]).filter((e) => e.type === 'text' && e.containerId && !e.isDeleted).map((e) => e.containerId));
  let count = 0;
  for (const n of fragment.addNodes) count += 1 + (n.shape !== 'text' && n.label !== '' ? 1 : 0) + (n.icon ? 1 : 0);
  for (const e of fragment.addEdges) count += 1 + ((typeof e === 'string' ? e.includes(' : ') : e.label) ? 1 : 0);
  for (const u of fragment.updateNodes) if (u.label && index.get(u.id).type !== 'text' && !labelled.has(u.id)) count += 1;
  return count;
}

describe('fuzz: random edits of random scenes keep every invariant', () => {
  // A seed that once found a bug joins this list.
  for (const seed of [20250614, 3, 11]) test(`seed ${seed}`, async () => {
    let restores = 0;
    await fc.assert(
      fc.asyncProperty(specArb, fc.array(stepArb, { minLength: 1, maxLength: 5 }), async (specInput, steps) => {
        let elements = build(specFrom(specInput));
        for (const [stepNo, step] of steps.entries()) {
          const fragment = fragmentFrom(step, elements, stepNo);
          if (fragment.addNodes.length + fragment.addEdges.length + fragment.updateNodes.length === 0) continue;
          const frozen = JSON.stringify(elements);
          if (step.invalid) {
            const { fragment: bad, code } = invalidFrom(step.invalid, elements, fragment);
            assert.throws(() => editAsServed(elements, bad, stampOf(), options), (error: unknown) => error instanceof ApiError && error.code === code);
            assert.equal(JSON.stringify(elements), frozen, 'a refused edit changes nothing');
          }
          let result;
          try {
            result = editAsServed(elements, fragment, stampOf(NOW + stepNo), options);
          } catch (error) {
            // A new label too big for its fixed container even at the smallest font is refused; the same edit without label changes goes through.
            if (!(error instanceof ApiError && /\.label does not fit/.test(error.message))) throw error;
            assert.equal(JSON.stringify(elements), frozen, 'a refused edit changes nothing');
            fragment.updateNodes = fragment.updateNodes.map(({ label: _label, ...rest }: any) => rest).filter((u: any) => Object.keys(u).length > 1);
            if (fragment.addNodes.length + fragment.addEdges.length + fragment.updateNodes.length === 0) continue;
            result = editAsServed(elements, fragment, stampOf(NOW + stepNo), options);
          }
          assert.equal(JSON.stringify(elements), frozen, 'the input is not mutated');
          assert.equal(result.elements.length, elements.length + expectedCreated(fragment, elements), 'element count = before + created');
          assertConsistent(result.elements);

          // Only a relabelled node's label (or a relabelled text node) changes size; no other element moves.
          const index = byId(elements);
          const relabelled = new Set(fragment.updateNodes.filter((u: any) => u.label).map((u: any) => (index.get(u.id).type === 'text' ? u.id : `${u.id}-label`)));
          const after = byId(result.elements);
          let changed = 0;
          for (const old of elements as any[]) {
            const now = after.get(old.id);
            if (!relabelled.has(old.id)) assert.equal(geometry(now), geometry(old), `${old.id} keeps its geometry`);
            if (now === old) continue;
            changed++;
            assert.deepEqual([now.version, now.updated], [old.version + 1, NOW + stepNo], `${old.id} is stamped once`);
          }
          assert.equal(result.merged, changed + result.elements.length - elements.length, 'merged = changed + created');
          assert.deepEqual(result.added, [...fragment.addNodes.map((n: any) => n.id), ...result.elements.filter((e) => e.type === 'arrow' && !index.has(e.id)).map((e) => e.id)]);

          const fresh = new Set(result.elements.slice(elements.length).map((e) => e.id));
          const issues = lintScene(result.elements).filter(
            (i) =>
              (['overlap', 'clipped_label', 'unbound_arrow', 'dangling_binding'].includes(i.kind) && i.elementIds.some((id) => fresh.has(id))) ||
              (i.kind === 'clipped_label' && i.elementIds.some((id) => relabelled.has(id))),
          );
          assert.deepEqual(issues, [], JSON.stringify(fragment));
          elements = result.elements;
          if (stepNo % 2 === 1 || stepNo === steps.length - 1) {
            if (restores++ % 3 === 0) await assertSurvivesRestore(elements);
          }
        }
      }),
      { seed, numRuns: 50 },
    );
  });
});

test('an edge added with head and tail labels draws them beside its ends, clear of every line and shape, and the editor keeps them', async () => {
  const before = build(SERVICES);
  const { elements } = edit(before, { addNodes: [{ id: 'cache', label: 'Redis' }], addEdges: [{ from: 'api', to: 'cache', headLabel: '0..1', tailLabel: '*' }] });
  const all = byId(elements);
  const arrow = all.get('api-to-cache')!;
  for (const [id, point, fontSize] of [['api-to-cache-head-label', arrow.points.at(-1), 16], ['api-to-cache-tail-label', arrow.points[0], 16]] as const) {
    const text = all.get(id)!;
    assert.equal(text.type, 'text');
    assert.equal(text.containerId, null);
    assert.equal(text.fontSize, fontSize);
    const [x, y] = [arrow.x + point[0], arrow.y + point[1]];
    const gap = Math.hypot(Math.max(text.x - x, 0, x - (text.x + text.width)), Math.max(text.y - y, 0, y - (text.y + text.height)));
    assert.ok(gap <= 30, `${id} lies ${gap.toFixed(1)} px from its end`);
  }
  assert.equal(all.get('api-to-cache-head-label')!.text, '0..1');
  assert.deepEqual(metIssues(lintScene(elements as never)), []);
  await assertSurvivesRestore(elements);
});
