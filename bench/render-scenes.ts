/** The scenes the render benchmarks draw (bench/render.ts, bench/faithful-canvas.ts), as specs. */

/** A binary tree of `nodes` (a typical small diagram, wider than tall), or a dense graph when `edges` says more. */
export function spec(nodes: number, edges: number, variant: number) {
  const list = Array.from({ length: nodes }, (_, i) => ({ id: `n${i}`, label: `Service ${i}.${variant}` }));
  if (edges === nodes - 1) return { nodes: list, edges: list.slice(1).map((_, i) => `n${Math.floor(i / 2)} -> n${i + 1}`) };
  const set = new Set<string>();
  for (let k = 0; set.size < edges; k++) {
    const from = k % nodes;
    const to = (from + 1 + ((k * 37 + Math.floor(k / nodes) * 101) % (nodes - 1))) % nodes;
    set.add(`n${from} -> n${to}`);
  }
  return { nodes: list, edges: [...set] };
}

/** About 50 and 1000 elements: a node is a shape and its label, an edge an arrow. */
export const SIZES = { '50 elements': [17, 16], '1000 elements': [300, 400] } as const;
