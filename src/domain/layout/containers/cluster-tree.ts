/**
 * The cluster tree of a clustered layout: each container is a cluster, with
 * its parent cluster; helpers over chains of clusters and their layer spans.
 */
import type { NestedNode } from './containers.ts';

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

/** The containers as clusters, everything else as leaves, indexed both ways. */
export interface Clusters extends ClusterIndex {
  /** Each cluster's node. */
  clusterNode: number[];
  /** Each leaf's node. */
  leafNode: number[];
  /** Clusters innermost first: children before their parents. */
  innermostFirst: number[];
}

/** Clusters are the containers; leaves are everything else. */
export function indexClusters(nodes: NestedNode[]): Clusters {
  const n = nodes.length;
  const isContainer = new Uint8Array(n);
  for (const node of nodes) if (node.parent >= 0) isContainer[node.parent] = 1;
  const clusterOf = new Int32Array(n).fill(-1);
  const clusterNode: number[] = [];
  const leafOf = new Int32Array(n).fill(-1);
  const leafNode: number[] = [];
  for (let v = 0; v < n; v++) {
    if (isContainer[v]) {
      clusterOf[v] = clusterNode.length;
      clusterNode.push(v);
    } else {
      leafOf[v] = leafNode.length;
      leafNode.push(v);
    }
  }
  const C = clusterNode.length;
  const clusterParent = Int32Array.from(clusterNode, (v) => (nodes[v]!.parent >= 0 ? clusterOf[nodes[v]!.parent]! : -1));
  const leafCluster = Int32Array.from(leafNode, (v) => (nodes[v]!.parent >= 0 ? clusterOf[nodes[v]!.parent]! : -1));
  const clusterDepth = new Int32Array(C);
  for (let c = 0; c < C; c++) for (let p = clusterParent[c]!; p >= 0; p = clusterParent[p]!) clusterDepth[c]!++;
  /** Clusters innermost first: children before their parents. */
  const innermostFirst = Array.from({ length: C }, (_, c) => c).sort((a, b) => clusterDepth[b]! - clusterDepth[a]! || a - b);
  return { isContainer, clusterOf, leafOf, leafCluster, clusterParent, clusterNode, leafNode, innermostFirst };
}
