/** The diagram the edit and history benchmarks work on: 300 labelled nodes and 400 edges, 1,000 elements. */
export const SERVICE_NODES = 300;
const SERVICE_EDGES = 400;

export function serviceSpec() {
  const nodes = Array.from({ length: SERVICE_NODES }, (_, i) => ({ id: `n${i}`, label: `Service ${i}` }));
  const edges = new Set<string>();
  for (let k = 0; edges.size < SERVICE_EDGES; k++) {
    const from = k % SERVICE_NODES;
    const to = (from + 1 + ((k * 37 + Math.floor(k / SERVICE_NODES) * 101) % (SERVICE_NODES - 1))) % SERVICE_NODES;
    edges.add(`n${from} -> n${to}`);
  }
  return { nodes, edges: [...edges] };
}

/** The value at fraction `p` of sorted timings. */
/** A small deterministic PRNG (mulberry32), so every run of a benchmark sends the same work. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
