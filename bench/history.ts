/**
 * `npm run bench:history`: what diagram history costs. Two real server
 * processes, each on its own DATA_DIR: one with history on, its peer with
 * HISTORY=off. The same 1000-element diagram is created on both and gets the
 * same RUNS small patches (a move of 1–3 shapes, a restyle, a relabel, in
 * turn), sent to the two alternately, the order flipping each patch, so that
 * machine noise falls on both alike.
 *
 * Then, on the server with history: reads of the oldest revision, a middle
 * one and the one deepest in a delta chain, interleaved with GETs of the
 * current diagram; diffs of r2 against the newest; and, from its SQLite file,
 * the bytes the revisions hold beside the size of one full scene.
 *
 * Targets: a small patch stores under 5 % of a full scene on average; reading
 * a revision p50 under 50 ms; a patch with history p50 under 1.10× the patch
 * without. Not a test: it prints figures and exits 0 whatever they are; it
 * only fails on setup errors. Environment: RUNS (patches, default 1000), READS
 * (reads of each kind, default 50).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { SQLITE_FILE_NAME } from '../src/store/open.ts';
import { percentile, random, SERVICE_NODES, serviceSpec } from './service-spec.ts';
import { runBenchmark, seedBenchUser, startApiServer } from './processes.ts';

const RUNS = Number(process.env.RUNS ?? 1000);
const READS = Number(process.env.READS ?? 50);

const TARGET_STORED_SHARE = 0.05;
const TARGET_READ_MS = 50;
const TARGET_WRITE_RATIO = 1.1;


const PALETTE = ['#ffc9c9', '#b2f2bb', '#a5d8ff', '#ffec99', '#eebefa', '#ffffff'];

/** The patches, in turn: move 1–3 shapes by a few px, restyle one shape, relabel one shape's label. */
function patchSequence(runs: number, labelOf: ReadonlyMap<string, string>): unknown[][] {
  const next = random(20240601);
  const pick = (n: number) => Math.floor(next() * n);
  const node = () => `n${pick(SERVICE_NODES)}`;
  return Array.from({ length: runs }, (_, i) => {
    switch (i % 3) {
      case 0:
        return Array.from({ length: 1 + pick(3) }, () => ({ op: 'move', id: node(), dx: pick(41) - 20, dy: pick(41) - 20 }));
      case 1:
        return [{ op: 'restyle', id: node(), backgroundColor: PALETTE[pick(PALETTE.length)] }];
      default: {
        const target = node();
        return [{ op: 'update', id: labelOf.get(target)!, set: { text: `Service ${target.slice(1)} v${i}` } }];
      }
    }
  });
}

const sorted = (times: number[]) => [...times].sort((a, b) => a - b);
const ms = (t: number) => `${t.toFixed(1).padStart(7)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(9)} KiB`;

async function timedRequest(request: () => Promise<Response>): Promise<number> {
  const start = performance.now();
  const res = await request();
  const body = await res.text();
  const elapsed = performance.now() - start;
  if (!res.ok) throw new Error(`answered ${res.status}: ${body.slice(0, 300)}`);
  return elapsed;
}

interface Server {
  base: string;
  dataDir: string;
  headers: Record<string, string>;
  diagramId: string;
}

async function startServer(root: string, name: string, env: NodeJS.ProcessEnv): Promise<Omit<Server, 'diagramId'>> {
  const dataDir = path.join(root, name);
  fs.mkdirSync(dataDir);
  const token = await seedBenchUser(dataDir, 'read,write');
  const { base } = await startApiServer(dataDir, env, `server (${name})`);
  return { base, dataDir, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

async function createDiagram(server: Omit<Server, 'diagramId'>): Promise<Server & { elementCount: number }> {
  const res = await fetch(`${server.base}/api/v1/diagrams`, { method: 'POST', headers: server.headers, body: JSON.stringify({ spec: serviceSpec() }) });
  if (!res.ok) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  const { id, elementCount } = (await res.json()) as { id: string; elementCount: number };
  return { ...server, diagramId: id, elementCount };
}

/** Each node's label element, from the scene as the server laid it out. */
async function labelsOf(server: Server): Promise<Map<string, string>> {
  const res = await fetch(`${server.base}/api/v1/diagrams/${server.diagramId}`, { headers: server.headers });
  const { scene } = (await res.json()) as { scene: { elements: { id: string; type: string; containerId?: string | null }[] } };
  const labels = new Map<string, string>();
  for (const element of scene.elements) if (element.type === 'text' && element.containerId) labels.set(element.containerId, element.id);
  for (let i = 0; i < SERVICE_NODES; i++) if (!labels.has(`n${i}`)) throw new Error(`node n${i} has no label element`);
  return labels;
}

const patch = (server: Server, ops: unknown[]) => () =>
  fetch(`${server.base}/api/v1/diagrams/${server.diagramId}/patch`, { method: 'POST', headers: server.headers, body: JSON.stringify({ ops }) });
const get = (server: Server, url: string) => () => fetch(`${server.base}/api/v1/diagrams/${server.diagramId}${url}`, { headers: server.headers });

interface StoredHistory {
  revisions: number;
  payloadBytes: number;
  snapshots: { count: number; bytes: number };
  deltas: { count: number; bytes: number };
  deepestSeq: number;
  deepestChain: number;
  sceneJsonBytes: number;
  sceneGzipBytes: number;
}

/** What the server's SQLite file holds for the diagram (read-only, beside the running server). */
function storedHistory(server: Server): StoredHistory {
  const db = new SQLite(path.join(server.dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    const byEncoding = db
      .prepare('SELECT encoding, count(*) AS count, coalesce(sum(length(payload)), 0) AS bytes FROM revisions WHERE diagram_id = ? GROUP BY encoding')
      .all(server.diagramId) as { encoding: string | null; count: number; bytes: number }[];
    const of = (encoding: string) => byEncoding.find((r) => r.encoding === encoding) ?? { count: 0, bytes: 0 };
    const deepest = db
      .prepare('SELECT seq, chain_length FROM revisions WHERE diagram_id = ? AND encoding IS NOT NULL ORDER BY chain_length DESC, seq ASC LIMIT 1')
      .get(server.diagramId) as { seq: number; chain_length: number } | undefined;
    const { elements } = db.prepare('SELECT elements FROM diagrams WHERE id = ?').get(server.diagramId) as { elements: string };
    return {
      revisions: byEncoding.reduce((n, r) => n + r.count, 0),
      payloadBytes: byEncoding.reduce((n, r) => n + r.bytes, 0),
      snapshots: of('snapshot'),
      deltas: of('delta'),
      deepestSeq: deepest?.seq ?? 1,
      deepestChain: deepest?.chain_length ?? 0,
      sceneJsonBytes: Buffer.byteLength(elements),
      sceneGzipBytes: gzipSync(elements).length,
    };
  } finally {
    db.close();
  }
}

function revisionCount(server: Server): number {
  const db = new SQLite(path.join(server.dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM revisions').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Runs each request kind READS times, round-robin, so all kinds see the same machine. */
async function interleavedReads(kinds: Record<string, () => Promise<Response>>): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (const request of Object.values(kinds)) await timedRequest(request); // warm-up, untimed
  for (let i = 0; i < READS; i++) for (const [name, request] of Object.entries(kinds)) times[name]!.push(await timedRequest(request));
  return Object.fromEntries(Object.entries(times).map(([k, t]) => [k, sorted(t)]));
}

await runBenchmark('bench:history', async (root) => {
  const [historyOn, historyOff] = await Promise.all([
    startServer(root, 'history-on', {}).then(createDiagram),
    startServer(root, 'history-off', { HISTORY: 'off' }).then(createDiagram),
  ]);
  if (historyOn.elementCount !== historyOff.elementCount) throw new Error(`the two diagrams differ: ${historyOn.elementCount} and ${historyOff.elementCount} elements`);
  const patches = patchSequence(RUNS, await labelsOf(historyOn));

  console.log(`# Drawbridge history benchmark — ${os.cpus().length} CPU(s), node ${process.version}, SQLite; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`# diagram of ${historyOn.elementCount} elements; ${RUNS} small patches (move 1–3 shapes / restyle / relabel, in turn) to a server with history and to its peer with HISTORY=off, alternately`);

  for (const server of [historyOn, historyOff]) await timedRequest(patch(server, [{ op: 'move', id: 'n0', dx: 0, dy: 1 }])); // warm-up, untimed
  const withHistory: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const on = () => timedRequest(patch(historyOn, patches[i]!)).then((t) => withHistory.push(t));
    const off = () => timedRequest(patch(historyOff, patches[i]!)).then((t) => without.push(t));
    if (i % 2 === 0) await on().then(off);
    else await off().then(on);
  }
  if (revisionCount(historyOff) !== 0) throw new Error(`the HISTORY=off server recorded ${revisionCount(historyOff)} revisions`);

  const stored = storedHistory(historyOn);
  const newest = stored.revisions;
  const middle = Math.ceil(newest / 2);
  const reads = await interleavedReads({
    current: get(historyOn, ''),
    oldest: get(historyOn, '/revisions/r1'),
    middle: get(historyOn, `/revisions/r${middle}`),
    deepest: get(historyOn, `/revisions/r${stored.deepestSeq}`),
    diff: get(historyOn, `/revisions/r2/diff?against=r${newest}`),
  });

  const perRevision = stored.payloadBytes / stored.revisions;
  const perDelta = stored.deltas.count === 0 ? 0 : stored.deltas.bytes / stored.deltas.count;
  const share = perRevision / stored.sceneJsonBytes;

  const line = (label: string, figure: string, beside = '') => console.log(`${label.padEnd(44)} ${figure}${beside ? `   ${beside}` : ''}`);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(3)}×`;
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(2)} %`;

  console.log('');
  console.log('## storage (SQLite file of the server with history)');
  line('one full scene: elements JSON', kb(stored.sceneJsonBytes));
  line('one full scene: elements JSON, gzip', kb(stored.sceneGzipBytes), `${pct(stored.sceneGzipBytes, stored.sceneJsonBytes)} of the JSON`);
  // The revisions are the create's, an untimed warm-up patch's and the RUNS patches'.
  line(`revisions (${stored.snapshots.count} snapshots, ${stored.deltas.count} deltas)`, String(stored.revisions).padStart(13), `longest chain ${stored.deepestChain} deltas (r${stored.deepestSeq})`);
  line('bytes stored per revision, average', kb(perRevision), `${pct(perRevision, stored.sceneJsonBytes)} of the scene JSON, ${pct(perRevision, stored.sceneGzipBytes)} of its gzip`);
  line('  per delta revision, average', kb(perDelta), `${pct(perDelta, stored.sceneJsonBytes)} of the scene JSON`);
  line('  per snapshot revision, average', kb(stored.snapshots.count === 0 ? 0 : stored.snapshots.bytes / stored.snapshots.count));
  line('history, total', kb(stored.payloadBytes), `${ratio(stored.payloadBytes, stored.revisions * stored.sceneJsonBytes)} ${stored.revisions} uncompressed copies (${kb(stored.revisions * stored.sceneJsonBytes).trim()})`);

  console.log('');
  console.log(`## reads on the server with history, p50 / p90 over ${READS} each, interleaved`);
  const current = reads.current!;
  const readLine = (label: string, t: number[]) => line(label, `p50 ${ms(percentile(t, 0.5))}   p90 ${ms(percentile(t, 0.9))}`, `${ratio(percentile(t, 0.5), percentile(current, 0.5))} GET current`);
  readLine('GET /diagrams/:id (current, the peer)', current);
  readLine('GET …/revisions/r1 (oldest)', reads.oldest!);
  readLine(`GET …/revisions/r${middle} (middle)`, reads.middle!);
  readLine(`GET …/revisions/r${stored.deepestSeq} (deepest in a chain)`, reads.deepest!);
  readLine(`GET …/revisions/r2/diff?against=r${newest}`, reads.diff!);

  console.log('');
  console.log(`## writes: POST /patch p50 / p90 over ${RUNS}, with history beside HISTORY=off`);
  const on = sorted(withHistory);
  const off = sorted(without);
  line('POST /patch, HISTORY=off (the peer)', `p50 ${ms(percentile(off, 0.5))}   p90 ${ms(percentile(off, 0.9))}`);
  line('POST /patch, history on', `p50 ${ms(percentile(on, 0.5))}   p90 ${ms(percentile(on, 0.9))}`, `p50 ${ratio(percentile(on, 0.5), percentile(off, 0.5))}   p90 ${ratio(percentile(on, 0.9), percentile(off, 0.9))} the peer`);

  console.log('');
  const slowestRead = Math.max(...[reads.oldest!, reads.middle!, reads.deepest!].map((t) => percentile(t, 0.5)));
  const writeRatio = percentile(on, 0.5) / percentile(off, 0.5);
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  console.log(`target: bytes per revision < ${TARGET_STORED_SHARE * 100} % of a full scene (JSON): ${pct(perRevision, stored.sceneJsonBytes)} — ${verdict(share < TARGET_STORED_SHARE)}`);
  console.log(`target: revision read p50 < ${TARGET_READ_MS} ms (slowest of oldest, middle, deepest): ${slowestRead.toFixed(1)} ms — ${verdict(slowestRead < TARGET_READ_MS)}`);
  console.log(`target: patch p50 with history < ${TARGET_WRITE_RATIO}× without: ${writeRatio.toFixed(3)}× — ${verdict(writeRatio < TARGET_WRITE_RATIO)}`);
});
