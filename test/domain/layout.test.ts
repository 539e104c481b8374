import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { CONTAINER_PADDING } from '../../src/domain/layout/containers/containers.ts';
import { BAND_MIN_LENGTH, FOLD_MIN_LENGTH, FOLD_MIN_LENGTH_DOWN } from '../../src/domain/layout/folding/fold.ts';
import { BESIDE, BRANCH_REACH, SHORTEST_REACH, SLANT_CLEARANCE } from '../../src/domain/layout/placement/branches.ts';
import { layoutGraph, PORT_GROWTH_LIMIT, PORT_ROOM } from '../../src/domain/layout/layout.ts';
import { HEAD_LEG, PORT_JOG_LIMIT, PORT_SLIDE_ROOM } from '../../src/domain/layout/routing/routing.ts';
import { MIN_LEG } from '../../src/domain/layout/routing/side-entries.ts';
import { ancestorsOf, countEdgeCrossings, countNodeOverlaps, segmentCrossesBox } from '../../src/domain/layout/metrics.ts';
import type { Box, Direction, LayoutEdge, LayoutInput, LayoutNode, LayoutResult } from '../../src/domain/layout/types.ts';

const DIRECTIONS: Direction[] = ['TB', 'BT', 'LR', 'RL'];
const TOLERANCE = 1;

function interiorsOverlap(a: Box, b: Box): boolean {
  return (
    Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > TOLERANCE &&
    Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > TOLERANCE
  );
}

function onBoundary([x, y]: [number, number], box: Box): boolean {
  const inX = x >= box.x - TOLERANCE && x <= box.x + box.width + TOLERANCE;
  const inY = y >= box.y - TOLERANCE && y <= box.y + box.height + TOLERANCE;
  const nearVertical = Math.abs(x - box.x) <= TOLERANCE || Math.abs(x - (box.x + box.width)) <= TOLERANCE;
  const nearHorizontal = Math.abs(y - box.y) <= TOLERANCE || Math.abs(y - (box.y + box.height)) <= TOLERANCE;
  return (inX && nearHorizontal && inY) || (inY && nearVertical && inX);
}

/** Every structural rule a layout must keep, whatever the graph; throws with the first one broken. */
function assertWellFormed(input: LayoutInput, result: LayoutResult): void {
  const ancestors = ancestorsOf(input);
  const given = new Map(input.nodes.map((n) => [n.id, n]));
  const headerOf = (id: string): number => given.get(id)!.height;

  assert.deepEqual(Object.keys(result.nodes).sort(), [...given.keys()].sort(), 'one box per node');
  for (const node of input.nodes) {
    const box = result.nodes[node.id]!;
    for (const value of [box.x, box.y, box.width, box.height]) assert.ok(Number.isFinite(value), `${node.id} has finite coordinates`);
    assert.ok(box.width >= node.width - 0.01 && box.height >= node.height - 0.01, `${node.id} is at least its given size`);
    for (const ancestor of ancestors.get(node.id)!) {
      const outer = result.nodes[ancestor]!;
      const pad = CONTAINER_PADDING - TOLERANCE;
      assert.ok(
        box.x >= outer.x + pad &&
          box.x + box.width <= outer.x + outer.width - pad &&
          box.y >= outer.y + headerOf(ancestor) + pad &&
          box.y + box.height <= outer.y + outer.height - pad,
        `${ancestor} encloses ${node.id} with padding below its header`,
      );
    }
  }
  const ids = [...given.keys()];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i]!;
      const b = ids[j]!;
      if (ancestors.get(a)!.includes(b) || ancestors.get(b)!.includes(a)) continue;
      if (interiorsOverlap(result.nodes[a]!, result.nodes[b]!)) assert.fail(`${a} and ${b} overlap`);
    }
  }

  for (const edge of input.edges) {
    const route = result.edges[edge.id];
    assert.ok(route, `edge ${edge.id} has a route`);
    const { points } = route;
    assert.ok(points.length >= 2, `edge ${edge.id} has at least two points`);
    for (const [x, y] of points) assert.ok(Number.isFinite(x) && Number.isFinite(y), `edge ${edge.id} has finite points`);
    assert.ok(onBoundary(points[0]!, result.nodes[edge.from]!), `edge ${edge.id} starts on ${edge.from}'s boundary`);
    assert.ok(onBoundary(points[points.length - 1]!, result.nodes[edge.to]!), `edge ${edge.id} ends on ${edge.to}'s boundary`);
    const exempt = new Set([edge.from, edge.to, ...ancestors.get(edge.from)!, ...ancestors.get(edge.to)!]);
    for (const id of ids) {
      if (exempt.has(id)) continue;
      for (let k = 0; k + 1 < points.length; k++) {
        const [ax, ay] = points[k]!;
        const [bx, by] = points[k + 1]!;
        if (segmentCrossesBox(ax, ay, bx, by, result.nodes[id]!)) assert.fail(`edge ${edge.id} (${edge.from}→${edge.to}) passes through ${id}`);
      }
    }
    if ((edge.labelWidth ?? 0) > 0 && (edge.labelHeight ?? 0) > 0) {
      assert.ok(route.label, `edge ${edge.id} has a label position`);
      const { x, y } = route.label;
      const onRoute = points.some((p, k) => {
        const q = points[k + 1];
        if (!q) return false;
        const within = (v: number, a: number, b: number): boolean => v >= Math.min(a, b) - TOLERANCE && v <= Math.max(a, b) + TOLERANCE;
        const cross = (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
        const length = Math.hypot(q[0] - p[0], q[1] - p[1]);
        return within(x, p[0], q[0]) && within(y, p[1], q[1]) && Math.abs(cross) <= TOLERANCE * Math.max(1, length);
      });
      assert.ok(onRoute, `the label of ${edge.id} sits on its route`);
      const labelBox: Box = {
        x: route.label.x - edge.labelWidth! / 2,
        y: route.label.y - edge.labelHeight! / 2,
        width: edge.labelWidth!,
        height: edge.labelHeight!,
      };
      for (const id of ids) {
        if (ancestors.get(edge.from)!.includes(id) || ancestors.get(edge.to)!.includes(id)) continue;
        if (interiorsOverlap(labelBox, result.nodes[id]!)) assert.fail(`label of ${edge.id} overlaps ${id}`);
      }
    }
  }
}

/**
 * Each edge's target lies wholly beyond its source in the flow direction, or
 * (in a drawing folded into bands) its route leaves the source and enters the
 * target moving downstream: it runs on into the next band.
 */
function assertFlowsDownstream(input: LayoutInput, result: LayoutResult): void {
  const along = ([ax, ay]: [number, number], [bx, by]: [number, number]): number =>
    ({ TB: by - ay, BT: ay - by, LR: bx - ax, RL: ax - bx })[input.direction];
  for (const edge of input.edges) {
    const s = result.nodes[edge.from]!;
    const t = result.nodes[edge.to]!;
    const beyond = {
      TB: t.y >= s.y + s.height - TOLERANCE,
      BT: t.y + t.height <= s.y + TOLERANCE,
      LR: t.x >= s.x + s.width - TOLERANCE,
      RL: t.x + t.width <= s.x + TOLERANCE,
    }[input.direction];
    const points = result.edges[edge.id]!.points;
    const runsOn = along(points[0]!, points[1]!) > 0 && along(points[points.length - 2]!, points[points.length - 1]!) > 0;
    assert.ok(beyond || runsOn, `${input.direction}: ${edge.from} → ${edge.to} points downstream`);
  }
}

const sizeArb = fc.record({ width: fc.integer({ min: 10, max: 220 }), height: fc.integer({ min: 10, max: 120 }) });
const labelArb = fc.option(fc.record({ labelWidth: fc.integer({ min: 8, max: 120 }), labelHeight: fc.integer({ min: 8, max: 40 }) }), {
  freq: 3,
  nil: undefined,
});

interface GraphShape {
  acyclic: boolean;
  nested: boolean;
}

function graphArb({ acyclic, nested }: GraphShape): fc.Arbitrary<LayoutInput> {
  return fc.integer({ min: 1, max: 24 }).chain((n) =>
    fc
      .record({
        direction: fc.constantFrom(...DIRECTIONS),
        sizes: fc.array(sizeArb, { minLength: n, maxLength: n }),
        parents: fc.array(fc.option(fc.nat(), { freq: 2, nil: undefined }), { minLength: n, maxLength: n }),
        // A container's own direction (honoured when nothing links its members to the outside).
        directions: fc.array(fc.option(fc.constantFrom(...DIRECTIONS), { freq: 3, nil: undefined }), { minLength: n, maxLength: n }),
        links: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), labelArb), { maxLength: 2 * n + 2, size: 'max' }),
      })
      .map(({ direction, sizes, parents, directions, links }) => {
        const nodes: LayoutNode[] = sizes.map((size, i) => {
          const p = parents[i];
          const parent = nested && p !== undefined && i > 0 ? `n${p % i}` : undefined;
          const own = nested ? directions[i] : undefined;
          return { id: `n${i}`, ...size, ...(parent ? { parent } : {}), ...(own ? { direction: own } : {}) };
        });
        const edges: LayoutEdge[] = [];
        for (const [a, b, label] of links) {
          const [from, to] = acyclic ? (a < b ? [a, b] : b < a ? [b, a] : [-1, -1]) : [a, b];
          if (from < 0) continue;
          edges.push({ id: `e${edges.length}`, from: `n${from}`, to: `n${to}`, ...(label ?? {}) });
        }
        return { direction, nodes, edges };
      }),
  );
}

test('random graphs with cycles, self-loops and parallel edges lay out well-formed, in every direction', () => {
  fc.assert(
    fc.property(graphArb({ acyclic: false, nested: false }), (input) => assertWellFormed(input, layoutGraph(input))),
    { numRuns: 250 },
  );
});

test('random nested containers enclose their children and routes cross only the borders they must', () => {
  fc.assert(
    fc.property(graphArb({ acyclic: false, nested: true }), (input) => assertWellFormed(input, layoutGraph(input))),
    {
      numRuns: 250,
      // Regression: a container fed by several edges from outside while its children also link out.
      examples: [[{"direction":"TB","nodes":[{"id":"n0","width":10,"height":10},{"id":"n1","width":10,"height":10},{"id":"n2","width":10,"height":10,"parent":"n0"},{"id":"n3","width":10,"height":10},{"id":"n4","width":10,"height":10},{"id":"n5","width":10,"height":10},{"id":"n6","width":10,"height":10},{"id":"n7","width":10,"height":10},{"id":"n8","width":10,"height":10},{"id":"n9","width":10,"height":10},{"id":"n10","width":10,"height":10},{"id":"n11","width":10,"height":10},{"id":"n12","width":10,"height":10,"parent":"n0"},{"id":"n13","width":10,"height":10,"parent":"n1"},{"id":"n14","width":10,"height":10},{"id":"n15","width":10,"height":10},{"id":"n16","width":10,"height":10,"parent":"n0"}],"edges":[{"id":"e0","from":"n0","to":"n13"},{"id":"e1","from":"n0","to":"n13"},{"id":"e2","from":"n1","to":"n0"},{"id":"e3","from":"n4","to":"n0"},{"id":"e4","from":"n5","to":"n0"},{"id":"e5","from":"n0","to":"n13"},{"id":"e6","from":"n1","to":"n0"},{"id":"e7","from":"n4","to":"n1"}]} as LayoutInput]],
    },
  );
});

test('on a DAG every edge points downstream in the requested direction', () => {
  fc.assert(
    fc.property(graphArb({ acyclic: true, nested: false }), (input) => {
      const result = layoutGraph(input);
      assertWellFormed(input, result);
      assertFlowsDownstream(input, result);
    }),
    { numRuns: 200 },
  );
});

test('the same input gives the same output, run after run', () => {
  fc.assert(
    fc.property(graphArb({ acyclic: false, nested: true }), (input) => {
      const first = JSON.stringify(layoutGraph(input));
      const copy = structuredClone(input);
      assert.equal(JSON.stringify(layoutGraph(copy)), first);
      assert.deepEqual(copy, input, 'the input is not mutated');
    }),
    { numRuns: 60 },
  );
});

/** A chain long enough to fold: past FOLD_MIN_LENGTH across the page, past FOLD_MIN_LENGTH_DOWN down it. */
const foldingChain = (direction: 'TB' | 'LR') => chainInput(direction, direction === 'TB' ? 32 : 16);

function chainInput(direction: Direction, count: number): LayoutInput {
  return {
    direction,
    nodes: Array.from({ length: count }, (_, i) => ({ id: `s${i}`, width: 120, height: 50 })),
    edges: Array.from({ length: count - 1 }, (_, i) => ({ id: `c${i}`, from: `s${i}`, to: `s${i + 1}` })),
  };
}

test('a chain is a straight column with straight arrows and the standard gaps', () => {
  const input = chainInput('TB', 6);
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  assertFlowsDownstream(input, result);
  const xs = new Set(Object.values(result.nodes).map((b) => b.x));
  assert.equal(xs.size, 1, 'every node in one column');
  for (const edge of input.edges) {
    assert.equal(result.edges[edge.id]!.points.length, 2, `${edge.id} is a single straight segment`);
    assert.equal(result.nodes[edge.to]!.y - (result.nodes[edge.from]!.y + 50), 80, 'layers 80 px apart');
  }
});

/**
 * Well formed, every arrow downstream or running on into the next band, no
 * crossings; folded into lines (rows in LR, columns in TB) that each hold a run
 * of at least three boxes, so that it reads line after line, not as a zigzag.
 */
function assertFoldedWithoutCrossings(input: LayoutInput): void {
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  assertFlowsDownstream(input, result);
  assert.equal(countEdgeCrossings(input, result), 0, `${input.direction}: no crossings`);
  const lines = new Map<number, number>();
  for (const node of input.nodes.filter((n) => !input.nodes.some((m) => m.parent === n.id))) {
    const box = result.nodes[node.id]!;
    const at = Math.round(input.direction === 'LR' ? box.y + box.height / 2 : box.x + box.width / 2);
    lines.set(at, (lines.get(at) ?? 0) + 1);
  }
  assert.ok(lines.size >= 2, `${input.direction}: folded`);
  for (const [at, count] of lines) assert.ok(count >= 3, `${input.direction}: the line at ${at} holds ${count} boxes`);
}

test('a chain longer than a page folds into bands side by side, each a run of boxes, every arrow running on downstream', () => {
  for (const direction of ['TB', 'LR'] as const) {
    const input = foldingChain(direction);
    assertFoldedWithoutCrossings(input);
  }
});

test('a long chain with a container folds between layers the container does not span, the container whole in one band', () => {
  for (const direction of ['TB', 'LR'] as const) {
    const input = foldingChain(direction);
    input.nodes.push({ id: 'box', width: 80, height: 30 });
    for (const id of ['s6', 's7', 's8']) input.nodes.find((n) => n.id === id)!.parent = 'box';
    assertFoldedWithoutCrossings(input);
  }
});

test('a long chain folds only where a single edge crosses: an edge skipping ahead across every middle cut keeps it one line', () => {
  // foundationdb's load balancing: a decision's two branches both crossed the fold and ran round the first band.
  for (const direction of ['TB', 'LR'] as const) {
    const input = foldingChain(direction);
    input.edges.push({ id: 'skip', from: 's1', to: `s${input.nodes.length - 2}` });
    const result = layoutGraph(input);
    assertWellFormed(input, result);
    const across = Object.values(result.nodes).map((b) => (direction === 'LR' ? b.y + b.height / 2 : b.x + b.width / 2));
    assert.ok(Math.max(...across) - Math.min(...across) < 200, `${direction}: one line, not bands`);
  }
});

test('a top-to-bottom chain that fits 3200 px is one column: pages scroll down', () => {
  const input = chainInput('TB', 16);
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const boxes = Object.values(result.nodes);
  const length = Math.max(...boxes.map((b) => b.y + b.height)) - Math.min(...boxes.map((b) => b.y));
  assert.ok(length > FOLD_MIN_LENGTH && length <= FOLD_MIN_LENGTH_DOWN, `${length} px down the page`);
  assert.equal(new Set(boxes.map((b) => b.x)).size, 1, 'one column');
});

test('a left-to-right chain that fits 1600 px along the flow is one row, never folded', () => {
  // Seven boxes as wide as a Mermaid chain's labels make them: longer than 3× its height, shorter than a wide screen.
  const input = chainInput('LR', 7);
  for (const node of input.nodes) node.width = 150;
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  assertFlowsDownstream(input, result);
  const boxes = Object.values(result.nodes);
  const length = Math.max(...boxes.map((b) => b.x + b.width)) - Math.min(...boxes.map((b) => b.x));
  assert.ok(length <= FOLD_MIN_LENGTH, `${length} px along the flow`);
  assert.equal(new Set(boxes.map((b) => b.y)).size, 1, 'one row');
});

test('with fold "off" a chain far longer than a page stays one row (one column), with and without a container', () => {
  for (const direction of ['LR', 'TB'] as const) {
    for (const contained of [false, true]) {
      const input: LayoutInput = { ...foldingChain(direction), fold: 'off' };
      if (contained) {
        input.nodes.push({ id: 'box', width: 80, height: 30 });
        for (const id of ['s6', 's7', 's8']) input.nodes.find((n) => n.id === id)!.parent = 'box';
      }
      const result = layoutGraph(input);
      assertWellFormed(input, result);
      assertFlowsDownstream(input, result);
      const across = Object.entries(result.nodes)
        .filter(([id]) => id !== 'box')
        .map(([, b]) => (direction === 'LR' ? b.y + b.height / 2 : b.x + b.width / 2));
      assert.equal(new Set(across).size, 1, `${direction}${contained ? ' with a container' : ''}: every box on one line`);
      // The same input without the setting folds: the setting is what keeps it straight.
      const auto = layoutGraph({ ...input, fold: 'auto' });
      assert.ok(new Set(Object.values(auto.nodes).map((b) => (direction === 'LR' ? b.y : b.x))).size >= 2, `${direction}: folds by default`);
    }
  }
});

test('docs/spec.md states the distances the route touch-ups keep', () => {
  const spec = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.match(spec, new RegExp(`keeps ${MIN_LEG} px from the borders and arrows it runs along`), 'a side entry');
  assert.match(spec, new RegExp(`lies ${SHORTEST_REACH} to ${BRANCH_REACH + BESIDE} px beyond the vertex`), 'a branch stepping out to its line');
  assert.match(spec, new RegExp(`at least ${SLANT_CLEARANCE} px from each\\) leaves the slanted side`), 'a branch from the slanted side');
  assert.match(spec, new RegExp(`less than ${PORT_JOG_LIMIT} px out of line`), 'a jog');
  assert.match(spec, new RegExp(`${PORT_SLIDE_ROOM} px or more from the other ends there`), 'a sliding port');
});

test('docs/spec.md states the folding lengths the layout uses', () => {
  const spec = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');
  assert.match(spec, new RegExp(`longer than ${FOLD_MIN_LENGTH} px along its flow`));
  assert.match(spec, new RegExp(`each band at least ${BAND_MIN_LENGTH} px long`));
  assert.match(spec, new RegExp(`fits ${FOLD_MIN_LENGTH} px never folds`));
  assert.match(spec, new RegExp(`top-to-bottom or bottom-to-top drawing folds only past ${FOLD_MIN_LENGTH_DOWN} px`));
});

test('a node many edges enter grows across the flow until their heads are 16 px apart, up to its limit; docs/spec.md says how far', () => {
  const spec = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.match(spec, new RegExp(`lie ${PORT_ROOM} px apart`));
  assert.match(spec, new RegExp(`at most ${PORT_GROWTH_LIMIT} px`));
  for (const direction of ['TB', 'LR'] as const) {
    for (const count of [12, 60]) {
      const input: LayoutInput = {
        direction,
        nodes: [{ id: 'hub', width: 160, height: 70 }, ...Array.from({ length: count }, (_, i) => ({ id: `s${i}`, width: 60, height: 40 }))],
        edges: Array.from({ length: count }, (_, i) => ({ id: `e${i}`, from: `s${i}`, to: 'hub' })),
      };
      const result = layoutGraph(input);
      assertWellFormed(input, result);
      const hub = result.nodes.hub!;
      const across = direction === 'TB' ? hub.width : hub.height;
      assert.ok(across <= PORT_GROWTH_LIMIT && across >= Math.min(PORT_GROWTH_LIMIT, (PORT_ROOM * (count - 1)) / 0.8), `${direction}, ${count} edges: the hub is ${across} px across`);
      if (across < PORT_GROWTH_LIMIT) {
        const tips = input.edges.map((e) => result.edges[e.id]!.points.at(-1)!).map(([x, y]) => (direction === 'TB' ? x : y)).sort((a, b) => a - b);
        for (let i = 1; i < tips.length; i++) assert.ok(tips[i]! - tips[i - 1]! >= 16 - 1e-6, `${direction}: heads ${i - 1} and ${i} are ${tips[i]! - tips[i - 1]!} px apart`);
      }
    }
  }
});

test('edges within a same-rank group count for the sides that face each other: the nodes grow along the flow until those heads are 16 px apart', () => {
  for (const direction of ['TB', 'LR'] as const) {
    const count = 12;
    const input: LayoutInput = {
      direction,
      nodes: [
        { id: 'a', width: 160, height: 70 },
        { id: 'b', width: 160, height: 70 },
      ],
      edges: Array.from({ length: count }, (_, i) => ({ id: `e${i}`, from: 'a', to: 'b' })),
      sameRank: [['a', 'b']],
    };
    const result = layoutGraph(input);
    assertWellFormed(input, result);
    const [a, b] = [result.nodes.a!, result.nodes.b!];
    assert.equal(direction === 'TB' ? a.y : a.x, direction === 'TB' ? b.y : b.x, `${direction}: one rank`);
    const tips = input.edges.map((e) => result.edges[e.id]!.points.at(-1)!).map(([x, y]) => (direction === 'TB' ? y : x)).sort((p, q) => p - q);
    for (let i = 1; i < tips.length; i++) assert.ok(tips[i]! - tips[i - 1]! >= 16 - 1e-6, `${direction}: heads ${i - 1} and ${i} are ${tips[i]! - tips[i - 1]!} px apart`);
  }
});

test('an edge with minLength spans at least that many layers; without it, both targets share a layer (flat and in a container)', () => {
  for (const contained of [false, true]) {
    const input: LayoutInput = {
      direction: 'TB',
      nodes: ['a', 'b', 'c'].map((id) => ({ id, width: 100, height: 50 })),
      edges: [
        { id: 'ab', from: 'a', to: 'b', minLength: 3 },
        { id: 'ac', from: 'a', to: 'c' },
      ],
    };
    if (contained) {
      input.nodes.push({ id: 'box', width: 80, height: 30 });
      for (const node of input.nodes) if (node.id !== 'box') node.parent = 'box';
    }
    const result = layoutGraph(input);
    assertWellFormed(input, result);
    assertFlowsDownstream(input, result);
    const { a, b, c } = result.nodes;
    const step = c!.y - a!.y;
    assert.ok(step > 0, 'c below a');
    // Two layers down would put b at 2 × step; a layer that holds only the edge's bend is thinner than one with a box.
    assert.ok(b!.y - a!.y > 2 * step, `${contained ? 'in a container: ' : ''}b is more than two layers below a (${b!.y - a!.y} px against ${step} px a layer)`);
    const plain = layoutGraph({ ...input, edges: input.edges.map(({ minLength: _, ...edge }) => edge) });
    assert.equal(plain.nodes.b!.y, plain.nodes.c!.y, 'without minLength, b and c share a layer');
  }
});

test('distinct edges that share a channel run at least 16 px apart wherever they run side by side for more than 30 px', () => {
  // Every top node feeds every bottom node: sixteen edges through one channel, as in a real library map.
  const tops = ['t0', 't1', 't2', 't3'];
  const bottoms = ['b0', 'b1', 'b2', 'b3'];
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [...tops, ...bottoms].map((id) => ({ id, width: 140, height: 50 })),
    edges: tops.flatMap((t, i) => bottoms.map((b, j) => ({ id: `${t}${b}`, from: t, to: bottoms[(i + j) % 4]! }))),
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const horizontal = horizontalRuns(result);
  assert.ok(horizontal.length >= 8, 'the edges cross the channel on tracks');
  assertTracksApart(horizontal);
});

/** Every horizontal segment of every route: its edge, its height and its extent. */
function horizontalRuns(result: LayoutResult): Array<{ id: string; y: number; lo: number; hi: number }> {
  return Object.entries(result.edges).flatMap(([id, edge]) =>
    edge.points.slice(1).flatMap((p, k) => {
      const q = edge.points[k]!;
      return q[1] === p[1] && q[0] !== p[0] ? [{ id, y: p[1], lo: Math.min(p[0], q[0]), hi: Math.max(p[0], q[0]) }] : [];
    }),
  );
}

/** Distinct edges' horizontal runs side by side for more than 30 px lie at least 16 px apart. */
function assertTracksApart(horizontal: Array<{ id: string; y: number; lo: number; hi: number }>): void {
  for (const a of horizontal) {
    for (const b of horizontal) {
      if (a.id >= b.id) continue;
      const shared = Math.min(a.hi, b.hi) - Math.max(a.lo, b.lo);
      if (shared > 30) assert.ok(Math.abs(a.y - b.y) >= 16, `${a.id} and ${b.id} run ${Math.abs(a.y - b.y)} px apart for ${shared} px`);
    }
  }
}

test('a crowded channel (a hub with 50 leaves: more than 30 tracks) still keeps its tracks 16 px apart where they run side by side', () => {
  const nodes: LayoutNode[] = [{ id: 'hub', width: 140, height: 60 }, ...Array.from({ length: 50 }, (_, i) => ({ id: `leaf${i}`, width: 80, height: 40 }))];
  const edges: LayoutEdge[] = nodes.slice(1).map((leaf) => ({ id: `to-${leaf.id}`, from: 'hub', to: leaf.id }));
  const input: LayoutInput = { direction: 'TB', nodes, edges };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const horizontal = horizontalRuns(result);
  assert.ok(new Set(horizontal.map((h) => h.y)).size > 30, 'more than 30 tracks');
  assertTracksApart(horizontal);
});

test('a labelled edge between neighbouring layers runs no further sideways than its two ends: two labelled edges between one pair (a loop back) sit side by side between them', () => {
  // temporal's schedule flow: "Eligible starts remaining?" and "Already completed?" answer each other "Yes", among long loops back to the first.
  const box = (id: string, width = 160): LayoutNode => ({ id, width, height: 60 });
  const edge = (from: string, to: string, label?: string): LayoutEdge => ({ id: `${from}-${to}`, from, to, ...(label ? { labelWidth: 8 * label.length + 10, labelHeight: 25 } : {}) });
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [box('start'), box('d', 300), box('e', 380), box('m'), box('f'), box('x'), box('y'), box('z')],
    edges: [edge('start', 'd'), edge('d', 'e', 'Yes'), edge('d', 'm', 'No'), edge('e', 'd', 'Yes'), edge('e', 'f', 'No'), edge('f', 'x', 'Yes'), edge('f', 'y', 'No'), edge('x', 'd'), edge('y', 'd'), edge('y', 'z'), edge('z', 'd')],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  for (const id of ['d-e', 'e-d']) {
    const points = result.edges[id]!.points;
    const [lo, hi] = [Math.min(points[0]![0], points.at(-1)![0]), Math.max(points[0]![0], points.at(-1)![0])];
    for (const [x] of points) assert.ok(x >= lo - 0.5 && x <= hi + 0.5, `${id} stays between its ends (${lo}..${hi}): ${JSON.stringify(points)}`);
  }
});

test('a chain in LR is a straight row', () => {
  const input = chainInput('LR', 5);
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  assertFlowsDownstream(input, result);
  assert.equal(new Set(Object.values(result.nodes).map((b) => b.y)).size, 1);
});

test('a tree is drawn without crossings, each parent above its children', () => {
  const nodes: LayoutNode[] = [];
  const edges: LayoutEdge[] = [];
  for (let i = 0; i < 40; i++) {
    nodes.push({ id: `t${i}`, width: 60 + (i % 5) * 20, height: 40 + (i % 3) * 10 });
    if (i > 0) edges.push({ id: `te${i}`, from: `t${Math.floor((i - 1) / 3)}`, to: `t${i}` });
  }
  const input: LayoutInput = { direction: 'TB', nodes, edges };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  assertFlowsDownstream(input, result);
  assert.equal(countEdgeCrossings(input, result), 0);
});

test('a diamond of dependencies has no crossings and its sides sit left and right of the spine', () => {
  const input: LayoutInput = {
    direction: 'TB',
    nodes: ['app', 'auth', 'billing', 'db'].map((id) => ({ id, width: 100, height: 50 })),
    edges: [
      { id: 'a1', from: 'app', to: 'auth' },
      { id: 'a2', from: 'app', to: 'billing' },
      { id: 'a3', from: 'auth', to: 'db' },
      { id: 'a4', from: 'billing', to: 'db' },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  assertFlowsDownstream(input, result);
  assert.equal(countEdgeCrossings(input, result), 0);
  const { auth, billing } = result.nodes;
  assert.equal(auth!.y, billing!.y, 'auth and billing share a layer');
  assert.ok(Math.abs(billing!.x - (auth!.x + auth!.width)) >= 40 - TOLERANCE, 'at least 40 px apart');
  const centre = (b: Box): number => b.x + b.width / 2;
  assert.ok(Math.abs(centre(result.nodes.app!) - centre(result.nodes.db!)) < 1, 'app and db on one axis');
});

test('a node alone in a container (no edge touches it) sits on the first row of the container\'s other members, not at the top of the drawing', () => {
  // varnish's request states: the note "see backend graph" held the backend cluster open from the top down to FETCH.
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [
      { id: 'a', width: 120, height: 50 },
      { id: 'b', width: 120, height: 50 },
      { id: 'c', width: 120, height: 50 },
      { id: 'note', width: 120, height: 50, parent: 'box' },
      { id: 'd', width: 120, height: 50, parent: 'box' },
      { id: 'e', width: 120, height: 50, parent: 'box' },
      { id: 'box', width: 100, height: 30 },
    ],
    edges: [
      { id: 'ab', from: 'a', to: 'b' },
      { id: 'bc', from: 'b', to: 'c' },
      { id: 'cd', from: 'c', to: 'd' },
      { id: 'de', from: 'd', to: 'e' },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  assert.equal(result.nodes.note!.y, result.nodes.d!.y, 'beside the first member edges reach');
});

test('a cycle is drawn with its back edge still pointing at its real target', () => {
  const input: LayoutInput = {
    direction: 'TB',
    nodes: ['a', 'b', 'c'].map((id) => ({ id, width: 80, height: 40 })),
    edges: [
      { id: 'ab', from: 'a', to: 'b' },
      { id: 'bc', from: 'b', to: 'c' },
      { id: 'ca', from: 'c', to: 'a', labelWidth: 40, labelHeight: 20 },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const back = result.edges.ca!.points;
  assert.ok(onBoundary(back[0]!, result.nodes.c!) && onBoundary(back[back.length - 1]!, result.nodes.a!));
  assert.ok(result.nodes.a!.y < result.nodes.b!.y && result.nodes.b!.y < result.nodes.c!.y, 'the forward edges keep the flow');
});

test('a self-loop is a small loop on one side of its node', () => {
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [
      { id: 'retry', width: 100, height: 60 },
      { id: 'next', width: 100, height: 60 },
    ],
    edges: [
      { id: 'loop', from: 'retry', to: 'retry', labelWidth: 50, labelHeight: 20 },
      { id: 'loop2', from: 'retry', to: 'retry' },
      { id: 'go', from: 'retry', to: 'next' },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const box = result.nodes.retry!;
  for (const id of ['loop', 'loop2']) {
    const points = result.edges[id]!.points;
    assert.ok(points.length >= 4, `${id} bends around`);
    for (const [x] of points) assert.ok(x >= box.x + box.width - TOLERANCE, `${id} stays on the right side`);
    assert.notDeepEqual(points[0], points[points.length - 1], `${id} leaves and returns at different points`);
  }
  assert.notDeepEqual(result.edges.loop!.points, result.edges.loop2!.points);
  // Each reaches at least 24 px out of the node: a loop a reader sees, not a hook against the border.
  for (const id of ['loop', 'loop2']) assert.ok(Math.max(...result.edges[id]!.points.map(([x]) => x)) >= box.x + box.width + 24, `${id} reaches 24 px out`);
});

test('a self-loop with a label taller than its node runs round the label, which hides at most half of it, its head comes in along a leg as long as any arrow\'s, and its container holds both', () => {
  for (const direction of DIRECTIONS) {
    const input: LayoutInput = {
      direction,
      nodes: [
        { id: 'box', width: 40, height: 40 },
        { id: 'retry', width: 100, height: 60, parent: 'box' },
        { id: 'next', width: 100, height: 60 },
      ],
      edges: [
        { id: 'loop', from: 'retry', to: 'retry', labelWidth: 150, labelHeight: 100 },
        { id: 'loop2', from: 'retry', to: 'retry', labelWidth: 60, labelHeight: 25 },
        { id: 'go', from: 'box', to: 'next' },
      ],
    };
    const result = layoutGraph(input);
    assertWellFormed(input, result);
    const container = result.nodes.box!;
    for (const edge of input.edges.filter((e) => e.from === e.to)) {
      const points = result.edges[edge.id]!.points;
      const [cx, cy] = [result.edges[edge.id]!.label!.x, result.edges[edge.id]!.label!.y];
      const label = { x: cx - edge.labelWidth! / 2, y: cy - edge.labelHeight! / 2, width: edge.labelWidth!, height: edge.labelHeight! };
      let length = 0;
      let covered = 0;
      for (let i = 1; i < points.length; i++) {
        const [a, b] = [points[i - 1]!, points[i]!];
        const run = Math.hypot(b[0] - a[0], b[1] - a[1]);
        length += run;
        for (let t = 0.5; t < run; t++) {
          const [x, y] = [a[0] + ((b[0] - a[0]) * t) / run, a[1] + ((b[1] - a[1]) * t) / run];
          if (x > label.x && x < label.x + label.width && y > label.y && y < label.y + label.height) covered++;
        }
      }
      assert.ok(covered <= length / 2 + 1, `${direction}: the label of ${edge.id} covers ${covered} px of its ${Math.round(length)} px`);
      // The editor draws an arrowhead at most half as long as the last leg: at 12 px out, a 6-px head on a hook.
      const [end, before] = [points.at(-1)!, points.at(-2)!];
      assert.ok(Math.hypot(end[0] - before[0], end[1] - before[1]) >= 36, `${direction}: ${edge.id}'s last leg is ${Math.hypot(end[0] - before[0], end[1] - before[1])} px`);
      for (const [x, y] of [...points, [label.x, label.y], [label.x + label.width, label.y + label.height]] as Array<[number, number]>) {
        assert.ok(x > container.x && x < container.x + container.width && y > container.y && y < container.y + container.height, `${direction}: ${edge.id} and its label lie inside the container`);
      }
    }
  }
});

test('a container with a direction of its own lays its members out in it when no edge links them to the outside, as Mermaid does', () => {
  const node = (id: string, parent?: string, direction?: LayoutInput['direction']) => ({ id, width: 100, height: 50, ...(parent ? { parent } : {}), ...(direction ? { direction } : {}) });
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [node('top'), node('row', undefined, 'LR'), node('a', 'row'), node('b', 'row'), node('c', 'row'), node('column', 'row', 'TB'), node('d', 'column'), node('e', 'column'), node('after')],
    edges: [
      { id: 'in', from: 'top', to: 'row' },
      { id: 'ab', from: 'a', to: 'b', labelWidth: 40, labelHeight: 20 },
      { id: 'bc', from: 'b', to: 'c' },
      { id: 'de', from: 'd', to: 'e' },
      { id: 'out', from: 'row', to: 'after' },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const centre = (id: string) => [result.nodes[id]!.x + result.nodes[id]!.width / 2, result.nodes[id]!.y + result.nodes[id]!.height / 2] as const;
  assert.ok(centre('a')[0] < centre('b')[0] && centre('b')[0] < centre('c')[0], 'a, b, c run left to right inside the row');
  assert.ok(Math.abs(centre('a')[1] - centre('b')[1]) < 1 && Math.abs(centre('b')[1] - centre('c')[1]) < 1, 'on one line');
  assert.ok(centre('d')[1] < centre('e')[1] && Math.abs(centre('d')[0] - centre('e')[0]) < 1, 'the column inside the row runs top to bottom');
  assert.ok(centre('top')[1] < centre('row')[1] && centre('row')[1] < centre('after')[1], 'the drawing still runs top to bottom');
  assert.equal(result.nodes.row!.labelAlign, 'center');

  // One edge from a member to the outside: the container keeps the drawing's flow.
  const linked = { ...input, edges: [...input.edges, { id: 'leak', from: 'c', to: 'after' }] };
  const plain = layoutGraph(linked);
  assertWellFormed(linked, plain);
  const y = (id: string) => plain.nodes[id]!.y;
  assert.ok(y('a') < y('b') && y('b') < y('c'), 'a, b, c run top to bottom as the drawing does');
});

test('a container that gives the flow\'s own direction and has no edge to the outside is laid out on its own too: a tall box beside it does not stretch its ranks', () => {
  // After tekton's per-namespace config: "Current" (direction TB in a TB drawing) beside "Proposed", a box 600 px tall.
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [
      { id: 'current', width: 200, height: 40, direction: 'TB' },
      ...['c1', 'c2', 'c3'].map((id) => ({ id, width: 160, height: 70, parent: 'current' })),
      { id: 'proposed', width: 200, height: 40, direction: 'LR' },
      { id: 'tall', width: 160, height: 600, parent: 'proposed' },
      { id: 'p2', width: 160, height: 70, parent: 'proposed' },
    ],
    edges: [
      { id: 'c12', from: 'c1', to: 'c2' },
      { id: 'c23', from: 'c2', to: 'c3' },
      { id: 'tp', from: 'tall', to: 'p2' },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const gap = (a: string, b: string) => result.nodes[b]!.y - (result.nodes[a]!.y + result.nodes[a]!.height);
  for (const [a, b] of [['c1', 'c2'], ['c2', 'c3']] as const) assert.ok(gap(a, b) > 0 && gap(a, b) <= 100, `${a} to ${b}: ${gap(a, b)} px`);
  const current = result.nodes.current!;
  assert.ok(result.nodes.c1!.y - current.y <= 100, 'the chain starts under the container\'s label');
});

test('a tall narrow part of the drawing sits beside a wide one rather than below it, when the row is no wider than 2.5 times its height', () => {
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [
      ...['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => ({ id, width: 160, height: 70 })),
      { id: 'wide', width: 1300, height: 70 },
      { id: 'under', width: 160, height: 70 },
    ],
    edges: [
      ...[1, 2, 3, 4].map((i) => ({ id: `a${i}`, from: `a${i}`, to: `a${i + 1}` })),
      { id: 'wu', from: 'wide', to: 'under' },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const column = ['a1', 'a5'].map((id) => result.nodes[id]!);
  const wide = result.nodes.wide!;
  assert.ok(wide.y < column[1]!.y + column[1]!.height && column[0]!.y < wide.y + wide.height + 200, 'side by side, in one row');
  assert.ok(wide.x >= column[0]!.x + column[0]!.width || wide.x + wide.width <= column[0]!.x, 'apart across the row');
});

test('nodes with no edge come after the drawing proper, together and in the order listed: beside it if they all fit, else in rows of their own', () => {
  const chain = [{ id: 'a', width: 100, height: 50 }, { id: 'b', width: 100, height: 50 }];
  const few: LayoutInput = { direction: 'TB', nodes: [chain[0]!, { id: 'lone', width: 60, height: 40 }, chain[1]!], edges: [{ id: 'ab', from: 'a', to: 'b' }] };
  const beside = layoutGraph(few);
  assertWellFormed(few, beside);
  assert.ok(beside.nodes.lone!.x > beside.nodes.a!.x + beside.nodes.a!.width && beside.nodes.lone!.y < beside.nodes.b!.y, 'one lone node sits beside the drawing');

  const ids = Array.from({ length: 12 }, (_, i) => `lone${i}`);
  const many: LayoutInput = {
    direction: 'TB',
    nodes: [chain[0]!, ...ids.slice(0, 2).map((id) => ({ id, width: 100, height: 40 })), chain[1]!, ...ids.slice(2).map((id) => ({ id, width: 100, height: 40 }))],
    edges: [{ id: 'ab', from: 'a', to: 'b' }],
  };
  const result = layoutGraph(many);
  assertWellFormed(many, result);
  const below = result.nodes.b!.y + result.nodes.b!.height;
  for (const id of ids) assert.ok(result.nodes[id]!.y > below, `${id} is below the drawing`);
  const firstRow = ids.filter((id) => result.nodes[id]!.y === result.nodes.lone0!.y);
  assert.ok(firstRow.length >= 2, 'they share rows');
  for (let i = 1; i < firstRow.length; i++) assert.ok(result.nodes[firstRow[i]!]!.x > result.nodes[firstRow[i - 1]!]!.x, 'in the order listed');
});

test('in a left-to-right or right-to-left drawing, two flows that no edge joins stack down the page (across the flow), lone nodes in a column after them, as dagre draws them; lone nodes alone stay a row', () => {
  for (const direction of ['LR', 'RL'] as const) {
    const input: LayoutInput = {
      direction,
      nodes: [
        ...['a', 'b', 'c', 'd'].map((id) => ({ id, width: 120, height: 50 })),
        ...['x', 'y', 'z'].map((id) => ({ id, width: 100, height: 40 })),
      ],
      edges: [
        { id: 'ab', from: 'a', to: 'b' },
        { id: 'cd', from: 'c', to: 'd' },
      ],
    };
    const result = layoutGraph(input);
    assertWellFormed(input, result);
    assertFlowsDownstream(input, result);
    const { a, b, c, d, x, y, z } = result.nodes as Record<string, Box>;
    assert.ok(c!.y >= a!.y + a!.height && c!.y >= b!.y + b!.height, `${direction}: the second chain is below the first`);
    assert.equal(Math.min(a!.x, b!.x), Math.min(c!.x, d!.x), `${direction}: both chains start the same column`);
    assert.ok(y!.y > x!.y && z!.y > y!.y && x!.x === y!.x && y!.x === z!.x, `${direction}: the lone nodes make one column, in the order listed`);
    // Nodes with no edge at all, and no flow to stack: a row (a balanced block), not a tall column.
    const lone: LayoutInput = { direction, nodes: ['x', 'y', 'z'].map((id) => ({ id, width: 100, height: 40 })), edges: [] };
    const row = layoutGraph(lone);
    assertWellFormed(lone, row);
    assert.equal(new Set(Object.values(row.nodes).map((b) => b.y)).size, 1, `${direction}: lone nodes in one row`);
  }
});

test('parallel edges get distinct ports and distinct routes', () => {
  const input: LayoutInput = {
    direction: 'LR',
    nodes: [
      { id: 'client', width: 100, height: 80 },
      { id: 'server', width: 100, height: 80 },
    ],
    edges: [
      { id: 'p1', from: 'client', to: 'server' },
      { id: 'p2', from: 'client', to: 'server', labelWidth: 40, labelHeight: 16 },
      { id: 'p3', from: 'server', to: 'client' },
    ],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const starts = ['p1', 'p2', 'p3'].map((id) => JSON.stringify(result.edges[id]!.points[0]));
  const ends = ['p1', 'p2', 'p3'].map((id) => JSON.stringify(result.edges[id]!.points.at(-1)));
  assert.equal(new Set(starts).size, 3, 'distinct start ports');
  assert.equal(new Set(ends).size, 3, 'distinct end ports');
  assert.equal(countEdgeCrossings(input, result), 0);
});

test('containers nest three levels deep (VPC → subnet → service) and enclose their children', () => {
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [
      { id: 'internet', width: 100, height: 50 },
      { id: 'vpc', width: 140, height: 30 },
      { id: 'public', width: 120, height: 24, parent: 'vpc' },
      { id: 'private', width: 120, height: 24, parent: 'vpc' },
      { id: 'lb', width: 100, height: 50, parent: 'public' },
      { id: 'api', width: 100, height: 50, parent: 'private' },
      { id: 'worker', width: 100, height: 50, parent: 'private' },
      { id: 'data', width: 100, height: 24, parent: 'private' },
      { id: 'db', width: 100, height: 60, parent: 'data' },
      { id: 'cache', width: 80, height: 60, parent: 'data' },
    ],
    edges: [
      { id: 'i1', from: 'internet', to: 'lb', labelWidth: 50, labelHeight: 18 },
      { id: 'i2', from: 'lb', to: 'api' },
      { id: 'i3', from: 'api', to: 'db' },
      { id: 'i4', from: 'api', to: 'cache' },
      { id: 'i5', from: 'worker', to: 'db' },
      { id: 'i6', from: 'api', to: 'worker' },
      { id: 'i7', from: 'vpc', to: 'lb' },
    ],
  };
  for (const direction of DIRECTIONS) {
    const result = layoutGraph({ ...input, direction });
    assertWellFormed({ ...input, direction }, result);
    assert.equal(countNodeOverlaps(input, result), 0);
  }
});

test('a star with 300 leaves wraps into a block between 1:3 and 3:1', () => {
  for (const direction of DIRECTIONS) {
    const nodes: LayoutNode[] = [{ id: 'hub', width: 140, height: 60 }];
    const edges: LayoutEdge[] = [];
    for (let i = 0; i < 300; i++) {
      nodes.push({ id: `leaf${i}`, width: 80 + (i % 4) * 15, height: 40 });
      edges.push({ id: `s${i}`, from: 'hub', to: `leaf${i}` });
    }
    const input: LayoutInput = { direction, nodes, edges };
    const result = layoutGraph(input);
    assertWellFormed(input, result);
    assertFlowsDownstream(input, result);
    const boxes = Object.values(result.nodes);
    const width = Math.max(...boxes.map((b) => b.x + b.width)) - Math.min(...boxes.map((b) => b.x));
    const height = Math.max(...boxes.map((b) => b.y + b.height)) - Math.min(...boxes.map((b) => b.y));
    assert.ok(width / height <= 3 && width / height >= 1 / 3, `${direction}: ${Math.round(width)}×${Math.round(height)} is balanced`);
  }
});

test('200 disconnected nodes pack into rows, not one line', () => {
  const input: LayoutInput = {
    direction: 'TB',
    nodes: Array.from({ length: 200 }, (_, i) => ({ id: `d${i}`, width: 100 + (i % 7) * 10, height: 50 })),
    edges: [],
  };
  const result = layoutGraph(input);
  assertWellFormed(input, result);
  const boxes = Object.values(result.nodes);
  const width = Math.max(...boxes.map((b) => b.x + b.width));
  const height = Math.max(...boxes.map((b) => b.y + b.height));
  assert.ok(width / height <= 3 && width / height >= 1 / 3, `${Math.round(width)}×${Math.round(height)} is balanced`);
});

// Its speed is measured by bench/layout-engine.ts and `npm run bench:layout`, not here: the machine is shared.
test('a 1000-node, 2000-edge layered DAG lays out with no overlaps, flowing downstream, its best order sifted again', () => {
  let state = 7;
  const random = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const nodes: LayoutNode[] = Array.from({ length: 1000 }, (_, i) => ({ id: `v${i}`, width: 60 + Math.floor(random() * 80), height: 40 }));
  const seen = new Set<string>();
  const edges: LayoutEdge[] = [];
  while (edges.length < 2000) {
    const layer = Math.floor(random() * 24);
    const from = layer * 40 + Math.floor(random() * 40);
    const to = (layer + 1 + Math.floor(random() * Math.min(3, 24 - layer))) * 40 + Math.floor(random() * 40);
    if (seen.has(`${from}>${to}`)) continue;
    seen.add(`${from}>${to}`);
    edges.push({ id: `x${edges.length}`, from: `v${from}`, to: `v${to}` });
  }
  const input: LayoutInput = { direction: 'TB', nodes, edges };
  const result = layoutGraph(input);
  assert.equal(countNodeOverlaps(input, result), 0);
  assertFlowsDownstream(input, result);
  // 48,344 crossings before the best order of a graph this large was sifted again (one round fits its budget).
  assert.ok(countEdgeCrossings(input, result) <= 42_000, `${countEdgeCrossings(input, result)} crossings`);
});

test('unknown parents, parent cycles and dangling edges degrade gracefully', () => {
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [
      { id: 'a', width: 50, height: 30, parent: 'ghost' },
      { id: 'b', width: 50, height: 30, parent: 'c' },
      { id: 'c', width: 50, height: 30, parent: 'b' },
      { id: 'd', width: 50, height: 30, parent: 'd' },
    ],
    edges: [
      { id: 'ok', from: 'a', to: 'b' },
      { id: 'dangling', from: 'a', to: 'nowhere' },
    ],
  };
  const result = layoutGraph(input);
  assert.deepEqual(Object.keys(result.nodes).sort(), ['a', 'b', 'c', 'd']);
  assert.ok(result.edges.ok);
  assert.equal(result.edges.dangling, undefined);
});

test('an edge that runs across between two layers comes the last 36 px into its target, down or (turned round) up, so that the editor draws its arrowhead large', () => {
  // pingora-phase-chart: "connection failure" ran across 20 px above its target, and the editor drew an 8 px head (at most half the last segment).
  const node = (id: string, width = 160): LayoutNode => ({ id, width, height: 50 });
  const input: LayoutInput = {
    direction: 'TB',
    nodes: [node('connect', 220), node('connected'), node('failed'), node('retry'), node('done'), node('a'), node('b')],
    edges: [
      { id: 'ok', from: 'connect', to: 'connected', labelWidth: 160, labelHeight: 25 },
      { id: 'ko', from: 'connect', to: 'failed', labelWidth: 150, labelHeight: 25 },
      { id: 'r1', from: 'failed', to: 'retry' },
      { id: 'd1', from: 'connected', to: 'done' },
      { id: 'd2', from: 'retry', to: 'done' },
      { id: 'fa', from: 'done', to: 'a' },
      { id: 'fb', from: 'done', to: 'b' },
      // A retry loop: turned round to break the cycle, it comes up into its target from below.
      { id: 'back', from: 'retry', to: 'connect' },
    ],
  };
  const result = layoutGraph(input);
  let jogs = 0;
  for (const [id, { points }] of Object.entries(result.edges)) {
    if (points.length < 3) continue;
    const [a, b, c] = points.slice(-3) as [[number, number], [number, number], [number, number]];
    if (a[1] !== b[1]) continue;
    jogs++;
    assert.ok(Math.abs(c[1] - b[1]) >= 36, `${id} comes ${c[1] > b[1] ? 'down' : 'up'} ${Math.abs(c[1] - b[1])} px into its target`);
  }
  assert.ok(jogs >= 4, `${jogs} edges run across before their target`);
  const back = result.edges.back!.points;
  assert.ok(back.at(-1)![1] < back.at(-2)![1], 'the retry loop comes up into connect');
  const spec = fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.match(spec, new RegExp(`and ${HEAD_LEG} px from the boxes below them`), 'docs/spec.md states it');
});

test('arrows arriving on one side of a node end 26 px apart, wide enough that the editor\'s 17 px arrowheads do not touch, and a circle grows into a larger circle', () => {
  // bitcoin-libraries' libbitcoin_util, pulumi's "Submit to Executor": heads 18 px apart touched wing to wing, a comb.
  for (const [hub, size] of [['box', { width: 160, height: 60 }], ['ring', { width: 100, height: 100 }]] as const) {
    const sources = ['a', 'b', 'c', 'd', 'e', 'f'];
    const input: LayoutInput = {
      direction: 'TB',
      nodes: [...sources.map((id) => ({ id, width: 120, height: 50 })), { id: hub, ...size }],
      edges: sources.map((id) => ({ id: `${id}-${hub}`, from: id, to: hub })),
    };
    const result = layoutGraph(input);
    const ends = sources.map((id) => result.edges[`${id}-${hub}`]!.points.at(-1)![0]).sort((p, q) => p - q);
    for (let i = 1; i < ends.length; i++) assert.ok(ends[i]! - ends[i - 1]! >= 26 - 0.01, `${hub}: heads ${ends[i]! - ends[i - 1]!} px apart`);
    if (hub === 'ring') assert.equal(result.nodes.ring!.width, result.nodes.ring!.height, 'the circle stays round');
  }
});
