/**
 * Edges whose ends share a layer (the author's hints put them there: a
 * same-rank group, an edge of minLength 0 or one that does not constrain).
 * The layered drawing does not route them; it keeps their ends side by side,
 * with room between for the edge's label, and the cross-edge router draws the
 * short line across afterwards, as dot draws its flat edges.
 */
import { sameRankRepresentatives } from './layering.ts';
import type { LayerOrder, OrderClusters } from '../ordering/ordering.ts';

/** Room on each side of a flat edge's label, between it and the nodes it joins. */
const FLAT_LABEL_MARGIN = 16;

export interface FlatEdge {
  from: number;
  to: number;
  labelWidth: number;
  /** Not drawn: it asks for the same layer, not for its ends to be neighbours. */
  invisible: boolean;
}

/**
 * The groups of nodes that drawn flat edges join (within one layer): each
 * node's group, -1 for a node in none; null when no flat edge joins two nodes.
 * For the crossing minimiser each group is a block of its own, so that it comes
 * out contiguous wherever the other edges want it.
 */
export function flatGroups(nodeCount: number, layerOf: ArrayLike<number>, edges: FlatEdge[]): Int32Array | null {
  const pairs = edges.filter((e) => !e.invisible && e.from !== e.to && layerOf[e.from] === layerOf[e.to]).map((e) => [e.from, e.to]);
  if (pairs.length === 0) return null;
  const representative = sameRankRepresentatives(nodeCount, pairs);
  const size = new Int32Array(nodeCount);
  for (let v = 0; v < nodeCount; v++) size[representative[v]!]!++;
  const index = new Int32Array(nodeCount).fill(-1);
  let count = 0;
  for (let v = 0; v < nodeCount; v++) if (representative[v] === v && size[v]! > 1) index[v] = count++;
  return Int32Array.from({ length: nodeCount }, (_, v) => index[representative[v]!]!);
}

/** The groups as the crossing minimiser's clusters, in a drawing that has no other. */
export function groupsAsClusters(group: Int32Array): OrderClusters {
  const count = group.reduce((most, g) => Math.max(most, g + 1), 0);
  return { of: group, parent: new Int32Array(count).fill(-1), first: new Uint8Array(group.length), spine: new Uint8Array(group.length) };
}

/**
 * Within each group's block (contiguous after ordering), its members in the
 * order the flat edges run, so that each flat edge is short and points along
 * the layer. `order` is changed in place.
 */
export function sequenceFlatGroups(order: LayerOrder, layerOf: ArrayLike<number>, group: Int32Array, edges: FlatEdge[]): void {
  const members = new Map<number, number[]>();
  group.forEach((g, v) => {
    if (g >= 0) members.set(g, [...(members.get(g) ?? []), v]);
  });
  for (const nodes of members.values()) {
    const layer = order.layers[layerOf[nodes[0]!]!]!;
    const slots = nodes.map((v) => order.position[v]!).sort((a, b) => a - b);
    flatSequence(nodes, edges, order.position, new Set(nodes)).forEach((v, i) => {
      layer[slots[i]!] = v;
      order.position[v] = slots[i]!;
    });
  }
}

/** The members in the order the flat edges run: each source before its targets, ties (and cycles) by current position. */
function flatSequence(members: number[], edges: FlatEdge[], position: ArrayLike<number>, inGroup: Set<number>): number[] {
  const incoming = new Map<number, number>(members.map((v) => [v, 0]));
  const out = new Map<number, number[]>();
  for (const { from, to } of edges) {
    if (from === to || !inGroup.has(from) || !inGroup.has(to)) continue;
    incoming.set(to, incoming.get(to)! + 1);
    out.set(from, [...(out.get(from) ?? []), to]);
  }
  const byPosition = (a: number, b: number) => position[a]! - position[b]!;
  const sequence: number[] = [];
  const placed = new Set<number>();
  while (sequence.length < members.length) {
    const left = members.filter((v) => !placed.has(v)).sort(byPosition);
    // A member nothing unplaced leads to; in a cycle, the leftmost.
    const next = left.find((v) => incoming.get(v) === 0) ?? left[0]!;
    sequence.push(next);
    placed.add(next);
    for (const w of out.get(next) ?? []) incoming.set(w, incoming.get(w)! - 1);
  }
  return sequence;
}

/**
 * Room for the flat edges' labels: the left one of two neighbours joined by a
 * labelled flat edge reaches further right, by the widest such label between them.
 */
export function roomForFlatLabels(order: LayerOrder, layerOf: ArrayLike<number>, edges: FlatEdge[], rightExtent: Float64Array): void {
  const widest = new Map<number, number>();
  for (const { from, to, labelWidth } of edges) {
    if (labelWidth <= 0 || layerOf[from] !== layerOf[to] || Math.abs(order.position[from]! - order.position[to]!) !== 1) continue;
    const left = order.position[from]! < order.position[to]! ? from : to;
    widest.set(left, Math.max(widest.get(left) ?? 0, labelWidth));
  }
  for (const [v, width] of widest) rightExtent[v]! += width + 2 * FLAT_LABEL_MARGIN;
}
