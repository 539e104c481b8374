/**
 * An arrow that runs through a container's label on its way down into a node
 * enters that node by its side instead, when it can. Between two nodes of
 * neighbouring layers in different containers, the layered router draws a
 * "Z": down out of the source, across the channel between the layers, down
 * into the target's top. When the target sits under its container's label,
 * that channel is the container's header and the run across it goes through
 * the label (the same with a route through the containers' doors) (openfeature-hooks: each layer's arrow crossed the next layer's
 * title). Mermaid's and dot's arrows come in from the side there; this does
 * the same with an "L": down out of the source to the target's middle, then
 * across into the target's facing side. The L is taken only when it passes
 * through no node and no container's label, crosses into no container that
 * holds neither end, keeps 24 px from the containers' borders and the other
 * arrows it runs along (closer, it reads as part of the border or of a
 * bundle), its head 16 px from the other arrowheads there, and crosses no
 * more arrows than the Z did. Labelled arrows keep their route (their label sits on the Z's run).
 */
import { verticalFrame } from '../placement/branches.ts';
import { segmentCrossesBox } from '../metrics.ts';
import type { Point } from './routing.ts';
import type { Box, Direction } from '../types.ts';

/** The least length of each leg of the L (the arrowhead's side of it stays visible), and how far it keeps from lines it runs along. */
export const MIN_LEG = 24;
/** How far the L's head keeps from other arrowheads. */
const BESIDE = 16;
/** Arrows sharing less than this much line are not side by side. */
const SHARED = 10;
const EPSILON = 0.5;

export interface SideEntryInput {
  direction: Direction;
  boxes: Box[];
  parent: ArrayLike<number>;
  /** Each node's header height (a container's label strip; ignored for other nodes). */
  headers: ArrayLike<number>;
  from: ArrayLike<number>;
  to: ArrayLike<number>;
  labelled: ArrayLike<boolean>;
  routes: Array<Point[] | null>;
}

export function enterThroughSides(input: SideEntryInput): void {
  const { boxes, parent, routes } = input;
  const isContainer = new Uint8Array(boxes.length);
  for (let v = 0; v < boxes.length; v++) if (parent[v]! >= 0) isContainer[parent[v]!] = 1;
  // A container's label strip: from its top down to its first member (its label sits somewhere along it).
  const membersTop = new Float64Array(boxes.length).fill(Infinity);
  for (let v = 0; v < boxes.length; v++) if (parent[v]! >= 0) membersTop[parent[v]!] = Math.min(membersTop[parent[v]!]!, boxes[v]!.y);
  const headerStrips: Box[] = [];
  for (let v = 0; v < boxes.length; v++) {
    if (isContainer[v]) headerStrips.push({ ...boxes[v]!, height: Math.max(input.headers[v]!, Math.min(membersTop[v]!, boxes[v]!.y + boxes[v]!.height) - boxes[v]!.y) });
  }
  if (headerStrips.length === 0) return;
  const crossesHeader = (route: Point[]) => headerStrips.some((strip) => crossesBox(route, strip));
  for (let e = 0; e < routes.length; e++) {
    const route = routes[e];
    if (!route || input.labelled[e] || input.from[e] === input.to[e] || !crossesHeader(route)) continue;
    const candidate = lShape(input, e, route);
    if (!candidate || crossesHeader(candidate) || !clear(input, e, candidate, isContainer)) continue;
    if (crossingCount(candidate, routes, e) > crossingCount(route, routes, e)) continue;
    routes[e] = candidate;
  }
}

/** The L into the target's facing side, for a route that leaves its source and enters its target along the flow, or null. */
function lShape(input: SideEntryInput, e: number, route: Point[]): Point[] | null {
  if (route.length < 4) return null;
  const { point: t, box: frameBox } = verticalFrame(input.direction);
  const framed = route.map(t);
  const [p0, p1, p2, p3] = [framed[0]!, framed[1]!, framed[framed.length - 2]!, framed[framed.length - 1]!];
  const vertical = (a: Point, b: Point) => Math.abs(a[0] - b[0]) < EPSILON && Math.abs(a[1] - b[1]) >= EPSILON;
  if (!vertical(p0, p1) || !vertical(p2, p3)) return null;
  const downward = Math.sign(p1[1] - p0[1]);
  if (downward !== Math.sign(p3[1] - p2[1])) return null;
  const target = frameBox(input.boxes[input.to[e]!]!);
  const middle = target.y + target.height / 2;
  if ((middle - p0[1]) * downward < MIN_LEG) return null;
  const side = p0[0] < target.x ? target.x : p0[0] > target.x + target.width ? target.x + target.width : null;
  if (side === null || Math.abs(side - p0[0]) < MIN_LEG) return null;
  const corner: Point = [p0[0], middle];
  const end: Point = [side, middle];
  return [p0, corner, end].map(t);
}

/**
 * Whether the L passes through no node but its ends, into no container that
 * holds neither end, keeps MIN_LEG from the containers' borders and the
 * arrows it runs along, and its head BESIDE from the other arrows' ends.
 */
function clear(input: SideEntryInput, e: number, route: Point[], isContainer: Uint8Array): boolean {
  const { boxes, parent, routes } = input;
  const [source, target] = [input.from[e]!, input.to[e]!];
  const around = new Set([...ancestors(parent, source), ...ancestors(parent, target)]);
  for (let v = 0; v < boxes.length; v++) {
    if (v === source || v === target || (isContainer[v] && around.has(v))) continue;
    if (crossesBox(route, boxes[v]!)) return false;
  }
  // Along a container's border the L would read as part of it.
  for (let v = 0; v < boxes.length; v++) {
    if (!isContainer[v]) continue;
    const { x, y, width, height } = boxes[v]!;
    const outline: Point[] = [[x, y], [x + width, y], [x + width, y + height], [x, y + height], [x, y]];
    if (runsBeside(route, outline, MIN_LEG)) return false;
  }
  const end = route[route.length - 1]!;
  for (let f = 0; f < routes.length; f++) {
    const other = routes[f];
    if (f === e || !other) continue;
    if (runsBeside(route, other, MIN_LEG)) return false;
    for (const tip of [other[0]!, other[other.length - 1]!]) if (Math.hypot(tip[0] - end[0], tip[1] - end[1]) < BESIDE) return false;
  }
  return true;
}

function ancestors(parent: ArrayLike<number>, v: number): number[] {
  const chain: number[] = [];
  for (let p = parent[v]!; p >= 0 && chain.length < parent.length; p = parent[p]!) chain.push(p);
  return chain;
}

function crossesBox(route: Point[], box: Box): boolean {
  return route.slice(1).some((b, i) => segmentCrossesBox(route[i]![0], route[i]![1], b[0], b[1], box));
}

/** Whether a segment of one route runs parallel to one of the other, closer than `distance`, over more than SHARED. */
function runsBeside(a: Point[], b: Point[], distance: number): boolean {
  for (let i = 1; i < a.length; i++) {
    for (let j = 1; j < b.length; j++) {
      const [p, q, r, s] = [a[i - 1]!, a[i]!, b[j - 1]!, b[j]!];
      for (const [axis, across] of [
        [0, 1],
        [1, 0],
      ] as const) {
        // Both run along `axis`: their positions across it are constant.
        if (Math.abs(p[across] - q[across]) >= EPSILON || Math.abs(r[across] - s[across]) >= EPSILON) continue;
        if (Math.abs(p[axis] - q[axis]) < EPSILON || Math.abs(r[axis] - s[axis]) < EPSILON) continue;
        if (Math.abs(p[across] - r[across]) >= distance) continue;
        const shared = Math.min(Math.max(p[axis], q[axis]), Math.max(r[axis], s[axis])) - Math.max(Math.min(p[axis], q[axis]), Math.min(r[axis], s[axis]));
        if (shared > SHARED) return true;
      }
    }
  }
  return false;
}

/** How many times the route crosses the other routes (axis-parallel segments crossing at interior points). */
function crossingCount(route: Point[], routes: Array<Point[] | null>, e: number): number {
  let count = 0;
  routes.forEach((other, f) => {
    if (f === e || !other) return;
    for (let i = 1; i < route.length; i++) for (let j = 1; j < other.length; j++) if (segmentsCross(route[i - 1]!, route[i]!, other[j - 1]!, other[j]!)) count++;
  });
  return count;
}

function segmentsCross(p: Point, q: Point, r: Point, s: Point): boolean {
  const pVertical = Math.abs(p[0] - q[0]) < EPSILON;
  const rVertical = Math.abs(r[0] - s[0]) < EPSILON;
  if (pVertical === rVertical) return false;
  const [v1, v2, h1, h2] = pVertical ? [p, q, r, s] : [r, s, p, q];
  const x = v1[0];
  const y = h1[1];
  const inside = (value: number, a: number, b: number) => value > Math.min(a, b) + EPSILON && value < Math.max(a, b) - EPSILON;
  return inside(x, h1[0], h2[0]) && inside(y, v1[1], v2[1]);
}
