/**
 * Aspect-ratio control for wide graphs. A star with 300 leaves or a bushy tree
 * puts hundreds of nodes on one layer: a drawing many times wider than tall.
 * When the layering would be that wide, nodes are re-layered under a width
 * budget (each goes to the first layer at or below its network-simplex rank that
 * has room, and below all its predecessors), and the budget is searched so that
 * the drawing comes out close to the target aspect ratio; a layering that fits
 * the page as it is (reth's node builder: seven children, 1,150 px across)
 * keeps its siblings on one row, as Mermaid and dot draw them. Edges then span
 * several layers, each with dummies of its own (no shared trunks: two edges
 * along one line read as one).
 */
import { buildProperGraph, type DownwardEdges } from '../layering/dummies.ts';
import { LAYER_GAP } from '../routing/routing.ts';

const NODE_GAP = 40;
const DUMMY_SLOT = 16;
/** Wrap when the plain layering is more than this many times wider than tall (internal frame): past 3:1 on the page. */
const WRAP_THRESHOLD = 3;

export interface WrapInput {
  nodeCount: number;
  width: ArrayLike<number>;
  height: ArrayLike<number>;
  hint: ArrayLike<number>;
  edges: DownwardEdges;
  /** Target width / height of the drawing in the internal frame. */
  aspect: number;
  /** A layering no wider than this (across the flow) stays as it is, however flat: it fits the page that way. */
  fitsWithin: number;
}

interface Extent {
  width: number;
  height: number;
}

function estimateExtent(input: WrapInput, layer: Int32Array): Extent {
  const graph = buildProperGraph(input.nodeCount, layer, input.edges);
  const layerWidth = new Float64Array(graph.layerCount);
  const layerHeight = new Float64Array(graph.layerCount);
  const count = new Int32Array(graph.layerCount);
  for (let v = 0; v < graph.nodeCount; v++) {
    const l = graph.layerOf[v]!;
    if (count[l]! > 0) layerWidth[l]! += v < graph.realCount ? NODE_GAP : DUMMY_SLOT;
    count[l]!++;
    if (v < graph.realCount) {
      layerWidth[l]! += input.width[v]!;
      layerHeight[l] = Math.max(layerHeight[l]!, input.height[v]!);
    }
  }
  let width = 0;
  let height = 0;
  for (let l = 0; l < graph.layerCount; l++) {
    width = Math.max(width, layerWidth[l]!);
    height += layerHeight[l]! + (l > 0 ? LAYER_GAP : 0);
  }
  return { width, height: Math.max(1, height) };
}

/** The given layering, or a wrapped one when the graph would be far wider than the target aspect. */
export function wrapWideLayers(input: WrapInput, layer: Int32Array): Int32Array {
  const plain = estimateExtent(input, layer);
  if (plain.width / plain.height <= WRAP_THRESHOLD || plain.width <= input.fitsWithin || input.nodeCount < 8) {
    return layer;
  }
  let widest = 0;
  for (let v = 0; v < input.nodeCount; v++) widest = Math.max(widest, input.width[v]!);
  let low = widest;
  let high = plain.width;
  let best = layer;
  let bestScore = Infinity;
  for (let step = 0; step < 14 && high - low > 1; step++) {
    const budget = (low + high) / 2;
    const candidate = layerUnderBudget(input, layer, budget);
    const extent = estimateExtent(input, candidate);
    const ratio = extent.width / extent.height;
    const score = Math.abs(Math.log(ratio / input.aspect));
    if (score < bestScore) {
      bestScore = score;
      best = candidate;
    }
    if (ratio > input.aspect) high = budget;
    else low = budget;
  }
  return best;
}

/**
 * Places nodes in rank order, each family (the nodes of one rank under the same
 * first predecessor) together: on the first layer below all their predecessors
 * that still has room, spilling over onto the following layers when the family
 * is wider than what is left. Families that move down together share a trunk.
 */
function layerUnderBudget(input: WrapInput, rank: Int32Array, budget: number): Int32Array {
  const n = input.nodeCount;
  const { upper, lower } = input.edges;
  const predecessorsStart = new Int32Array(n + 1);
  for (let e = 0; e < upper.length; e++) predecessorsStart[lower[e]! + 1]!++;
  for (let v = 0; v < n; v++) predecessorsStart[v + 1]! += predecessorsStart[v]!;
  const fill = predecessorsStart.slice(0, n);
  const predecessors = new Int32Array(upper.length);
  for (let e = 0; e < upper.length; e++) predecessors[fill[lower[e]!]!++] = upper[e]!;

  const order = Array.from({ length: n }, (_, v) => v).sort((a, b) => rank[a]! - rank[b]! || input.hint[a]! - input.hint[b]! || a - b);
  const families = new Map<string, number[]>();
  const familyOf = (v: number): string => {
    const first = predecessorsStart[v + 1]! > predecessorsStart[v]! ? predecessors[predecessorsStart[v]!]! : -1 - v;
    return `${rank[v]}:${first}`;
  };
  for (const v of order) {
    const key = familyOf(v);
    const family = families.get(key);
    if (family) family.push(v);
    else families.set(key, [v]);
  }

  const layer = new Int32Array(n).fill(-1);
  const used: number[] = [];
  const room = (l: number, w: number): boolean => (used[l] ?? 0) === 0 || used[l]! + NODE_GAP + w <= budget;
  const put = (v: number, l: number): void => {
    used[l] = (used[l] ?? 0) > 0 ? used[l]! + NODE_GAP + input.width[v]! : input.width[v]!;
    layer[v] = l;
  };
  for (const v of order) {
    if (layer[v]! >= 0) continue;
    const family = families.get(familyOf(v))!;
    let l = 0;
    for (const member of family) {
      l = Math.max(l, rank[member]!);
      for (let k = predecessorsStart[member]!; k < predecessorsStart[member + 1]!; k++) l = Math.max(l, layer[predecessors[k]!]! + 1);
    }
    for (const member of family) {
      while (!room(l, input.width[member]!)) l++;
      put(member, l);
    }
  }
  return layer;
}
