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
 * - live element flood: an editor's WebSocket sending 400-element changes as
 *   fast as it can, reconnecting whenever the server closes it;
 * - live pointer flood: the same with presence updates carrying 2,000-id
 *   selections.
 *
 * Throughout, a third person's pointer goes from one live connection to
 * another every 40 ms: its delivery p99 is printed for the idle case and the
 * live floods (target under 50 ms), and the server's RSS SETTLE seconds after
 * the live floods beside the one before them (target within 20 %).
 *
 * Prints p50/p99 of the neighbour's requests beside the idle p99 of the same
 * run, as a ratio, what the heavy requests answered, and the server's peak
 * RSS (and, beside it, with its worker processes). Targets: p99 under 20 ms and under 3× idle in every case; RSS under
 * 400 MB throughout. Environment: DURATION (s, default 10), SETTLE (s, default 60), ONLY (run
 * only the cases whose name contains it, e.g. ONLY=live), PROFILE (a folder:
 * the server writes its CPU profiles there when it stops).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdminCommand } from '../src/admin/commands.ts';
import { createHash, randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { SESSION_TTL_MS } from '../src/app/sessions/sessions.ts';
import { openStore } from '../src/store/open.ts';
import { SESSION_COOKIE } from '../src/web/session.ts';
import { freePort, startChild, stopChild, waitForHttp } from './processes.ts';

const DURATION = Number(process.env.DURATION ?? 10);
/** Runs only the cases whose name contains this (the idle case always runs). */
const ONLY = process.env.ONLY ?? '';
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
    const live = await seedLiveFloods(dataDir);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_READ_PER_MIN: '1000000000', RATE_LIMIT_WRITE_PER_MIN: '1000000000' };
    delete env.DATABASE_URL;
    delete env.PUBLIC_URL;
    const server = startChild('server', [...(process.env.PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE}`] : []), '--import', 'tsx', 'src/main.ts'], env);
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
    const flawedSpec = { ...bigSpec, nodes: [...thousandNodes.slice(0, -1), { id: 'v999', shape: 'octagon' }] };
    console.log('done');
    const floods = await startLiveFloods(base, live, server.proc.pid!);

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
      ...floods.cases,
    ];

    const rows: Array<{ name: string; p50: number; p99: number; count: number; heavy: string; rss: number }> = [];
    rss.peakSince();
    for (const { name, heavy } of cases.filter(({ name }) => name === 'idle' || !ONLY || name.includes(ONLY))) {
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
    await floods.finish();
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
    floods.report();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// Live floods: one editor flooding the live socket, a third person's pointer measured meanwhile

const SETTLE = Number(process.env.SETTLE ?? 60);
const TARGET_POINTER_P99_MS = 50;
const TARGET_RSS_SETTLED = 1.2;
const POINTER_EVERY_MS = 40;

interface LiveSeed {
  /** The flooder's token, to make the diagram and share it with the other two. */
  token: string;
  /** Sessions of three people: the flooder, the one whose pointer moves, the one who watches it. */
  cookies: { flooder: string; mover: string; watcher: string };
  emails: { mover: string; watcher: string };
}

/** Three people, each with a browser session (written as sign-in writes them); the flooder with a token too. */
async function seedLiveFloods(dataDir: string): Promise<LiveSeed> {
  const store = await openStore({ dataDir });
  try {
    const person = async (name: string) => {
      const email = `${name}@bench.example`;
      const user = (await runAdminCommand(['user', 'create', '--email', email, '--quota', '1000'], store)) as { id: string };
      const secret = randomBytes(32).toString('base64url');
      const now = Date.now();
      await store.sessions.create({ idHash: createHash('sha256').update(secret).digest('hex'), userId: user.id, csrfToken: 'x', createdAt: new Date(now).toISOString(), expiresAt: new Date(now + SESSION_TTL_MS).toISOString() });
      return { email, cookie: `${SESSION_COOKIE}=${secret}` };
    };
    const [flooder, mover, watcher] = [await person('flooder'), await person('mover'), await person('watcher')];
    const token = ((await runAdminCommand(['token', 'mint', '--email', flooder.email, '--caps', 'read,write,publish', '--name', 'bench'], store)) as { token: string }).token;
    return { token, cookies: { flooder: flooder.cookie, mover: mover.cookie, watcher: watcher.cookie }, emails: { mover: mover.email, watcher: watcher.email } };
  } finally {
    await store.close();
  }
}

/** A live connection past its welcome; `closed` resolves with the close code. */
/**
 * One flooding connection in a worker thread (live-flooder.mjs) until the
 * server closes it; resolves with the close code. The thread keeps the
 * flood's sending off this process's event loop, where the pointer and the
 * neighbour's requests are timed.
 */
async function floodUntilClosed(base: string, diagramId: string, cookie: string, kind: 'elements' | 'pointers'): Promise<number[]> {
  const origin = `http://localhost:${new URL(base).port}`;
  const url = `${base.replace('http', 'ws')}/app/api/diagrams/${diagramId}/live`;
  const worker = new Worker(new URL('./live-flooder.mjs', import.meta.url), { workerData: { url, cookie, origin, kind } });
  try {
    return [await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    })];
  } finally {
    await worker.terminate();
  }
}

const benchRect = (id: string, version: number, y: number) => ({
  id, type: 'rectangle', x: 0, y, width: 100, height: 50, version, versionNonce: version * 7 + 1, index: `a${id}`, isDeleted: false,
  strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, angle: 0,
  groupIds: [], frameId: null, roundness: null, seed: 1 + y, boundElements: null, updated: 1, link: null, locked: false,
});

/**
 * The two live cases, and the third person's pointer: from `mover` to
 * `watcher` every 40 ms from now on (the idle case included), each delay
 * kept with when it arrived, so each case's window can be told apart.
 */
async function startLiveFloods(base: string, seed: LiveSeed, pid: number) {
  const created = await fetch(`${base}/api/v1/diagrams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'live flood', scene: { elements: Array.from({ length: 400 }, (_, i) => benchRect(`f${i}`, 1, i * 60)) } }),
  });
  if (created.status !== 201) throw new Error(`creating the live diagram: ${created.status}`);
  const diagramId = ((await created.json()) as { id: string }).id;
  for (const email of Object.values(seed.emails)) {
    const shared = await fetch(`${base}/api/v1/diagrams/${diagramId}/shares`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seed.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, role: 'editor' }),
    });
    if (shared.status !== 200) throw new Error(`sharing the live diagram: ${shared.status}`);
  }
  const arrivals: Array<{ at: number; delay: number }> = [];
  // The mover and the watcher run in a thread of their own (live-pointer.mjs), as two people on other machines.
  const pointer = new Worker(new URL('./live-pointer.mjs', import.meta.url), {
    workerData: {
      url: `${base.replace('http', 'ws')}/app/api/diagrams/${diagramId}/live`,
      origin: `http://localhost:${new URL(base).port}`,
      mover: seed.cookies.mover,
      watcher: seed.cookies.watcher,
      everyMs: POINTER_EVERY_MS,
      parentTimeOrigin: performance.timeOrigin,
    },
  });
  await new Promise<void>((resolve, reject) => {
    pointer.on('message', (message: 'ready' | { at: number; delay: number }) => (message === 'ready' ? resolve() : arrivals.push(message)));
    pointer.once('error', reject);
  });
  const windows = new Map<string, { from: number; to: number }>([['idle', { from: performance.now(), to: performance.now() + DURATION * 1000 }]]);
  let rssBefore = 0;
  let rssSettled = 0;
  const flood = (name: string, kind: 'elements' | 'pointers') => ({
    name,
    heavy: async () => {
      if (!windows.has(name)) windows.set(name, { from: performance.now(), to: Infinity });
      if (rssBefore === 0) rssBefore = rssOf(pid);
      const codes = await floodUntilClosed(base, diagramId, seed.cookies.flooder, kind);
      windows.get(name)!.to = performance.now();
      return codes;
    },
  });
  const cases = [flood('live element flood (400 elements a message)', 'elements'), flood('live pointer flood (2,000-id selections)', 'pointers')];
  return {
    cases,
    /** Stops the pointer and, SETTLE seconds after the floods, reads the server's RSS. */
    async finish() {
      pointer.postMessage('stop');
      process.stdout.write(`  waiting ${SETTLE} s after the live floods for the server's memory ... `);
      await new Promise((resolve) => setTimeout(resolve, SETTLE * 1000));
      rssSettled = rssOf(pid);
      console.log('done');
    },
    report() {
      const p99Of = (name: string) => {
        const window = windows.get(name)!;
        const delays = arrivals.filter((a) => a.at >= window.from && a.at <= window.to).map((a) => a.delay).sort((a, b) => a - b);
        return { p50: percentile(delays, 50), p90: percentile(delays, 90), p99: percentile(delays, 99), count: delays.length };
      };
      const idle = p99Of('idle');
      console.log(`- a third person's pointer, idle: p50 ${idle.p50.toFixed(1)}, p90 ${idle.p90.toFixed(1)}, p99 ${idle.p99.toFixed(1)} ms over ${idle.count} updates`);
      for (const { name } of cases.filter(({ name }) => windows.has(name))) {
        const during = p99Of(name);
        const met = during.p99 < TARGET_POINTER_P99_MS;
        console.log(`- a third person's pointer during the ${name}: p50 ${during.p50.toFixed(1)}, p90 ${during.p90.toFixed(1)}, p99 ${during.p99.toFixed(1)} ms over ${during.count} updates, ${(during.p99 / idle.p99).toFixed(2)}× idle (target under ${TARGET_POINTER_P99_MS} ms): ${met ? 'met' : 'NOT met'}`);
      }
      const ratio = rssSettled / rssBefore;
      console.log(
        `- server RSS ${SETTLE} s after the live floods: ${rssSettled.toFixed(0)} MB, before them ${rssBefore.toFixed(0)} MB, ${ratio.toFixed(2)}× (target within ${((TARGET_RSS_SETTLED - 1) * 100).toFixed(0)} %): ${ratio <= TARGET_RSS_SETTLED ? 'met' : 'NOT met'}`,
      );
    },
  };
}

await main();
