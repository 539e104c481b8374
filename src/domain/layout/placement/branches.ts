/**
 * A decision's branches leave from distinct points: when two or more edges
 * leave a diamond by the same side (its bottom vertex, in a top-to-bottom flow),
 * the one whose route turns left first leaves from the left vertex instead, and
 * the one that turns right from the right vertex: out sideways, then along the
 * flow to where its route ran on, or, when that run lies under the diamond's
 * slanted side, straight from that side; a branch left alone on that side
 * then leaves from the middle vertex. Routes whose label sits on that first
 * stretch keep their place.
 */
import { simplify, type Point } from '../routing/routing.ts';
import type { Box, Direction } from '../types.ts';

/** How far a branch runs out of its side vertex before it turns along the flow. */
export const BRANCH_REACH = 16;
/** How close it may come to that, to keep clear of another arrow running along the flow just beyond. */
export const SHORTEST_REACH = 8;
/** The room a branch keeps from another arrow it runs beside. */
export const BESIDE = 16;
/** How far from a diamond's middle and from its side vertex a branch may leave its slanted side. */
export const SLANT_CLEARANCE = 24;
const EPSILON = 0.5;

/**
 * A frame where the flow is vertical: left-to-right drawings transposed (the
 * transposition is its own inverse, so the same functions map back).
 */
export function verticalFrame(direction: Direction): { point: (p: Point) => Point; box: (b: Box) => Box } {
  const swap = direction === 'LR' || direction === 'RL';
  return {
    point: (p) => (swap ? [p[1], p[0]] : [p[0], p[1]]),
    box: (b) => (swap ? { x: b.y, y: b.x, width: b.height, height: b.width } : b),
  };
}

export function spreadDiamondBranches(
  direction: Direction,
  boxes: Box[],
  diamond: ArrayLike<boolean>,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  routes: Array<Point[] | null>,
  labels: Array<Point | null>,
): void {
  const { point: t, box: frameBox } = verticalFrame(direction);
  const leaving = new Map<number, number[]>();
  for (let e = 0; e < from.length; e++) {
    if (!diamond[from[e]!] || from[e] === to[e] || !routes[e]) continue;
    const list = leaving.get(from[e]!) ?? [];
    list.push(e);
    leaving.set(from[e]!, list);
  }
  for (const [v, list] of leaving) {
    const box = frameBox(boxes[v]!);
    const moved = new Set<number>();
    const centreY = box.y + box.height / 2;
    for (const side of [box.y, box.y + box.height]) {
      // Branches that leave by this side, turning left or right on their first run along it.
      const turning: Array<{ e: number; x0: number; towards: -1 | 1 }> = [];
      for (const e of list) {
        const route = routes[e]!.map(t);
        if (route.length < 3 || Math.abs(route[0]![1] - side) > EPSILON) continue;
        const [p0, p1, p2] = route as [Point, Point, Point];
        if (Math.abs(p0[0] - p1[0]) > EPSILON || Math.abs(p1[1] - p2[1]) > EPSILON || Math.abs(p2[0] - p1[0]) < EPSILON) continue;
        const label = labels[e] ? t(labels[e]!) : null;
        if (label && Math.abs(label[0] - p0[0]) <= EPSILON && (label[1] - p0[1]) * (label[1] - p1[1]) <= 0) continue;
        turning.push({ e, x0: p0[0], towards: p2[0] < p1[0] ? -1 : 1 });
      }
      const sharing = list.filter((e) => Math.abs(routes[e]!.map(t)[0]![1] - side) <= EPSILON).length;
      if (sharing < 2) continue;
      for (const towards of [-1, 1] as const) {
        const candidates = turning.filter((c) => c.towards === towards).sort((a, b) => towards * (b.x0 - a.x0));
        const chosen = candidates[0];
        if (!chosen) continue;
        const route = routes[chosen.e]!.map(t);
        const vertexX = towards < 0 ? box.x : box.x + box.width;
        const slanted = fromSlantedSide(route, box, side, towards, routes, chosen.e, t);
        if (slanted) {
          routes[chosen.e] = simplify(slanted).map(t);
          moved.add(chosen.e);
          continue;
        }
        // Out to where the route runs on when that lies a little beyond the vertex: no jog back to it.
        const runsOn = route[2]![0];
        const beyond = towards * (runsOn - vertexX);
        const outX = beyond >= SHORTEST_REACH && beyond <= BRANCH_REACH + BESIDE ? runsOn : vertexX + towards * branchReach(routes, chosen.e, t, vertexX, towards, centreY, route[1]![1]);
        const turned: Point[] = [[vertexX, centreY], [outX, centreY], [outX, route[1]![1]], ...route.slice(2)];
        routes[chosen.e] = simplify(turned).map(t);
        moved.add(chosen.e);
      }
      // The one branch left on this side leaves from its vertex, when its first run can shift there.
      const staying = list.filter((e) => !moved.has(e) && Math.abs(routes[e]!.map(t)[0]![1] - side) <= EPSILON);
      const only = staying.length === 1 ? turning.find((c) => c.e === staying[0]) : undefined;
      if (only) {
        const route = routes[only.e]!.map(t);
        const centreX = box.x + box.width / 2;
        routes[only.e] = simplify([[centreX, route[0]![1]], [centreX, route[1]![1]], ...route.slice(2)]).map(t);
      }
    }
  }
}

/**
 * A branch whose route runs on down (up) between the diamond's middle and its
 * side vertex leaves straight from the slanted side above that run, as
 * Mermaid's branches leave a diamond's lower sides: going out to the vertex
 * and back in drew a bracket beside the diamond. Only where the run lies
 * SLANT_CLEARANCE or more from the middle (the bottom vertex's own branch
 * keeps its room) and no further out than the vertex (just inside it, the
 * branch leaves from under the point: out and back in drew the bracket all
 * the same), and the new first stretch comes no closer than BESIDE to
 * another route; else null.
 */
function fromSlantedSide(route: Point[], box: Box, side: number, towards: -1 | 1, routes: Array<Point[] | null>, e: number, t: (p: Point) => Point): Point[] | null {
  if (route.length < 4) return null;
  const [, p1, p2, p3] = route as [Point, Point, Point, Point];
  if (Math.abs(p2[0] - p3[0]) > EPSILON) return null;
  const centreX = box.x + box.width / 2;
  const half = box.width / 2;
  const out = towards * (p2[0] - centreX);
  if (out < SLANT_CLEARANCE || out > half) return null;
  const centreY = box.y + box.height / 2;
  const sideY = centreY + Math.sign(side - centreY) * (box.height / 2) * (1 - out / half);
  const start: Point = [p2[0], sideY];
  const [lo, hi] = [Math.min(sideY, p1[1]), Math.max(sideY, p1[1])];
  const crowded = routes.some((other, f) => {
    if (!other || f === e) return false;
    const points = other.map(t);
    return points.slice(1).some((b, i) => {
      const a = points[i]!;
      const along = Math.min(hi, Math.max(a[1], b[1])) - Math.max(lo, Math.min(a[1], b[1]));
      if (Math.abs(a[0] - b[0]) <= EPSILON) return along > 0 && Math.abs(a[0] - start[0]) < BESIDE;
      // A run across the stretch crosses it.
      return Math.abs(a[1] - b[1]) <= EPSILON && a[1] > lo + EPSILON && a[1] < hi - EPSILON && Math.min(a[0], b[0]) < start[0] && Math.max(a[0], b[0]) > start[0];
    });
  });
  return crowded ? null : [start, ...route.slice(2)];
}

/**
 * How far the branch `e` runs out of its vertex: BRANCH_REACH, or less when
 * another route runs along the flow beside that stretch (between `y0` and
 * `y1`) closer than BESIDE beyond it, down to SHORTEST_REACH; when even that
 * is too close, the full reach.
 */
function branchReach(routes: Array<Point[] | null>, e: number, t: (p: Point) => Point, vertexX: number, towards: -1 | 1, y0: number, y1: number): number {
  const [lo, hi] = [Math.min(y0, y1), Math.max(y0, y1)];
  let nearest = Infinity;
  routes.forEach((route, other) => {
    if (!route || other === e) return;
    const points = route.map(t);
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i]!, points[i + 1]!];
      if (Math.abs(a[0] - b[0]) > EPSILON || Math.min(hi, Math.max(a[1], b[1])) - Math.max(lo, Math.min(a[1], b[1])) <= 0) continue;
      const away = towards * (a[0] - vertexX);
      if (away > 0) nearest = Math.min(nearest, away);
    }
  });
  const room = nearest - BESIDE;
  return room >= BRANCH_REACH || room < SHORTEST_REACH ? BRANCH_REACH : room;
}
