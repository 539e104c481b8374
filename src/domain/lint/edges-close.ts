import { inflate } from './geometry.ts';
import { type Interval, mergeZones, parallelRun, piecesOutside } from './edges-overlap.ts';
import type { LintIssue } from './issue.ts';
import type { Path, SceneModel } from './scene-model.ts';
import { CLOSE_EDGE_DISTANCE, CLOSE_PARALLEL_SINE, MAX_CLOSE_RUN } from './thresholds.ts';

/**
 * Pairs of arrows that run side by side closer than the distance, (nearly)
 * parallel, over a stretch longer than the limit: a reader cannot tell which
 * line is which. The stretch is measured along the first arrow, joined across
 * its bends (a route that follows another around a corner runs on). Near a
 * node both arrows end at they may run together (they leave or reach it side
 * by side), as for edges_overlap; a pair that edges_overlap already names
 * (one line over the other) is left to it. One issue per pair, with its
 * longest stretch.
 */
export function closeEdges(model: SceneModel, overlapping: ReadonlySet<string>): LintIssue[] {
  const stretches = new Map<string, { first: Path; second: Path; along: Interval[] }>();
  for (const segment of model.segments) {
    if (segment.path.type !== 'arrow') continue;
    const start = segment.path.lengths[segment.at]!;
    for (const i of model.segmentGrid.near(inflate(segment.box, CLOSE_EDGE_DISTANCE))) {
      const other = model.segments[i]!;
      // Measured along the earlier arrow of the two, so each pair's stretch is taken once.
      if (other.path.type !== 'arrow' || other.path.index <= segment.path.index) continue;
      // Exactly the distance apart is far enough ("at least 16 px apart"): only what is closer counts, coordinates being kept to 1/100 px.
      const run = parallelRun(segment, other, CLOSE_EDGE_DISTANCE - COORDINATE_STEP, CLOSE_PARALLEL_SINE);
      if (!run) continue;
      const [first, second] = [segment.path, other.path];
      const key = pairKey(first.id, second.id);
      if (overlapping.has(key)) continue;
      const entry = stretches.get(key) ?? { first, second, along: [] };
      for (const [lo, hi] of piecesOutside(run, mergeZones(segment, other))) entry.along.push([start + lo, start + hi]);
      stretches.set(key, entry);
    }
  }
  const issues: Array<{ first: Path; second: Path; run: number }> = [];
  for (const { first, second, along } of stretches.values()) {
    const run = longestJoined(along, first.lengths);
    if (run > MAX_CLOSE_RUN) issues.push({ first, second, run });
  }
  return issues
    .sort((a, b) => a.first.index - b.first.index || a.second.index - b.second.index)
    .map(({ first, second, run }) => ({
      kind: 'edges_too_close' as const,
      elementIds: [first.id, second.id],
      message: `arrows "${first.id}" and "${second.id}" run side by side less than ${CLOSE_EDGE_DISTANCE} px apart for ${Math.round(run)} px, too close to tell apart (at most ${MAX_CLOSE_RUN} px)`,
    }));
}

export const pairKey = (a: string, b: string) => `${a}\u0000${b}`;

/** How finely the layout keeps coordinates. */
const COORDINATE_STEP = 0.01;

/** Gaps this small between two stretches are rounding: the stretches are one. */
const JOIN_GAP = 1;

/**
 * The longest run of the union of the intervals (distances along a route with
 * its bends at `bends`). Round a bend the other route turns up to the distance
 * earlier and later than this one: a gap of up to twice the distance around
 * a bend is part of the run.
 */
function longestJoined(intervals: Interval[], bends: number[]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const turnsWithin = (from: number, to: number) => to - from <= 2 * CLOSE_EDGE_DISTANCE && bends.some((at) => at >= from - JOIN_GAP && at <= to + JOIN_GAP);
  let best = 0;
  let [lo, hi] = sorted[0] ?? [0, 0];
  for (const [a, b] of sorted) {
    if (a > hi + JOIN_GAP && !turnsWithin(hi, a)) {
      best = Math.max(best, hi - lo);
      [lo, hi] = [a, b];
    } else hi = Math.max(hi, b);
  }
  return Math.max(best, hi - lo);
}
