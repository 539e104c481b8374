import { boxPolygon, clipSegment, inflate, type Point } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import type { Path, SceneModel, Segment } from './scene-model.ts';
import { COLLINEAR_TOLERANCE, MAX_SHARED_RUN, PARALLEL_SINE, SHARED_END_MERGE } from './thresholds.ts';

export type Interval = [number, number];

/**
 * Pairs of arrows that share a collinear run (lines within the tolerance read
 * as one) longer than the limit. Arrows with a common end node may run together
 * near it, where they merge on arrival. One issue per pair, with its longest run.
 */
export function overlappingEdges(model: SceneModel): LintIssue[] {
  const longest = new Map<string, { first: Path; second: Path; run: number }>();
  for (const segment of model.segments) {
    if (segment.path.type !== 'arrow') continue;
    for (const i of model.segmentGrid.near(inflate(segment.box, COLLINEAR_TOLERANCE))) {
      const other = model.segments[i]!;
      if (other.path.type !== 'arrow' || other.path.index <= segment.path.index) continue;
      const shared = parallelRun(segment, other, COLLINEAR_TOLERANCE, PARALLEL_SINE);
      if (!shared) continue;
      const run = longestPiece(shared, mergeZones(segment, other));
      const key = `${segment.path.index}:${other.path.index}`;
      if (run > MAX_SHARED_RUN && run > (longest.get(key)?.run ?? 0)) longest.set(key, { first: segment.path, second: other.path, run });
    }
  }
  return [...longest.values()]
    .sort((a, b) => a.first.index - b.first.index || a.second.index - b.second.index)
    .map(({ first, second, run }) => ({
      kind: 'edges_overlap' as const,
      elementIds: [first.id, second.id],
      message: `arrows "${first.id}" and "${second.id}" run along the same line for ${Math.round(run)} px, so they read as one (at most ${MAX_SHARED_RUN} px may be shared)`,
    }));
}

/**
 * The stretch of `s` (as distances from its start) along which `t`, at most
 * `sine` off parallel, lies within `tolerance` of it, or null.
 */
export function parallelRun(s: Segment, t: Segment, tolerance: number, sine: number): Interval | null {
  const length = Math.hypot(s.b[0] - s.a[0], s.b[1] - s.a[1]);
  const [ux, uy] = [(s.b[0] - s.a[0]) / length, (s.b[1] - s.a[1]) / length];
  const tLength = Math.hypot(t.b[0] - t.a[0], t.b[1] - t.a[1]);
  if (Math.abs(ux * (t.b[1] - t.a[1]) - uy * (t.b[0] - t.a[0])) / tLength > sine) return null;
  const along = (p: Point) => (p[0] - s.a[0]) * ux + (p[1] - s.a[1]) * uy;
  const across = (p: Point) => (p[1] - s.a[1]) * ux - (p[0] - s.a[0]) * uy;
  let [from, to] = [t.a, t.b];
  if (along(from) > along(to)) [from, to] = [to, from];
  const [start, end] = [along(from), along(to)];
  let [lo, hi] = [Math.max(0, start), Math.min(length, end)];
  if (hi - lo <= 0) return null;
  // Across the run, t's offset from s's line changes linearly; keep where it is within the tolerance.
  const [h0, h1] = [across(from), across(to)];
  const slope = (h1 - h0) / (end - start);
  if (slope === 0) return Math.abs(h0) <= tolerance ? [lo, hi] : null;
  const [a, b] = [start + (-tolerance - h0) / slope, start + (tolerance - h0) / slope].sort((x, y) => x - y) as Interval;
  [lo, hi] = [Math.max(lo, a), Math.min(hi, b)];
  return hi > lo ? [lo, hi] : null;
}

/** Where along `s` the two arrows may run together: near a node both of them end at. */
export function mergeZones(s: Segment, t: Segment): Interval[] {
  const length = Math.hypot(s.b[0] - s.a[0], s.b[1] - s.a[1]);
  const zones: Interval[] = [];
  for (const end of new Set(s.path.ends)) {
    if (!end || !t.path.ends.includes(end)) continue;
    const inside = clipSegment(s.a, s.b, boxPolygon(inflate(end.box, SHARED_END_MERGE)));
    if (inside) zones.push([inside[0] * length, inside[1] * length]);
  }
  return zones;
}

/** The longest part of `run` outside every zone. */
function longestPiece(run: Interval, zones: Interval[]): number {
  return Math.max(0, ...piecesOutside(run, zones).map(([a, b]) => b - a));
}

/** The parts of `run` outside every zone (some possibly empty). */
export function piecesOutside([lo, hi]: Interval, zones: Interval[]): Interval[] {
  let pieces: Interval[] = [[lo, hi]];
  for (const [z0, z1] of zones) {
    pieces = pieces.flatMap(([a, b]): Interval[] => [
      [a, Math.min(b, z0)],
      [Math.max(a, z1), b],
    ]);
  }
  return pieces.filter(([a, b]) => b > a);
}
