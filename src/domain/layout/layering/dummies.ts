/**
 * The proper layered graph: every edge that spans more than one layer is split
 * by dummy nodes, one per layer it passes, so that every remaining ("proper")
 * edge joins adjacent layers. Every edge has dummies of its own: edges never
 * share a run.
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
}

export function buildProperGraph(realCount: number, layer: Int32Array, edges: DownwardEdges): ProperGraph {
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
    let previous = u;
    for (let l = top + 1; l < bottom; l++) {
      const d = addDummy(l);
      chain.push(addEdge(previous, d));
      previous = d;
    }
    chain.push(addEdge(previous, v));
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
