/**
 * Arrows into a small node (a start dot, an end ring, a node under 40 px
 * across) by the same side would pile their heads into one blot: a state
 * machine's four final states all end on one 28-px ring. The side holds as
 * many heads as fit 16 px apart; when more arrive, the arrow that comes from
 * furthest left instead runs down beside the node and enters its left side at
 * the middle, the one from furthest right its right side, and the others
 * share the side they came to. Only an unlabelled arrow whose route ends with a run across the flow and
 * a drop onto the side is moved, so every label stays where it was laid out.
 */
import { verticalFrame } from '../placement/branches.ts';
import type { Point } from './routing.ts';
import type { Box, Direction } from '../types.ts';

/** Nodes smaller than this both ways are small (markers: a start dot, an end ring). */
export const SMALL_NODE = 40;
/**
 * How far beside the node an arrow entering its side runs down: the editor
 * draws an arrowhead at most half as long as the last leg, and at 16 px out
 * (a 12-px leg past the binding gap) the head was a 6-px stub beside the full
 * heads on top.
 */
const SIDE_REACH = 36;
/** Heads on one side of a small node: this far apart. */
const HEAD_GAP = 16;
const EPSILON = 0.5;

export function spreadAtSmallTargets(
  direction: Direction,
  boxes: Box[],
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  labelled: ArrayLike<boolean>,
  routes: Array<Point[] | null>,
  parent: ArrayLike<number>,
): void {
  const { point: t, box: frameBox } = verticalFrame(direction);
  const arriving = new Map<number, number[]>();
  for (let e = 0; e < to.length; e++) {
    if (from[e] === to[e] || labelled[e] || !routes[e]) continue;
    const list = arriving.get(to[e]!) ?? [];
    list.push(e);
    arriving.set(to[e]!, list);
  }
  for (const [v, list] of arriving) {
    const box = frameBox(boxes[v]!);
    if (box.width >= SMALL_NODE || box.height >= SMALL_NODE || list.length < 2) continue;
    const centre: Point = [box.x + box.width / 2, box.y + box.height / 2];
    for (const side of [box.y, box.y + box.height]) {
      // Arrows whose route ends with a run across the flow, then a drop onto this side.
      const dropping: Array<{ e: number; route: Point[]; from: number }> = [];
      for (const e of list) {
        const route = routes[e]!.map(t);
        const n = route.length;
        if (n < 3 || Math.abs(route[n - 1]![1] - side) > EPSILON) continue;
        const [a, b, c] = [route[n - 3]!, route[n - 2]!, route[n - 1]!];
        if (Math.abs(b[0] - c[0]) > EPSILON || Math.abs(a[1] - b[1]) > EPSILON) continue;
        dropping.push({ e, route, from: a[0] });
      }
      if (dropping.length < 2) continue;
      dropping.sort((p, q) => p.from - q.from || p.e - q.e);
      // The heads the side holds HEAD_GAP apart; past that, the arrows from furthest left and right take the sides.
      const room = Math.floor((box.width - 2) / HEAD_GAP) + 1;
      let onSide = dropping;
      // A route may cross only the borders of the containers around the node.
      const around = new Set<number>();
      for (let p = parent[v]!; p >= 0 && !around.has(p); p = parent[p]!) around.add(p);
      const clear = (route: Point[]) => boxes.every((other, i) => i === v || around.has(i) || !route.some((a, k) => k > 0 && segmentEntersBox(route[k - 1]!, a, frameBox(other))));
      if (dropping.length > room) {
        const [first, last] = [dropping[0]!, dropping[dropping.length - 1]!];
        const left = enterSide(first.route, box.x - SIDE_REACH, box.x, centre[1]);
        const right = enterSide(last.route, box.x + box.width + SIDE_REACH, box.x + box.width, centre[1]);
        if (clear(left) && clear(right)) {
          first.route = left;
          last.route = right;
          onSide = dropping.slice(1, -1);
        }
      }
      if (onSide.length <= room) onSide.forEach(({ route }, i) => dropAt(route, centre[0] + (i - (onSide.length - 1) / 2) * HEAD_GAP));
      for (const { e, route } of dropping) routes[e] = route.map(t);
    }
  }
}

/** The route's final drop moved across to `x`, its run across the flow ending there. */
function dropAt(route: Point[], x: number): void {
  const n = route.length;
  route[n - 2] = [x, route[n - 2]![1]];
  route[n - 1] = [x, route[n - 1]![1]];
}

/** The route with its run across the flow ending at `column`, beside the node, then down there to the node's middle and into its side at `edge`. */
function enterSide(route: Point[], column: number, edge: number, middle: number): Point[] {
  const n = route.length;
  const runY = route[n - 2]![1];
  return [...route.slice(0, n - 2), [column, runY], [column, middle], [edge, middle]];
}

/** Whether the axis-parallel segment a–b runs through the box's interior. */
function segmentEntersBox(a: Point, b: Point, box: Box): boolean {
  const [x1, x2] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
  const [y1, y2] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
  return x2 > box.x + EPSILON && x1 < box.x + box.width - EPSILON && y2 > box.y + EPSILON && y1 < box.y + box.height - EPSILON;
}
