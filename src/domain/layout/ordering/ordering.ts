/**
 * Crossing minimisation on the proper layered graph: layer-by-layer barycenter
 * sweeps, down and up, from a few deterministic starting orders, each polished
 * by transposing neighbours while that removes crossings (on small graphs after
 * every sweep, and across ties on every other pair of sweeps, as dot does) and
 * by sifting. The best order seen (fewest crossings, counted exactly with an
 * accumulator tree) is kept.
 *
 * With clusters (containers), every cluster's nodes stay contiguous in every
 * layer, nested clusters inside their parents, a cluster's header node first in
 * its block, and sibling clusters in the same left-to-right order on every layer
 * they share, so that their boxes never overlap: nodes are sorted by their
 * barycenter within their cluster, clusters by the mean barycenter of their
 * nodes, and after each sweep sibling clusters are put in one order for all
 * layers (by their mean position).
 */
import type { ProperGraph } from '../layering/dummies.ts';
import { seededRandom } from '../random.ts';

export interface LayerOrder {
  /** Node ids of each layer, left to right. */
  layers: Int32Array[];
  /** Position of each node within its layer. */
  position: Int32Array;
  crossings: number;
}

interface Adjacency {
  start: Int32Array;
  list: Int32Array;
}

function adjacency(nodeCount: number, from: Int32Array, to: Int32Array): Adjacency {
  const start = new Int32Array(nodeCount + 1);
  for (let e = 0; e < from.length; e++) start[from[e]! + 1]!++;
  for (let v = 0; v < nodeCount; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, nodeCount);
  const list = new Int32Array(from.length);
  for (let e = 0; e < from.length; e++) list[fill[from[e]!]!++] = to[e]!;
  return { start, list };
}

export interface OrderClusters {
  /** Innermost cluster of every proper-graph node (-1: none). */
  of: Int32Array;
  /** Parent of every cluster (-1: top level). */
  parent: Int32Array;
  /** Nodes that go first in their cluster's block (a cluster's header). */
  first: Uint8Array;
  /**
   * Nodes of a cluster's spine (a chain of empty nodes through its layers): an
   * edge with both ends outside the cluster that crosses a spine edge cuts
   * through the cluster, so such a crossing counts as many ordinary ones. An
   * edge entering or leaving the cluster crosses its border, which is no
   * crossing at all, wherever the spine runs inside the block.
   */
  spine: Uint8Array;
}

/** Sifting nodes past cluster blocks, and transposition after every sweep, on graphs up to this size (nodes + edges). */
const SIFT_WORK = 4000;
/**
 * A graph too large to sift after every start has its best order sifted (and transposed) again, in as
 * many rounds (at most POLISH_BEST_ROUNDS) as fit this much work: a round costs, per layer, the nodes in
 * it times the edges at them. On the 1,000-node layered DAG of `npm run bench:layout` a round is about
 * 360,000 and takes about 55 ms; two rounds cut its crossings by a sixth. Graphs whose long edges make
 * layers hundreds of slots wide get none: a round there would cost seconds.
 */
const POLISH_BEST_WORK = 1_300_000;
const POLISH_BEST_ROUNDS = 2;
/** What cutting through a cluster costs, in ordinary crossings. */
const SPINE_CROSSING = 50;

/** `hint` orders real nodes (lower first) when building the first starting order; usually input order. */
export function orderLayers(graph: ProperGraph, hint: ArrayLike<number>, clusters?: OrderClusters): LayerOrder {
  const minimizer = new CrossingMinimizer(graph, clusters ? new ClusterTree(clusters, graph.nodeCount) : null);
  return minimizer.run(hint);
}

/** Cluster membership for ordering: each node's chain of clusters, outermost first. */
class ClusterTree {
  readonly chain: Int32Array[];
  readonly first: Uint8Array;
  readonly spine: Uint8Array;
  readonly clusterCount: number;

  constructor(clusters: OrderClusters, nodeCount: number) {
    this.first = clusters.first;
    this.spine = clusters.spine;
    this.clusterCount = clusters.parent.length;
    const chainOf: Int32Array[] = [];
    for (let c = 0; c < this.clusterCount; c++) {
      const list: number[] = [];
      for (let p = c; p !== -1; p = clusters.parent[p]!) list.unshift(p);
      chainOf.push(Int32Array.from(list));
    }
    const empty = new Int32Array(0);
    this.chain = Array.from({ length: nodeCount }, (_, v) => (clusters.of[v]! < 0 ? empty : chainOf[clusters.of[v]!]!));
  }

  /**
   * Sorts a layer: the key of a node among its siblings is key[v] (-Infinity for
   * a header), a cluster's the mean key of its nodes in the layer; ties keep the
   * current order. Clusters come out contiguous.
   */
  sortLayer(layer: Int32Array, key: Float64Array, position: Int32Array): void {
    const sum = new Map<number, number>();
    const count = new Map<number, number>();
    const firstPosition = new Map<number, number>();
    for (const v of layer) {
      for (const c of this.chain[v]!) {
        sum.set(c, (sum.get(c) ?? 0) + key[v]!);
        count.set(c, (count.get(c) ?? 0) + 1);
        if (!firstPosition.has(c)) firstPosition.set(c, position[v]!);
      }
    }
    const nodes = Array.from(layer);
    nodes.sort((a, b) => {
      const ca = this.chain[a]!;
      const cb = this.chain[b]!;
      let i = 0;
      while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
      const itemA = i < ca.length ? ca[i]! : -1;
      const itemB = i < cb.length ? cb[i]! : -1;
      const keyA = itemA >= 0 ? sum.get(itemA)! / count.get(itemA)! : this.first[a] ? -Infinity : key[a]!;
      const keyB = itemB >= 0 ? sum.get(itemB)! / count.get(itemB)! : this.first[b] ? -Infinity : key[b]!;
      if (keyA !== keyB) return keyA < keyB ? -1 : 1;
      const posA = itemA >= 0 ? firstPosition.get(itemA)! : position[a]!;
      const posB = itemB >= 0 ? firstPosition.get(itemB)! : position[b]!;
      return posA - posB || position[a]! - position[b]!;
    });
    layer.set(nodes);
    layer.forEach((v, i) => (position[v] = i));
  }

  /** Puts sibling clusters in one order on every layer (by their mean position over all layers), keeping each layer's slots. */
  unify(layers: Int32Array[], position: Int32Array): void {
    const sum = new Float64Array(this.clusterCount);
    const count = new Float64Array(this.clusterCount);
    for (const layer of layers) {
      for (const v of layer) {
        for (const c of this.chain[v]!) {
          sum[c]! += position[v]! / Math.max(1, layer.length - 1);
          count[c]!++;
        }
      }
    }
    const mean = (c: number): number => sum[c]! / Math.max(1, count[c]!);
    const arrange = (nodes: number[], depth: number, out: number[]): void => {
      const groups: Array<{ cluster: number; nodes: number[] }> = [];
      for (const v of nodes) {
        const chain = this.chain[v]!;
        const cluster = depth < chain.length ? chain[depth]! : -1;
        const last = groups[groups.length - 1];
        if (cluster >= 0 && last && last.cluster === cluster) last.nodes.push(v);
        else groups.push({ cluster, nodes: [v] });
      }
      const clusters = groups.filter((g) => g.cluster >= 0).sort((a, b) => mean(a.cluster) - mean(b.cluster) || a.cluster - b.cluster);
      let next = 0;
      for (const group of groups) {
        if (group.cluster < 0) out.push(group.nodes[0]!);
        else {
          const placed = clusters[next++]!;
          arrange(placed.nodes, depth + 1, out);
        }
      }
    };
    for (const layer of layers) {
      const out: number[] = [];
      arrange(Array.from(layer), 0, out);
      layer.set(out);
      layer.forEach((v, i) => (position[v] = i));
    }
  }

  /** Whether two neighbours may swap without breaking a cluster's block. */
  swappable(u: number, v: number): boolean {
    const cu = this.chain[u]!;
    const cv = this.chain[v]!;
    return cu.length === cv.length && (cu.length === 0 || cu[cu.length - 1] === cv[cv.length - 1]) && !this.first[u] && !this.first[v];
  }
}

class CrossingMinimizer {
  private readonly down: Adjacency;
  private readonly up: Adjacency;
  private readonly layerSize: Int32Array;
  private readonly layers: Int32Array[];
  private readonly position: Int32Array;
  private readonly barycenter: Float64Array;
  private readonly scratchA: Int32Array;
  private readonly scratchB: Int32Array;
  private readonly tree: Int32Array;
  private readonly layerCrossings: Float64Array;

  private useMedian = false;
  /** Small graphs get transposition after every sweep (see sweep). */
  private thorough = false;
  /** No clusters: every node in one scope, nothing first, no spines. */
  private readonly flat: Pick<ClusterTree, 'chain' | 'first' | 'spine'>;

  private readonly graph: ProperGraph;
  private readonly clusters: ClusterTree | null;
  constructor(graph: ProperGraph, clusters: ClusterTree | null) {
    this.graph = graph;
    this.clusters = clusters;
    const none = new Int32Array(0);
    this.flat = { chain: Array.from({ length: graph.nodeCount }, () => none), first: new Uint8Array(graph.nodeCount), spine: new Uint8Array(graph.nodeCount) };
    const { nodeCount, upper, lower, layerOf, layerCount } = graph;
    this.down = adjacency(nodeCount, upper, lower);
    this.up = adjacency(nodeCount, lower, upper);
    this.layerSize = new Int32Array(layerCount);
    for (let v = 0; v < nodeCount; v++) this.layerSize[layerOf[v]!]!++;
    this.layers = Array.from(this.layerSize, (size) => new Int32Array(size));
    this.position = new Int32Array(nodeCount);
    this.barycenter = new Float64Array(nodeCount);
    let maxDegree = 1;
    for (let v = 0; v < nodeCount; v++) {
      maxDegree = Math.max(maxDegree, this.down.start[v + 1]! - this.down.start[v]!, this.up.start[v + 1]! - this.up.start[v]!);
    }
    this.scratchA = new Int32Array(maxDegree);
    this.scratchB = new Int32Array(maxDegree);
    let maxLayer = 1;
    for (const size of this.layerSize) maxLayer = Math.max(maxLayer, size);
    this.tree = new Int32Array(maxLayer + 1);
    this.layerCrossings = new Float64Array(layerCount);
  }

  run(hint: ArrayLike<number>): LayerOrder {
    const { nodeCount, upper } = this.graph;
    const work = nodeCount + upper.length;
    // Fewer restarts and sweeps on big graphs keep a 1000-node layout well inside its time budget.
    const starts = work > 12000 ? 2 : work > 3000 ? 4 : work > 600 ? 7 : 24;
    const maxSweeps = work > 12000 ? 12 : 20;
    this.thorough = work <= SIFT_WORK;
    let best: Int32Array[] | null = null;
    let bestCrossings = Infinity;
    for (let start = 0; start < starts && bestCrossings > 0; start++) {
      if (start === 0) this.depthFirstStart(hint);
      else this.shuffledStart(start);
      // Every other start sorts by the neighbours' median instead of their mean: they find different orders.
      this.useMedian = start % 2 === 1;
      this.groupClusters();
      let crossings = this.sweep(maxSweeps, bestCrossings);
      if (work <= SIFT_WORK) crossings = this.polish(crossings);
      if (crossings < bestCrossings) {
        bestCrossings = crossings;
        best = this.layers.map((layer) => layer.slice());
      }
    }
    this.restore(best!);
    bestCrossings = this.transposeAll(bestCrossings);
    if (work > SIFT_WORK) bestCrossings = this.polish(bestCrossings, Math.min(POLISH_BEST_ROUNDS, Math.floor(POLISH_BEST_WORK / this.siftRoundWork())));
    if (this.clusters && work <= SIFT_WORK) bestCrossings = this.swapSiblingClusters(bestCrossings, maxSweeps);
    return { layers: this.layers, position: this.position, crossings: bestCrossings };
  }

  /**
   * Tries each pair of sibling clusters the other way round (their blocks
   * exchanged on every layer), re-sweeping from there so that the edges around
   * them follow; keeps an order that crosses less. Whole clusters change sides,
   * which no move of single nodes can do.
   */
  private swapSiblingClusters(crossings: number, maxSweeps: number): number {
    const clusters = this.clusters!;
    const pairs = new Set<string>();
    for (const layer of this.layers) {
      for (let i = 0; i + 1 < layer.length; i++) {
        const a = clusters.chain[layer[i]!]!;
        const b = clusters.chain[layer[i + 1]!]!;
        let k = 0;
        while (k < a.length && k < b.length && a[k] === b[k]) k++;
        if (k < a.length && k < b.length) pairs.add(`${a[k]},${b[k]}`);
      }
    }
    let best = this.layers.map((layer) => layer.slice());
    for (const pair of pairs) {
      const [p, q] = pair.split(',').map(Number) as [number, number];
      this.restore(best);
      let moved = false;
      for (const layer of this.layers) {
        const nodes = Array.from(layer);
        const inP = nodes.filter((v) => clusters.chain[v]!.includes(p));
        const inQ = nodes.filter((v) => clusters.chain[v]!.includes(q));
        if (inP.length === 0 || inQ.length === 0) continue;
        // The two blocks are neighbours here when nothing else lies between them: exchange them.
        const start = Math.min(nodes.indexOf(inP[0]!), nodes.indexOf(inQ[0]!));
        const end = Math.max(nodes.indexOf(inP[inP.length - 1]!), nodes.indexOf(inQ[inQ.length - 1]!));
        if (end - start + 1 !== inP.length + inQ.length) continue;
        const pFirst = nodes.indexOf(inP[0]!) < nodes.indexOf(inQ[0]!);
        const swapped = pFirst ? [...inQ, ...inP] : [...inP, ...inQ];
        nodes.splice(start, swapped.length, ...swapped);
        layer.set(nodes);
        layer.forEach((v, i) => (this.position[v] = i));
        moved = true;
      }
      if (!moved) continue;
      let count = this.sweep(Math.min(6, maxSweeps), crossings);
      count = this.polish(count);
      if (count < crossings) {
        crossings = count;
        best = this.layers.map((layer) => layer.slice());
      }
    }
    this.restore(best);
    return crossings;
  }

  /** What one round of sifting costs, roughly: per layer, its nodes times the edges at them. */
  private siftRoundWork(): number {
    let total = 0;
    for (const layer of this.layers) {
      let degrees = 0;
      for (const v of layer) degrees += this.down.start[v + 1]! - this.down.start[v]! + this.up.start[v + 1]! - this.up.start[v]!;
      total += layer.length * degrees;
    }
    return Math.max(1, total);
  }

  /** Sifting and transposition, alternated while they remove crossings, for at most `rounds` rounds. */
  private polish(crossings: number, rounds = 4): number {
    for (let round = 0; round < rounds; round++) {
      const sifted = this.siftAll(crossings);
      if (sifted >= crossings) break;
      crossings = this.transposeAll(sifted);
    }
    return crossings;
  }

  /**
   * Moves each node to the best place among the items of its own cluster in its
   * layer (between its sibling nodes and whole child clusters), which
   * transposition cannot do: it never swaps a node past a cluster's block.
   */
  private siftAll(crossings: number): number {
    const clusters = this.clusters ?? this.flat;
    const cross = (u: number, v: number): number => this.pairCrossings(u, v, this.up) + this.pairCrossings(u, v, this.down);
    for (let l = 0; l < this.layers.length; l++) {
      const layer = this.layers[l]!;
      for (const v of Array.from(layer)) {
        if (clusters.first[v] || clusters.spine[v]) continue;
        const chain = clusters.chain[v]!;
        const depth = chain.length;
        const inScope = (w: number): boolean => depth === 0 || clusters.chain[w]![depth - 1] === chain[depth - 1];
        const itemOf = (w: number): number => (clusters.chain[w]!.length > depth ? -1 - clusters.chain[w]![depth]! : w);
        const nodes = Array.from(layer);
        const from = this.position[v]!;
        nodes.splice(from, 1);
        // The items of v's cluster in this layer (single nodes, whole child clusters), each with v's crossings
        // against it when v stands to its left and to its right; a header stays first.
        const items: Array<{ at: number; end: number; left: number; right: number }> = [];
        for (let i = 0; i < nodes.length; i++) {
          const w = nodes[i]!;
          if (!inScope(w)) continue;
          const last = items[items.length - 1];
          const item = itemOf(w);
          if (last && i > 0 && inScope(nodes[i - 1]!) && itemOf(nodes[i - 1]!) === item && item < 0) {
            last.left += cross(v, w);
            last.right += cross(w, v);
            last.end = i + 1;
            continue;
          }
          items.push({ at: i, end: i + 1, left: cross(v, w), right: cross(w, v) });
        }
        if (items.length === 0) continue;
        const headerFirst = clusters.first[nodes[items[0]!.at]!] === 1 && itemOf(nodes[items[0]!.at]!) >= 0;
        // Crossings of v in front of item j: right of every item before j, left of every item from j on.
        let current = 0;
        for (const item of items) current += item.left;
        let best = -1;
        let bestCount = Infinity;
        let atOld = -1;
        for (let j = 0; j <= items.length; j++) {
          if (j > 0) current += items[j - 1]!.right - items[j - 1]!.left;
          const slot = j < items.length ? items[j]!.at : items[items.length - 1]!.end;
          if (slot === from) atOld = j;
          if (j === 0 && headerFirst) continue;
          if (current < bestCount) {
            bestCount = current;
            best = j;
          }
        }
        if (atOld < 0 || best < 0 || best === atOld) continue;
        let before = 0;
        for (let j = 0; j < items.length; j++) before += j < atOld ? items[j]!.right : items[j]!.left;
        if (bestCount >= before) continue;
        const slot = best < items.length ? items[best]!.at : items[items.length - 1]!.end;
        nodes.splice(slot, 0, v);
        layer.set(nodes);
        nodes.forEach((w, i) => (this.position[w] = i));
        crossings -= before - bestCount;
      }
    }
    return crossings;
  }

  /** Makes every cluster contiguous (keeping the order otherwise) and sibling clusters consistent across layers. */
  private groupClusters(): void {
    if (!this.clusters) return;
    const key = this.barycenter;
    for (const layer of this.layers) {
      for (const v of layer) key[v] = this.position[v]!;
      this.clusters.sortLayer(layer, key, this.position);
    }
    this.clusters.unify(this.layers, this.position);
  }

  private restore(layers: Int32Array[]): void {
    layers.forEach((layer, l) => {
      this.layers[l]!.set(layer);
      layer.forEach((v, i) => (this.position[v] = i));
    });
  }

  /** Layers filled in the order a depth-first walk from the hinted real nodes reaches them (dagre's initial order). */
  private depthFirstStart(hint: ArrayLike<number>): void {
    const { realCount, nodeCount, layerOf } = this.graph;
    const fill = new Int32Array(this.layers.length);
    const visited = new Uint8Array(nodeCount);
    const roots = Array.from({ length: realCount }, (_, v) => v).sort((a, b) => layerOf[a]! - layerOf[b]! || hint[a]! - hint[b]! || a - b);
    const stack: number[] = [];
    const visit = (root: number): void => {
      stack.push(root);
      while (stack.length > 0) {
        const v = stack.pop()!;
        if (visited[v]) continue;
        visited[v] = 1;
        const l = layerOf[v]!;
        this.position[v] = fill[l]!;
        this.layers[l]![fill[l]!++] = v;
        for (let i = this.down.start[v + 1]! - 1; i >= this.down.start[v]!; i--) {
          const w = this.down.list[i]!;
          if (!visited[w]) stack.push(w);
        }
      }
    };
    for (const v of roots) visit(v);
    for (let v = 0; v < nodeCount; v++) if (!visited[v]) visit(v);
  }

  private shuffledStart(seed: number): void {
    const random = seededRandom(seed * 7919);
    for (let l = 0; l < this.layers.length; l++) {
      const layer = this.layers[l]!;
      for (let i = layer.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        const t = layer[i]!;
        layer[i] = layer[j]!;
        layer[j] = t;
      }
      layer.forEach((v, i) => (this.position[v] = i));
    }
  }

  /** Alternating down and up barycenter sweeps; leaves the best order found in place and returns its crossings. */
  private sweep(maxSweeps: number, bound: number): number {
    let bestCrossings = this.totalCrossings();
    let best = this.layers.map((layer) => layer.slice());
    let stale = 0;
    for (let round = 0; round < maxSweeps && bestCrossings > 0; round++) {
      const downward = round % 2 === 0;
      if (downward) for (let l = 1; l < this.layers.length; l++) this.reorderByBarycenter(l, this.up);
      else for (let l = this.layers.length - 2; l >= 0; l--) this.reorderByBarycenter(l, this.down);
      this.clusters?.unify(this.layers, this.position);
      let crossings = this.totalCrossings();
      if (this.thorough) {
        // As dot does: transposition after every sweep, on every other pair of sweeps also across ties, which
        // walks along plateaus of equal crossings to orders the sweeps alone never reach.
        if (round % 4 < 2) crossings = this.transposeTies(crossings);
        crossings = this.transposeAll(crossings);
      }
      if (crossings < bestCrossings) {
        bestCrossings = crossings;
        best = this.layers.map((layer) => layer.slice());
        stale = 0;
      } else if (++stale >= 4) {
        break;
      }
    }
    this.restore(best);
    if (bestCrossings < bound * 1.5) bestCrossings = this.transposeAll(bestCrossings);
    return bestCrossings;
  }

  /** Gansner et al.'s weighted median of the neighbours' positions (dot's ordering heuristic). */
  private medianPosition(v: number, side: Adjacency): number {
    const scratch = this.scratchA;
    const count = this.sortedPositions(v, side, scratch);
    const middle = count >> 1;
    if (count % 2 === 1) return scratch[middle]!;
    if (count === 2) return (scratch[0]! + scratch[1]!) / 2;
    const left = scratch[middle - 1]! - scratch[0]!;
    const right = scratch[count - 1]! - scratch[middle]!;
    if (left + right === 0) return (scratch[middle - 1]! + scratch[middle]!) / 2;
    return (scratch[middle - 1]! * right + scratch[middle]! * left) / (left + right);
  }

  private reorderByBarycenter(l: number, fixed: Adjacency): void {
    const layer = this.layers[l]!;
    const bary = this.barycenter;
    const known = new Uint8Array(layer.length);
    for (let i = 0; i < layer.length; i++) {
      const v = layer[i]!;
      const from = fixed.start[v]!;
      const to = fixed.start[v + 1]!;
      if (to === from) continue;
      if (this.useMedian) {
        bary[v] = this.medianPosition(v, fixed);
      } else {
        let sum = 0;
        for (let k = from; k < to; k++) sum += this.position[fixed.list[k]!]!;
        bary[v] = sum / (to - from);
      }
      known[i] = 1;
    }
    // A node without neighbours there keeps its place between the nodes around it.
    let previous = -1;
    for (let i = 0; i < layer.length; i++) {
      if (known[i]) {
        previous = i;
        continue;
      }
      let next = i + 1;
      while (next < layer.length && !known[next]) next++;
      const left = previous >= 0 ? bary[layer[previous]!]! : undefined;
      const right = next < layer.length ? bary[layer[next]!]! : undefined;
      bary[layer[i]!] = left !== undefined && right !== undefined ? (left + right) / 2 : (left ?? right ?? i);
    }
    if (this.clusters) {
      this.clusters.sortLayer(layer, bary, this.position);
      return;
    }
    const nodes = Array.from(layer);
    nodes.sort((a, b) => bary[a]! - bary[b]! || this.position[a]! - this.position[b]!);
    for (let i = 0; i < nodes.length; i++) {
      layer[i] = nodes[i]!;
      this.position[nodes[i]!] = i;
    }
  }

  private totalCrossings(): number {
    let total = 0;
    for (let l = 0; l + 1 < this.layers.length; l++) {
      const c = this.crossingsBelow(l);
      this.layerCrossings[l] = c;
      total += c;
    }
    return total;
  }

  /** Crossings between layer l and l+1: ordinary edges counted exactly, then what the spines there add. */
  private crossingsBelow(l: number): number {
    return this.ordinaryCrossingsBelow(l) + this.spineCrossingsBelow(l);
  }

  /** Crossings among the edges that are not spine edges (Barth, Jünger, Mutzel: inversions counted with a Fenwick tree). */
  private ordinaryCrossingsBelow(l: number): number {
    const lowerSize = this.layerSize[l + 1]!;
    const tree = this.tree;
    tree.fill(0, 0, lowerSize + 1);
    let inserted = 0;
    let crossings = 0;
    const scratch = this.scratchA;
    const spine = this.clusters?.spine;
    for (const u of this.layers[l]!) {
      if (spine?.[u]) continue;
      const count = this.sortedPositions(u, this.down, scratch);
      for (let k = 0; k < count; k++) {
        const p = scratch[k]!;
        let atMost = 0;
        for (let i = p + 1; i > 0; i -= i & -i) atMost += tree[i]!;
        crossings += inserted - atMost;
      }
      for (let k = 0; k < count; k++) {
        for (let i = scratch[k]! + 1; i <= lowerSize; i += i & -i) tree[i]!++;
        inserted++;
      }
    }
    return crossings;
  }

  /**
   * What the spines between layer l and l+1 cost: each edge with both ends
   * outside a cluster that passes from one side of its block to the other cuts
   * through the cluster (SPINE_CROSSING each). An edge entering or leaving a
   * cluster crosses only its border, which costs nothing: where a spine runs
   * inside its block means nothing.
   */
  private spineCrossingsBelow(l: number): number {
    const clusters = this.clusters;
    if (!clusters) return 0;
    let crossings = 0;
    const layer = this.layers[l]!;
    for (let i = 0; i < layer.length; i++) {
      const s = layer[i]!;
      if (!clusters.spine[s] || this.down.start[s + 1] === this.down.start[s]) continue;
      for (let j = 0; j < layer.length; j++) {
        const u = layer[j]!;
        if (u === s || (clusters.spine[u] && j < i)) continue;
        crossings += this.spinePair(s, u, this.down, i < j);
      }
    }
    return crossings;
  }

  /**
   * Weighted crossings between a spine node's edge and the edges of u on one
   * side, the spine standing left of u or not: SPINE_CROSSING for each edge of u with both
   * ends outside the spine's cluster that crosses it, nothing for the others.
   * Two spines cross at that cost only when neither cluster holds the other.
   */
  private spinePair(s: number, u: number, side: Adjacency, sLeft: boolean): number {
    const clusters = this.clusters!;
    const c = this.spineCluster(s);
    if (clusters.chain[u]!.includes(c)) return 0;
    if (clusters.spine[u] && clusters.chain[s]!.includes(this.spineCluster(u))) return 0;
    const from = side.start[s]!;
    if (side.start[s + 1] === from) return 0;
    const sNeighbour = this.position[side.list[from]!]!;
    let crossings = 0;
    for (let k = side.start[u]!; k < side.start[u + 1]!; k++) {
      const w = side.list[k]!;
      if (clusters.chain[w]!.includes(c)) continue;
      if (sLeft !== sNeighbour < this.position[w]!) crossings++;
    }
    return crossings * SPINE_CROSSING;
  }

  /** The cluster a spine node belongs to: its innermost one. */
  private spineCluster(s: number): number {
    const chain = this.clusters!.chain[s]!;
    return chain[chain.length - 1]!;
  }

  private sortedPositions(v: number, side: Adjacency, out: Int32Array): number {
    const from = side.start[v]!;
    const count = side.start[v + 1]! - from;
    for (let k = 0; k < count; k++) out[k] = this.position[side.list[from + k]!]!;
    if (count > 1) out.subarray(0, count).sort();
    return count;
  }

  /** Crossings among the edges of u and v on one side when u stands left of v (weighted where a spine is one of them). */
  private pairCrossings(u: number, v: number, side: Adjacency): number {
    const spine = this.clusters?.spine;
    if (spine && (spine[u] || spine[v])) {
      return spine[u] ? this.spinePair(u, v, side, true) : this.spinePair(v, u, side, false);
    }
    const a = this.scratchA;
    const b = this.scratchB;
    const na = this.sortedPositions(u, side, a);
    const nb = this.sortedPositions(v, side, b);
    let crossings = 0;
    let j = 0;
    for (let i = 0; i < na; i++) {
      while (j < nb && b[j]! < a[i]!) j++;
      crossings += j;
    }
    return crossings;
  }

  /** One pass of transposition that also swaps neighbours whose crossings stay the same. */
  private transposeTies(crossings: number): number {
    return this.transposePass(crossings, true).crossings;
  }

  /** Swaps neighbours while that lowers the crossings on both sides of their layer. */
  private transposeAll(crossings: number): number {
    for (let round = 0; round < 20; round++) {
      const pass = this.transposePass(crossings, false);
      crossings = pass.crossings;
      if (!pass.swapped) break;
    }
    return crossings;
  }

  /** Swaps each pair of neighbours (that may swap) where that lowers their crossings, or with `ties` keeps them equal. */
  private transposePass(crossings: number, ties: boolean): { crossings: number; swapped: boolean } {
    let swappedAny = false;
    for (let l = 0; l < this.layers.length; l++) {
      const layer = this.layers[l]!;
      for (let i = 0; i + 1 < layer.length; i++) {
        const u = layer[i]!;
        const v = layer[i + 1]!;
        if (this.clusters && !this.clusters.swappable(u, v)) continue;
        const now = this.pairCrossings(u, v, this.up) + this.pairCrossings(u, v, this.down);
        if (now === 0) continue;
        const swapped = this.pairCrossings(v, u, this.up) + this.pairCrossings(v, u, this.down);
        if (swapped < now || (ties && swapped === now)) {
          layer[i] = v;
          layer[i + 1] = u;
          this.position[v] = i;
          this.position[u] = i + 1;
          crossings -= now - swapped;
          swappedAny = true;
        }
      }
    }
    return { crossings, swapped: swappedAny };
  }
}
