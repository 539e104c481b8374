/**
 * `npm run bench:api`: the API benchmark. Not a test: it prints figures and
 * exits 0 whatever they are; it only fails on setup errors.
 *
 * 1. Seeds a throwaway SQLite DATA_DIR (USERS users with a token and a large
 *    quota; the first owns DIAGRAMS diagrams with a 50-element scene).
 * 2. Starts the real server (src/main.ts) and a bare Fastify hello-world
 *    (bench/hello-server.ts) as child processes.
 * 3. Drives each scenario with autocannon (CONNECTIONS connections, WARMUP s
 *    discarded, then DURATION s measured) and samples the server's RSS.
 *
 * Scenarios: `hello` (a bare Fastify hello-world, and the same sending as many
 * bytes as the diagram read), `get`, `list`, `create` (a scene, by owners of
 * one diagram each), `create-owner` (the same scene, by the owner of DIAGRAMS
 * diagrams: a create costs the same whatever the account holds), `spec` (a
 * 50-node flowchart spec, laid out in the scene workers; then again on a server
 * started with SCENE_WORKERS=1, the ratio printed).
 *
 * Environment: DURATION (s, default 10), WARMUP (s, default 2), CONNECTIONS
 * (default 50), USERS (default 200), DIAGRAMS (default 60), SCENARIOS (comma
 * list of hello,get,list,create,create-owner,spec; default all), BENCH_CPU_PROF (a directory:
 * the server child runs with --cpu-prof and writes its profile there on exit),
 * KEEP_DATA=1 (keep the temp DATA_DIR), BENCH_SERVER_ENTRY (another server
 * entry point than src/main.ts, e.g. to try an optimisation out of tree).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { runAdminCommand } from '../src/admin/commands.ts';
import { seededRandom } from '../src/domain/layout/random.ts';
import { children, freePort, startChild, stopChild, waitForHttp } from './processes.ts';
import { openStore } from '../src/store/open.ts';
import type { DiagramRecord } from '../src/store/store.ts';
import { createdRevision } from '../src/app/history/recording.ts';
import { flowchart, specOf } from './layout-engine.ts';


function envInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

const DURATION = envInt('DURATION', 10);
const WARMUP = envInt('WARMUP', 2, 0);
const CONNECTIONS = envInt('CONNECTIONS', 50);
const USERS = envInt('USERS', 200, 2);
const DIAGRAMS = envInt('DIAGRAMS', 60);
const SCENE_ELEMENTS = 50;
const BIG_QUOTA = 1_000_000;
const SCENARIOS = new Set((process.env.SCENARIOS || 'hello,get,list,create,create-owner,spec').split(',').map((s) => s.trim()));

const TARGET_GET_RATIO = 70; // % of the bare Fastify sending as many bytes
const TARGET_GET_P99_MS = 5;
const TARGET_RSS_MB = 200;
const SIZED_LABEL = 'bare Fastify, same-size body';

// ---------------------------------------------------------------------------
// A realistic Excalidraw scene: boxes with bound labels, chained by bound arrows.

function buildScene(count: number): Record<string, unknown>[] {
  const random = seededRandom(20240601);
  const int = () => Math.floor(random() * 2 ** 31);
  const id = () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-';
    let out = '';
    for (let i = 0; i < 21; i++) out += alphabet[Math.floor(random() * alphabet.length)];
    return out;
  };
  const updated = 1_717_200_000_000;
  let index = 0;
  const fractionalIndex = () => `a${(index++).toString(36).padStart(2, '0')}`;
  const base = (type: string, x: number, y: number, width: number, height: number) => ({
    id: id(),
    type,
    x,
    y,
    width,
    height,
    angle: 0,
    strokeColor: '#1e1e1e',
    backgroundColor: type === 'rectangle' ? '#a5d8ff' : 'transparent',
    fillStyle: 'solid',
    strokeWidth: 2,
    strokeStyle: 'solid',
    roughness: 1,
    opacity: 100,
    groupIds: [] as string[],
    frameId: null,
    index: fractionalIndex(),
    roundness: type === 'rectangle' ? { type: 3 } : type === 'arrow' ? { type: 2 } : null,
    seed: int(),
    version: 1 + Math.floor(random() * 40),
    versionNonce: int(),
    isDeleted: false,
    boundElements: null as null | { type: string; id: string }[],
    updated: updated + Math.floor(random() * 1_000_000),
    link: null as string | null,
    locked: false,
  });

  // 50 = 17 boxes + 17 labels + 16 arrows (for other counts: boxes = ceil((n + 1) / 3)).
  const boxCount = Math.ceil((count + 1) / 3);
  const boxes: ReturnType<typeof base>[] = [];
  const elements: Record<string, unknown>[] = [];
  for (let i = 0; i < boxCount; i++) {
    const box = base('rectangle', 100 + (i % 5) * 260, 100 + Math.floor(i / 5) * 180, 180, 80);
    if (i % 6 === 0) box.link = `https://example.com/docs/component-${i}`;
    if (i % 4 === 0) box.groupIds = [`group-${Math.floor(i / 4)}`];
    boxes.push(box);
  }
  for (let i = 0; i < boxCount && elements.length + 2 <= count; i++) {
    const box = boxes[i]!;
    const words = `Service ${i + 1}\n${['API gateway', 'Auth', 'Renderer', 'Queue', 'Storage', 'Cache'][i % 6]}`;
    const label = {
      ...base('text', box.x + 30, box.y + 15, 120, 50),
      backgroundColor: 'transparent',
      roundness: null,
      text: words,
      fontSize: 20,
      fontFamily: 5,
      textAlign: 'center',
      verticalAlign: 'middle',
      containerId: box.id,
      originalText: words,
      autoResize: true,
      lineHeight: 1.25,
    };
    box.boundElements = [{ type: 'text', id: label.id }];
    elements.push(box, label);
  }
  for (let i = 0; i + 1 < boxCount && elements.length < count; i++) {
    const from = boxes[i]!;
    const to = boxes[i + 1]!;
    const x = from.x + from.width;
    const y = from.y + from.height / 2;
    const dx = to.x - x;
    const dy = to.y + to.height / 2 - y;
    const arrow = {
      ...base('arrow', x, y, Math.abs(dx), Math.abs(dy)),
      backgroundColor: 'transparent',
      points: [
        [0, 0],
        [dx, dy],
      ],
      lastCommittedPoint: null,
      startBinding: { elementId: from.id, focus: 0, gap: 1, fixedPoint: null },
      endBinding: { elementId: to.id, focus: 0, gap: 1, fixedPoint: null },
      startArrowhead: null,
      endArrowhead: 'arrow',
      elbowed: false,
    };
    from.boundElements!.push({ type: 'arrow', id: arrow.id });
    to.boundElements!.push({ type: 'arrow', id: arrow.id });
    elements.push(arrow);
  }
  return elements.slice(0, count);
}

/** Peak resident memory of a process: the kernel's high-water mark and our own RSS polling, whichever is higher. */
class RssSampler {
  private peakKb = 0;
  private readonly timer: NodeJS.Timeout;

  private readonly pid: number;
  constructor(pid: number) {
    this.pid = pid;
    this.timer = setInterval(() => this.sample(), 200);
    this.timer.unref();
  }

  private read(): { rss: number; hwm: number } | null {
    try {
      const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
      return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    } catch {
      return null;
    }
  }

  sample(): void {
    const now = this.read();
    if (now) this.peakKb = Math.max(this.peakKb, now.rss, now.hwm);
  }

  /** Final reading (call before the process exits); MB. */
  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peakKb / 1024;
  }
}

// ---------------------------------------------------------------------------
// Load

interface Scenario {
  key: string;
  label: string;
  options: autocannon.Options;
}

interface Outcome {
  label: string;
  key: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  statuses: string;
}

async function runScenario(scenario: Scenario): Promise<Outcome> {
  const base = { connections: CONNECTIONS, timeout: 30, ...scenario.options };
  if (WARMUP > 0) {
    process.stdout.write(`  ${scenario.label}: warm-up ${WARMUP} s ... `);
    await autocannon({ ...base, duration: WARMUP });
  } else {
    process.stdout.write(`  ${scenario.label}: `);
  }
  process.stdout.write(`measuring ${DURATION} s ... `);
  const result = await autocannon({ ...base, duration: DURATION });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}:${count}`)
    .join(' ');
  const rps = result.requests.average;
  console.log(`${rps.toFixed(0)} req/s [${statuses}]${result.errors ? ` errors:${result.errors}` : ''}`);
  return {
    label: scenario.label,
    key: scenario.key,
    rps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    statuses,
  };
}

// ---------------------------------------------------------------------------

async function seed(dataDir: string, scene: Record<string, unknown>[]) {
  const store = await openStore({ dataDir });
  try {
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `bench-user-${i}@bench.example`;
      await runAdminCommand(['user', 'create', '--email', email, '--quota', String(BIG_QUOTA)], store);
      const minted = (await runAdminCommand(['token', 'mint', '--email', email, '--caps', 'read,write,publish,delete', '--name', 'bench'], store)) as {
        token: string;
      };
      tokens.push(minted.token);
    }
    const owner = await store.accounts.findByEmail('bench-user-0@bench.example');
    if (!owner) throw new Error('seeded owner not found');
    const elementsJson = JSON.stringify(scene);
    const start = Date.now() - DIAGRAMS * 1000;
    const diagramIds: string[] = [];
    for (let i = 0; i < DIAGRAMS; i++) {
      const at = new Date(start + i * 1000).toISOString();
      const diagram: DiagramRecord = {
        id: randomUUID(),
        ownerId: owner.id,
        title: `Architecture ${i + 1}`,
        folderId: null,
        workspaceId: null,
        starred: i % 7 === 0,
        elementsJson,
        elementCount: scene.length,
        createdAt: at,
        updatedAt: at,
        docUpdatedAt: at,
        deletedAt: null,
      };
      if ((await store.diagrams.create(diagram, BIG_QUOTA, createdRevision({ userId: diagram.ownerId, via: null }, diagram.elementCount))) !== 'created') throw new Error('seeding a diagram failed');
      diagramIds.push(diagram.id);
    }
    return { tokens, diagramId: diagramIds.at(-1)! };
  } finally {
    await store.close();
  }
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-bench-'));
  const scene = buildScene(SCENE_ELEMENTS);
  let exitCode = 0;
  try {
    console.log(`# Drawbridge API benchmark — ${os.cpus().length} CPU(s), node ${process.version}, SQLite in ${dataDir}`);
    console.log(`# ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per scenario; load generator and servers share the machine`);
    console.log(`# load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const seedStart = Date.now();
    const { tokens, diagramId } = await seed(dataDir, scene);
    console.log(`# seeded ${USERS} users/tokens and ${DIAGRAMS} diagrams of ${scene.length} elements in ${Date.now() - seedStart} ms`);

    const [apiPort, helloPort] = [await freePort(), await freePort()];
    const serverEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_READ_PER_MIN: '1000000000',
      RATE_LIMIT_WRITE_PER_MIN: '1000000000',
    };
    delete serverEnv.DATABASE_URL;
    delete serverEnv.PUBLIC_URL;
    const profDir = process.env.BENCH_CPU_PROF;
    const nodeFlags = profDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profDir)}`] : [];
    const entry = process.env.BENCH_SERVER_ENTRY || 'src/main.ts';
    const server = startChild('server', [...nodeFlags, '--import', 'tsx', entry], serverEnv);
    // The diagram read is its elements plus ~300 bytes of metadata; the sized baseline sends as much.
    const bodyBytes = Buffer.byteLength(JSON.stringify(scene)) + 300;
    const hello = startChild('hello-world', ['--import', 'tsx', 'bench/hello-server.ts'], { ...process.env, PORT: String(helloPort), BODY_BYTES: String(bodyBytes) });
    const apiBase = `http://127.0.0.1:${apiPort}`;
    const helloBase = `http://127.0.0.1:${helloPort}`;
    await Promise.all([waitForHttp(server, `${apiBase}/healthz`), waitForHttp(hello, `${helloBase}/`)]);
    const sampler = new RssSampler(server.proc.pid!);

    // Sanity-check each request once, so a misconfigured run fails loudly instead of benchmarking 4xx.
    const auth = { authorization: `Bearer ${tokens[0]}` };
    const check = async (what: string, res: Promise<Response>, status: number) => {
      const r = await res;
      const text = await r.text();
      if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status}: ${text.slice(0, 300)}`);
      return text;
    };
    const got = JSON.parse(await check('GET /diagrams/:id', fetch(`${apiBase}/api/v1/diagrams/${diagramId}`, { headers: auth }), 200));
    if (got.scene?.elements?.length !== scene.length) throw new Error('GET /diagrams/:id did not return the seeded scene');
    const listed = JSON.parse(await check('GET /diagrams', fetch(`${apiBase}/api/v1/diagrams`, { headers: auth }), 200));
    const postBody = JSON.stringify({
      title: 'Benchmark diagram',
      scene: { type: 'excalidraw', version: 2, source: 'https://excalidraw.com', elements: scene, appState: { viewBackgroundColor: '#ffffff', gridSize: 20 }, files: {} },
    });
    await check(
      'POST /diagrams',
      fetch(`${apiBase}/api/v1/diagrams`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[1]}`, 'content-type': 'application/json' },
        body: postBody,
      }),
      201,
    );
    const getBytes = Buffer.byteLength(JSON.stringify(got));
    console.log(
      `# GET /diagrams/:id answers ${getBytes} bytes; GET /diagrams lists ${listed.items.length} items (user owns ${DIAGRAMS}); POST body ${postBody.length} bytes`,
    );

    // The create scenario rotates over every user but the list/get owner, so no user's quota or limit matters.
    const writers = tokens.slice(1);
    let next = 0;
    const allScenarios: Scenario[] = [
      { key: 'hello', label: 'hello-world (bare Fastify)', options: { url: `${helloBase}/` } },
      { key: 'hello', label: SIZED_LABEL, options: { url: `${helloBase}/sized` } },
      { key: 'get', label: 'GET /api/v1/diagrams/:id', options: { url: `${apiBase}/api/v1/diagrams/${diagramId}`, headers: auth } },
      { key: 'list', label: 'GET /api/v1/diagrams', options: { url: `${apiBase}/api/v1/diagrams`, headers: auth } },
      {
        key: 'create',
        label: 'POST /api/v1/diagrams',
        options: {
          url: `${apiBase}/api/v1/diagrams`,
          method: 'POST',
          requests: [
            {
              method: 'POST',
              path: '/api/v1/diagrams',
              body: postBody,
              setupRequest: (request) => {
                const token = writers[next++ % writers.length]!;
                request.headers = { ...request.headers, 'content-type': 'application/json', authorization: `Bearer ${token}` };
                return request;
              },
            },
          ],
        },
      },
    ];
    /** POST /diagrams with `body`, each request by the next of `tokens`. */
    const creates = (body: string, by: string[]): autocannon.Options => {
      let turn = 0;
      return {
        url: `${apiBase}/api/v1/diagrams`,
        method: 'POST',
        requests: [
          {
            method: 'POST',
            path: '/api/v1/diagrams',
            body,
            setupRequest: (request) => {
              request.headers = { ...request.headers, 'content-type': 'application/json', authorization: `Bearer ${by[turn++ % by.length]!}` };
              return request;
            },
          },
        ],
      };
    };
    allScenarios.push({ key: 'create-owner', label: `POST, owner of ${DIAGRAMS}`, options: creates(postBody, [tokens[0]!]) });
    const specBody = JSON.stringify({ title: 'Benchmark flowchart', spec: specOf(flowchart()) });
    allScenarios.push({ key: 'spec', label: 'POST spec (flowchart of 50)', options: creates(specBody, writers) });
    const scenarios = allScenarios.filter((s) => SCENARIOS.has(s.key));

    const outcomes: Outcome[] = [];
    for (const scenario of scenarios) outcomes.push(await runScenario(scenario));
    const peakRssMb = sampler.stop();
    // The peer of the spec creates: the same server with one scene worker, as it had before SCENE_WORKERS.
    const spec = outcomes.find((o) => o.key === 'spec');
    let oneWorker: Outcome | undefined;
    if (spec) {
      await stopChild(server);
      const single = startChild('server, one scene worker', [...nodeFlags, '--import', 'tsx', entry], { ...serverEnv, SCENE_WORKERS: '1' });
      await waitForHttp(single, `${apiBase}/healthz`);
      oneWorker = await runScenario({ key: 'spec-one', label: 'POST spec, SCENE_WORKERS=1', options: creates(specBody, writers) });
      outcomes.push(oneWorker);
    }

    // Report
    const helloRps = outcomes.find((o) => o.key === 'hello')?.rps;
    const sizedRps = outcomes.find((o) => o.label === SIZED_LABEL)?.rps;
    const header = [pad('scenario', 28), pad('req/s', 9, true), pad('p50 ms', 8, true), pad('p99 ms', 8, true), pad('% hello', 8, true), pad('% sized', 8, true), pad('non-2xx', 8, true), pad('errors', 7, true), '  target'];
    console.log('');
    console.log(header.join(' '));
    console.log('-'.repeat(header.join(' ').length + 30));
    for (const o of outcomes) {
      const ratio = helloRps ? (o.rps / helloRps) * 100 : undefined;
      let target = '';
      const ofSized = sizedRps ? (o.rps / sizedRps) * 100 : undefined;
      if (o.key === 'get') {
        const ok = ofSized !== undefined && ofSized >= TARGET_GET_RATIO && o.p99 < TARGET_GET_P99_MS;
        target = `>= ${TARGET_GET_RATIO}% of the same-size body, p99 < ${TARGET_GET_P99_MS} ms: ${ok ? 'MET' : 'MISSED'}`;
      }
      console.log(
        [
          pad(o.label, 28),
          pad(o.rps.toFixed(0), 9, true),
          pad(String(o.p50), 8, true),
          pad(String(o.p99), 8, true),
          pad(ratio === undefined ? 'n/a' : `${ratio.toFixed(1)}%`, 8, true),
          pad(ofSized === undefined ? 'n/a' : `${ofSized.toFixed(1)}%`, 8, true),
          pad(String(o.non2xx), 8, true),
          pad(String(o.errors), 7, true),
          `  ${target}`,
        ].join(' '),
      );
    }
    console.log('');
    console.log(`load average at end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const created = outcomes.find((o) => o.key === 'create');
    const byOwner = outcomes.find((o) => o.key === 'create-owner');
    if (created && byOwner) console.log(`create by the owner of ${DIAGRAMS} against owners of one: p99 ${byOwner.p99} against ${created.p99} ms (${(byOwner.p99 / created.p99).toFixed(2)}×), req/s ${(byOwner.rps / created.rps).toFixed(2)}×`);
    if (spec && oneWorker) console.log(`spec creates with SCENE_WORKERS=${os.availableParallelism()} (the default here) against 1: ${spec.rps.toFixed(1)} against ${oneWorker.rps.toFixed(1)} req/s (${(spec.rps / oneWorker.rps).toFixed(2)}×), p99 ${spec.p99} against ${oneWorker.p99} ms`);
    console.log(`peak server RSS: ${peakRssMb.toFixed(1)} MB   (target < ${TARGET_RSS_MB} MB: ${peakRssMb < TARGET_RSS_MB ? 'MET' : 'MISSED'})`);
    const bad = outcomes.filter((o) => o.non2xx + o.errors > 0);
    for (const o of bad) console.log(`note: ${o.label} had non-2xx/errors — status counts ${o.statuses}, connection errors ${o.errors}`);
  } catch (error) {
    console.error(`bench:api setup failed: ${(error as Error).stack ?? error}`);
    for (const child of children) {
      if (child.output.length) console.error(`--- ${child.name} output ---\n${child.output.join('').slice(-4000)}`);
    }
    exitCode = 1;
  } finally {
    await Promise.all(children.map(stopChild));
    if (process.env.KEEP_DATA === '1') console.log(`# kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}

await main();
