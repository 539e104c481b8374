/**
 * `npm run bench:layout`: creates three specs through the API (a 50-node
 * flowchart, a 200-node tree, a 1000-node/2000-edge layered DAG) and prints,
 * beside elkjs's default layered layout of the same graph (same node sizes)
 * and Graphviz dot's, measured in the same run: time, edge crossings, overlapping shapes and
 * clipped labels. Then the latency of a stream of small requests while the
 * 1000-node layout runs, against the same stream on an idle server.
 */
import os from 'node:os';
import { lintScene } from '../src/domain/lint/lint.ts';
import { measureLayout } from '../src/domain/layout/metrics.ts';
import type { LayoutInput } from '../src/domain/layout/types.ts';
import { flowchart, layeredDag, layoutWithElk, specOf, tree } from './layout-engine.ts';
import { dotLayout, ensureDot } from './quality/dot-layout.ts';
import { runBenchmark, seedBenchUser, startApiServer } from './processes.ts';
import { asLayout } from './scene-as-layout.ts';

type Element = Record<string, any>;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** Latencies of back-to-back small requests until `until` settles. */
async function probe(url: string, headers: Record<string, string>, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    latencies.push(performance.now() - start);
  }
  return latencies.sort((a, b) => a - b);
}

await runBenchmark('bench:layout', async (dataDir) => {
    const token = await seedBenchUser(dataDir, 'read,write,publish,delete');
    const { base } = await startApiServer(dataDir);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const create = async (spec: unknown) => {
      const start = performance.now();
      const res = await fetch(`${base}/api/v1/diagrams`, { method: 'POST', headers, body: JSON.stringify({ spec }) });
      const body = (await res.json()) as { id: string };
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - start, id: body.id };
    };

    console.log(`# Drawbridge layout benchmark — ${os.cpus().length} CPU(s), node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    ensureDot();
    console.log('# ours: POST /api/v1/diagrams with the spec, end to end (median of runs); elkjs: its default layered layout of the same boxes, in-process;');
    console.log('# dot: Graphviz dot -Tjson on the same boxes, the whole process. Crossings: where the drawn routes cross (bench/quality/dot-layout.ts reads dot\'s splines)');
    console.log('');
    console.log('graph          engine    time ms  crossings  overlaps  clipped  through-boxes');
    const graphs: Array<[string, LayoutInput, number]> = [
      ['flowchart-50', flowchart(), 11],
      ['tree-200', tree(), 5],
      ['dag-1000', layeredDag(), 3],
    ];
    for (const [name, graph, runs] of graphs) {
      const spec = specOf(graph);
      await create(spec); // warm the worker
      const times: number[] = [];
      let id = '';
      for (let i = 0; i < runs; i++) {
        const made = await create(spec);
        times.push(made.ms);
        id = made.id;
      }
      times.sort((a, b) => a - b);
      const read = (await (await fetch(`${base}/api/v1/diagrams/${id}`, { headers })).json()) as { scene: { elements: Element[] } };
      const elements = read.scene.elements;
      const lint = lintScene(elements);
      const ours = asLayout(elements);
      const oursQuality = measureLayout(ours.input, ours.result);
      const elkStart = performance.now();
      const elkResult = await layoutWithElk({ ...ours.input, direction: graph.direction });
      const elkMs = performance.now() - elkStart;
      const elkQuality = measureLayout(ours.input, elkResult);
      const row = (engine: string, ms: number, crossings: number, overlaps: number, clipped: string, through: number) =>
        console.log(`${name.padEnd(14)} ${engine.padEnd(8)} ${ms.toFixed(0).padStart(8)}  ${String(crossings).padStart(9)}  ${String(overlaps).padStart(8)}  ${clipped.padStart(7)}  ${String(through).padStart(13)}`);
      row('ours', percentile(times, 0.5), oursQuality.crossings, lint.filter((i) => i.kind === 'overlap').length, String(lint.filter((i) => i.kind === 'clipped_label').length), oursQuality.routesThroughBoxes);
      row('elkjs', elkMs, elkQuality.crossings, elkQuality.nodeOverlaps, 'n/a', elkQuality.routesThroughBoxes);
      const dotStart = performance.now();
      const dotResult = dotLayout({ ...ours.input, direction: graph.direction });
      const dotMs = performance.now() - dotStart;
      const dotQuality = measureLayout(ours.input, dotResult);
      row('dot', dotMs, dotQuality.crossings, dotQuality.nodeOverlaps, 'n/a', dotQuality.routesThroughBoxes);
    }

    console.log('');
    const small = `${base}/api/v1/me`;
    const idle = await probe(small, headers, new Promise((r) => setTimeout(r, 2000)));
    const busy = await probe(small, headers, create(specOf(layeredDag())));
    const line = (label: string, l: number[]) =>
      console.log(`${label.padEnd(44)} n=${String(l.length).padStart(5)}  p50 ${percentile(l, 0.5).toFixed(1)} ms  p99 ${percentile(l, 0.99).toFixed(1)} ms  max ${l.at(-1)!.toFixed(1)} ms`);
    line('GET /me, idle server', idle);
    line('GET /me, while a 1000-node spec is laid out', busy);
    console.log('targets: 1000-node create < 2000 ms, under a quarter of elkjs, crossings <= dot; 50-node < 50 ms, 0 through boxes, crossings <= dot; 0 overlaps, 0 clipped; p99 lag < 20 ms');
});
