/**
 * The author's hints to the layout, each on a small crafted graph at the
 * layout level: edges that do not decide ranks, edges that span more (or no)
 * ranks, nodes kept on one rank (without containers), and how an edge whose
 * ends share a rank is drawn.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { countEdgeCrossings, countRoutesThroughBoxes } from '../../src/domain/layout/metrics.ts';
import type { Box, Direction, LayoutEdge, LayoutInput, LayoutNode, LayoutResult } from '../../src/domain/layout/types.ts';

const box = (id: string, parent?: string): LayoutNode => ({ id, width: 120, height: 50, ...(parent ? { parent } : {}) });
const container = (id: string, parent?: string): LayoutNode => ({ id, width: 100, height: 30, ...(parent ? { parent } : {}) });
const edge = (from: string, to: string, extra: Partial<LayoutEdge> = {}): LayoutEdge => ({ id: `${from}-${to}`, from, to, ...extra });
const centreY = (b: Box): number => b.y + b.height / 2;

/** The first and last points of an edge's route lie on its ends' boxes. */
function assertRouted(result: LayoutResult, e: LayoutEdge): void {
  const points = result.edges[e.id]?.points;
  assert.ok(points && points.length >= 2, `${e.id} has a route`);
  const on = ([x, y]: [number, number], b: Box): boolean => x >= b.x - 1 && x <= b.x + b.width + 1 && y >= b.y - 1 && y <= b.y + b.height + 1;
  assert.ok(on(points[0]!, result.nodes[e.from]!), `${e.id} starts on ${e.from}`);
  assert.ok(on(points[points.length - 1]!, result.nodes[e.to]!), `${e.id} ends on ${e.to}`);
}

test('an edge with constraint false decides no rank but is still drawn', () => {
  const unconstrained = edge('c', 'b', { constraint: false });
  const input: LayoutInput = { direction: 'TB', nodes: ['a', 'b', 'c'].map((id) => box(id)), edges: [edge('a', 'b'), edge('a', 'c'), unconstrained] };
  const result = layoutGraph(input);
  assert.equal(result.nodes.b!.y, result.nodes.c!.y, 'b and c share the rank under a');
  assertRouted(result, unconstrained);
  const ranked = layoutGraph({ ...input, edges: [edge('a', 'b'), edge('a', 'c'), edge('c', 'b')] });
  assert.ok(ranked.nodes.b!.y > ranked.nodes.c!.y, 'the same edge constraining puts b under c');
});

test('a part joined to the rest only by an edge that does not constrain settles near that edge\'s other end, not at the start', () => {
  // istio's Argo CD picture: application/* (and what it feeds) hangs off the chain by a constraint=false edge.
  for (const withContainer of [false, true]) {
    const nodes = [...['a', 'b', 'c', 'd'].map((id) => box(id)), ...(withContainer ? [container('g'), box('x', 'g'), box('y', 'g')] : [box('x'), box('y')])];
    const result = layoutGraph({ direction: 'TB', nodes, edges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'd'), edge('c', 'x', { constraint: false }), edge('x', 'y')] });
    assert.ok(result.nodes.x!.y >= result.nodes.c!.y, `${withContainer ? 'in a container' : 'flat'}: x at c's rank or below (x ${result.nodes.x!.y}, c ${result.nodes.c!.y})`);
  }
});

test('an edge spans at least its minLength ranks, and minLength 0 lets its ends share a rank', () => {
  const long = layoutGraph({ direction: 'TB', nodes: ['a', 'b', 'c'].map((id) => box(id)), edges: [edge('a', 'b', { minLength: 2 }), edge('a', 'c')] });
  assert.ok(long.nodes.b!.y > long.nodes.c!.y + 50, 'b two ranks down, below c on the first');
  const none = edge('a', 'b', { minLength: 0 });
  const flat = layoutGraph({ direction: 'LR', nodes: ['a', 'b', 'c'].map((id) => box(id)), edges: [none, edge('a', 'c')] });
  assert.equal(flat.nodes.a!.x, flat.nodes.b!.x, 'in LR, a and b on one rank: one column');
  assertRouted(flat, none);
});

test('nodes in a sameRank group share a rank, and the rest of the flow follows', () => {
  for (const direction of ['TB', 'LR'] as Direction[]) {
    const input: LayoutInput = {
      direction,
      nodes: ['a', 'b', 'c', 'x', 'y'].map((id) => box(id)),
      edges: [edge('a', 'b'), edge('b', 'c'), edge('x', 'y')],
      sameRank: [['c', 'x']],
    };
    const result = layoutGraph(input);
    const along = (id: string): number => (direction === 'TB' ? result.nodes[id]!.y : result.nodes[id]!.x);
    assert.equal(along('x'), along('c'), `${direction}: x beside c`);
    assert.ok(along('y') > along('x'), `${direction}: y after x`);
  }
});

/** Boxes on the rank of `id` (same centre across the flow), left to right. */
function rankOf(result: LayoutResult, id: string): string[] {
  const y = centreY(result.nodes[id]!);
  return Object.entries(result.nodes)
    .filter(([, b]) => Math.abs(centreY(b) - y) < 1)
    .sort(([, a], [, b]) => a.x - b.x)
    .map(([other]) => other);
}

test('the ends of an edge within one rank are neighbours, joined by a straight line from side to side', () => {
  // b, c, d, e hang under a; b -> e is flat (minLength 0), and in input order c and d would sit between them.
  const flat = edge('b', 'e', { minLength: 0 });
  const input: LayoutInput = { direction: 'TB', nodes: ['a', 'b', 'c', 'd', 'e'].map((id) => box(id)), edges: [edge('a', 'b'), edge('a', 'c'), edge('a', 'd'), edge('a', 'e'), flat] };
  const result = layoutGraph(input);
  const rank = rankOf(result, 'b');
  assert.deepEqual(rank.length, 4, 'b, c, d and e share the rank under a');
  assert.equal(rank.indexOf('e') - rank.indexOf('b'), 1, `e right after b: ${rank.join(' ')}`);
  const points = result.edges[flat.id]!.points;
  assert.equal(points.length, 2, `one straight segment: ${JSON.stringify(points)}`);
  assert.equal(points[0]![0], result.nodes.b!.x + result.nodes.b!.width, 'from b\'s right side');
  assert.equal(points[1]![0], result.nodes.e!.x, 'to e\'s left side');
  assert.equal(points[0]![1], points[1]![1], 'level');
});

test('a labelled edge within one rank leaves room for its label between its ends', () => {
  const flat = edge('b', 'c', { minLength: 0, labelWidth: 150, labelHeight: 20 });
  const result = layoutGraph({ direction: 'TB', nodes: ['a', 'b', 'c'].map((id) => box(id)), edges: [edge('a', 'b'), edge('a', 'c'), flat] });
  const b = result.nodes.b!;
  const c = result.nodes.c!;
  assert.equal(centreY(b), centreY(c));
  const label = result.edges[flat.id]!.label!;
  assert.ok(label, 'the label is placed');
  assert.ok(label.x - 75 >= b.x + b.width + 8 && label.x + 75 <= c.x - 8, `the label (${label.x - 75}..${label.x + 75}) lies between b (right ${b.x + b.width}) and c (left ${c.x}), clear of both`);
});

test('many edges within one rank between the same two nodes: the nodes are neighbours and no route crosses a box', () => {
  // graphviz's pgram: a fan into a node that feeds its neighbour on the same rank, many times over.
  const sources = Array.from({ length: 8 }, (_, i) => `s${i}`);
  const edges = [...sources.map((s) => edge(s, 'p')), ...sources.map((s, i) => ({ ...edge('p', 'q', { minLength: 0 }), id: `pq${i}` }))];
  const input: LayoutInput = { direction: 'LR', nodes: [...sources, 'p', 'q'].map((id) => box(id)), edges, sameRank: [['p', 'q']] };
  const result = layoutGraph(input);
  assert.equal(result.nodes.p!.x, result.nodes.q!.x, 'p and q in one column');
  const column = Object.entries(result.nodes).filter(([, b]) => b.x === result.nodes.p!.x).sort(([, a], [, b]) => a.y - b.y).map(([id]) => id);
  assert.equal(Math.abs(column.indexOf('q') - column.indexOf('p')), 1, `p and q neighbours: ${column.join(' ')}`);
  for (const e of edges) assertRouted(result, e);
  assert.equal(countRoutesThroughBoxes(input, result), 0);
});

test('an invisible edge within one rank keeps its ends on the rank without making them neighbours', () => {
  // graphviz's shells: a timeline of years, each year on the rank of the shells of that year, tied by invisible edges.
  const nodes = ['y1', 'y2', 'y3', 'root', 'a', 'b', 'c'].map((id) => box(id));
  const edges = [edge('y1', 'y2'), edge('y2', 'y3'), edge('root', 'a'), edge('root', 'b'), edge('b', 'c'), edge('a', 'c'), edge('y2', 'b', { minLength: 0, invisible: true })];
  const input: LayoutInput = { direction: 'TB', nodes, edges, sameRank: [['y1', 'root'], ['y2', 'a', 'b'], ['y3', 'c']] };
  const result = layoutGraph(input);
  assert.deepEqual(new Set(rankOf(result, 'y2')), new Set(['y2', 'a', 'b']));
  assert.equal(countEdgeCrossings({ ...input, edges: edges.filter((e) => !e.invisible) }, result), 0, 'the timeline runs beside the drawing, crossing nothing');
});

test('inside a container: a same-rank group holds, and a chain of flat edges runs left to right between neighbours', () => {
  // postgres's GIN index: the entry tree's pages on one level, each linked to the next.
  const nodes = [container('tree'), box('root', 'tree'), box('p1', 'tree'), box('p2', 'tree'), box('p3', 'tree'), box('outside')];
  const chainEdges = [edge('p1', 'p2'), edge('p2', 'p3')];
  const edges = [edge('outside', 'root'), edge('root', 'p3'), edge('root', 'p1'), edge('root', 'p2'), ...chainEdges];
  const input: LayoutInput = { direction: 'TB', nodes, edges, sameRank: [['p1', 'p2', 'p3']] };
  const result = layoutGraph(input);
  const row = ['p1', 'p2', 'p3'].map((id) => result.nodes[id]!);
  assert.equal(new Set(row.map(centreY)).size, 1, 'p1, p2 and p3 on one rank');
  assert.ok(row[0]!.x < row[1]!.x && row[1]!.x < row[2]!.x, 'in the order of the chain');
  for (const e of chainEdges) {
    const points = result.edges[e.id]!.points;
    assert.equal(points.length, 2, `${e.id} is one straight segment: ${JSON.stringify(points)}`);
    assert.equal(points[0]![0], result.nodes[e.from]!.x + result.nodes[e.from]!.width);
    assert.equal(points[1]![0], result.nodes[e.to]!.x);
  }
  const tree = result.nodes.tree!;
  for (const b of row) assert.ok(b.x >= tree.x && b.x + b.width <= tree.x + tree.width && b.y >= tree.y && b.y + b.height <= tree.y + tree.height, 'inside the container');
  assert.equal(countRoutesThroughBoxes(input, result), 0);
});

test('hints that contradict the containers never break the drawing: every edge is routed, end to end', () => {
  // A same-rank group across containers and against an edge's direction, and an edge to a container that may not rank.
  const nodes = [container('g'), box('a', 'g'), box('b', 'g'), box('c'), box('d'), container('h'), box('e', 'h')];
  const edges = [edge('a', 'b'), edge('b', 'c'), edge('c', 'd', { minLength: 0 }), edge('d', 'h', { constraint: false }), edge('e', 'a'), edge('g', 'h'), edge('h', 'c', { minLength: 0, labelWidth: 60, labelHeight: 20 })];
  for (const direction of ['TB', 'LR', 'BT', 'RL'] as Direction[]) {
    const input: LayoutInput = { direction, nodes, edges, sameRank: [['a', 'c', 'e'], ['b', 'd']] };
    const result = layoutGraph(input);
    for (const e of edges) assertRouted(result, e);
  }
});

test('any hints on any graph, containers or not, in every direction: the layout never fails, and every edge is routed end to end', () => {
  const ids = Array.from({ length: 14 }, (_, i) => `n${i}`);
  const graph = fc.record({
    size: fc.integer({ min: 2, max: 14 }),
    parents: fc.array(fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), { minLength: 14, maxLength: 14 }),
    edges: fc.array(
      fc.record({
        from: fc.nat(13),
        to: fc.nat(13),
        constraint: fc.option(fc.constant(false), { nil: undefined }),
        minLength: fc.option(fc.constantFrom(0, 0, 2), { nil: undefined }),
        labelled: fc.boolean(),
        invisible: fc.option(fc.constant(true), { nil: undefined }),
      }),
      { maxLength: 24 },
    ),
    sameRank: fc.array(fc.array(fc.nat(13), { minLength: 2, maxLength: 4 }), { maxLength: 3 }),
    direction: fc.constantFrom<Direction>('TB', 'LR', 'BT', 'RL'),
  });
  fc.assert(
    fc.property(graph, ({ size, parents, edges, sameRank, direction }) => {
      // Only the first four nodes may be containers, and only of later nodes: no parent cycles.
      const nodes = ids.slice(0, size).map((id, i) => (parents[i] !== undefined && parents[i]! < Math.min(i, 4) ? box(id, ids[parents[i]!]) : box(id)));
      const input: LayoutInput = {
        direction,
        nodes,
        edges: edges
          .filter((e) => e.from < size && e.to < size)
          .map((e, i) => ({
            id: `e${i}`,
            from: ids[e.from]!,
            to: ids[e.to]!,
            ...(e.constraint === false ? { constraint: false } : {}),
            ...(e.minLength !== undefined ? { minLength: e.minLength } : {}),
            ...(e.labelled ? { labelWidth: 60, labelHeight: 20 } : {}),
            ...(e.invisible ? { invisible: true } : {}),
          })),
        sameRank: sameRank.map((group) => group.filter((v) => v < size).map((v) => ids[v]!)).filter((group) => group.length > 1),
      };
      const result = layoutGraph(input);
      for (const node of nodes) assert.ok(Number.isFinite(result.nodes[node.id]?.x) && Number.isFinite(result.nodes[node.id]?.y), `${node.id} placed`);
      for (const e of input.edges) {
        assertRouted(result, e);
        assert.ok(result.edges[e.id]!.points.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y)), `${e.id}'s points are numbers`);
      }
    }),
    { numRuns: 300 },
  );
});
