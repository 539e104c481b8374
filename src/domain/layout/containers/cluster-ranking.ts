/**
 * The layers of a clustered layout's leaves (clustered.ts): network simplex over the leaves, where an edge
 * to or from a container counts as edges between the leaves where it enters and leaves (so that it runs
 * with the flow), the doors of such edges ranked with them (cluster-doors.ts), lone members settled beside
 * their container's other members, and the author's first source on top.
 */
import type { NestedEdge, NestedNode } from './containers.ts';
import { type Doors, layerRanks, planDoors, type RankHints } from './cluster-doors.ts';
import { clusterChain, type ClusterIndex, type Clusters, isAncestorOrSelf } from './cluster-tree.ts';
import { liftFirstSource, sameRankRepresentatives } from '../layering/layering.ts';
import { backEdgesInInputOrder } from '../layering/cycles.ts';
import type { FlatEdge } from '../layering/flat-edges.ts';

/**
 * The layers of the leaves, and of the doors of the edges with a container at an end, which join linkEdges
 * (returned with them). Layers count from 0 down the flow; with edge labels, every other layer holds them.
 */
export function rankLeaves(nodes: NestedNode[], edges: NestedEdge[], clusters: Clusters, leafLinks: number[], sameRank: number[][], swap: boolean) {
  const { isContainer, clusterOf, leafOf, leafCluster, clusterParent, clusterNode, leafNode, innermostFirst } = clusters;
  const C = clusterNode.length;
  const L = leafNode.length;
  const linkEdges = [...leafLinks];
  /** The cluster a node is (a container) or sits in (a leaf). */
  const leafOrClusterOf = (v: number): number => (isContainer[v] ? clusterOf[v]! : leafCluster[leafOf[v]!]!);
  const leafEdgeCount = linkEdges.length;
  const from = Int32Array.from(linkEdges, (e) => leafOf[edges[e]!.from]!);
  const to = Int32Array.from(linkEdges, (e) => leafOf[edges[e]!.to]!);
  // An edge to or from a container is, for ranking, edges between the leaves where it enters and leaves:
  // so that it never runs against the flow unless it closes a loop (one the author wrote later breaks).
  const index: ClusterIndex = { isContainer, clusterOf, leafOf, leafCluster, clusterParent };
  const flow = containerFlowEdges(edges, index, from, to);
  const rankingFrom = Int32Array.from([...from, ...flow.from]);
  const rankingTo = Int32Array.from([...to, ...flow.to]);
  const rankingReversed = backEdgesInInputOrder(L, rankingFrom, rankingTo);
  const leafReversed = rankingReversed.subarray(0, leafEdgeCount);
  const upperList: number[] = [];
  const lowerList: number[] = [];
  const reversedList: number[] = [];
  for (let i = 0; i < leafEdgeCount; i++) {
    upperList.push(leafReversed[i] ? to[i]! : from[i]!);
    lowerList.push(leafReversed[i] ? from[i]! : to[i]!);
    reversedList.push(leafReversed[i]!);
  }
  // Layers of the leaves: network simplex, with a root above every leaf (weightless but for a pull up) holding the components together.
  const leafMinlen = linkEdges.map((e) => edges[e]!.minLength ?? 1);
  const hints = rankHints(L, leafOf, linkEdges, edges, sameRank);
  // The container edges' leaf pairs that close no loop join the ranking (and only it).
  const kept = flow.from.map((_, i) => i).filter((i) => !rankingReversed[leafEdgeCount + i]);
  let rank = layerRanks(
    L,
    Int32Array.from([...upperList, ...kept.map((i) => flow.from[i]!)]),
    Int32Array.from([...lowerList, ...kept.map((i) => flow.to[i]!)]),
    [],
    [],
    [],
    leafMinlen,
    hints ?? undefined,
  );

  // An edge with a container at an end runs to a door: a point just outside the container's first (or last) layer,
  // from where it goes straight to the border. Its direction follows the layers found without it.
  const doors = planDoors(nodes, edges, index, innermostFirst, rank, L, upperList, lowerList);
  for (const link of doors.links) {
    linkEdges.push(link.edge);
    upperList.push(link.upper);
    lowerList.push(link.lower);
    reversedList.push(link.reversed ? 1 : 0);
  }
  const K = L + doors.cluster.length;
  if (hints) rank = layerRanks(K, Int32Array.from(upperList), Int32Array.from(lowerList), doors.constraintUpper, doors.constraintLower, doors.constraintWeight, leafMinlen, hints);
  // Under hints, an edge whose ends share a layer is left to the cross-edge router, and one that did not rank points the way its ends lie.
  const flat = hints ? leaveFlatEdges(rank, leafEdgeCount, linkEdges, upperList, lowerList, reversedList, from, to, edges, swap) : [];
  const m = linkEdges.length;
  const upper = Int32Array.from(upperList);
  const lower = Int32Array.from(lowerList);
  const reversed = Uint8Array.from(reversedList);
  const alone = new Uint8Array(m);
  for (let i = 0; i < m; i++) {
    const edge = edges[linkEdges[i]!]!;
    alone[i] = edge.labelWidth > 0 && edge.labelHeight > 0 ? 1 : 0;
  }
  const labelled = alone.some((a) => a === 1);
  const layoutCluster = Int32Array.from({ length: K }, (_, i) => (i < L ? leafCluster[i]! : doors.cluster[i - L]!));
  if (K > L && !hints) rank = layerRanks(K, upper, lower, doors.constraintUpper, doors.constraintLower, doors.constraintWeight, leafMinlen);
  if (!hints) raiseContainerSources(rank, L, upper, lower, leafCluster, clusterParent, doors);
  if (!hints) settleLoneMembers(rank, L, upper, lower, leafCluster, doors);
  // The flow starts at the author's first source, unless an edge leads into a container around it.
  const fedCluster = new Uint8Array(C);
  const fedLeaf = new Uint8Array(L);
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    if (isContainer[edge.to] && !clusterChain(leafOrClusterOf(edge.from), clusterParent).includes(clusterOf[edge.to]!)) fedCluster[clusterOf[edge.to]!] = 1;
    if (!isContainer[edge.to] && isContainer[edge.from]) fedLeaf[leafOf[edge.to]!] = 1;
  }
  const floor = (v: number): number => {
    let least = -Infinity;
    for (let i = 0; i < m; i++) if (lower[i] === v) least = Math.max(least, rank[upper[i]!]! + (i < leafMinlen.length ? Math.max(1, leafMinlen[i]!) : 1));
    doors.constraintLower.forEach((head, j) => {
      if (head === v) least = Math.max(least, rank[doors.constraintUpper[j]!]!);
    });
    return least;
  };
  if (!hints) liftFirstSource(rank, L, rankingFrom, rankingTo, leafNode, (i) => fedLeaf[i] === 1 || clusterChain(leafCluster[i]!, clusterParent).some((c) => fedCluster[c] === 1), floor);
  const base = Int32Array.from(rank, (r) => (labelled ? 2 * r : r));
  return { base, doors, flat, K, linkEdges, upper, lower, reversed, alone, labelled, layoutCluster };
}

export type RankedLeaves = ReturnType<typeof rankLeaves>;

/** The most leaf pairs one container edge stands for in the ranking. */
const MAX_FLOW_PAIRS = 64;

/**
 * For ranking only: each edge with a container at an end (not between a
 * container and what it holds) as edges from the leaves where the flow leaves
 * its source (the source itself, or the container's leaves with no edge to
 * another of its leaves) to the leaves where it enters its target (those with
 * no edge from another of its leaves), at most MAX_FLOW_PAIRS per edge.
 */
function containerFlowEdges(edges: NestedEdge[], { isContainer, clusterOf, leafOf, leafCluster, clusterParent }: ClusterIndex, from: Int32Array, to: Int32Array): { from: number[]; to: number[] } {
  const L = leafCluster.length;
  const within = (leaf: number, c: number) => isAncestorOrSelf(c, leafCluster[leaf]!, clusterParent);
  const leavesOf = (c: number) => Array.from({ length: L }, (_, i) => i).filter((i) => within(i, c));
  const known = new Map<string, number[]>();
  const ends = (c: number, exits: boolean): number[] => {
    const key = `${c}:${exits}`;
    if (!known.has(key)) known.set(key, endsOf(c, exits));
    return known.get(key)!;
  };
  const endsOf = (c: number, exits: boolean): number[] => {
    const members = leavesOf(c);
    const inner = new Set<number>();
    for (let e = 0; e < from.length; e++) {
      if (from[e] === to[e] || !within(from[e]!, c) || !within(to[e]!, c)) continue;
      inner.add(exits ? from[e]! : to[e]!);
    }
    const open = members.filter((m) => !inner.has(m));
    return open.length > 0 ? open : members;
  };
  const result = { from: [] as number[], to: [] as number[] };
  for (const edge of edges) {
    if (edge.from === edge.to || (!isContainer[edge.from] && !isContainer[edge.to])) continue;
    const a = isContainer[edge.from] ? clusterOf[edge.from]! : -1;
    const b = isContainer[edge.to] ? clusterOf[edge.to]! : -1;
    // Between a container and something it holds: no flow to keep.
    if (a >= 0 && (isContainer[edge.to] ? isAncestorOrSelf(a, b, clusterParent) : within(leafOf[edge.to]!, a))) continue;
    if (b >= 0 && (isContainer[edge.from] ? isAncestorOrSelf(b, a, clusterParent) : within(leafOf[edge.from]!, b))) continue;
    const sources = a >= 0 ? ends(a, true) : [leafOf[edge.from]!];
    const targets = b >= 0 ? ends(b, false) : [leafOf[edge.to]!];
    let pairs = 0;
    for (const s of sources) {
      for (const t of targets) {
        if (s === t || pairs++ >= MAX_FLOW_PAIRS) continue;
        result.from.push(s);
        result.to.push(t);
      }
    }
  }
  return result;
}

/**
 * The author's hints on layers among the leaves, or null when there are none
 * (no same-rank group of two leaves or more, no edge of minLength 0 or that
 * does not constrain). A container named in a same-rank group is left out of it.
 */
function rankHints(L: number, leafOf: Int32Array, linkEdges: number[], edges: NestedEdge[], sameRank: number[][]): RankHints | null {
  const groups = sameRank.map((group) => group.map((v) => leafOf[v]!).filter((leaf) => leaf >= 0)).filter((group) => group.length > 1);
  const free = Uint8Array.from(linkEdges, (e) => (edges[e]!.constraint === false ? 1 : 0));
  if (groups.length === 0 && !free.some((f) => f === 1) && !linkEdges.some((e) => edges[e]!.minLength === 0)) return null;
  return { representative: sameRankRepresentatives(L, groups), free };
}

/**
 * Under hints, once the leaves have their layers: the leaf edges whose ends
 * share one leave the lists (the cross-edge router draws them), and the others
 * point downwards by the layers found (an edge that did not rank may point up).
 * The lists hold the leaf edges first, then the doors' links: a link the
 * groups turned level or upwards leaves too, and its edge goes to the
 * cross-edge router as well.
 */
function leaveFlatEdges(
  rank: Int32Array,
  leafEdgeCount: number,
  linkEdges: number[],
  upperList: number[],
  lowerList: number[],
  reversedList: number[],
  from: Int32Array,
  to: Int32Array,
  edges: NestedEdge[],
  swap: boolean,
): FlatEdge[] {
  const flat: FlatEdge[] = [];
  for (let i = 0; i < leafEdgeCount; i++) {
    if (rank[from[i]!] !== rank[to[i]!]) continue;
    const edge = edges[linkEdges[i]!]!;
    const labelled = edge.labelWidth > 0 && edge.labelHeight > 0;
    flat.push({ from: from[i]!, to: to[i]!, labelWidth: labelled ? (swap ? edge.labelHeight : edge.labelWidth) : 0, invisible: edge.invisible === true });
  }
  const keep = linkEdges.map((_, i) => (i < leafEdgeCount ? rank[from[i]!] !== rank[to[i]!] : rank[upperList[i]!]! < rank[lowerList[i]!]!));
  for (let i = 0; i < leafEdgeCount; i++) {
    if (!keep[i]) continue;
    const up = rank[from[i]!]! > rank[to[i]!]!;
    upperList[i] = up ? to[i]! : from[i]!;
    lowerList[i] = up ? from[i]! : to[i]!;
    reversedList[i] = up ? 1 : 0;
  }
  for (const list of [linkEdges, upperList, lowerList, reversedList]) {
    const kept = list.filter((_, i) => keep[i]);
    list.length = 0;
    list.push(...kept);
  }
  return flat;
}

/**
 * A node inside a container that no edge touches would sit on the drawing's
 * first layer, stretching its container up to it, empty in between (varnish's
 * "see backend graph" note held the backend cluster open from the top of the
 * drawing down to FETCH). It joins the first layer of the members of its
 * container that edges touch, as dot draws it, beside them.
 */
function settleLoneMembers(rank: Int32Array, L: number, upper: Int32Array, lower: Int32Array, leafCluster: Int32Array, doors: Doors): void {
  const touched = new Uint8Array(L);
  for (let i = 0; i < upper.length; i++) for (const v of [upper[i]!, lower[i]!]) if (v < L) touched[v] = 1;
  for (const v of [...doors.constraintUpper, ...doors.constraintLower]) if (v < L) touched[v] = 1;
  const firstTouched = new Map<number, number>();
  for (let i = 0; i < L; i++) if (touched[i] && leafCluster[i]! >= 0) firstTouched.set(leafCluster[i]!, Math.min(firstTouched.get(leafCluster[i]!) ?? Infinity, rank[i]!));
  for (let i = 0; i < L; i++) {
    const first = firstTouched.get(leafCluster[i]!);
    if (!touched[i] && first !== undefined) rank[i] = first;
  }
}

/**
 * A node inside a container that nothing leads to, ranked next to what it feeds
 * further down, would stretch the container down to it, empty in between. It
 * rises to the lowest layer the container's other members reach (those that
 * something leads to), or to the container's first layer when there are none,
 * as Mermaid and dot draw a cluster compactly; a container that is tall anyway
 * keeps it next to what it feeds. It rises only as far as the doors into its
 * containers allow (each door on or above every leaf of its container); its own
 * edges only grow longer, so nothing else moves.
 */
function raiseContainerSources(rank: Int32Array, L: number, upper: Int32Array, lower: Int32Array, leafCluster: Int32Array, clusterParent: Int32Array, doors: Doors): void {
  const fed = new Uint8Array(L);
  for (let i = 0; i < lower.length; i++) if (lower[i]! < L && upper[i] !== lower[i]) fed[lower[i]!] = 1;
  const first = new Map<number, number>();
  const lowestFed = new Map<number, number>();
  for (let i = 0; i < L; i++) {
    for (const c of clusterChain(leafCluster[i]!, clusterParent)) {
      first.set(c, Math.min(first.get(c) ?? Infinity, rank[i]!));
      if (fed[i]) lowestFed.set(c, Math.max(lowestFed.get(c) ?? -Infinity, rank[i]!));
    }
  }
  const floor = new Float64Array(L).fill(-Infinity);
  doors.constraintUpper.forEach((u, j) => {
    const v = doors.constraintLower[j]!;
    if (v < L) floor[v] = Math.max(floor[v]!, rank[u]!);
  });
  for (let i = 0; i < L; i++) {
    if (fed[i] || leafCluster[i]! < 0) continue;
    const c = leafCluster[i]!;
    const top = Math.max(lowestFed.get(c) ?? first.get(c)!, floor[i]!);
    if (top < rank[i]!) rank[i] = top;
  }
}
