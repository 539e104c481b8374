/** The scenes the render benchmarks draw (bench/render.ts, bench/faithful-canvas.ts, bench/start.ts), as specs. */

/**
 * A binary tree of `nodes` (a typical small diagram, wider than tall), or a dense graph when `edges` says
 * more; `labelled`: every edge carries a label (an arrow and its text, two elements).
 */
export function spec(nodes: number, edges: number, variant: number, labelled = false) {
  const list = Array.from({ length: nodes }, (_, i) => ({ id: `n${i}`, label: `Service ${i}.${variant}` }));
  const label = (k: number) => (labelled ? { label: `call ${k}` } : {});
  if (edges === nodes - 1) return { nodes: list, edges: list.slice(1).map((_, i) => ({ from: `n${Math.floor(i / 2)}`, to: `n${i + 1}`, ...label(i) })) };
  const set = new Set<string>();
  for (let k = 0; set.size < edges; k++) {
    const from = k % nodes;
    const to = (from + 1 + ((k * 37 + Math.floor(k / nodes) * 101) % (nodes - 1))) % nodes;
    set.add(`n${from} -> n${to}`);
  }
  return { nodes: list, edges: [...set].map((edge, k) => ({ from: edge.split(' -> ')[0]!, to: edge.split(' -> ')[1]!, ...label(k) })) };
}

/** About 50, 1,000 and 5,000 elements: a node is a shape and its label, an edge an arrow (and its label, when labelled). */
export const SIZES = {
  '50 elements': [17, 16, false],
  '1000 elements': [300, 400, false],
  '5000 elements': [1000, 1500, true],
} as const;
