/**
 * Engine-only layout benchmark: our layered engine against elkjs's default layered
 * layout on the same three seeded graphs, in the same process.
 *
 *   node --import tsx bench/layout-engine.ts
 *
 * For each graph and engine: wall time (best of a few runs after a warm-up),
 * edge crossings, overlapping node boxes and routes that pass through a node box,
 * all measured by src/domain/layout/metrics.ts.
 */
import { pathToFileURL } from 'node:url';
import ElkBundled from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import { layoutGraph } from '../src/domain/layout/layout.ts';
import { measureLayout } from '../src/domain/layout/metrics.ts';
import { seededRandom } from '../src/domain/layout/random.ts';
import type { LayoutEdge, LayoutInput, LayoutNode, LayoutResult } from '../src/domain/layout/types.ts';

// elk.bundled.js is CommonJS whose module.exports is the constructor; its typings call that a default export.
const ELK = ElkBundled as unknown as typeof ElkBundled.default;


/** 50 steps of a process: mostly a chain, decisions that branch forward (labelled yes/no) and a few loops back. */
/** The benchmark graphs as specs: labels, decisions as diamonds, labelled branches. */
export function specOf(input: LayoutInput) {
  return {
    layout: { direction: input.direction },
    nodes: input.nodes.map((n, i) => ({ id: n.id, label: `Step ${i + 1}`, ...(n.width === 130 && n.height === 80 ? { shape: 'diamond', label: `OK ${i + 1}?` } : {}) })),
    edges: input.edges.map((e) => ({ from: e.from, to: e.to, ...(e.labelWidth ? { label: e.labelWidth > 40 ? 'retry' : 'yes' } : {}) })),
  };
}

export function flowchart(): LayoutInput {
  const random = seededRandom(50);
  const count = 50;
  const nodes: LayoutNode[] = [];
  const edges: LayoutEdge[] = [];
  const decision: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const isDecision = i > 0 && i < count - 2 && random() < 0.25;
    decision.push(isDecision);
    nodes.push(isDecision ? { id: `n${i}`, width: 130, height: 80 } : { id: `n${i}`, width: 140 + Math.floor(random() * 60), height: 60 });
  }
  const edge = (from: number, to: number, label?: string): void => {
    const labelled = label === undefined ? {} : { labelWidth: label.length * 9 + 8, labelHeight: 24 };
    edges.push({ id: `e${edges.length}`, from: `n${from}`, to: `n${to}`, ...labelled });
  };
  for (let i = 0; i + 1 < count; i++) {
    if (decision[i]) {
      edge(i, i + 1, 'yes');
      if (random() < 0.3 && i > 3) edge(i, i - 1 - Math.floor(random() * 3), 'retry');
      else edge(i, Math.min(count - 1, i + 2 + Math.floor(random() * 4)), 'no');
    } else {
      edge(i, i + 1);
    }
  }
  return { direction: 'TB', nodes, edges };
}

/** A random recursive tree: each node hangs under a uniformly chosen earlier node. */
export function tree(): LayoutInput {
  const random = seededRandom(200);
  const nodes: LayoutNode[] = [];
  const edges: LayoutEdge[] = [];
  for (let i = 0; i < 200; i++) {
    nodes.push({ id: `t${i}`, width: 80 + Math.floor(random() * 80), height: 40 + Math.floor(random() * 30) });
    if (i > 0) edges.push({ id: `e${i}`, from: `t${Math.floor(random() * i)}`, to: `t${i}` });
  }
  return { direction: 'TB', nodes, edges };
}

/** 1000 nodes in 25 hidden layers of 40, 2000 distinct edges spanning one to three layers, listed shuffled. */
export function layeredDag(): LayoutInput {
  const random = seededRandom(1000);
  const layers = 25;
  const perLayer = 40;
  const nodes: LayoutNode[] = [];
  for (let i = 0; i < layers * perLayer; i++) {
    nodes.push({ id: `d${i}`, width: 60 + Math.floor(random() * 80), height: 30 + Math.floor(random() * 30) });
  }
  const seen = new Set<string>();
  const edges: LayoutEdge[] = [];
  while (edges.length < 2000) {
    const layer = Math.floor(random() * (layers - 1));
    const roll = random();
    const span = Math.min(layers - 1 - layer, roll < 0.7 ? 1 : roll < 0.9 ? 2 : 3);
    const from = layer * perLayer + Math.floor(random() * perLayer);
    const to = (layer + span) * perLayer + Math.floor(random() * perLayer);
    const key = `${from}>${to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push({ id: `e${edges.length}`, from: `d${from}`, to: `d${to}` });
  }
  for (let i = nodes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [nodes[i], nodes[j]] = [nodes[j]!, nodes[i]!];
  }
  return { direction: 'TB', nodes, edges };
}

/** The layered DAG with 300 of its nodes spread over 6 containers (two nested in others): a big architecture-like drawing. */
export function clusteredDag(): LayoutInput {
  const dag = layeredDag();
  const random = seededRandom(2000);
  const containers: LayoutNode[] = Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, width: 120, height: 30, ...(i >= 4 ? { parent: `c${i - 4}` } : {}) }));
  const nodes = dag.nodes.map((node, i) => (i % 10 < 3 ? { ...node, parent: `c${Math.floor(random() * 6)}` } : node));
  return { direction: 'TB', nodes: [...containers, ...nodes], edges: dag.edges };
}

/** elkjs's layered algorithm over the whole hierarchy at once (containers as compound nodes), timed as a peer for clusteredDag. */
export async function layoutWithElkNested(input: LayoutInput): Promise<void> {
  const elk = new ELK();
  const byId = new Map<string, ElkNode>(input.nodes.map((n) => [n.id, { id: n.id, width: n.width, height: n.height, children: [] }]));
  const root: ElkNode = {
    id: 'root',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'DOWN', 'elk.hierarchyHandling': 'INCLUDE_CHILDREN' },
    children: [],
    edges: input.edges.map((e): ElkExtendedEdge => ({ id: e.id, sources: [e.from], targets: [e.to] })),
  };
  for (const node of input.nodes) (node.parent ? byId.get(node.parent)! : root).children!.push(byId.get(node.id)!);
  await elk.layout(root);
}

export async function layoutWithElk(input: LayoutInput): Promise<LayoutResult> {
  const elk = new ELK();
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'DOWN' },
    children: input.nodes.map((n) => ({ id: n.id, width: n.width, height: n.height })),
    edges: input.edges.map(
      (e): ElkExtendedEdge => ({
        id: e.id,
        sources: [e.from],
        targets: [e.to],
        ...(e.labelWidth ? { labels: [{ text: 'label', width: e.labelWidth, height: e.labelHeight ?? 0 }] } : {}),
      }),
    ),
  };
  const laidOut = await elk.layout(graph);
  const result: LayoutResult = { nodes: {}, edges: {} };
  for (const child of laidOut.children ?? []) {
    result.nodes[child.id] = { x: child.x ?? 0, y: child.y ?? 0, width: child.width ?? 0, height: child.height ?? 0 };
  }
  for (const edge of laidOut.edges ?? []) {
    const section = edge.sections?.[0];
    if (!section) continue;
    const points: Array<[number, number]> = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => [p.x, p.y]);
    result.edges[edge.id] = { points };
  }
  return result;
}

export async function timeBest<T>(runs: number, run: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  let value = await run();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    value = await run();
    best = Math.min(best, performance.now() - start);
  }
  return { ms: best, value };
}

function boundsOf(result: LayoutResult): string {
  let maxX = 0;
  let maxY = 0;
  for (const box of Object.values(result.nodes)) {
    maxX = Math.max(maxX, box.x + box.width);
    maxY = Math.max(maxY, box.y + box.height);
  }
  return `${Math.round(maxX)}x${Math.round(maxY)}`;
}

async function main(): Promise<void> {
  const graphs: Array<[string, LayoutInput, number]> = [
    ['flowchart-50', flowchart(), 20],
    ['tree-200', tree(), 10],
    ['dag-1000', layeredDag(), 3],
  ];

  console.log('graph          engine   time(ms)  crossings  overlaps  through-boxes  size');
  for (const [name, input, runs] of graphs) {
    const ours = await timeBest(runs, () => layoutGraph(input));
    const elk = await timeBest(Math.min(runs, 3), () => layoutWithElk(input));
    for (const [engine, { ms, value }] of [['ours', ours], ['elkjs', elk]] as const) {
      const quality = measureLayout(input, value);
      console.log(
        `${name.padEnd(14)} ${engine.padEnd(8)} ${ms.toFixed(1).padStart(8)}  ${String(quality.crossings).padStart(9)}  ${String(quality.nodeOverlaps).padStart(8)}  ${String(quality.routesThroughBoxes).padStart(13)}  ${boundsOf(value)}`,
      );
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
