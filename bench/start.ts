/**
 * `npm run bench:start`: how fast the built service (`node dist/main.js`, what
 * `npm start` and the container run) starts and how much memory it holds.
 *
 * Beside a bare Fastify hello-world started the same way (bench/hello-server.ts),
 * each of TRIALS (default 3) trials measures, from the spawn:
 * - until `GET /readyz` answers 200;
 * - until the first faithful PNG of a stored 50-element diagram is back (asked
 *   for the moment the service is ready);
 * then the resident memory of the server and of each worker process it
 * started: at once, and again once the workers have been idle past
 * WORKER_IDLE_SECONDS (set to IDLE_SECONDS, default 5, for the run: the
 * footprint after idling does not depend on how long idling takes).
 * Last, on one more start: faithful PNG and SVG renders of the 5,000-element
 * diagram of bench/render-scenes.ts (1,000 nodes, 1,500 labelled edges), and the peak resident memory
 * (VmHWM) each worker reached. Prints medians over the trials, and the targets.
 */
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { freePort, runBenchmark, seedBenchUser, startApiServer, startChild, stopChild, waitForHttp } from './processes.ts';
import { SIZES, spec } from './render-scenes.ts';

const TRIALS = Number(process.env.TRIALS ?? 3);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 5);
const TARGETS = { readyMs: 1000, firstPngMs: 2500, idleMb: 400, workerPeakMb: 350 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The kind of a process of the service, from its command line. */
function kindOf(pid: number): string {
  const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  for (const kind of ['faithful-worker', 'fast-worker', 'scene-worker']) if (cmdline.includes(kind)) return kind;
  if (cmdline.includes('sqlite-thread')) return 'sqlite-thread';
  return 'other';
}

/** `pid` and every process below it, with what it is and its resident memory now and at its peak (MB). */
function processTree(pid: number): Array<{ pid: number; kind: string; rssMb: number; peakMb: number }> {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree.flatMap((each) => {
    try {
      const status = fs.readFileSync(`/proc/${each}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      return [{ pid: each, kind: each === pid ? 'server' : kindOf(each), rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }];
    } catch {
      return [];
    }
  });
}

const summary = (tree: ReturnType<typeof processTree>, field: 'rssMb' | 'peakMb') => {
  const byKind = new Map<string, number[]>();
  for (const p of tree) byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), p[field]]);
  return [...byKind].map(([kind, values]) => `${kind} ${values.map((v) => v.toFixed(0)).join('+')}`).join(', ');
};

await runBenchmark('bench:start', async (dataDir) => {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
  const token = await seedBenchUser(dataDir, 'read,write');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // The diagrams, made by a server started once for that.
  let { child, base } = await startApiServer(dataDir);
  const create = async (body: unknown) => {
    const res = await fetch(`${base}/api/v1/diagrams`, { method: 'POST', headers, body: JSON.stringify(body) });
    const created = (await res.json()) as { id: string; elementCount: number };
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(created)}`);
    return created;
  };
  const small = await create({ title: 'small', spec: spec(17, 16, 1) });
  const [nodes, edges, labelled] = SIZES['5000 elements'];
  const large = await create({ title: 'large', spec: spec(nodes, edges, 1, labelled) });
  await stopChild(child);
  console.log(`# bench:start — node ${process.version}; the service is dist/main.js on SQLite; diagrams of ${small.elementCount} and ${large.elementCount} elements`);

  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', WORKER_IDLE_SECONDS: String(IDLE_SECONDS) };
  base = `http://127.0.0.1:${port}`;
  const started = () => {
    const at = performance.now();
    return { at, child: startChild('service', ['dist/main.js'], env) };
  };
  const bare: number[] = [];
  const ready: number[] = [];
  const firstPng: number[] = [];
  const busy: number[] = [];
  const idle: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const helloPort = await freePort();
    const helloAt = performance.now();
    const hello = startChild('hello-world', ['bench/hello-server.ts'], { ...process.env, PORT: String(helloPort) });
    await waitForHttp(hello, `http://127.0.0.1:${helloPort}/`, 30_000);
    bare.push(performance.now() - helloAt);
    await stopChild(hello);

    const service = started();
    await waitForHttp(service.child, `${base}/readyz`, 30_000);
    ready.push(performance.now() - service.at);
    const res = await fetch(`${base}/api/v1/diagrams/${small.id}/render?format=png`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200 || res.headers.get('x-render-quality') !== 'faithful') throw new Error(`the first PNG answered ${res.status}, quality ${res.headers.get('x-render-quality')}`);
    firstPng.push(performance.now() - service.at);
    const after = processTree(service.child.proc.pid!);
    busy.push(after.reduce((sum, p) => sum + p.rssMb, 0));
    await new Promise((resolve) => setTimeout(resolve, (IDLE_SECONDS + 3) * 1000));
    const tree = processTree(service.child.proc.pid!);
    idle.push(tree.reduce((sum, p) => sum + p.rssMb, 0));
    console.log(
      `trial ${trial + 1}: bare Fastify listening ${bare.at(-1)!.toFixed(0)} ms; ready ${ready.at(-1)!.toFixed(0)} ms; first faithful PNG ${firstPng.at(-1)!.toFixed(0)} ms; ` +
        `then ${busy.at(-1)!.toFixed(0)} MB (${summary(after, 'rssMb')}); idle ${idle.at(-1)!.toFixed(0)} MB (${summary(tree, 'rssMb')})`,
    );
    // Not the cache: the next trial renders again.
    fs.rmSync(`${dataDir}/render-cache`, { recursive: true, force: true });
    await stopChild(service.child);
  }

  const service = started();
  await waitForHttp(service.child, `${base}/readyz`, 30_000);
  for (const format of ['png', 'svg']) {
    const at = performance.now();
    const res = await fetch(`${base}/api/v1/diagrams/${large.id}/render?format=${format}`, { headers });
    await res.arrayBuffer();
    console.log(`${large.elementCount} elements, faithful ${format}: ${res.status} ${res.headers.get('x-render-quality')} in ${(performance.now() - at).toFixed(0)} ms`);
  }
  const peaks = processTree(service.child.proc.pid!);
  const workerPeak = Math.max(...peaks.filter((p) => p.kind.endsWith('worker')).map((p) => p.peakMb));
  console.log(`peak resident memory after them: ${summary(peaks, 'peakMb')} (MB)`);
  await stopChild(service.child);

  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('');
  console.log(`ready:               ${median(ready).toFixed(0)} ms (bare Fastify listening: ${median(bare).toFixed(0)} ms, ${(median(ready) / median(bare)).toFixed(2)}×)   target < ${TARGETS.readyMs} ms: ${met(median(ready) < TARGETS.readyMs)}`);
  console.log(`first faithful PNG:  ${median(firstPng).toFixed(0)} ms from spawn, ${(median(firstPng) - median(ready)).toFixed(0)} ms after ready   target < ${TARGETS.firstPngMs} ms: ${met(median(firstPng) < TARGETS.firstPngMs)}`);
  console.log(`after the first PNG: ${median(busy).toFixed(0)} MB (the server and the workers it started)`);
  console.log(`idle footprint:      ${median(idle).toFixed(0)} MB once idle past WORKER_IDLE_SECONDS (sum of resident memory; shared pages counted per process)   target ≤ ${TARGETS.idleMb} MB: ${met(median(idle) <= TARGETS.idleMb)}`);
  console.log(`largest worker peak: ${workerPeak.toFixed(0)} MB on the ${large.elementCount}-element renders   target ≤ ${TARGETS.workerPeakMb} MB: ${met(workerPeak <= TARGETS.workerPeakMb)}`);
});
