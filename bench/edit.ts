/**
 * `npm run bench:edit`: on a 1000-element diagram, a 20-op patch and a 5-node
 * edit, p50/p99 over 200 runs each, beside a plain GET of the same diagram
 * measured in the same run (target: patch p50 under 3× the GET's).
 */
import os from 'node:os';
import { percentile, SERVICE_NODES, serviceSpec } from './service-spec.ts';
import { runBenchmark, seedBenchUser, startApiServer } from './processes.ts';

const RUNS = Number(process.env.RUNS ?? 200);



async function timed(runs: number, run: (i: number) => Promise<Response>, reset?: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (reset) await reset(i);
    const start = performance.now();
    const res = await run(i);
    const body = await res.text();
    times.push(performance.now() - start);
    if (!res.ok) throw new Error(`run ${i} answered ${res.status}: ${body.slice(0, 300)}`);
  }
  return times.sort((a, b) => a - b);
}

await runBenchmark('bench:edit', async (dataDir) => {
    const token = await seedBenchUser(dataDir, 'read,write');
    const { base } = await startApiServer(dataDir);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = (url: string, body: unknown) => fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });

    const created = await post('/api/v1/diagrams', { spec: serviceSpec() });
    const { id, elementCount } = (await created.json()) as { id: string; elementCount: number };
    console.log(`# Drawbridge edit benchmark — ${os.cpus().length} CPU(s), node ${process.version}, SQLite; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`# diagram of ${elementCount} elements; ${RUNS} sequential runs per operation`);

    const get = await timed(RUNS, () => fetch(`${base}/api/v1/diagrams/${id}`, { headers }));
    const patch = await timed(RUNS, (i) => {
      const sign = i % 2 === 0 ? 1 : -1;
      const ops = Array.from({ length: 20 }, (_, k) => {
        const target = `n${(i * 20 + k) % SERVICE_NODES}`;
        if (k % 4 === 0) return { op: 'restyle', id: target, strokeColor: k % 8 === 0 ? '#1971c2' : '#1e1e1e' };
        if (k % 4 === 1) return { op: 'update', id: target, set: { opacity: 90 + (i % 10) } };
        return { op: 'move', id: target, dx: 3 * sign, dy: 0 };
      });
      return post(`/api/v1/diagrams/${id}/patch`, { ops });
    });
    // Every 20 edits the diagram goes back to its 1000 elements (untimed), so it stays the size measured.
    const edit = await timed(
      RUNS,
      (i) =>
        post(`/api/v1/diagrams/${id}/edit`, {
          addNodes: Array.from({ length: 5 }, (_, k) => ({ id: `new-${i}-${k}`, label: `New ${k}` })),
          addEdges: Array.from({ length: 5 }, (_, k) => `n${(i * 5 + k) % SERVICE_NODES} -> new-${i}-${k}`),
        }),
      async (i) => {
        if (i % 20 === 0) await (await post(`/api/v1/diagrams/${id}/regenerate`, { spec: serviceSpec(), layout: 'fresh' })).text();
      },
    );

    const row = (label: string, t: number[]) =>
      console.log(`${label.padEnd(34)} p50 ${percentile(t, 0.5).toFixed(1).padStart(7)} ms   p99 ${percentile(t, 0.99).toFixed(1).padStart(7)} ms   ${(percentile(t, 0.5) / percentile(get, 0.5)).toFixed(2)}× GET`);
    console.log('');
    row('GET /diagrams/:id (baseline)', get);
    row('POST /patch, 20 ops', patch);
    row('POST /edit, 5 nodes + 5 edges', edit);
    console.log(`target: patch p50 < 3× GET p50: ${percentile(patch, 0.5) < 3 * percentile(get, 0.5) ? 'MET' : 'MISSED'}`);
});
