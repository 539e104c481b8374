/**
 * dot's x coordinates for a clustered layout: network simplex on an auxiliary
 * graph where edges pull their ends into line and each cluster's two sides are
 * variables its members keep their padding from.
 */
import { CONTAINER_PADDING } from './containers.ts';
import { clusterChain, type HeaderSide } from './cluster-tree.ts';
import type { ProperGraph } from '../layering/dummies.ts';
import { bestJogMove } from '../placement/coordinates.ts';
import { exchangeBudget, networkSimplex } from '../layering/layering.ts';

const PAD = CONTAINER_PADDING;
/** Room a container's border keeps from a neighbour outside it, beyond the neighbour's own half gap. */
const BORDER_GAP = 12;
/** Weights pulling an edge straight: between two nodes, a node and a dummy, two dummies (dot's 1, 2, 8). */
const STRAIGHTEN = [1, 2, 8];
/** Keeps a header at its cluster's left side. */
const HEADER_PULL = 1000;
/**
 * How hard a cluster's width is pulled in, against the edges pulled straight
 * (a dummy-to-dummy edge weighs 8): as hard as the straightest edge, so an
 * edge leaving a cluster jogs rather than stretch the cluster out to where it
 * goes (real diagrams had containers 3–4× the area their contents need).
 */
const CLUSTER_WIDTH_WEIGHT = 8;
/** How far inside its container's sides a free door stays: its arrow meets the border clear of the rounded corners. */
const DOOR_INSET = 24;
/** How far a free door keeps from the ends on its side of a shape beside it. */
const PORT_CLEARANCE = 16;
/** How much harder an edge just under a header is pulled straight. */
const UNDER_HEADER = 50;

export interface CoordinateInput {
  graph: ProperGraph;
  layers: Int32Array[];
  ports: { bottom: Float64Array; top: Float64Array };
  isDummy: Uint8Array;
  isSpine: Uint8Array;
  leftExtent: Float64Array;
  rightExtent: Float64Array;
  halfGap: Float64Array;
  membership: Int32Array;
  clusterParent: Int32Array;
  headerNode: Int32Array;
  headerWidth: Float64Array;
  padLeft: Float64Array;
  /** Which layers hold headers, and on which side of their clusters. */
  headerLayer: Uint8Array;
  headerSide: HeaderSide;
  /** Doors (by node) whose runs inside their container are not drawn: they may lie over its header and members. */
  freeDoor: Uint8Array;
  /** Nodes that keep this far right of their cluster's left side. */
  clearOfHeader: Array<{ node: number; cluster: number; gap: number }>;
  /** How far each cluster's self-loops reach out of its right side. */
  clusterLoopReach: Float64Array;
}

/**
 * dot's x coordinates: network simplex on an auxiliary graph. Each edge becomes
 * a node below both its ends, so the cost is its weighted horizontal length
 * (ports included); each pair of neighbours in a layer, and each cluster side
 * and its members, becomes a constraint edge with the gap as its length.
 */
export function clusterCoordinates(input: CoordinateInput): { x: Float64Array; left: Float64Array; right: Float64Array } {
  const { graph, layers, ports, isDummy, isSpine, leftExtent, rightExtent, halfGap, membership, clusterParent, headerNode } = input;
  const total = graph.nodeCount;
  const C = clusterParent.length;
  const E = graph.upper.length;
  const leftVar = (c: number) => total + 2 * c;
  const rightVar = (c: number) => total + 2 * c + 1;
  const edgeVar = (e: number) => total + 2 * C + e;
  const anchor = total + 2 * C + E;
  const tail: number[] = [];
  const head: number[] = [];
  const minlen: number[] = [];
  const weight: number[] = [];
  const add = (t: number, h: number, length: number, w: number): void => {
    tail.push(t);
    head.push(h);
    minlen.push(Math.ceil(length));
    weight.push(w);
  };
  const realCount = graph.realCount;
  const kind = (v: number): number => (v >= realCount || isDummy[v] ? 1 : 0);
  for (let e = 0; e < E; e++) {
    const u = graph.upper[e]!;
    const v = graph.lower[e]!;
    const delta = Math.round(ports.top[e]! - ports.bottom[e]!);
    // Between a header's layer and the layer it heads, an edge runs straight: a jog there would run under the header's text.
    const underHeader = input.headerLayer[graph.layerOf[input.headerSide === 'start' ? u : v]!] === 1;
    const w = STRAIGHTEN[kind(u) + kind(v)]! * (underHeader ? UNDER_HEADER : 1);
    add(edgeVar(e), u, Math.max(0, delta), w);
    add(edgeVar(e), v, Math.max(0, -delta), w);
  }
  const chains = Array.from({ length: total }, (_, v) => clusterChain(membership[v]!, clusterParent).reverse());
  const keepApart = (a: number, b: number): void => {
    const ca = chains[a]!;
      const cb = chains[b]!;
      let k = 0;
      while (k < ca.length && k < cb.length && ca[k] === cb[k]) k++;
      const outerA = k < ca.length ? ca[k]! : -1;
      const outerB = k < cb.length ? cb[k]! : -1;
      const leftEnd = outerA >= 0 ? rightVar(outerA) : a;
      const rightEnd = outerB >= 0 ? leftVar(outerB) : b;
      const gap = (outerA >= 0 ? BORDER_GAP + input.clusterLoopReach[outerA]! : halfGap[a]!) + (outerB >= 0 ? BORDER_GAP : halfGap[b]!);
      add(leftEnd, rightEnd, (outerA >= 0 ? 0 : rightExtent[a]!) + gap + (outerB >= 0 ? 0 : leftExtent[b]!), 0);
  };
  const isHeader = new Set(headerNode);
  const { freeDoor } = input;
  // Where each shape's ends lie on its top and bottom sides (offsets from its centre; empty: lo > hi), and which side each free door's edge takes.
  const topSpan = new Float64Array(2 * realCount).fill(Infinity);
  const bottomSpan = new Float64Array(2 * realCount).fill(Infinity);
  for (let v = 0; v < realCount; v++) topSpan[2 * v + 1] = bottomSpan[2 * v + 1] = -Infinity;
  const doorSide = new Uint8Array(realCount);
  for (let e = 0; e < E; e++) {
    const [u, v] = [graph.upper[e]!, graph.lower[e]!];
    if (v < realCount) {
      topSpan[2 * v] = Math.min(topSpan[2 * v]!, ports.top[e]!);
      topSpan[2 * v + 1] = Math.max(topSpan[2 * v + 1]!, ports.top[e]!);
      doorSide[v] = 1;
    }
    if (u < realCount) {
      bottomSpan[2 * u] = Math.min(bottomSpan[2 * u]!, ports.bottom[e]!);
      bottomSpan[2 * u + 1] = Math.max(bottomSpan[2 * u + 1]!, ports.bottom[e]!);
      if (doorSide[u] === 0) doorSide[u] = 2;
    }
  }
  const free = (v: number): boolean => v < freeDoor.length && freeDoor[v] === 1;
  for (const layer of layers) {
    if (layer.length > 0) add(anchor, layer[0]!, 0, 0);
    // The other nodes keep apart in order, skipping the free doors; a free door keeps its order among the routes
    // (the dummies and the other doors) so that no crossing the ordering avoided comes back, but not among the shapes.
    const solid = layer.filter((v) => !free(v));
    for (let i = 0; i + 1 < solid.length; i++) keepApart(solid[i]!, solid[i + 1]!);
    const route = layer.filter((v) => free(v) || v >= realCount);
    for (let i = 0; i + 1 < route.length; i++) if (free(route[i]!) || free(route[i + 1]!)) keepApart(route[i]!, route[i + 1]!);
    // Nor does it come near the ends on its side of the shapes beside it: their arrows would run along its own.
    layer.forEach((door, i) => {
      if (!free(door)) return;
      const spans = doorSide[door] === 1 ? topSpan : bottomSpan;
      const shape = (v: number) => v < realCount && !free(v) && spans[2 * v]! <= spans[2 * v + 1]!;
      const left = layer.slice(0, i).reverse().find(shape);
      const right = layer.slice(i + 1).find(shape);
      if (left !== undefined) add(left, door, spans[2 * left + 1]! + PORT_CLEARANCE, 0);
      if (right !== undefined) add(door, right, PORT_CLEARANCE - spans[2 * right]!, 0);
    });
  }
  for (let v = 0; v < total; v++) {
    const c = membership[v]!;
    if (c < 0) continue;
    if (isHeader.has(v)) {
      add(leftVar(c), v, leftExtent[v]!, HEADER_PULL);
      add(v, rightVar(c), rightExtent[v]!, 0);
      continue;
    }
    // A spine node is a point with no room of its own: it may lie anywhere inside its cluster.
    add(leftVar(c), v, isSpine[v] ? 0 : leftExtent[v]! + input.padLeft[c]!, 0);
    add(v, rightVar(c), isSpine[v] ? 0 : rightExtent[v]! + PAD, 0);
  }
  for (let c = 0; c < C; c++) {
    add(leftVar(c), rightVar(c), input.headerWidth[c]!, CLUSTER_WIDTH_WEIGHT);
    const p = clusterParent[c]!;
    if (p < 0) continue;
    add(leftVar(p), leftVar(c), input.padLeft[p]!, 0);
    add(rightVar(c), rightVar(p), PAD + input.clusterLoopReach[c]!, 0);
  }
  for (const { node, cluster, gap } of input.clearOfHeader) add(leftVar(cluster), node, gap, 0);
  // A free door stays inside its container, its arrow meeting the border clear of the container's corners.
  for (let v = 0; v < freeDoor.length; v++) {
    if (!freeDoor[v]) continue;
    add(leftVar(membership[v]!), v, DOOR_INSET, 0);
    add(v, rightVar(membership[v]!), DOOR_INSET, 0);
  }
  // Small drawings get the optimum; a big one stops after a bounded number of exchanges, still feasible.
  const value = Float64Array.from(networkSimplex(anchor + 1, tail, head, minlen, weight, exchangeBudget(anchor + 1)));
  const movable = (v: number) => v < realCount && !isDummy[v] && !isSpine[v] && !isHeader.has(v) && !free(v);
  straightenJogs(input, value, { tail, head, minlen, soft: (w) => w >= total + 2 * C }, movable);
  const x = Float64Array.from(value.subarray(0, total));
  const left = Float64Array.from({ length: C }, (_, c) => value[leftVar(c)]!);
  const right = Float64Array.from({ length: C }, (_, c) => value[rightVar(c)]!);
  return { x, left, right };
}

/**
 * Removes small jogs the optimum leaves where it is indifferent (an edge
 * pulled one way as hard as the next is pulled the other: a chain of two
 * nodes in a container, the second also joined to a node outside it, came out
 * 14 px apart): a shape moves sideways by the few pixels that put one of its
 * edges in line, when every hard constraint on it still holds (its
 * neighbours' gaps, its containers' padding) and the move straightens more of
 * its edges than it bends. `value` holds the solution (nodes, then the
 * clusters' sides); a constraint with an edge's variable at one end is soft.
 */
function straightenJogs(
  input: CoordinateInput,
  value: Float64Array,
  constraints: { tail: number[]; head: number[]; minlen: number[]; soft: (variable: number) => boolean },
  movable: (v: number) => boolean,
): void {
  const { graph, ports } = input;
  const { tail, head, minlen, soft } = constraints;
  const hard = new Map<number, number[]>();
  tail.forEach((t, k) => {
    if (soft(t) || soft(head[k]!)) return;
    for (const v of [t, head[k]!]) (hard.get(v) ?? hard.set(v, []).get(v)!).push(k);
  });
  const edgesAt = new Map<number, number[]>();
  graph.upper.forEach((u, e) => {
    for (const v of [u, graph.lower[e]!]) (edgesAt.get(v) ?? edgesAt.set(v, []).get(v)!).push(e);
  });
  const offset = (v: number, e: number): number =>
    graph.upper[e] === v ? value[graph.lower[e]!]! + ports.top[e]! - (value[v]! + ports.bottom[e]!) : value[graph.upper[e]!]! + ports.bottom[e]! - (value[v]! + ports.top[e]!);
  const holds = (v: number, d: number): boolean =>
    (hard.get(v) ?? []).every((k) => {
      const [t, h] = [tail[k]!, head[k]!];
      return (value[h]! + (h === v ? d : 0)) - (value[t]! + (t === v ? d : 0)) >= minlen[k]! - 1e-9;
    });
  for (let pass = 0; pass < 4; pass++) {
    let changed = false;
    for (const layer of input.layers) {
      for (const v of layer) {
        if (!movable(v)) continue;
        const best = bestJogMove(
          (edgesAt.get(v) ?? []).map((e) => offset(v, e)),
          (d) => holds(v, d),
        );
        if (best !== 0) {
          value[v]! += best;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
}
