/**
 * Layer assignment by network simplex (Gansner, Koutsofios, North, Vo): the ranking
 * that minimises the total weighted edge length, so long edges (and the dummy
 * nodes they need) are as few as possible. Input edges already point downwards
 * (cycles broken) and span at least one layer; the graph is one connected component.
 */

/**
 * Edges as parallel arrays (upper end, lower end); parallel edges are merged
 * into weights here. `minlen`: the layers each edge spans at least (default 1).
 */
export function networkSimplexLayers(nodeCount: number, from: ArrayLike<number>, to: ArrayLike<number>, minlen?: ArrayLike<number>): Int32Array {
  const n = nodeCount;
  const rank = new Int32Array(n);
  if (n <= 1) return rank;
  const graph = simpleGraph(n, from, to, minlen);
  solve(graph, rank);
  balanceLayers(graph, rank);
  return rank;
}

/**
 * Layers under the author's hints, by network simplex: every edge (cycles
 * already broken: upper above lower) spans at least its minlen layers (0: its
 * ends may share one), nodes with one representative share a layer, and the
 * total weighted edge length is least. A root above every node, pulling each up
 * a little, holds apart pieces together (pieces joined only by edges that do
 * not constrain). Each pair in `near` (the ends of an edge that does not
 * constrain) is pulled together, a little harder than the root pulls but far
 * less than any edge: a piece joined to the rest only by such edges settles
 * near their other ends instead of at the top. The smallest layer is 0.
 */
export function constrainedLayers(
  nodeCount: number,
  upper: ArrayLike<number>,
  lower: ArrayLike<number>,
  minlen: ArrayLike<number>,
  weight: ArrayLike<number>,
  representative: ArrayLike<number>,
  near: ReadonlyArray<readonly [number, number]> = [],
): Int32Array {
  const n = nodeCount;
  const variable = new Int32Array(n).fill(-1);
  let count = 0;
  for (let v = 0; v < n; v++) if (representative[v] === v) variable[v] = count++;
  for (let v = 0; v < n; v++) variable[v] = variable[representative[v]!]!;
  const root = count;
  const tail: number[] = [];
  const head: number[] = [];
  const length: number[] = [];
  const pull: number[] = [];
  const add = (t: number, h: number, l: number, w: number) => {
    tail.push(t);
    head.push(h);
    length.push(l);
    pull.push(w);
  };
  for (let e = 0; e < upper.length; e++) add(variable[upper[e]!]!, variable[lower[e]!]!, minlen[e]!, weight[e]!);
  for (let i = 0; i < count; i++) add(root, i, 1, ROOT_PULL);
  // A pair pulled together: a helper variable at or above both, the pull on its two edges |rank(a) − rank(b)|.
  let helpers = 0;
  for (const [a, b] of near) {
    if (variable[a] === variable[b]) continue;
    const helper = count + 1 + helpers++;
    add(helper, variable[a]!, 0, NEAR_PULL);
    add(helper, variable[b]!, 0, NEAR_PULL);
  }
  const size = count + 1 + helpers;
  const value = networkSimplex(size, tail, head, length, pull, exchangeBudget(size));
  let min = Infinity;
  for (let i = 0; i < count; i++) min = Math.min(min, value[i]!);
  return Int32Array.from(variable, (i) => value[i]! - min);
}

/** How hard the root of constrainedLayers pulls each node up: next to nothing, so that edges decide. */
const ROOT_PULL = 1e-3;
/** How hard the ends of an edge that does not constrain are pulled together: more than the root, far less than an edge. */
const NEAR_PULL = 1e-2;

/** Each node's representative: the first (lowest-numbered) node of its same-rank group, itself when in none. */
export function sameRankRepresentatives(nodeCount: number, groups: ReadonlyArray<ReadonlyArray<number>>): Int32Array {
  const parent = Int32Array.from({ length: nodeCount }, (_, v) => v);
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]!]!;
      v = parent[v]!;
    }
    return v;
  };
  for (const group of groups) {
    for (let i = 1; i < group.length; i++) {
      const a = find(group[0]!);
      const b = find(group[i]!);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  return Int32Array.from({ length: nodeCount }, (_, v) => find(v));
}

/**
 * Exchanges worth spending on a problem of n variables: enough for the optimum
 * on drawings of a few hundred nodes; on big ones each exchange walks a large
 * tree, so the count shrinks as n grows (about 4·10⁶ node visits in all).
 */
export function exchangeBudget(n: number): number {
  return Math.max(200, Math.min(20 * n, Math.floor(4_000_000 / Math.max(1, n))));
}

/**
 * The general problem network simplex solves: integer values for n variables
 * with value[head] − value[tail] ≥ minlen for every edge, minimising the sum of
 * weight × (value[head] − value[tail]). The edges must form a connected acyclic
 * graph (parallel edges are merged: the larger minlen, the summed weight).
 * Values come out with the smallest at 0. Used for dot's coordinate assignment.
 */
export function networkSimplex(
  nodeCount: number,
  tail: ArrayLike<number>,
  head: ArrayLike<number>,
  minlen: ArrayLike<number>,
  weight: ArrayLike<number>,
  /** Stop after this many exchanges (the values are feasible after any number, optimal when it runs out of them). */
  maxIterations = Math.max(200, 20 * nodeCount),
): Int32Array {
  const rank = new Int32Array(nodeCount);
  if (nodeCount <= 1) return rank;
  solve(simpleGraph(nodeCount, tail, head, minlen, weight), rank, maxIterations);
  return rank;
}

function solve(graph: SimpleGraph, rank: Int32Array, maxIterations = Math.max(200, 20 * graph.n)): void {
  const n = graph.n;
  initialRanks(graph, rank);
  const simplex = new NetworkSimplex(graph, rank);
  simplex.run(maxIterations);
  let min = Infinity;
  for (let v = 0; v < n; v++) min = Math.min(min, rank[v]!);
  for (let v = 0; v < n; v++) rank[v]! -= min;
}

interface SimpleGraph {
  n: number;
  tail: Int32Array;
  head: Int32Array;
  weight: Float64Array;
  minlen: Int32Array;
  /** Incident edges of each node (in and out) in CSR form. */
  incidentStart: Int32Array;
  incident: Int32Array;
}

function simpleGraph(n: number, from: ArrayLike<number>, to: ArrayLike<number>, minlen?: ArrayLike<number>, weight?: ArrayLike<number>): SimpleGraph {
  const index = new Map<number, number>();
  const tails: number[] = [];
  const heads: number[] = [];
  const weights: number[] = [];
  const minlens: number[] = [];
  for (let e = 0; e < from.length; e++) {
    const u = from[e]!;
    const v = to[e]!;
    if (u === v) continue;
    const key = u * n + v;
    const existing = index.get(key);
    const w = weight ? weight[e]! : 1;
    const len = minlen ? minlen[e]! : 1;
    if (existing !== undefined) {
      weights[existing]! += w;
      minlens[existing] = Math.max(minlens[existing]!, len);
      continue;
    }
    index.set(key, tails.length);
    tails.push(u);
    heads.push(v);
    weights.push(w);
    minlens.push(len);
  }
  const m = tails.length;
  const incidentStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    incidentStart[tails[e]! + 1]!++;
    incidentStart[heads[e]! + 1]!++;
  }
  for (let v = 0; v < n; v++) incidentStart[v + 1]! += incidentStart[v]!;
  const fill = incidentStart.slice(0, n);
  const incident = new Int32Array(2 * m);
  for (let e = 0; e < m; e++) {
    incident[fill[tails[e]!]!++] = e;
    incident[fill[heads[e]!]!++] = e;
  }
  return {
    n,
    tail: Int32Array.from(tails),
    head: Int32Array.from(heads),
    weight: Float64Array.from(weights),
    minlen: Int32Array.from(minlens),
    incidentStart,
    incident,
  };
}

/** Longest path from the sinks: every node as low as its successors allow (a feasible ranking). */
function initialRanks(graph: SimpleGraph, rank: Int32Array): void {
  const { n, tail, head, minlen, incidentStart, incident } = graph;
  const pendingOut = new Int32Array(n);
  for (let e = 0; e < tail.length; e++) pendingOut[tail[e]!]!++;
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (pendingOut[v] === 0) queue.push(v);
  const done = new Uint8Array(n);
  for (let qi = 0; qi < queue.length; qi++) {
    const v = queue[qi]!;
    done[v] = 1;
    let r = 0;
    let hasSuccessor = false;
    for (let i = incidentStart[v]!; i < incidentStart[v + 1]!; i++) {
      const e = incident[i]!;
      if (tail[e] !== v) continue;
      const candidate = rank[head[e]!]! - minlen[e]!;
      r = hasSuccessor ? Math.min(r, candidate) : candidate;
      hasSuccessor = true;
    }
    rank[v] = r;
    for (let i = incidentStart[v]!; i < incidentStart[v + 1]!; i++) {
      const e = incident[i]!;
      if (head[e] !== v) continue;
      const u = tail[e]!;
      if (--pendingOut[u]! === 0) queue.push(u);
    }
  }
  if (queue.length < n) throw new Error('network simplex needs an acyclic constraint graph');
}

/**
 * Network simplex over a spanning tree of tight edges, with graphviz's incremental
 * updates: an exchange reranks only the cut-off subtree, adjusts cut values only
 * on the tree path between the entering edge's ends, and renumbers only the
 * subtree under their lowest common ancestor.
 */
class NetworkSimplex {
  private readonly inTree: Uint8Array;
  private readonly treeEdge: Uint8Array;
  private readonly treeAdjacency: number[][];
  private readonly cutValue: Float64Array;
  private readonly low: Int32Array;
  private readonly lim: Int32Array;
  private readonly parentEdge: Int32Array;
  /** The node numbered `lim` in the current postorder. */
  private readonly nodeAtLim: Int32Array;
  private searchStart = 0;

  private readonly graph: SimpleGraph;
  private readonly rank: Int32Array;
  constructor(graph: SimpleGraph, rank: Int32Array) {
    this.graph = graph;
    this.rank = rank;
    const { n, tail } = graph;
    this.inTree = new Uint8Array(n);
    this.treeEdge = new Uint8Array(tail.length);
    this.treeAdjacency = Array.from({ length: n }, () => []);
    this.cutValue = new Float64Array(tail.length);
    this.low = new Int32Array(n);
    this.lim = new Int32Array(n);
    this.parentEdge = new Int32Array(n);
    this.nodeAtLim = new Int32Array(n + 1);
  }

  private slack(e: number): number {
    return this.rank[this.graph.head[e]!]! - this.rank[this.graph.tail[e]!]! - this.graph.minlen[e]!;
  }

  private other(e: number, v: number): number {
    return this.graph.tail[e] === v ? this.graph.head[e]! : this.graph.tail[e]!;
  }

  run(maxIterations: number): void {
    this.feasibleTree();
    this.numberSubtree(0, -1, 1);
    this.computeCutValues();
    for (let iteration = 0; iteration < maxIterations; iteration++) {
      const leaving = this.leavingEdge();
      if (leaving < 0) break;
      const entering = this.enteringEdge(leaving);
      if (entering < 0) break;
      this.exchange(leaving, entering);
    }
  }

  /** Grows a spanning tree of tight edges, shifting the tree's ranks to tighten the cheapest edge out of it. */
  private feasibleTree(): void {
    const { n, tail, head, incidentStart, incident } = this.graph;
    const members: number[] = [0];
    this.inTree[0] = 1;
    const grow = (from: number): void => {
      const stack = [from];
      while (stack.length > 0) {
        const v = stack.pop()!;
        for (let i = incidentStart[v]!; i < incidentStart[v + 1]!; i++) {
          const e = incident[i]!;
          const w = this.other(e, v);
          if (this.inTree[w] || this.slack(e) !== 0) continue;
          this.inTree[w] = 1;
          this.treeEdge[e] = 1;
          this.treeAdjacency[v]!.push(e);
          this.treeAdjacency[w]!.push(e);
          members.push(w);
          stack.push(w);
        }
      }
    };
    grow(0);
    while (members.length < n) {
      let best = -1;
      let bestSlack = Infinity;
      for (let e = 0; e < tail.length; e++) {
        if (this.inTree[tail[e]!] === this.inTree[head[e]!]) continue;
        const s = this.slack(e);
        if (s < bestSlack) {
          bestSlack = s;
          best = e;
        }
      }
      if (best < 0) throw new Error('network simplex needs a connected graph');
      const delta = this.inTree[tail[best]!] ? bestSlack : -bestSlack;
      for (const v of members) this.rank[v]! += delta;
      const before = members.length;
      for (let i = 0; i < before; i++) grow(members[i]!);
    }
  }

  /**
   * Postorder numbers (lim), the lowest number in each subtree (low) and each
   * node's parent edge, for the subtree hanging from `root` by `parentEdge`,
   * numbered from `firstNumber`.
   */
  private numberSubtree(root: number, rootParentEdge: number, firstNumber: number): void {
    const nextChild: number[] = [0];
    const stack: number[] = [root];
    this.parentEdge[root] = rootParentEdge;
    this.low[root] = firstNumber;
    let counter = firstNumber;
    while (stack.length > 0) {
      const top = stack.length - 1;
      const v = stack[top]!;
      const adjacency = this.treeAdjacency[v]!;
      if (nextChild[top]! < adjacency.length) {
        const e = adjacency[nextChild[top]!++]!;
        if (e === this.parentEdge[v]) continue;
        const w = this.other(e, v);
        this.parentEdge[w] = e;
        this.low[w] = counter;
        stack.push(w);
        nextChild.push(0);
      } else {
        stack.pop();
        nextChild.pop();
        this.lim[v] = counter;
        this.nodeAtLim[counter] = v;
        counter++;
      }
    }
  }

  private computeCutValues(): void {
    const n = this.graph.n;
    // nodeAtLim in increasing order is a postorder: children before parents.
    for (let l = 1; l <= n; l++) {
      const v = this.nodeAtLim[l]!;
      if (this.parentEdge[v]! >= 0) this.cutValue[this.parentEdge[v]!] = this.cutValueOf(v);
    }
  }

  /** Cut value of the tree edge between `child` and its parent, from the cut values of the child's own tree edges. */
  private cutValueOf(child: number): number {
    const { tail, weight, incidentStart, incident } = this.graph;
    const parentEdge = this.parentEdge[child]!;
    const parent = this.other(parentEdge, child);
    const childIsTail = tail[parentEdge] === child;
    let value = weight[parentEdge]!;
    for (let i = incidentStart[child]!; i < incidentStart[child + 1]!; i++) {
      const e = incident[i]!;
      if (e === parentEdge) continue;
      const isOut = tail[e] === child;
      const other = this.other(e, child);
      if (other === parent) continue;
      const pointsToHead = isOut === childIsTail;
      value += pointsToHead ? weight[e]! : -weight[e]!;
      if (this.treeEdge[e]) value += pointsToHead ? -this.cutValue[e]! : this.cutValue[e]!;
    }
    return value;
  }

  private leavingEdge(): number {
    const m = this.graph.tail.length;
    for (let k = 0; k < m; k++) {
      const e = (this.searchStart + k) % m;
      if (this.treeEdge[e] && this.cutValue[e]! < 0) {
        this.searchStart = (e + 1) % m;
        return e;
      }
    }
    return -1;
  }

  private inSubtree(v: number, root: number): boolean {
    return this.low[root]! <= this.lim[v]! && this.lim[v]! <= this.lim[root]!;
  }

  /** The non-tree edge of least slack that reconnects the two halves of the tree in the opposite direction. */
  private enteringEdge(leaving: number): number {
    const { tail, head, incidentStart, incident } = this.graph;
    const u = tail[leaving]!;
    const v = head[leaving]!;
    // The child end roots the cut-off subtree; scan its nodes only.
    const root = this.lim[u]! < this.lim[v]! ? u : v;
    const tailInside = root === v;
    let best = -1;
    let bestSlack = Infinity;
    for (let l = this.low[root]!; l <= this.lim[root]!; l++) {
      const w = this.nodeAtLim[l]!;
      for (let i = incidentStart[w]!; i < incidentStart[w + 1]!; i++) {
        const e = incident[i]!;
        if (this.treeEdge[e]) continue;
        if ((tail[e] === w) !== tailInside) continue;
        if (this.inSubtree(this.other(e, w), root)) continue;
        const s = this.slack(e);
        if (s < bestSlack || (s === bestSlack && e < best)) {
          bestSlack = s;
          best = e;
        }
      }
    }
    return best;
  }

  private exchange(leaving: number, entering: number): void {
    const { tail, head } = this.graph;
    const delta = this.slack(entering);
    if (delta > 0) {
      const t = tail[leaving]!;
      const h = head[leaving]!;
      if (this.lim[t]! < this.lim[h]!) this.rerank(t, leaving, delta);
      else this.rerank(h, leaving, -delta);
    }
    const cut = this.cutValue[leaving]!;
    const lca = this.updatePath(tail[entering]!, head[entering]!, cut, true);
    this.updatePath(head[entering]!, tail[entering]!, cut, false);
    this.cutValue[entering] = -cut;
    this.cutValue[leaving] = 0;
    this.treeEdge[leaving] = 0;
    for (const end of [tail[leaving]!, head[leaving]!]) {
      const adjacency = this.treeAdjacency[end]!;
      adjacency.splice(adjacency.indexOf(leaving), 1);
    }
    this.treeEdge[entering] = 1;
    this.treeAdjacency[tail[entering]!]!.push(entering);
    this.treeAdjacency[head[entering]!]!.push(entering);
    this.numberSubtree(lca, this.parentEdge[lca]!, this.low[lca]!);
  }

  /** Lowers the ranks of the subtree hanging from `root` (cut off by `cutEdge`) by delta. */
  private rerank(root: number, cutEdge: number, delta: number): void {
    const stack = [root];
    const via = [cutEdge];
    while (stack.length > 0) {
      const v = stack.pop()!;
      const from = via.pop()!;
      this.rank[v]! -= delta;
      for (const e of this.treeAdjacency[v]!) {
        if (e === from) continue;
        stack.push(this.other(e, v));
        via.push(e);
      }
    }
  }

  /** Adds the leaving edge's cut value along the tree path from v up to the subtree that holds w; returns that ancestor. */
  private updatePath(v: number, w: number, cut: number, forward: boolean): number {
    const { tail, head } = this.graph;
    while (!this.inSubtree(w, v)) {
      const e = this.parentEdge[v]!;
      const d = v === tail[e] ? forward : !forward;
      this.cutValue[e]! += d ? cut : -cut;
      v = this.lim[tail[e]!]! > this.lim[head[e]!]! ? tail[e]! : head[e]!;
    }
    return v;
  }
}

/**
 * Gansner's final step: a node with as many incoming as outgoing edges (by weight)
 * can sit on any layer between its neighbours at no cost; move it to the least
 * crowded one so that layers come out more even.
 */
function balanceLayers(graph: SimpleGraph, rank: Int32Array): void {
  const { n, tail, head, weight, minlen, incidentStart, incident } = graph;
  let maxRank = 0;
  for (let v = 0; v < n; v++) maxRank = Math.max(maxRank, rank[v]!);
  const population = new Int32Array(maxRank + 1);
  for (let v = 0; v < n; v++) population[rank[v]!]!++;
  for (let v = 0; v < n; v++) {
    let inWeight = 0;
    let outWeight = 0;
    let low = 0;
    let high = maxRank;
    for (let i = incidentStart[v]!; i < incidentStart[v + 1]!; i++) {
      const e = incident[i]!;
      if (tail[e] === v) {
        outWeight += weight[e]!;
        high = Math.min(high, rank[head[e]!]! - minlen[e]!);
      } else {
        inWeight += weight[e]!;
        low = Math.max(low, rank[tail[e]!]! + minlen[e]!);
      }
    }
    if (inWeight !== outWeight || inWeight === 0) continue;
    let best = rank[v]!;
    for (let r = low; r <= high; r++) if (population[r]! < population[best]!) best = r;
    population[rank[v]!]!--;
    population[best]!++;
    rank[v] = best;
  }
}

/**
 * The flow starts where the author starts: the first node in `order` with
 * edges out and none in (`from` → `to`, as written; `skip` leaves nodes out,
 * such as those in a container an edge leads into) moves up to the first
 * layer, or as near it as `floor` allows. A node with no edge in only
 * lengthens its own edges by moving up.
 */
export function liftFirstSource(
  rank: Int32Array,
  count: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  order: ArrayLike<number>,
  skip: (v: number) => boolean = () => false,
  /** The least rank other constraints on a node allow (a container's door above it), if any. */
  floor: (v: number) => number = () => -Infinity,
): void {
  const fedOrFeeds = new Uint8Array(count);
  for (let e = 0; e < from.length; e++) {
    if (from[e] === to[e]) continue;
    fedOrFeeds[to[e]!] = 2;
    if (fedOrFeeds[from[e]!] === 0) fedOrFeeds[from[e]!] = 1;
  }
  let first = -1;
  for (let v = 0; v < count; v++) if (fedOrFeeds[v] === 1 && !skip(v) && (first < 0 || order[v]! < order[first]!)) first = v;
  if (first < 0) return;
  let top = Infinity;
  for (let v = 0; v < count; v++) top = Math.min(top, rank[v]!);
  rank[first] = Math.min(rank[first]!, Math.max(top, floor(first)));
}
