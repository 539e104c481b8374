/**
 * Doors: how an edge with a container at an end takes part in the layered
 * drawing. The container's end becomes a point inside it on its first layer
 * (the edge comes in from above) or its last (it leaves downwards); the route
 * stops at the border it crosses. An edge between a container and a node it
 * holds gets an inner door on the container's first (last) layer, its route
 * running on straight to the border. Doors are placed by the layering with
 * constraints that keep them on or beyond every leaf of their container, and
 * each edge's direction is chosen so that it never closes a cycle.
 */
import { ancestorChain, type NestedEdge, type NestedNode } from './containers.ts';
import { type ClusterIndex, clusterSpans, isAncestorOrSelf } from './cluster-tree.ts';
import { backEdgesInInputOrder } from '../layering/cycles.ts';
import { constrainedLayers } from '../layering/layering.ts';
import type { Point } from '../routing/routing.ts';
import type { Box } from '../types.ts';

/** How hard a door is pulled against its container, beyond its edge's pull away (1). */
const DOOR_PULL = 1.5;

/** The part of a route (starting inside the box) from where it last leaves the box. */
export function fromBorder(route: Point[], box: Box): Point[] {
  const inside = ([x, y]: Point): boolean => x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height;
  let k = 0;
  while (k + 1 < route.length && inside(route[k + 1]!)) k++;
  if (k + 1 >= route.length) return route;
  const [ax, ay] = route[k]!;
  const [bx, by] = route[k + 1]!;
  // Segments are axis-aligned: this one meets the border where it crosses the side it leaves by.
  const t =
    ay === by ? ((bx > ax ? box.x + box.width : box.x) - ax) / (bx - ax) : ((by > ay ? box.y + box.height : box.y) - ay) / (by - ay);
  const clamped = Math.max(0, Math.min(1, t));
  return [[ax + clamped * (bx - ax), ay + clamped * (by - ay)], ...route.slice(k + 1)];
}

/**
 * Layers by network simplex over the laid-out edges and the doors' constraints
 * (a door right above or below every leaf of its container, pulled close); a
 * root above everything keeps the graph connected and pulls each component up.
 * With the author's hints, the nodes of a same-rank group rank as one (its
 * representative), the edges that do not constrain take no part, and an edge
 * the groups turn into a loop (or into one within a group) is dropped.
 */
export function layerRanks(
  K: number,
  upper: Int32Array,
  lower: Int32Array,
  constraintUpper: number[],
  constraintLower: number[],
  constraintWeight: number[],
  /** Layers each of the first edges spans at least (default 1; 0 only with hints). */
  edgeMinlen: ArrayLike<number> = [],
  hints?: RankHints,
): Int32Array {
  const at = (v: number) => (hints && v < hints.representative.length ? hints.representative[v]! : v);
  const tails: number[] = [];
  const heads: number[] = [];
  const minlens: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < upper.length; i++) {
    if (hints?.free[i]) continue;
    tails.push(at(upper[i]!));
    heads.push(at(lower[i]!));
    minlens.push(Math.max(hints ? 0 : 1, edgeMinlen[i] ?? 1));
    weights.push(1);
  }
  constraintUpper.forEach((u, i) => {
    tails.push(at(u));
    heads.push(at(constraintLower[i]!));
    minlens.push(0);
    weights.push(constraintWeight[i]!);
  });
  const back = hints ? backEdgesInInputOrder(K, tails, heads) : new Uint8Array(tails.length);
  const kept = tails.map((_, i) => i).filter((i) => !back[i] && tails[i] !== heads[i]);
  // The ends of an edge that does not constrain are pulled together lightly.
  const near: Array<[number, number]> = [];
  for (let i = 0; i < upper.length; i++) if (hints?.free[i] && at(upper[i]!) !== at(lower[i]!)) near.push([at(upper[i]!), at(lower[i]!)]);
  const own = Int32Array.from({ length: K }, (_, v) => v);
  const value = constrainedLayers(
    K,
    kept.map((e) => tails[e]!),
    kept.map((e) => heads[e]!),
    kept.map((e) => minlens[e]!),
    kept.map((e) => weights[e]!),
    own,
    near,
  );
  let min = Infinity;
  for (let i = 0; i < K; i++) min = Math.min(min, value[at(i)]!);
  return Int32Array.from({ length: K }, (_, i) => value[at(i)]! - min);
}

/**
 * The author's hints on layers for layerRanks: each node's representative
 * (the nodes of a same-rank group share one, and so a layer; a node in no
 * group is its own), and the edges that take no part in ranking (1).
 */
export interface RankHints {
  representative: ArrayLike<number>;
  free: ArrayLike<number>;
}

export interface Doors {
  /**
   * Per door: its container (cluster index), whether it is on the container's
   * last layer (else its first), and whether its edge runs inside the container
   * (to or from a node the container holds) rather than outside.
   */
  cluster: number[];
  below: boolean[];
  inner: boolean[];
  /** Per edge through doors: its ends as layered nodes (doors numbered from L), upper first. */
  links: Array<{ edge: number; upper: number; lower: number; reversed: boolean }>;
  /** Layering constraints: each door on or above (on or below) every leaf of its container. */
  constraintUpper: number[];
  constraintLower: number[];
  constraintWeight: number[];
}

export function planDoors(
  nodes: NestedNode[],
  edges: NestedEdge[],
  index: ClusterIndex,
  innermostFirst: number[],
  rank: Int32Array,
  L: number,
  leafUpper: number[],
  leafLower: number[],
): Doors {
  const { isContainer, clusterOf, leafOf, leafCluster, clusterParent } = index;
  const doors: Doors = { cluster: [], below: [], inner: [], links: [], constraintUpper: [], constraintLower: [], constraintWeight: [] };
  const C = clusterParent.length;
  const span = clusterSpans(C, L, leafCluster, clusterParent, innermostFirst, rank);
  const leavesOf: number[][] = Array.from({ length: C }, () => []);
  for (let i = 0; i < L; i++) for (let c = leafCluster[i]!; c >= 0; c = clusterParent[c]!) leavesOf[c]!.push(i);
  const range = (v: number): [number, number] => (isContainer[v] ? [span.lo[clusterOf[v]!]!, span.hi[clusterOf[v]!]!] : [rank[leafOf[v]!]!, rank[leafOf[v]!]!]);
  const parent = nodes.map((node) => node.parent);
  const within = (inner: number, outer: number): boolean => ancestorChain(parent, inner).includes(outer);
  const door = (v: number, below: boolean, inner = false): number => {
    if (!isContainer[v]) return leafOf[v]!;
    const c = clusterOf[v]!;
    const index = L + doors.cluster.length;
    doors.cluster.push(c);
    doors.below.push(below);
    doors.inner.push(inner);
    for (const leaf of leavesOf[c]!) {
      doors.constraintUpper.push(below ? leaf : index);
      doors.constraintLower.push(below ? index : leaf);
      doors.constraintWeight.push(DOOR_PULL / leavesOf[c]!.length);
    }
    return index;
  };
  // What reaches what among the leaves, so that no door's edge closes a cycle; a door's edge joins every leaf on one side to every leaf on the other.
  const next: number[][] = Array.from({ length: L }, () => []);
  leafUpper.forEach((u, i) => next[u]!.push(leafLower[i]!));
  const leavesAt = (v: number): number[] => (isContainer[v] ? leavesOf[clusterOf[v]!]! : [leafOf[v]!]);
  const reaches = (sources: number[], targets: number[]): boolean => {
    const goal = new Set(targets);
    const seen = new Uint8Array(L);
    const queue = [...sources];
    for (const v of queue) seen[v] = 1;
    for (let i = 0; i < queue.length; i++) {
      const v = queue[i]!;
      if (goal.has(v)) return true;
      for (const w of next[v]!) {
        if (seen[w]) continue;
        seen[w] = 1;
        queue.push(w);
      }
    }
    return false;
  };
  edges.forEach((edge, e) => {
    if (!isContainer[edge.from] && !isContainer[edge.to]) return;
    if (edge.from === edge.to) return;
    // A container's edge to (from) something it holds starts at its first layer (ends at its last), inside it.
    if (within(edge.to, edge.from)) {
      doors.links.push({ edge: e, upper: door(edge.from, false, true), lower: isContainer[edge.to] ? door(edge.to, false) : leafOf[edge.to]!, reversed: false });
      return;
    }
    if (within(edge.from, edge.to)) {
      doors.links.push({ edge: e, upper: isContainer[edge.from] ? door(edge.from, true) : leafOf[edge.from]!, lower: door(edge.to, true, true), reversed: false });
      return;
    }
    const [a0, a1] = range(edge.from);
    const [b0, b1] = range(edge.to);
    const fromLeaves = leavesAt(edge.from);
    const toLeaves = leavesAt(edge.to);
    // Apart in the layers, the edge runs the way they lie; side by side, the author's way; either way, not so that it closes a cycle.
    const preferred = a1 < b0 || b1 < a0 ? a1 < b0 : true;
    let forward: boolean;
    if (!(preferred ? reaches(toLeaves, fromLeaves) : reaches(fromLeaves, toLeaves))) forward = preferred;
    else if (!(preferred ? reaches(fromLeaves, toLeaves) : reaches(toLeaves, fromLeaves))) forward = !preferred;
    else return;
    for (const a of forward ? fromLeaves : toLeaves) next[a]!.push(...(forward ? toLeaves : fromLeaves));
    const upperEnd = forward ? edge.from : edge.to;
    const lowerEnd = forward ? edge.to : edge.from;
    doors.links.push({ edge: e, upper: door(upperEnd, true), lower: door(lowerEnd, false), reversed: !forward });
  });
  // A door leading into (out of) a container is on or above (below) every other door inside it.
  doors.cluster.forEach((c, outer) => {
    if (doors.inner[outer]) return;
    doors.cluster.forEach((d, inner) => {
      if (inner === outer || !isAncestorOrSelf(c, d, clusterParent) || (d === c && !doors.inner[inner])) return;
      doors.constraintUpper.push(L + (doors.below[outer] ? inner : outer));
      doors.constraintLower.push(L + (doors.below[outer] ? outer : inner));
      doors.constraintWeight.push(0);
    });
  });
  return doors;
}
