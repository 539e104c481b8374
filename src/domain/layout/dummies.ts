/**
 * The proper layered graph: every edge that spans more than one layer is split
 * by dummy nodes, one per layer it passes, so that every remaining ("proper")
 * edge joins adjacent layers. When `concentrate` is on (wrapped layers), long
 * edges that share an end share their dummies too: a fan of edges then runs
 * down one trunk and branches off layer by layer, like an org chart.
 */

export interface ProperGraph {
  /** Real nodes first (0..realCount-1), then dummies. */
  nodeCount: number;
  realCount: number;
  layerOf: Int32Array;
  layerCount: number;
  /** Proper edges: upper end, lower end. */
  upper: Int32Array;
  lower: Int32Array;
  /** For each input edge (in its downward orientation), its proper edges from top to bottom. */
  chains: Int32Array[];
}

export interface DownwardEdges {
  /** Upper end of each edge (after cycle breaking). */
  upper: ArrayLike<number>;
  lower: ArrayLike<number>;
  /** Edges that must keep their own chain (labelled ones: the label needs its own segment). */
  alone: ArrayLike<number>;
}

export function buildProperGraph(realCount: number, layer: Int32Array, edges: DownwardEdges, concentrate: boolean): ProperGraph {
  const m = edges.upper.length;
  let layerCount = 0;
  for (let v = 0; v < realCount; v++) layerCount = Math.max(layerCount, layer[v]! + 1);
  const layerOf: number[] = Array.from(layer.subarray(0, realCount));
  const upper: number[] = [];
  const lower: number[] = [];
  const chains: Int32Array[] = new Array<Int32Array>(m);
  const addDummy = (l: number): number => {
    layerOf.push(l);
    return layerOf.length - 1;
  };
  const addEdge = (u: number, v: number): number => {
    upper.push(u);
    lower.push(v);
    return upper.length - 1;
  };

  const group = concentrate ? groupLongEdges(realCount, layer, edges) : new Int8Array(m);
  const sourceTrunk = new Map<number, number[]>();
  const targetTrunk = new Map<number, number[]>();

  for (let e = 0; e < m; e++) {
    const u = edges.upper[e]!;
    const v = edges.lower[e]!;
    const top = layer[u]!;
    const bottom = layer[v]!;
    if (bottom - top <= 1) {
      chains[e] = Int32Array.of(addEdge(u, v));
      continue;
    }
    const chain: number[] = [];
    if (group[e] === 1) {
      // Shared trunk below the source: trunk[i] is the dummy on layer top+1+i, trunkEdges the edges joining them.
      let trunk = sourceTrunk.get(u);
      if (!trunk) {
        trunk = [];
        sourceTrunk.set(u, trunk);
      }
      extendSourceTrunk(trunk, u, top, bottom - 1, addDummy, addEdge);
      for (let l = top + 1; l < bottom; l++) chain.push(trunk[2 * (l - top - 1) + 1]!);
      chain.push(addEdge(trunk[2 * (bottom - 1 - top - 1)]!, v));
    } else if (group[e] === 2) {
      let trunk = targetTrunk.get(v);
      if (!trunk) {
        trunk = [];
        targetTrunk.set(v, trunk);
      }
      extendTargetTrunk(trunk, v, bottom, top + 1, addDummy, addEdge);
      // trunk[2i] is the dummy on layer bottom-1-i, trunk[2i+1] the edge leaving it downwards.
      chain.push(addEdge(u, trunk[2 * (bottom - 1 - (top + 1))]!));
      for (let l = top + 1; l < bottom; l++) chain.push(trunk[2 * (bottom - 1 - l) + 1]!);
    } else {
      let previous = u;
      for (let l = top + 1; l < bottom; l++) {
        const d = addDummy(l);
        chain.push(addEdge(previous, d));
        previous = d;
      }
      chain.push(addEdge(previous, v));
    }
    chains[e] = Int32Array.from(chain);
  }
  return {
    nodeCount: layerOf.length,
    realCount,
    layerOf: Int32Array.from(layerOf),
    layerCount,
    upper: Int32Array.from(upper),
    lower: Int32Array.from(lower),
    chains,
  };
}

/**
 * A source trunk as a flat list [dummy, edge into it, dummy, edge, ...] from the
 * layer under the source down to `lastLayer`; grown on demand.
 */
function extendSourceTrunk(
  trunk: number[],
  source: number,
  sourceLayer: number,
  lastLayer: number,
  addDummy: (l: number) => number,
  addEdge: (u: number, v: number) => number,
): void {
  for (let l = sourceLayer + 1 + trunk.length / 2; l <= lastLayer; l++) {
    const above = trunk.length === 0 ? source : trunk[trunk.length - 2]!;
    const d = addDummy(l);
    trunk.push(d, addEdge(above, d));
  }
}

/** A target trunk as [dummy, edge out of it, ...] from the layer above the target upwards to `firstLayer`. */
function extendTargetTrunk(
  trunk: number[],
  target: number,
  targetLayer: number,
  firstLayer: number,
  addDummy: (l: number) => number,
  addEdge: (u: number, v: number) => number,
): void {
  for (let l = targetLayer - 1 - trunk.length / 2; l >= firstLayer; l--) {
    const below = trunk.length === 0 ? target : trunk[trunk.length - 2]!;
    const d = addDummy(l);
    trunk.push(d, addEdge(d, below));
  }
}

/**
 * Which long edges join a shared trunk: 1 = their source's, 2 = their target's,
 * 0 = none. An end gathers a trunk when it has at least two long edges that may
 * share; the busier end wins. Labelled edges and repeats of a pair keep their own chain.
 */
function groupLongEdges(realCount: number, layer: Int32Array, edges: DownwardEdges): Int8Array {
  const m = edges.upper.length;
  const eligible = new Uint8Array(m);
  const seenPairs = new Set<number>();
  const bySource = new Int32Array(realCount);
  const byTarget = new Int32Array(realCount);
  for (let e = 0; e < m; e++) {
    const u = edges.upper[e]!;
    const v = edges.lower[e]!;
    if (layer[v]! - layer[u]! <= 1 || edges.alone[e]) continue;
    const pair = u * realCount + v;
    if (seenPairs.has(pair)) continue;
    seenPairs.add(pair);
    eligible[e] = 1;
    bySource[u]!++;
    byTarget[v]!++;
  }
  const group = new Int8Array(m);
  for (let e = 0; e < m; e++) {
    if (!eligible[e]) continue;
    const s = bySource[edges.upper[e]!]!;
    const t = byTarget[edges.lower[e]!]!;
    if (s >= 2 && s >= t) group[e] = 1;
    else if (t >= 2) group[e] = 2;
  }
  return group;
}
