/**
 * The cluster tree of a clustered layout: each container is a cluster, with
 * its parent cluster; helpers over chains of clusters and their layer spans.
 */

/** Where a cluster's header goes: a layer of its own before its first layer, after its last, or a strip along its side. */
export type HeaderSide = 'start' | 'end' | 'strip';

/** A span not yet widened by any member. */
export const NO_LAYER = 2 ** 31 - 1;

export function clusterChain(c: number, parent: Int32Array): number[] {
  const chain: number[] = [];
  for (let p = c; p >= 0; p = parent[p]!) chain.push(p);
  return chain;
}

export function isAncestorOrSelf(a: number, c: number, parent: Int32Array): boolean {
  for (let p = c; p >= 0; p = parent[p]!) if (p === a) return true;
  return false;
}

export function clusterSpans(
  C: number,
  L: number,
  leafCluster: Int32Array,
  parent: Int32Array,
  innermostFirst: number[],
  layer: Int32Array,
): { lo: Int32Array; hi: Int32Array } {
  const lo = new Int32Array(C).fill(NO_LAYER);
  const hi = new Int32Array(C).fill(-1);
  for (let i = 0; i < L; i++) {
    const c = leafCluster[i]!;
    if (c < 0) continue;
    lo[c] = Math.min(lo[c]!, layer[i]!);
    hi[c] = Math.max(hi[c]!, layer[i]!);
  }
  for (const c of innermostFirst) {
    const p = parent[c]!;
    if (p < 0) continue;
    lo[p] = Math.min(lo[p]!, lo[c]!);
    hi[p] = Math.max(hi[p]!, hi[c]!);
  }
  return { lo, hi };
}

/** Which nodes are containers (clusters) and which are leaves, and how they nest: indexed once by the clustered layout, read by its helpers. */
export interface ClusterIndex {
  isContainer: Uint8Array;
  /** Each node's cluster index, or -1 for a leaf. */
  clusterOf: Int32Array;
  /** Each node's leaf index, or -1 for a container. */
  leafOf: Int32Array;
  /** Each leaf's innermost cluster, or -1. */
  leafCluster: Int32Array;
  clusterParent: Int32Array;
}
