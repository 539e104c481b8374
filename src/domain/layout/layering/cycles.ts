/**
 * Cycle breaking. For the drawing: a depth-first search in the author's order
 * (backEdgesInInputOrder), as dot does, so the main path runs with the flow and
 * only the edge that closes a loop points back. For other orderings (tracks in
 * a channel): the greedy heuristic of Eades, Lin and Smyth. Nodes are taken
 * off the graph in an order that puts sinks last, sources first and otherwise the
 * node with the most surplus of outgoing over incoming edges; every edge that
 * points backwards in that order is reversed. Ties go to the earlier node in the
 * input, so a spec's natural reading order survives.
 */
import { NumberHeap } from '../heap.ts';

/** For each edge, whether it must be reversed to make the graph acyclic. Self-loops are never reversed. */
export function findReversedEdges(nodeCount: number, from: ArrayLike<number>, to: ArrayLike<number>): Uint8Array {
  const n = nodeCount;
  const m = from.length;
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    if (from[e] === to[e]) continue;
    outStart[from[e]! + 1]!++;
    inStart[to[e]! + 1]!++;
  }
  for (let v = 0; v < n; v++) {
    outStart[v + 1]! += outStart[v]!;
    inStart[v + 1]! += inStart[v]!;
  }
  const outTarget = new Int32Array(outStart[n]!);
  const inSource = new Int32Array(inStart[n]!);
  const outFill = outStart.slice(0, n);
  const inFill = inStart.slice(0, n);
  for (let e = 0; e < m; e++) {
    const u = from[e]!;
    const v = to[e]!;
    if (u === v) continue;
    outTarget[outFill[u]!++] = v;
    inSource[inFill[v]!++] = u;
  }
  const outDegree = new Int32Array(n);
  const inDegree = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    outDegree[v] = outStart[v + 1]! - outStart[v]!;
    inDegree[v] = inStart[v + 1]! - inStart[v]!;
  }

  const removed = new Uint8Array(n);
  const sinks = new NumberHeap();
  const sources = new NumberHeap();
  const bySurplus = new NumberHeap();
  const offset = m + 1;
  const surplusKey = (v: number): number => (offset - (outDegree[v]! - inDegree[v]!)) * n + v;
  const classify = (v: number): void => {
    if (outDegree[v] === 0) sinks.push(v);
    else if (inDegree[v] === 0) sources.push(v);
    else bySurplus.push(surplusKey(v));
  };
  for (let v = 0; v < n; v++) classify(v);

  const rank = new Int32Array(n);
  let head = 0;
  let tail = n - 1;
  const remove = (v: number, atHead: boolean): void => {
    removed[v] = 1;
    rank[v] = atHead ? head++ : tail--;
    for (let i = outStart[v]!; i < outStart[v + 1]!; i++) {
      const w = outTarget[i]!;
      if (removed[w]) continue;
      inDegree[w]!--;
      classify(w);
    }
    for (let i = inStart[v]!; i < inStart[v + 1]!; i++) {
      const u = inSource[i]!;
      if (removed[u]) continue;
      outDegree[u]!--;
      classify(u);
    }
  };

  let remaining = n;
  while (remaining > 0) {
    let progressed = true;
    while (progressed) {
      progressed = false;
      while (sinks.size > 0) {
        const v = sinks.pop()!;
        if (removed[v] || outDegree[v] !== 0) continue;
        remove(v, false);
        remaining--;
        progressed = true;
      }
      while (sources.size > 0) {
        const v = sources.pop()!;
        if (removed[v] || inDegree[v] !== 0 || outDegree[v] === 0) continue;
        remove(v, true);
        remaining--;
        progressed = true;
      }
    }
    while (remaining > 0 && bySurplus.size > 0) {
      const key = bySurplus.pop()!;
      const v = key % n;
      if (removed[v] || surplusKey(v) !== key) continue;
      remove(v, true);
      remaining--;
      break;
    }
  }

  const reversed = new Uint8Array(m);
  for (let e = 0; e < m; e++) reversed[e] = rank[from[e]!]! > rank[to[e]!]! ? 1 : 0;
  return reversed;
}

/**
 * The edges to reverse so that the graph becomes acyclic while the author's
 * flow survives: a depth-first search from the sources (nodes without incoming
 * edges) in input order, then from any node not yet reached, following edges in
 * input order; an edge that leads back to a node still on the search path
 * closes a cycle and is the one reversed. Nodes and edges are indexed in input
 * order. Self-loops are never reversed.
 */
export function backEdgesInInputOrder(nodeCount: number, from: ArrayLike<number>, to: ArrayLike<number>): Uint8Array {
  const n = nodeCount;
  const m = from.length;
  const outStart = new Int32Array(n + 1);
  const hasIncoming = new Uint8Array(n);
  for (let e = 0; e < m; e++) {
    if (from[e] === to[e]) continue;
    outStart[from[e]! + 1]!++;
    hasIncoming[to[e]!] = 1;
  }
  for (let v = 0; v < n; v++) outStart[v + 1]! += outStart[v]!;
  const outEdge = new Int32Array(outStart[n]!);
  const fill = outStart.slice(0, n);
  for (let e = 0; e < m; e++) if (from[e] !== to[e]) outEdge[fill[from[e]!]!++] = e;

  const reversed = new Uint8Array(m);
  // 0 unvisited, 1 on the search path, 2 finished.
  const state = new Uint8Array(n);
  const next = outStart.slice(0, n);
  const stack = new Int32Array(n);
  const search = (root: number): void => {
    let depth = 0;
    stack[depth++] = root;
    state[root] = 1;
    while (depth > 0) {
      const v = stack[depth - 1]!;
      if (next[v]! === outStart[v + 1]!) {
        state[v] = 2;
        depth--;
        continue;
      }
      const e = outEdge[next[v]!++]!;
      const w = to[e]!;
      if (state[w] === 1) reversed[e] = 1;
      else if (state[w] === 0) {
        state[w] = 1;
        stack[depth++] = w;
      }
    }
  };
  for (let v = 0; v < n; v++) if (!hasIncoming[v] && state[v] === 0) search(v);
  for (let v = 0; v < n; v++) if (state[v] === 0) search(v);
  return reversed;
}
