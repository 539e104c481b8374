/**
 * An arrow that turns just before the node its head points at (a jog onto a
 * port a few pixels off its line) draws a small head: the editor draws an
 * arrowhead at most half as long as the last leg. Where a route ends in a Z
 * (a run, a short step across, the last leg along the run's line), the step
 * moves back along the run towards a last leg HEAD_ROOM long, as far as the
 * run keeps RUN_KEPT of its length (TAIL_KEPT where the run leaves the other
 * node, with no head there: a short stub, the step then close to the tail),
 * when the moved step and shortened run enter no box but their own ends' and
 * their containers' (and cross none of those borders more), and run along no
 * other route. A labelled arrow keeps its route, its label on it.
 * Routes are changed in place; any frame (the moves are along the route's own axes).
 */
import { longestAlongside } from './crossed-legs.ts';
import { segmentCrossesBox } from '../metrics.ts';
import { HEAD_LEG, type Point } from './routing.ts';
import type { Arrowheads, Box } from '../types.ts';

/** The last leg a head is given where it can be: the layout's head room, less the binding gap. */
const HEAD_ROOM = HEAD_LEG - 4;
/** What the run before the step keeps at least... */
const RUN_KEPT = 16;
/** ...or where it is the route's first leg, leaving a node with no head there. */
const TAIL_KEPT = 8;
/** Lines this close and parallel read as one. */
const ALONG = 4;
const EPSILON = 0.5;

export function lengthenHeadLegs(
  boxes: Box[],
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  arrowheads: ArrayLike<Arrowheads | undefined>,
  labelled: ArrayLike<boolean>,
  routes: Array<Point[] | null>,
  parent: ArrayLike<number>,
): void {
  routes.forEach((route, e) => {
    // A labelled arrow keeps its route: its label sits on it.
    if (!route || from[e] === to[e] || labelled[e]) return;
    const heads = arrowheads[e] ?? 'end';
    if (heads === 'end' || heads === 'both') lengthenEnd(e, route, to[e]!, from[e]!, false, heads === 'both');
    if (heads === 'start' || heads === 'both') lengthenEnd(e, route, from[e]!, to[e]!, true, heads === 'both');
  });

  function lengthenEnd(e: number, route: Point[], headNode: number, otherNode: number, atStart: boolean, headsBoth: boolean): void {
    const n = route.length;
    if (n < 4) return;
    const at = (k: number): Point => (atStart ? route[k]! : route[n - 1 - k]!);
    const set = (k: number, p: Point) => {
      if (atStart) route[k] = p;
      else route[n - 1 - k] = p;
    };
    const [tip, bend, turn, runStart] = [at(0), at(1), at(2), at(3)];
    const leg = Math.hypot(tip[0] - bend[0], tip[1] - bend[1]);
    if (leg >= HEAD_ROOM - EPSILON) return;
    const horizontal = Math.abs(tip[1] - bend[1]) < EPSILON;
    if (!horizontal && Math.abs(tip[0] - bend[0]) >= EPSILON) return;
    // The leg's axis (0: x, 1: y) and the step's.
    const [axis, other] = horizontal ? ([0, 1] as const) : ([1, 0] as const);
    // A Z: the step across, then the run back along the leg's axis.
    if (Math.abs(bend[axis] - turn[axis]) > EPSILON || Math.abs(turn[other] - runStart[other]) > EPSILON) return;
    const towards = Math.sign(tip[axis] - bend[axis]);
    if (Math.sign(turn[axis] - runStart[axis]) !== towards) return;
    const kept = n === 4 && !headsBoth ? TAIL_KEPT : RUN_KEPT;
    const shift = Math.min(HEAD_ROOM - leg, Math.abs(turn[axis] - runStart[axis]) - kept);
    if (shift < 1) return;
    const moved = (p: Point): Point => (axis === 0 ? [p[0] - towards * shift, p[1]] : [p[0], p[1] - towards * shift]);
    const [newBend, newTurn] = [moved(bend), moved(turn)];
    const allowed = new Set<number>();
    for (const v of [headNode, otherNode]) for (let p = v; p >= 0 && !allowed.has(p); p = parent[p]!) allowed.add(p);
    const segments: Array<[Point, Point]> = [[runStart, newTurn], [newTurn, newBend], [newBend, tip]];
    if (boxes.some((box, v) => !allowed.has(v) && segments.some(([a, b]) => segmentCrossesBox(a[0], a[1], b[0], b[1], box)))) return;
    // The containers round the ends: the moved step stays on the side of each border it was on (it crosses no more of them).
    for (const v of allowed) {
      if (v === headNode || v === otherNode) continue;
      const box = boxes[v]!;
      if (inside(box, bend) !== inside(box, newBend) || inside(box, turn) !== inside(box, newTurn)) return;
    }
    if (routes.some((r, f) => f !== e && r !== null && segments.some((segment) => longestAlongside(segment, r, (apart) => apart <= ALONG) > ALONG))) return;
    set(1, newBend);
    set(2, newTurn);
  }
}

function inside(box: Box, [x, y]: Point): boolean {
  return x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height;
}
