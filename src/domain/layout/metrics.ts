/**
 * Quality measures of a finished layout, shared by the tests and the benchmarks:
 * edge crossings, overlapping node boxes and routes that pass through a box.
 * They read only the result and the input's ids and parents, so they measure
 * any engine's output (ours or elkjs's converted to a LayoutResult) the same way.
 */
import type { Box, LayoutInput, LayoutResult } from './types.ts';

export interface LayoutQuality {
  crossings: number;
  nodeOverlaps: number;
  routesThroughBoxes: number;
}

/** Interiors shrink by this much so that touching boundaries never count. */
const TOUCH_TOLERANCE = 0.5;
const EPS = 1e-7;

export function measureLayout(input: LayoutInput, result: LayoutResult): LayoutQuality {
  return {
    crossings: countEdgeCrossings(input, result),
    nodeOverlaps: countNodeOverlaps(input, result),
    routesThroughBoxes: countRoutesThroughBoxes(input, result),
  };
}

interface Segment {
  edge: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
  /** The last segment of its route owns its end point; the others leave it to the next segment. */
  last: boolean;
}

/**
 * Pairwise intersections between segments of different edges that share no endpoint
 * node. A crossing at a bend is counted once; a collinear overlap counts once.
 */
export function countEdgeCrossings(input: LayoutInput, result: LayoutResult): number {
  const edges = input.edges.filter((e) => result.edges[e.id] !== undefined && e.from !== e.to);
  const segments: Segment[] = [];
  edges.forEach((edge, index) => {
    const points = result.edges[edge.id]!.points;
    for (let i = 0; i + 1 < points.length; i++) {
      const [ax, ay] = points[i]!;
      const [bx, by] = points[i + 1]!;
      if (ax === bx && ay === by) continue;
      segments.push({ edge: index, ax, ay, bx, by, last: i + 2 === points.length });
    }
  });
  if (segments.length === 0) return 0;
  const grid = new SegmentGrid(segments);
  let crossings = 0;
  grid.forEachCandidatePair((s, t, cellX, cellY) => {
    if (s.edge === t.edge) return;
    const e = edges[s.edge]!;
    const f = edges[t.edge]!;
    if (e.from === f.from || e.from === f.to || e.to === f.from || e.to === f.to) return;
    const point = intersectionPoint(s, t);
    if (!point) return;
    if (!grid.ownsPoint(cellX, cellY, point[0], point[1])) return;
    if (isOpenEnd(s, point) || isOpenEnd(t, point)) return;
    crossings++;
  });
  return crossings;
}

function isOpenEnd(s: Segment, [x, y]: [number, number]): boolean {
  return !s.last && Math.abs(x - s.bx) < EPS && Math.abs(y - s.by) < EPS;
}

/** The intersection of two closed segments (for a collinear overlap, its first point), or null. */
function intersectionPoint(s: Segment, t: Segment): [number, number] | null {
  const rx = s.bx - s.ax;
  const ry = s.by - s.ay;
  const qx = t.bx - t.ax;
  const qy = t.by - t.ay;
  const denom = rx * qy - ry * qx;
  const wx = t.ax - s.ax;
  const wy = t.ay - s.ay;
  const scale = Math.max(1, Math.abs(rx) + Math.abs(ry)) * Math.max(1, Math.abs(qx) + Math.abs(qy));
  if (Math.abs(denom) > EPS * scale) {
    const u = (wx * qy - wy * qx) / denom;
    const v = (wx * ry - wy * rx) / denom;
    if (u < -EPS || u > 1 + EPS || v < -EPS || v > 1 + EPS) return null;
    return [s.ax + u * rx, s.ay + u * ry];
  }
  if (Math.abs(wx * ry - wy * rx) > EPS * scale) return null;
  const len2 = rx * rx + ry * ry;
  const t0 = (wx * rx + wy * ry) / len2;
  const t1 = ((t.bx - s.ax) * rx + (t.by - s.ay) * ry) / len2;
  const lo = Math.max(0, Math.min(t0, t1));
  const hi = Math.min(1, Math.max(t0, t1));
  if (lo > hi + EPS) return null;
  return [s.ax + lo * rx, s.ay + lo * ry];
}

/** Uniform buckets over the segments' bounding box so that only nearby pairs are tested. */
class SegmentGrid {
  private readonly minX: number;
  private readonly minY: number;
  private readonly cell: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly buckets = new Map<number, number[]>();

  private readonly segments: Segment[];
  constructor(segments: Segment[]) {
    this.segments = segments;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const s of segments) {
      minX = Math.min(minX, s.ax, s.bx);
      minY = Math.min(minY, s.ay, s.by);
      maxX = Math.max(maxX, s.ax, s.bx);
      maxY = Math.max(maxY, s.ay, s.by);
    }
    const area = Math.max(1, (maxX - minX) * (maxY - minY));
    this.cell = Math.max(8, Math.sqrt(area / segments.length) * 2);
    this.minX = minX;
    this.minY = minY;
    this.cols = Math.floor((maxX - minX) / this.cell) + 1;
    this.rows = Math.floor((maxY - minY) / this.cell) + 1;
    segments.forEach((s, index) => {
      const [c0, r0] = this.cellOf(Math.min(s.ax, s.bx), Math.min(s.ay, s.by));
      const [c1, r1] = this.cellOf(Math.max(s.ax, s.bx), Math.max(s.ay, s.by));
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const key = r * this.cols + c;
          const bucket = this.buckets.get(key);
          if (bucket) bucket.push(index);
          else this.buckets.set(key, [index]);
        }
      }
    });
  }

  private cellOf(x: number, y: number): [number, number] {
    const c = Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.minX) / this.cell)));
    const r = Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.minY) / this.cell)));
    return [c, r];
  }

  /** A point belongs to exactly one cell, so a pair found in several cells is counted once. */
  ownsPoint(cellX: number, cellY: number, x: number, y: number): boolean {
    const [c, r] = this.cellOf(x, y);
    return c === cellX && r === cellY;
  }

  forEachCandidatePair(visit: (s: Segment, t: Segment, cellX: number, cellY: number) => void): void {
    const keys = [...this.buckets.keys()].sort((a, b) => a - b);
    for (const key of keys) {
      const bucket = this.buckets.get(key)!;
      const cellX = key % this.cols;
      const cellY = Math.floor(key / this.cols);
      for (let i = 0; i < bucket.length; i++) {
        for (let j = i + 1; j < bucket.length; j++) {
          visit(this.segments[bucket[i]!]!, this.segments[bucket[j]!]!, cellX, cellY);
        }
      }
    }
  }
}

/** Ancestors of every node (its containers, innermost first), from the input's `parent` fields. */
export function ancestorsOf(input: LayoutInput): Map<string, string[]> {
  const parentOf = new Map<string, string>();
  for (const node of input.nodes) if (node.parent) parentOf.set(node.id, node.parent);
  const ancestors = new Map<string, string[]>();
  for (const node of input.nodes) {
    const chain: string[] = [];
    const seen = new Set([node.id]);
    let current = parentOf.get(node.id);
    while (current !== undefined && !seen.has(current)) {
      chain.push(current);
      seen.add(current);
      current = parentOf.get(current);
    }
    ancestors.set(node.id, chain);
  }
  return ancestors;
}

function interiorsOverlap(a: Box, b: Box): boolean {
  return (
    Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > TOUCH_TOLERANCE &&
    Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > TOUCH_TOLERANCE
  );
}

/** Pairs of node boxes whose interiors overlap, a container and its own descendants excepted. */
export function countNodeOverlaps(input: LayoutInput, result: LayoutResult): number {
  const ancestors = ancestorsOf(input);
  const ids = input.nodes.map((n) => n.id).filter((id) => result.nodes[id] !== undefined);
  const sorted = ids
    .map((id) => ({ id, box: result.nodes[id]! }))
    .sort((a, b) => a.box.x - b.box.x || (a.id < b.id ? -1 : 1));
  let overlaps = 0;
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j]!;
      if (b.box.x >= a.box.x + a.box.width) break;
      if (!interiorsOverlap(a.box, b.box)) continue;
      if (ancestors.get(a.id)?.includes(b.id) || ancestors.get(b.id)?.includes(a.id)) continue;
      overlaps++;
    }
  }
  return overlaps;
}

/** Whether the segment a→b enters the box's interior (shrunk by the touch tolerance); Liang–Barsky clipping. */
export function segmentCrossesBox(ax: number, ay: number, bx: number, by: number, box: Box): boolean {
  const left = box.x + TOUCH_TOLERANCE;
  const right = box.x + box.width - TOUCH_TOLERANCE;
  const top = box.y + TOUCH_TOLERANCE;
  const bottom = box.y + box.height - TOUCH_TOLERANCE;
  if (left >= right || top >= bottom) return false;
  if (Math.max(ax, bx) <= left || Math.min(ax, bx) >= right || Math.max(ay, by) <= top || Math.min(ay, by) >= bottom) return false;
  const dx = bx - ax;
  const dy = by - ay;
  let t0 = 0;
  let t1 = 1;
  const ps = [-dx, dx, -dy, dy];
  const qs = [ax - left, right - ax, ay - top, bottom - ay];
  for (let k = 0; k < 4; k++) {
    const p = ps[k]!;
    const q = qs[k]!;
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
  }
  return t1 > t0 || (dx === 0 && dy === 0);
}

/**
 * (edge, node) pairs where the edge's route passes through the node's box. The
 * edge's own endpoints are exempt, and so are containers that hold an endpoint.
 */
export function countRoutesThroughBoxes(input: LayoutInput, result: LayoutResult): number {
  const ancestors = ancestorsOf(input);
  const boxes = input.nodes
    .filter((n) => result.nodes[n.id] !== undefined)
    .map((n) => ({ id: n.id, box: result.nodes[n.id]! }));
  let count = 0;
  for (const edge of input.edges) {
    const route = result.edges[edge.id];
    if (!route) continue;
    const exempt = new Set([edge.from, edge.to, ...(ancestors.get(edge.from) ?? []), ...(ancestors.get(edge.to) ?? [])]);
    const { points } = route;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const [x, y] of points) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
    for (const { id, box } of boxes) {
      if (exempt.has(id)) continue;
      if (box.x > maxX || box.x + box.width < minX || box.y > maxY || box.y + box.height < minY) continue;
      for (let i = 0; i + 1 < points.length; i++) {
        const [ax, ay] = points[i]!;
        const [bx, by] = points[i + 1]!;
        if (segmentCrossesBox(ax, ay, bx, by, box)) {
          count++;
          break;
        }
      }
    }
  }
  return count;
}
