/**
 * `npm run bench:neighbours`: how long one caller waits while another sends the
 * worst case each heavy endpoint can be given. Not a test: it prints figures
 * and exits 0 whatever they are; it only fails on setup errors.
 *
 * Starts the real server (src/main.ts) on a throwaway SQLite DATA_DIR with two
 * users. The neighbour sends GET /api/v1/me one request after another and
 * records each latency: first with the server idle, then while the other user
 * keeps sending, for DURATION seconds each:
 *
 * - lint of 5,000 rectangles piled on one spot;
 * - a 500-op patch moving a hub bound to 1,998 arrows (alternately there and back);
 * - 20 concurrent faithful PNG renders of scenes never rendered before;
 * - renders of a label with 150,000 line breaks;
 * - the history diff of two revisions of 5,000 elements, every one changed, the newer a delta on a snapshot;
 * - validation of a 1,000-node spec (POST /specs/validate);
 * - creating a diagram from a 1,000-node spec with one mistake (refused, 422);
 * - a 500-op patch moving the hub only, which applies (and writes a 3,000-element scene).
 *
 * Prints p50/p99 of the neighbour's requests beside the idle p99 of the same
 * run, as a ratio, what the heavy requests answered, and the server's peak
 * RSS (and, beside it, with its worker processes). Targets: p99 under 20 ms and under 3× idle in every case; RSS under
 * 400 MB throughout. Environment: DURATION (s, default 10).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdminCommand } from '../src/admin/commands.ts';
import { openStore } from '../src/store/open.ts';
import { freePort, startChild, stopChild, waitForHttp } from './processes.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const TARGET_P99_MS = 20;
const TARGET_RATIO = 3;
const TARGET_RSS_MB = 400;

async function seed(dataDir: string): Promise<{ heavy: string; neighbour: string }> {
  const store = await openStore({ dataDir });
  try {
    const tokens: string[] = [];
    for (const name of ['heavy', 'neighbour']) {
      const email = `${name}@bench.example`;
      await runAdminCommand(['user', 'create', '--email', email, '--quota', '100000'], store);
      tokens.push(((await runAdminCommand(['token', 'mint', '--email', email, '--caps', 'read,write', '--name', 'bench'], store)) as { token: string }).token);
    }
    return { heavy: tokens[0]!, neighbour: tokens[1]! };
  } finally {
    await store.close();
  }
}

/** Resident memory of a process, MB (0 once it is gone). */
function rssOf(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The process's children, grandchildren and so on. */
function descendants(pid: number): number[] {
  let direct: number[] = [];
  try {
    direct = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // gone
  }
  return direct.flatMap((child) => [child, ...descendants(child)]);
}

/**
 * The server's resident memory, sampled: the server process itself (the
 * target), and with its worker processes (scene and render workers) beside it.
 */
function rssSampler(pid: number): { stop: () => number; peakSince: () => number; peakWithWorkers: () => number } {
  let peak = 0;
  let recent = 0;
  let withWorkers = 0;
  const sample = () => {
    const now = rssOf(pid);
    peak = Math.max(peak, now);
    recent = Math.max(recent, now);
    withWorkers = Math.max(withWorkers, now + descendants(pid).reduce((sum, child) => sum + rssOf(child), 0));
  };
  const timer = setInterval(sample, 100);
  return {
    peakWithWorkers: () => withWorkers,
    /** The peak since the last call. */
    peakSince: () => {
      sample();
      const value = recent;
      recent = 0;
      return value;
    },
    stop: () => {
      sample();
      clearInterval(timer);
      return peak;
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-neighbours-'));
  try {
    console.log(`# Noisy neighbours — ${os.cpus().length} CPU(s), node ${process.version}, SQLite in ${dataDir}, ${DURATION} s per case`);
    console.log(`# load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const tokens = await seed(dataDir);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_READ_PER_MIN: '1000000000', RATE_LIMIT_WRITE_PER_MIN: '1000000000' };
    delete env.DATABASE_URL;
    delete env.PUBLIC_URL;
    const server = startChild('server', ['--import', 'tsx', 'src/main.ts'], env);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(server, `${base}/healthz`);
    const rss = rssSampler(server.proc.pid!);

    const call = async (token: string, method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = Buffer.from(await res.arrayBuffer());
      return { status: res.status, text };
    };
    const create = async (body: unknown) => {
      const res = await call(tokens.heavy, 'POST', '/api/v1/diagrams', body);
      if (res.status !== 201) throw new Error(`creating a diagram: ${res.status} ${res.text.toString().slice(0, 300)}`);
      return JSON.parse(res.text.toString()).id as string;
    };

    process.stdout.write('# preparing the worst cases ... ');
    const pile = await create({ scene: { elements: Array.from({ length: 5000 }, (_, i) => ({ id: `r${i}`, type: 'rectangle', x: i % 50, y: Math.floor(i / 50), width: 100, height: 100 })) } });
    const leaves = Array.from({ length: 999 }, (_, i) => `n${i}`);
    const hub = await create({ spec: { nodes: [{ id: 'hub' }, ...leaves.map((id) => ({ id }))], edges: leaves.flatMap((id) => [`hub -> ${id}`, `${id} -> hub`]) } });
    const lines = await create({ scene: { elements: [{ id: 't', type: 'text', x: 0, y: 0, width: 200, height: 25, text: 'line\n'.repeat(150_000), fontSize: 20, fontFamily: 5 }] } });
    let fresh = 0;
    const freshScene = () => {
      fresh++;
      return { scene: { elements: Array.from({ length: 20 }, (_, i) => ({ id: `b${i}`, type: 'rectangle', x: (i % 5) * 200 + fresh, y: Math.floor(i / 5) * 120, width: 160, height: 80 })) } };
    };

    // Off the event loop: a history diff of two 5,000-element revisions, and a 1,000-node spec's validation.
    const piled = (shift: number) => Array.from({ length: 5000 }, (_, i) => ({ id: `d${i}`, type: 'rectangle', x: (i % 50) * 120 + shift, y: Math.floor(i / 50) * 120, width: 100, height: 100 }));
    const revised = await create({ scene: { elements: piled(0) } });
    // Every element moved (a snapshot), then one moved again (a delta on it): the diff reads both kinds.
    const regenerated = await call(tokens.heavy, 'POST', `/api/v1/diagrams/${revised}/regenerate`, { scene: { elements: piled(7) } });
    const patched = await call(tokens.heavy, 'POST', `/api/v1/diagrams/${revised}/patch`, { ops: [{ op: 'move', id: 'd0', dx: 1, dy: 0 }] });
    if (regenerated.status !== 200 || patched.status !== 200) throw new Error(`revising a diagram: ${regenerated.status} ${patched.status} ${patched.text.toString().slice(0, 300)}`);
    const revisions = (JSON.parse((await call(tokens.heavy, 'GET', `/api/v1/diagrams/${revised}/revisions`)).text.toString()) as { items: Array<{ rev: string }> }).items;
    const [newestRevision, firstRevision] = [revisions[0]!.rev, revisions.at(-1)!.rev];
    const thousandNodes = Array.from({ length: 1000 }, (_, i) => ({ id: `v${i}`, label: `Service ${i}`, shape: i % 3 ? 'rectangle' : 'ellipse' }));
    const bigSpec = { nodes: thousandNodes, edges: thousandNodes.slice(1).map((node, i) => `v${Math.floor(i / 3)} -> ${node.id}`) };
    const flawedSpec = { ...bigSpec, nodes: [...thousandNodes.slice(0, -1), { id: 'v999', shape: 'hexagon' }] };
    console.log('done');

    const cases: Array<{ name: string; heavy: (() => Promise<number[]>) | null }> = [
      { name: 'idle', heavy: null },
      { name: 'lint of 5,000 piled shapes', heavy: async () => [(await call(tokens.heavy, 'GET', `/api/v1/diagrams/${pile}/lint`)).status] },
      {
        name: '500-op patch of a 1,998-arrow hub',
        heavy: (() => {
          let sign = 1;
          return async () => {
            sign = -sign;
            const ops = Array.from({ length: 500 }, (_, i) => ({ op: 'move', id: i % 2 ? 'hub' : `n${i}`, dx: sign, dy: 0 }));
            return [(await call(tokens.heavy, 'POST', `/api/v1/diagrams/${hub}/patch`, { ops })).status];
          };
        })(),
      },
      {
        name: '20 concurrent faithful renders',
        heavy: async () => {
          const ids = await Promise.all(Array.from({ length: 20 }, () => create(freshScene())));
          return Promise.all(ids.map(async (id) => (await call(tokens.heavy, 'GET', `/api/v1/diagrams/${id}/render?format=png`)).status));
        },
      },
      { name: 'render of a 150,000-line label', heavy: async () => [(await call(tokens.heavy, 'GET', `/api/v1/diagrams/${lines}/render?format=svg`)).status] },
      // Off the event loop: history diff and spec validation.
      { name: 'history diff of two 5,000-element revisions', heavy: async () => [(await call(tokens.heavy, 'GET', `/api/v1/diagrams/${revised}/revisions/${newestRevision}/diff?against=${firstRevision}`)).status] },
      { name: 'validation of a 1,000-node spec', heavy: async () => [(await call(tokens.heavy, 'POST', '/api/v1/specs/validate', { spec: bigSpec })).status] },
      { name: 'refused create from a 1,000-node spec', heavy: async () => [(await call(tokens.heavy, 'POST', '/api/v1/diagrams', { spec: flawedSpec })).status] },
      {
        name: '500-op patch of the hub alone (applies)',
        heavy: (() => {
          let sign = 1;
          return async () => {
            sign = -sign;
            const ops = Array.from({ length: 500 }, () => ({ op: 'move', id: 'hub', dx: sign, dy: 0 }));
            return [(await call(tokens.heavy, 'POST', `/api/v1/diagrams/${hub}/patch`, { ops })).status];
          };
        })(),
      },
    ];

    const rows: Array<{ name: string; p50: number; p99: number; count: number; heavy: string; rss: number }> = [];
    rss.peakSince();
    for (const { name, heavy } of cases) {
      process.stdout.write(`  ${name}: `);
      const statuses = new Map<number, number>();
      let running = heavy !== null;
      const load = (async () => {
        while (running && heavy) for (const status of await heavy()) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      })();
      // Let the heavy work start before measuring.
      if (heavy) await new Promise((resolve) => setTimeout(resolve, 200));
      const latencies: number[] = [];
      const until = performance.now() + DURATION * 1000;
      while (performance.now() < until) {
        const start = performance.now();
        const res = await call(tokens.neighbour, 'GET', '/api/v1/me');
        if (res.status !== 200) throw new Error(`GET /me answered ${res.status}`);
        latencies.push(performance.now() - start);
      }
      running = false;
      await load;
      latencies.sort((a, b) => a - b);
      const heavyText = [...statuses].map(([status, count]) => `${status}×${count}`).join(' ') || '-';
      rows.push({ name, p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: latencies.length, heavy: heavyText, rss: rss.peakSince() });
      console.log(`${latencies.length} requests, p99 ${percentile(latencies, 99).toFixed(1)} ms; heavy requests answered ${heavyText}`);
    }
    const peak = rss.stop();
    const peakWithWorkers = rss.peakWithWorkers();
    await stopChild(server);

    const idle = rows[0]!.p99;
    console.log('');
    console.log('| case | GET /me p50 ms | p99 ms | p99 / idle p99 | requests | heavy requests answered | server peak RSS MB |');
    console.log('|---|---:|---:|---:|---:|---|---:|');
    for (const row of rows) console.log(`| ${row.name} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${(row.p99 / idle).toFixed(2)} | ${row.count} | ${row.heavy} | ${row.rss.toFixed(0)} |`);
    console.log('');
    console.log(`server peak RSS: ${peak.toFixed(0)} MB (target under ${TARGET_RSS_MB} MB): ${peak < TARGET_RSS_MB ? 'met' : 'NOT met'}`);
    console.log(`  (not a target) with its scene and render worker processes: ${peakWithWorkers.toFixed(0)} MB at most`);
    for (const row of rows.slice(1)) {
      const met = row.p99 < TARGET_P99_MS && row.p99 < TARGET_RATIO * idle;
      console.log(`- ${row.name}: p99 ${row.p99.toFixed(1)} ms, ${(row.p99 / idle).toFixed(2)}× idle (target under ${TARGET_P99_MS} ms and ${TARGET_RATIO}×): ${met ? 'met' : 'NOT met'}`);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
