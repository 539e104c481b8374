/**
 * `npm run bench:sizing`: what one Drawbridge instance needs in memory and CPU,
 * for the sizing guide in docs/operations.md. Not a test: it prints figures
 * and exits 0 whatever they are; it only fails on setup errors.
 *
 * It starts the server as `npm start` does (`node scripts/build.mjs --if-stale`,
 * then `node dist/main.js`; SIZING_SERVER=tsx runs src/main.ts through tsx
 * instead) on SQLite in a temporary DATA_DIR, or on PostgreSQL when
 * DATABASE_URL is set (use a throwaway database: the users and diagrams it
 * makes stay there). It reads
 * /proc/<pid>/status (VmRSS, VmHWM) and /proc/<pid>/stat (utime, stime, and
 * cutime/cstime for workers already replaced) of the server and of each worker
 * process it forked, told apart by their entry files (faithful-worker,
 * fast-worker, scene-worker), and measures:
 *
 * 1. idle RSS of the server right after it answers, and of each worker once warm;
 * 2. peak RSS of each under a mixed load: ACTIVE users, each in a loop of one
 *    request then a think time of 1–3 s, for MIXED_SECONDS;
 * 3. CPU per operation (server plus workers), from the CPU-time delta over a
 *    run of only that operation, sent one at a time;
 * 4. throughput at saturation: reads (autocannon, 32 connections, 10 s) and
 *    uncached faithful PNGs (8 in flight, from 8 users).
 *
 * Environment: ACTIVE (default 20), MIXED_SECONDS (default 60), SIZING_SERVER
 * (`build`, the default, or `tsx`), DATABASE_URL.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { runAdminCommand } from '../src/admin/commands.ts';
import { openStore } from '../src/store/open.ts';
import { freePort, runBenchmark, startChild, waitForHttp } from './processes.ts';
import { spec } from './render-scenes.ts';
import { random } from './service-spec.ts';

const ACTIVE = Number(process.env.ACTIVE ?? 20);
const MIXED_SECONDS = Number(process.env.MIXED_SECONDS ?? 60);
const SERVER_MODE = process.env.SIZING_SERVER === 'tsx' ? 'tsx' : 'build';
const DATABASE_URL = process.env.DATABASE_URL || undefined;
/** A 50-element diagram: 17 labelled boxes and 16 arrows. */
const NODES = 17;
const EDGES = 16;
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

// ---------------------------------------------------------------------------
// Processes, as /proc tells them

type Kind = 'server' | 'faithful worker' | 'fast worker' | 'scene worker' | 'other child';
const KINDS: Kind[] = ['server', 'faithful worker', 'fast worker', 'scene worker', 'other child'];

interface ProcessReading {
  pid: number;
  kind: Kind;
  rssKb: number;
  hwmKb: number;
  /** utime + stime + cutime + cstime, in seconds. */
  cpuSeconds: number;
}

function readProcess(pid: number, kind?: Kind): ProcessReading | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
    // Fields after the command name (which may hold spaces) in parentheses: state is field 3, utime 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return { pid, kind: kind ?? kindOf(pid), rssKb: kb('VmRSS'), hwmKb: kb('VmHWM'), cpuSeconds: ticks / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

function kindOf(pid: number): Kind {
  const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  if (command.includes('faithful-worker')) return 'faithful worker';
  if (command.includes('fast-worker')) return 'fast worker';
  if (command.includes('scene-worker')) return 'scene worker';
  return 'other child';
}

function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The server and its children now. */
function readTree(serverPid: number): ProcessReading[] {
  const server = readProcess(serverPid, 'server');
  if (!server) throw new Error('the server process is gone');
  return [server, ...childPids(serverPid).flatMap((pid) => readProcess(pid) ?? [])];
}

/** CPU seconds of the instance: the server, its live workers, and (in the server's cutime) the workers it has reaped. */
function cpuOf(serverPid: number): { server: number; total: number } {
  const tree = readTree(serverPid);
  const status = fs.readFileSync(`/proc/${serverPid}/stat`, 'utf8');
  const fields = status.slice(status.lastIndexOf(')') + 2).split(' ');
  const ownSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  return { server: ownSeconds, total: tree.reduce((sum, p) => sum + p.cpuSeconds, 0) };
}

/** Peak RSS per process, polled every 250 ms and from the kernel's high-water mark, and the peak of the instance's sum. */
class PeakSampler {
  private readonly peaks = new Map<number, { kind: Kind; kb: number }>();
  private peakTotalKb = 0;
  private readonly timer: NodeJS.Timeout;

  private readonly serverPid: number;
  constructor(serverPid: number) {
    this.serverPid = serverPid;
    this.sample();
    // A server gone between two samples is reported by the request that finds it gone, not by the sampler.
    this.timer = setInterval(() => {
      try {
        this.sample();
      } catch {
        clearInterval(this.timer);
      }
    }, 250);
  }

  sample(): void {
    const tree = readTree(this.serverPid);
    this.peakTotalKb = Math.max(this.peakTotalKb, tree.reduce((sum, p) => sum + p.rssKb, 0));
    for (const p of tree) {
      const before = this.peaks.get(p.pid)?.kb ?? 0;
      this.peaks.set(p.pid, { kind: p.kind, kb: Math.max(before, p.rssKb, p.hwmKb) });
    }
  }

  stop(): { perKind: Map<Kind, { mb: number; count: number }>; totalMb: number } {
    this.sample();
    clearInterval(this.timer);
    const perKind = new Map<Kind, { mb: number; count: number }>();
    for (const { kind, kb } of this.peaks.values()) {
      const before = perKind.get(kind) ?? { mb: 0, count: 0 };
      perKind.set(kind, { mb: Math.max(before.mb, kb / 1024), count: before.count + 1 });
    }
    return { perKind, totalMb: this.peakTotalKb / 1024 };
  }
}

/** The sizes of the files under `directory` (the render cache: one file per render). */
function cacheFiles(directory: string): number[] {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return cacheFiles(full);
    return entry.isFile() ? [fs.statSync(full).size] : [];
  });
}

// ---------------------------------------------------------------------------
// The server and its users

interface User {
  token: string;
  /** Diagrams the mixed load reads, patches and renders. */
  diagrams: string[];
}

async function seedUsers(dataDir: string, count: number): Promise<string[]> {
  const store = await openStore({ dataDir, ...(DATABASE_URL ? { databaseUrl: DATABASE_URL } : {}) });
  const run = randomUUID().slice(0, 8);
  try {
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) {
      const email = `sizing-${run}-${i}@bench.example`;
      await runAdminCommand(['user', 'create', '--email', email, '--quota', '1000000'], store);
      tokens.push(((await runAdminCommand(['token', 'mint', '--email', email, '--caps', 'read,write', '--name', 'sizing'], store)) as { token: string }).token);
    }
    return tokens;
  } finally {
    await store.close();
  }
}

async function startServer(dataDir: string): Promise<{ pid: number; base: string; startedMb: number }> {
  let args = ['--import', 'tsx', 'src/main.ts'];
  if (SERVER_MODE === 'build') {
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: new URL('..', import.meta.url), stdio: 'inherit' });
    args = ['dist/main.js'];
  }
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_READ_PER_MIN: '1000000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000000',
  };
  delete env.PUBLIC_URL;
  const child = startChild('server', args, env);
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${base}/healthz`);
  return { pid: child.proc.pid!, base, startedMb: readProcess(child.proc.pid!, 'server')!.rssKb / 1024 };
}

function client(base: string) {
  return async (token: string, method: string, url: string, body?: unknown): Promise<Buffer> => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${bytes.toString().slice(0, 300)}`);
    if (url.includes('quality=fast') ? res.headers.get('x-render-quality') !== 'fast' : url.includes('/render') && res.headers.get('x-render-quality') !== 'faithful') {
      throw new Error(`${url} delivered ${res.headers.get('x-render-quality')}`);
    }
    return bytes;
  };
}

// ---------------------------------------------------------------------------

const mb = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(0)} MB`);
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await runBenchmark('bench:sizing', async (dataDir) => {
  // runBenchmark removes the directory when the run ends; this also covers an interrupted one (Ctrl-C).
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  console.log(`# Drawbridge sizing benchmark — ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GB, node ${process.version}`);
  console.log(`# ${DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'SQLite'}; server: ${SERVER_MODE === 'build' ? 'compiled (node dist/main.js, as npm start)' : 'src/main.ts through tsx'}; default workers`);
  console.log(`# load average before the run: ${loadAverage()} (a shared machine: other work competes for the cores; the load generator runs here too)`);
  const tokens = await seedUsers(dataDir, ACTIVE);
  const { pid, base, startedMb } = await startServer(dataDir);
  const call = client(base);
  const [first] = tokens as [string];

  // 1. Idle: the server as it answers; the workers once each kind has done one job.
  const warmId = JSON.parse((await call(first, 'POST', '/api/v1/diagrams', { title: 'warm', spec: spec(NODES, EDGES, -1) })).toString()).id as string;
  await call(first, 'GET', `/api/v1/diagrams/${warmId}/render?format=png&quality=fast`);
  await call(first, 'GET', `/api/v1/diagrams/${warmId}/render?format=png`);
  await sleep(3000);
  const idleCpuBefore = cpuOf(pid);
  await sleep(5000);
  const idleCpuPerSecond = (cpuOf(pid).total - idleCpuBefore.total) / 5;
  const idle = new Map<Kind, { mb: number; count: number }>();
  for (const p of readTree(pid)) {
    const before = idle.get(p.kind) ?? { mb: 0, count: 0 };
    idle.set(p.kind, { mb: Math.max(before.mb, p.rssKb / 1024), count: before.count + 1 });
  }
  const idleTotalMb = readTree(pid).reduce((sum, p) => sum + p.rssKb / 1024, 0);

  // Diagrams: two per user for the mixed load, and fresh ones for every uncached render measured.
  const create = async (token: string, variant: number) =>
    JSON.parse((await call(token, 'POST', '/api/v1/diagrams', { title: `sizing ${variant}`, spec: spec(NODES, EDGES, variant) })).toString()).id as string;
  let variant = 0;
  const users: User[] = [];
  for (const token of tokens) users.push({ token, diagrams: [await create(token, variant++), await create(token, variant++)] });
  const fresh = async (count: number) => {
    const out: Array<{ token: string; id: string }> = [];
    for (let i = 0; i < count; i++) {
      const token = tokens[i % tokens.length]!;
      out.push({ token, id: await create(token, variant++) });
    }
    return out;
  };
  const forFaithfulPng = await fresh(40);
  const forFaithfulSvg = await fresh(40);
  const forFastPng = await fresh(40);
  const forSaturation = await fresh(160);

  // 2. Mixed load.
  const next = random(20261128);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const mix: Array<[string, number, (user: User) => Promise<unknown>]> = [
    ['GET diagram', 35, (u) => call(u.token, 'GET', `/api/v1/diagrams/${pick(u.diagrams)}`)],
    ['list', 15, (u) => call(u.token, 'GET', '/api/v1/diagrams')],
    ['create from spec', 5, (u) => call(u.token, 'POST', '/api/v1/diagrams', { title: 'mixed', spec: spec(NODES, EDGES, variant++) })],
    ['patch', 20, (u) => call(u.token, 'POST', `/api/v1/diagrams/${pick(u.diagrams)}/patch`, { ops: [{ op: 'move', id: `n${Math.floor(next() * NODES)}`, dx: 5, dy: -5 }] })],
    ['fast PNG', 10, (u) => call(u.token, 'GET', `/api/v1/diagrams/${pick(u.diagrams)}/render?format=png&quality=fast`)],
    ['faithful PNG', 10, (u) => call(u.token, 'GET', `/api/v1/diagrams/${pick(u.diagrams)}/render?format=png`)],
    ['faithful SVG', 5, (u) => call(u.token, 'GET', `/api/v1/diagrams/${pick(u.diagrams)}/render?format=svg`)],
  ];
  const weightSum = mix.reduce((sum, [, w]) => sum + w, 0);
  const done = new Map<string, number>();
  const sampler = new PeakSampler(pid);
  const mixedCpuBefore = cpuOf(pid);
  const mixedEnd = Date.now() + MIXED_SECONDS * 1000;
  await Promise.all(
    users.map(async (user) => {
      await sleep(next() * 2000);
      while (Date.now() < mixedEnd) {
        let roll = next() * weightSum;
        const [name, , run] = mix.find(([, w]) => (roll -= w) < 0) ?? mix[0]!;
        await run(user);
        done.set(name, (done.get(name) ?? 0) + 1);
        await sleep(1000 + next() * 2000);
      }
    }),
  );
  const mixedCpu = cpuOf(pid).total - mixedCpuBefore.total;
  const mixed = sampler.stop();
  const mixedRequests = [...done.values()].reduce((a, b) => a + b, 0);

  // 3. CPU per operation: a run of only that operation, one request at a time.
  const cpuRows: Array<{ name: string; count: number; serverMs: number; totalMs: number; wallMs: number }> = [];
  const perOperation = async (name: string, count: number, run: (i: number) => Promise<unknown>) => {
    const before = cpuOf(pid);
    const start = performance.now();
    for (let i = 0; i < count; i++) await run(i);
    const wallMs = performance.now() - start;
    const after = cpuOf(pid);
    cpuRows.push({ name, count, serverMs: ((after.server - before.server) * 1000) / count, totalMs: ((after.total - before.total) * 1000) / count, wallMs: wallMs / count });
  };
  const [reader] = users as [User];
  await perOperation('GET diagram (50 elements)', 300, () => call(reader.token, 'GET', `/api/v1/diagrams/${reader.diagrams[0]}`));
  await perOperation('list diagrams', 300, () => call(reader.token, 'GET', '/api/v1/diagrams'));
  await perOperation('cached faithful PNG', 300, () => call(reader.token, 'GET', `/api/v1/diagrams/${reader.diagrams[0]}/render?format=png`));
  await perOperation('patch (move one shape)', 100, (i) =>
    call(reader.token, 'POST', `/api/v1/diagrams/${reader.diagrams[1]}/patch`, { ops: [{ op: 'move', id: `n${i % NODES}`, dx: 3, dy: 0 }] }),
  );
  await perOperation('create from spec (layout)', 40, () => call(reader.token, 'POST', '/api/v1/diagrams', { title: 'cpu', spec: spec(NODES, EDGES, variant++) }));
  await perOperation('fast PNG, uncached', forFastPng.length, (i) => call(forFastPng[i]!.token, 'GET', `/api/v1/diagrams/${forFastPng[i]!.id}/render?format=png&quality=fast`));
  await perOperation('faithful PNG, uncached', forFaithfulPng.length, (i) => call(forFaithfulPng[i]!.token, 'GET', `/api/v1/diagrams/${forFaithfulPng[i]!.id}/render?format=png`));
  await perOperation('faithful SVG, uncached', forFaithfulSvg.length, (i) => call(forFaithfulSvg[i]!.token, 'GET', `/api/v1/diagrams/${forFaithfulSvg[i]!.id}/render?format=svg`));

  // 4. Saturation.
  const overall = new PeakSampler(pid);
  const reads = await autocannon({ url: `${base}/api/v1/diagrams/${reader.diagrams[0]}`, headers: { authorization: `Bearer ${reader.token}` }, connections: 32, duration: 10 });
  const readErrors = reads.non2xx + reads.errors;
  const inFlight = 8;
  let cursor = 0;
  const renderStart = performance.now();
  const renderCpuBefore = cpuOf(pid);
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (cursor < forSaturation.length) {
        const { token, id } = forSaturation[cursor++]!;
        await call(token, 'GET', `/api/v1/diagrams/${id}/render?format=png`);
      }
    }),
  );
  const renderSeconds = (performance.now() - renderStart) / 1000;
  const renderCpu = cpuOf(pid).total - renderCpuBefore.total;
  const saturated = overall.stop();

  // Report
  console.log('\n## Memory (RSS), per process; workers: the largest of their kind');
  console.log(`${'process'.padEnd(18)} ${'count'.padStart(5)} ${'at start'.padStart(9)} ${'idle warm'.padStart(10)} ${'mixed peak'.padStart(11)} ${'saturation peak'.padStart(16)}`);
  for (const kind of KINDS) {
    if (!idle.has(kind) && !mixed.perKind.has(kind)) continue;
    console.log(
      `${kind.padEnd(18)} ${String(idle.get(kind)?.count ?? 0).padStart(5)} ${(kind === 'server' ? mb(startedMb) : '').padStart(9)} ${mb(idle.get(kind)?.mb).padStart(10)} ${mb(mixed.perKind.get(kind)?.mb).padStart(11)} ${mb(saturated.perKind.get(kind)?.mb).padStart(16)}`,
    );
  }
  console.log(`${'whole instance'.padEnd(18)} ${''.padStart(5)} ${''.padStart(9)} ${mb(idleTotalMb).padStart(10)} ${mb(mixed.totalMb).padStart(11)} ${mb(saturated.totalMb).padStart(16)}`);
  if (idle.has('other child')) console.log('(other child: a process the server started that is none of its workers, such as the bundler esbuild starts)');

  console.log(`\n## Mixed load: ${ACTIVE} users, each one request then 1–3 s of thought, ${MIXED_SECONDS} s`);
  console.log(`${mixedRequests} requests (${(mixedRequests / MIXED_SECONDS).toFixed(1)}/s): ${[...done].map(([name, n]) => `${name} ${n}`).join(', ')}`);
  console.log(`CPU: ${mixedCpu.toFixed(1)} s over ${MIXED_SECONDS} s = ${((mixedCpu / MIXED_SECONDS) * 100).toFixed(0)}% of one core; idle before: ${(idleCpuPerSecond * 1000).toFixed(1)} ms CPU per s`);

  console.log('\n## CPU per operation (server + workers), one request at a time');
  console.log(`${'operation'.padEnd(28)} ${'runs'.padStart(5)} ${'server ms'.padStart(10)} ${'total ms'.padStart(9)} ${'wall ms'.padStart(8)}`);
  for (const row of cpuRows) {
    console.log(`${row.name.padEnd(28)} ${String(row.count).padStart(5)} ${row.serverMs.toFixed(1).padStart(10)} ${row.totalMs.toFixed(1).padStart(9)} ${row.wallMs.toFixed(1).padStart(8)}`);
  }

  console.log('\n## Saturation');
  console.log(`GET diagram: ${reads.requests.average.toFixed(0)} req/s (32 connections, 10 s; p50 ${reads.latency.p50} ms, p99 ${reads.latency.p99} ms; errors ${readErrors})`);
  console.log(
    `faithful PNG, uncached: ${(forSaturation.length / renderSeconds).toFixed(1)} req/s (${forSaturation.length} renders, ${inFlight} in flight from ${Math.min(inFlight, ACTIVE)} users, ${renderSeconds.toFixed(1)} s; ${((renderCpu / forSaturation.length) * 1000).toFixed(0)} ms CPU each)`,
  );
  const cached = cacheFiles(path.join(dataDir, 'render-cache'));
  const cachedBytes = cached.reduce((sum, bytes) => sum + bytes, 0);
  console.log(`render cache: ${cached.length} renders in ${(cachedBytes / 2 ** 20).toFixed(1)} MB, ${(cachedBytes / Math.max(1, cached.length) / 1024).toFixed(0)} KB each on average`);
  console.log(`\nload average after the run: ${loadAverage()}`);
});
