/**
 * Two arrows that cross in one channel in an X (a → B and b → A, where b's
 * port lines up with B's) share a line: whichever order their runs across the
 * channel take, the leg one of them ends with lies on the leg the other starts
 * with, for as far as the runs are apart (graphviz-switch's twelve switches,
 * graphviz-records' a → y and c → d). No order of tracks can part them, so the
 * leg that touches a node moves sideways instead, taking its end along that
 * side of the node, away from the arrows beside it. A move is made only when
 * the end stays well inside the side and 16 px from every other end there, and
 * the arrow then shares no line with another, crosses no more arrows and
 * passes through no node. Only unlabelled arrows move, so every label stays
 * where it was laid out.
 */
import { verticalFrame } from '../placement/branches.ts';
import { segmentCrossesBox } from '../metrics.ts';
import type { Point } from './routing.ts';
import type { Box, Direction } from '../types.ts';

/** How far a leg moves sideways: two legs this far apart read as two; less far where a small node has no more room (then they may run that close for CLOSE_RUN at most). */
const SHIFTS = [16, 12, 8];
/** Ends on one side of a node keep this far apart (the lint's piled heads). */
const END_GAP = 16;
/** A moved end keeps this far from either corner of a box's side… */
const CORNER_GAP = 8;
/** …and this share of its side's length on a round or pointed shape, whose outline meets an arrow badly near the corners. */
const CORNER_SHARE = 0.15;
/** Arrows closer than this… */
const CLOSE = 16;
/** …run side by side no further than this (the lint's edges_too_close). */
const CLOSE_RUN = 30;
/** Legs on one line that share less than this are not moved (a touch where runs meet). */
const LEAST_SHARED = 2;
const EPSILON = 0.5;

interface Leg {
  e: number;
  /** Index of the route's point on the node, and of the bend after (before) it. */
  end: number;
  bend: number;
  /** The node the leg touches. */
  node: number;
}

export function partCrossedLegs(
  direction: Direction,
  boxes: Box[],
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  labelled: ArrayLike<boolean>,
  /** A circle, an ellipse or a diamond. */
  pointed: ArrayLike<boolean>,
  routes: Array<Point[] | null>,
  parent: ArrayLike<number>,
): void {
  const { point: t, box: frameBox } = verticalFrame(direction);
  const frame = routes.map((route) => route?.map(t) ?? null);
  const frameBoxes = boxes.map(frameBox);
  const holds = new Set<number>();
  for (let v = 0; v < parent.length; v++) if (parent[v]! >= 0) holds.add(parent[v]!);
  // Segments by the line they run on (bands CLOSE wide), so that a leg meets only the arrows near it: a hub of a thousand
  // arrows is not a million pairs.
  let lines = indexLines(frame);
  let moved = false;
  for (let e = 0; e < frame.length; e++) {
    if (!frame[e]) continue;
    for (const leg of legsOf(e)) {
      const route = frame[leg.e]!;
      const partner = near(lines, 'down', route[leg.end]![0], 0).find((g) => g !== e && legOnLine(route, leg, frame[g]!));
      if (partner === undefined) continue;
      const next = bestMove(leg, route, partner);
      if (!next) continue;
      frame[e] = next;
      lines = indexLines(frame);
      moved = true;
    }
  }
  if (!moved) return;
  frame.forEach((route, e) => {
    if (route) routes[e] = route.map(t);
  });

  /** The legs of an unlabelled arrow that end on a node's top or bottom side (in the frame) after a run across. */
  function legsOf(e: number): Leg[] {
    const route = frame[e]!;
    if (labelled[e] || from[e] === to[e] || route.length < 3) return [];
    const n = route.length;
    const legs: Leg[] = [];
    for (const [end, bend, run, node] of [[0, 1, 2, from[e]!], [n - 1, n - 2, n - 3, to[e]!]] as const) {
      const [p, b, r] = [route[end]!, route[bend]!, route[run]!];
      const box = frameBoxes[node]!;
      const onSide = Math.abs(p[1] - box.y) < EPSILON || Math.abs(p[1] - (box.y + box.height)) < EPSILON;
      if (onSide && Math.abs(p[0] - b[0]) < EPSILON && Math.abs(b[1] - r[1]) < EPSILON && Math.abs(p[1] - b[1]) > EPSILON) legs.push({ e, end, bend, node });
    }
    return legs;
  }

  /** Whether this leg lies on a segment of the other route for more than LEAST_SHARED. */
  function legOnLine(route: Point[], leg: Leg, other: Point[]): boolean {
    return sharedRun([route[leg.end]!, route[leg.bend]!], other) > LEAST_SHARED;
  }

  /** The route with its leg moved sideways as far as SHIFTS allow (away from its nearest neighbour on the side first), parted from its partner, if that is allowed. */
  function bestMove(leg: Leg, route: Point[], partner: number): Point[] | null {
    const box = frameBoxes[leg.node]!;
    const [x, y] = route[leg.end]!;
    const ends: number[] = [];
    frame.forEach((r, g) => {
      if (!r || g === leg.e) return;
      for (const [k, node] of [[0, from[g]!], [r.length - 1, to[g]!]] as const) if (node === leg.node && Math.abs(r[k]![1] - y) < EPSILON) ends.push(r[k]![0]);
    });
    const nearest = ends.reduce((best, other) => (Math.abs(other - x) < Math.abs(best - x) ? other : best), Infinity);
    const away = nearest === Infinity || nearest <= x ? 1 : -1;
    for (const [shift, sign] of SHIFTS.flatMap((size) => [[size, away] as const, [size, -away] as const])) {
      const nx = x + sign * shift;
      const margin = pointed[leg.node] ? Math.max(CORNER_GAP, CORNER_SHARE * box.width) : CORNER_GAP;
      if (nx < box.x + margin || nx > box.x + box.width - margin) continue;
      if (ends.some((other) => Math.abs(other - nx) < END_GAP)) continue;
      const next = route.map((p, k): Point => (k === leg.end || k === leg.bend ? [nx, p[1]] : p));
      // The run across the channel keeps its direction (it does not fold back over itself).
      const run = leg.end === 0 ? 2 : route.length - 3;
      if (Math.sign(next[leg.bend]![0] - next[run]![0]) !== Math.sign(route[leg.bend]![0] - route[run]![0]) && Math.abs(route[leg.bend]![0] - route[run]![0]) > EPSILON) continue;
      // Only the leg and the run before it change: only the arrows near their lines can share more with it, or run closer.
      const changed = [Math.min(leg.end, leg.bend, run), Math.max(leg.end, leg.bend, run)];
      const neighbours = new Set([...near(lines, 'down', nx, CLOSE), ...near(lines, 'across', route[leg.bend]![1], CLOSE)]);
      neighbours.delete(leg.e);
      // It parts from its partner and shares no more with any other arrow than before.
      if ([...neighbours].some((g) => sharedRun(next, frame[g]!) > (g === partner ? LEAST_SHARED : Math.max(LEAST_SHARED, sharedRun(route, frame[g]!))))) continue;
      // Nor does it run close beside one for longer than before (or than CLOSE_RUN).
      if ([...neighbours].some((g) => closeRun(next, frame[g]!) > Math.max(CLOSE_RUN, closeRun(route, frame[g]!)))) continue;
      const [before, after] = [route.slice(changed[0], changed[1]! + 1), next.slice(changed[0], changed[1]! + 1)];
      if (crossingsOf(leg.e, after, partner) > crossingsOf(leg.e, before, partner)) continue;
      if (throughNode(leg.e, after)) continue;
      return next;
    }
    return null;
  }

  /** How many times the route (or a stretch of it) crosses the other arrows but one: the partner, which it crosses where they shared a line. */
  function crossingsOf(e: number, route: Point[], partner: number): number {
    let count = 0;
    frame.forEach((other, g) => {
      if (other && g !== e && g !== partner) count += crossings(route, other);
    });
    return count;
  }

  /** Whether a segment of the route (or a stretch of it) passes through a node other than its ends (containers do not count). */
  function throughNode(e: number, route: Point[]): boolean {
    for (let v = 0; v < frameBoxes.length; v++) {
      if (v === from[e] || v === to[e] || holds.has(v)) continue;
      for (let k = 1; k < route.length; k++) {
        const [a, b] = [route[k - 1]!, route[k]!];
        if (segmentCrossesBox(a[0], a[1], b[0], b[1], frameBoxes[v]!)) return true;
      }
    }
    return false;
  }
}

/** Segments running down (`down`, keyed by x) or across (`across`, keyed by y), by band of CLOSE: the arrows on each. */
type Lines = Record<'down' | 'across', Map<number, number[]>>;

function indexLines(frame: Array<Point[] | null>): Lines {
  const lines: Lines = { down: new Map(), across: new Map() };
  frame.forEach((route, e) => {
    for (let k = 1; k < (route?.length ?? 0); k++) {
      const [p, q] = [route![k - 1]!, route![k]!];
      const [way, at] = Math.abs(p[0] - q[0]) <= EPSILON ? (['down', p[0]] as const) : Math.abs(p[1] - q[1]) <= EPSILON ? (['across', p[1]] as const) : [null, 0];
      if (!way) continue;
      const band = Math.floor(at / CLOSE);
      const list = lines[way].get(band) ?? lines[way].set(band, []).get(band)!;
      if (list[list.length - 1] !== e) list.push(e);
    }
  });
  return lines;
}

/** The arrows (in order, once each) with a segment running that way within `reach` of the line at `at`. */
function near(lines: Lines, way: 'down' | 'across', at: number, reach: number): number[] {
  const found = new Set<number>();
  for (let band = Math.floor((at - reach - EPSILON) / CLOSE); band <= Math.floor((at + reach + EPSILON) / CLOSE); band++) for (const e of lines[way].get(band) ?? []) found.add(e);
  return [...found].sort((a, b) => a - b);
}

/** The longest stretch two axis-aligned routes share on one line. */
const sharedRun = (a: Point[], b: Point[]): number => longestAlongside(a, b, (apart) => apart <= EPSILON);

/** The longest stretch two axis-aligned routes run side by side, closer than CLOSE but not on one line. */
const closeRun = (a: Point[], b: Point[]): number => longestAlongside(a, b, (apart) => apart > EPSILON && apart < CLOSE);

/** The longest stretch over which a segment of each route runs the same way, as far apart as `near` accepts. */
export function longestAlongside(a: Point[], b: Point[], near: (apart: number) => boolean): number {
  let longest = 0;
  for (let i = 1; i < a.length; i++) {
    const [p, q] = [a[i - 1]!, a[i]!];
    for (let j = 1; j < b.length; j++) {
      const [r, s] = [b[j - 1]!, b[j]!];
      for (const axis of [0, 1] as const) {
        const across = axis === 0 ? 1 : 0;
        if (Math.abs(p[across] - q[across]) > EPSILON || Math.abs(r[across] - s[across]) > EPSILON || !near(Math.abs(p[across] - r[across]))) continue;
        const lo = Math.max(Math.min(p[axis], q[axis]), Math.min(r[axis], s[axis]));
        const hi = Math.min(Math.max(p[axis], q[axis]), Math.max(r[axis], s[axis]));
        longest = Math.max(longest, hi - lo);
      }
    }
  }
  return longest;
}

/** How many times two axis-aligned routes cross (strictly, one running across the other). */
function crossings(a: Point[], b: Point[]): number {
  let count = 0;
  for (let i = 1; i < a.length; i++) {
    for (let j = 1; j < b.length; j++) {
      const [p, q, r, s] = [a[i - 1]!, a[i]!, b[j - 1]!, b[j]!];
      const [h, v] = Math.abs(p[1] - q[1]) < EPSILON ? [[p, q], [r, s]] : [[r, s], [p, q]];
      if (Math.abs(h[0]![1] - h[1]![1]) > EPSILON || Math.abs(v[0]![0] - v[1]![0]) > EPSILON) continue;
      const x = v[0]![0];
      const y = h[0]![1];
      if (x > Math.min(h[0]![0], h[1]![0]) + EPSILON && x < Math.max(h[0]![0], h[1]![0]) - EPSILON && y > Math.min(v[0]![1], v[1]![1]) + EPSILON && y < Math.max(v[0]![1], v[1]![1]) - EPSILON) count++;
    }
  }
  return count;
}
