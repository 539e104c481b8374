import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { drawBoth, loadCorpus } from '../../bench/quality/corpus.ts';
import { DOT, dotLayout } from '../../bench/quality/dot-layout.ts';
import type { Box, Direction, LayoutInput } from '../../src/domain/layout/types.ts';

const skip = spawnSync(DOT, ['-V']).status === 0 ? false : 'Graphviz dot is not installed';
const TOLERANCE = 1;

type Point = [number, number];

function distanceToBoundary([x, y]: Point, box: Box): number {
  const dx = Math.max(box.x - x, 0, x - (box.x + box.width));
  const dy = Math.max(box.y - y, 0, y - (box.y + box.height));
  if (dx > 0 || dy > 0) return Math.hypot(dx, dy);
  return Math.min(x - box.x, box.x + box.width - x, y - box.y, box.y + box.height - y);
}

function distanceToPolyline(p: Point, points: Point[]): number {
  let best = Infinity;
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i]!, points[i + 1]!];
    const length2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length2));
    best = Math.min(best, Math.hypot(p[0] - (a[0] + t * (b[0] - a[0])), p[1] - (a[1] + t * (b[1] - a[1]))));
  }
  return best;
}

/** A small architecture: nested containers, an edge into a container, labels, a loop back. */
function architecture(direction: Direction): LayoutInput {
  return {
    direction,
    nodes: [
      { id: 'users', width: 160, height: 80 },
      { id: 'vpc', width: 180, height: 45 },
      { id: 'cluster', width: 150, height: 45, parent: 'vpc' },
      { id: 'api', width: 160, height: 70, parent: 'cluster' },
      { id: 'worker', width: 170, height: 70, parent: 'cluster' },
      { id: 'db', width: 160, height: 90, parent: 'vpc' },
      { id: 'backups', width: 200, height: 70 },
    ],
    edges: [
      { id: 'users-api', from: 'users', to: 'api', labelWidth: 70, labelHeight: 25 },
      { id: 'api-worker', from: 'api', to: 'worker', labelWidth: 120, labelHeight: 25 },
      { id: 'api-db', from: 'api', to: 'db' },
      { id: 'worker-api', from: 'worker', to: 'api', labelWidth: 50, labelHeight: 25 },
      { id: 'vpc-backups', from: 'vpc', to: 'backups', labelWidth: 90, labelHeight: 50 },
    ],
  };
}

function assertConverted(input: LayoutInput, name: string): void {
  const result = dotLayout(input);
  const sizes = new Map(input.nodes.map((n) => [n.id, n]));
  const parents = new Set(input.nodes.flatMap((n) => (n.parent ? [n.parent] : [])));
  for (const node of input.nodes) {
    const box = result.nodes[node.id];
    assert.ok(box, `${name}: ${node.id} is placed`);
    if (!parents.has(node.id)) assert.deepEqual([box.width, box.height], [sizes.get(node.id)!.width, sizes.get(node.id)!.height], `${name}: ${node.id} keeps its size`);
    if (node.parent) {
      const outer = result.nodes[node.parent]!;
      assert.ok(
        box.x >= outer.x && box.y >= outer.y && box.x + box.width <= outer.x + outer.width && box.y + box.height <= outer.y + outer.height,
        `${name}: ${node.id} lies inside ${node.parent}`,
      );
    }
  }
  for (const edge of input.edges) {
    const route = result.edges[edge.id];
    assert.ok(route && route.points.length >= 2, `${name}: ${edge.id} is routed`);
    const points = route.points as Point[];
    assert.ok(distanceToBoundary(points[0]!, result.nodes[edge.from]!) <= TOLERANCE, `${name}: ${edge.id} starts on ${edge.from}`);
    assert.ok(distanceToBoundary(points.at(-1)!, result.nodes[edge.to]!) <= TOLERANCE, `${name}: ${edge.id} ends on ${edge.to}`);
    if (edge.labelWidth) {
      assert.ok(route.label, `${name}: ${edge.id} has its label placed`);
      assert.ok(distanceToPolyline([route.label.x, route.label.y], points) <= TOLERANCE, `${name}: ${edge.id} passes through its label`);
    }
  }
}

test('dot layouts keep node sizes, nest containers, end routes on their boxes and pass them through their labels, in every direction', { skip }, () => {
  for (const direction of ['TB', 'BT', 'LR', 'RL'] as const) assertConverted(architecture(direction), direction);
});

test('every corpus spec converts from dot with the same guarantees', { skip }, () => {
  for (const entry of loadCorpus()) assertConverted(drawBoth(entry.spec).input, entry.name);
});

test('the author\'s same-rank groups reach dot too, so both layouts are asked the same thing', { skip }, () => {
  const box = (id: string) => ({ id, width: 100, height: 40 });
  const input: LayoutInput = {
    direction: 'TB',
    nodes: ['a', 'b', 'c', 'd'].map(box),
    edges: [{ id: 'ab', from: 'a', to: 'b' }, { id: 'bc', from: 'b', to: 'c' }, { id: 'ad', from: 'a', to: 'd' }],
    sameRank: [['c', 'd']],
  };
  const result = dotLayout(input);
  assert.equal(result.nodes.c!.y, result.nodes.d!.y, 'd on c\'s rank, two below a');
  assert.ok(result.nodes.d!.y > result.nodes.b!.y);
});
