/**
 * `npm run bench:backup`: how fast `drawbridge-admin backup` and `restore`
 * go. Seeds a database with DIAGRAMS diagrams (default 2000) of ELEMENTS
 * rectangles each (default 40), each written EDITS more times (default 4; one
 * revision per write, so the revisions table holds binary payloads), then runs
 * the real `bin/drawbridge-admin backup --to FILE` and `restore --from FILE`
 * into a new database, and prints rows, sizes, wall times (the command's whole
 * run, Node's start included) and throughput. Then the same backup and restore
 * in this process (backupDatabase, restoreDatabase), timed alone, with the CPU
 * time they took: on a busy machine the CPU time says more than the wall time.
 *
 * SQLite in a temporary DATA_DIR by default; with DATABASE_URL set (a
 * PostgreSQL server it may create databases on), two new databases there.
 * Not a test: it prints figures and exits 0; it only fails on setup errors.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { restoreDatabase } from '../src/store/backup/restore.ts';
import { backupDatabase } from '../src/store/backup/write-backup.ts';
import { openStore, SQLITE_FILE_NAME, type StoreLocation } from '../src/store/open.ts';
import { random } from './service-spec.ts';
import { BASELINE_REVISION, createdRevision } from '../src/app/history/recording.ts';

const DIAGRAMS = Number(process.env.DIAGRAMS ?? 2000);
const ELEMENTS = Number(process.env.ELEMENTS ?? 40);
const EDITS = Number(process.env.EDITS ?? 4);
const SERVER_URL = process.env.DATABASE_URL || undefined;

const run = promisify(execFile);
const BIN = path.resolve('bin/drawbridge-admin');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-bench-backup-'));

async function freshLocation(): Promise<StoreLocation> {
  const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
  if (!SERVER_URL) return { dataDir, databaseUrl: undefined };
  const name = `drawbridge_bench_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { dataDir, databaseUrl: url.toString() };
}

const next = random(20261128);
const randomInt = (n: number) => Math.floor(next() * n);

/** Diagram `d`'s scene of `ELEMENTS` rectangles, as the editor would store them, at version `v`: positions, seeds and nonces differ from diagram to diagram, as people's do. */
function scene(d: number, v: number): { json: string; ids: Set<string> } {
  const elements = Array.from({ length: ELEMENTS }, (_, i) => ({
    id: `d${d}-${randomInt(1e9).toString(36)}-${i}`,
    type: 'rectangle',
    x: randomInt(4000) - 2000,
    y: randomInt(3000) - 1500,
    width: 160,
    height: 60,
    angle: 0,
    strokeColor: '#1e1e1e',
    backgroundColor: '#a5d8ff',
    fillStyle: 'solid',
    strokeWidth: 2,
    roughness: 1,
    opacity: 100,
    seed: randomInt(2 ** 31),
    version: v + 1,
    versionNonce: randomInt(2 ** 31),
    isDeleted: false,
    boundElements: null,
    updated: 1_700_000_000_000 + v,
    locked: false,
  }));
  return { json: JSON.stringify(elements), ids: new Set(elements.map((e) => e.id)) };
}

async function seed(location: StoreLocation): Promise<void> {
  const store = await openStore(location);
  try {
    const owner = await store.accounts.create({ id: randomUUID(), email: 'bench@example.com', emailVerified: true, quota: DIAGRAMS + 1, createdAt: new Date().toISOString() });
    for (let start = 0; start < DIAGRAMS; start += 50) {
      await store.transaction(async (tx) => {
        for (let d = start; d < Math.min(DIAGRAMS, start + 50); d++) {
          const id = randomUUID();
          const now = new Date().toISOString();
          const first = scene(d, 0);
          await tx.diagrams.create({ id, ownerId: owner.id, title: `Diagram ${d}`, folderId: null, workspaceId: null, starred: false, elementCount: ELEMENTS, createdAt: now, updatedAt: now, docUpdatedAt: now, deletedAt: null, elementsJson: first.json }, DIAGRAMS + 1, createdRevision({ userId: owner.id, via: null }, ELEMENTS));
          for (let v = 1; v <= EDITS; v++) {
            const later = scene(d, v);
            await tx.diagrams.writeContent({ id, elementsJson: later.json, elementCount: ELEMENTS, elementIds: later.ids, expectedDocUpdatedAt: null, now: new Date(), revision: { kind: 'patch', userId: owner.id, via: null, summary: `edit ${v}`, delta: null, baseline: BASELINE_REVISION } });
          }
        }
      });
    }
  } finally {
    await store.close();
  }
}

async function databaseBytes(location: StoreLocation): Promise<number> {
  if (!location.databaseUrl) return fs.statSync(path.join(location.dataDir, SQLITE_FILE_NAME)).size;
  const store = await openStore(location);
  try {
    const size = await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(store.db);
    return Number(size.rows[0]!.bytes);
  } finally {
    await store.close();
  }
}

async function timedAdmin(location: StoreLocation, args: string[]): Promise<{ result: any; seconds: number }> {
  const started = process.hrtime.bigint();
  const { stdout } = await run(BIN, args, { env: { ...process.env, DATA_DIR: location.dataDir, DATABASE_URL: location.databaseUrl ?? '' }, maxBuffer: 1 << 20 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { result: args[0] === '--help' ? null : JSON.parse(stdout), seconds };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Wall and CPU seconds (this process's, all threads: compression runs on libuv's) of `work`. */
async function timedHere(work: () => Promise<unknown>): Promise<{ seconds: number; cpuSeconds: number }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await work();
  const used = process.cpuUsage(cpu);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpuSeconds: (used.user + used.system) / 1e6 };
}

const line = (name: string, seconds: number, rows: number, dbBytes: number) =>
  `${name.padEnd(22)} ${seconds.toFixed(2).padStart(6)} s  ${Math.round(rows / seconds).toLocaleString('en').padStart(8)} rows/s  ${(dbBytes / 1e6 / seconds).toFixed(1).padStart(6)} MB/s of database`;

try {
  const source = await freshLocation();
  console.log(`engine ${SERVER_URL ? 'postgres' : 'sqlite'}: seeding ${DIAGRAMS} diagrams of ${ELEMENTS} elements, ${EDITS} edits each…`);
  await seed(source);
  const dbBytes = await databaseBytes(source);
  const file = path.join(scratch, 'bench.backup.gz');
  const backup = await timedAdmin(source, ['backup', '--to', file]);
  const target = await freshLocation();
  const restore = await timedAdmin(target, ['restore', '--from', file]);
  // The commands' start (Node, the TypeScript loader, the modules) is part of their wall time: shown apart.
  const startup = await timedAdmin(source, ['--help']).catch(() => null);
  const rows = backup.result.rows as number;
  console.log(`rows ${rows} (diagrams ${backup.result.tables.diagrams}, revisions ${backup.result.tables.revisions}); database ${mb(dbBytes)}; backup file ${mb(backup.result.bytes)}`);
  if (startup) console.log(`drawbridge-admin --help takes ${startup.seconds.toFixed(2)} s (the start every command pays)`);
  console.log(line('backup (command)', backup.seconds, rows, dbBytes));
  console.log(line('restore (command)', restore.seconds, rows, dbBytes));
  const again = path.join(scratch, 'again.backup.gz');
  const backupHere = await timedHere(() => backupDatabase(source, again, new Date()));
  const secondTarget = await freshLocation();
  const restoreHere = await timedHere(() => restoreDatabase(secondTarget, again));
  console.log(`${line('backup (in process)', backupHere.seconds, rows, dbBytes)}  ${backupHere.cpuSeconds.toFixed(2)} s of CPU`);
  console.log(`${line('restore (in process)', restoreHere.seconds, rows, dbBytes)}  ${restoreHere.cpuSeconds.toFixed(2)} s of CPU`);
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
