/**
 * Crash safety on SQLite: the real server, killed with SIGKILL while creates
 * are in flight, must keep every create it acknowledged (201) and leave a
 * database that passes `PRAGMA integrity_check`, round after round on the
 * same DATA_DIR. Nothing here depends on timing: the kill comes after a
 * number of acknowledgements, with writers still waiting on answers.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { SQLITE_FILE_NAME } from '../../src/store/open.ts';
import { answersAs, freePort } from '../helpers/ports.ts';
import { TYPESCRIPT_ARGS } from '../helpers/typescript.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const ROUNDS = 3;
const WRITERS = 8;
/** Acknowledged creates per round before the kill; varied so the kill lands at different points. */
const ACKS_BEFORE_KILL = [50, 80, 120];
const STARTUP_DEADLINE_MS = 60_000;
const STOP_GRACE_MS = 10_000;

const children = new Set<ChildProcess>();
// Last resort if the runner is torn down before the after hook: never leave a server behind.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

let dataDir: string;
let token: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin(...argv: string[]): Promise<any> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/drawbridge-admin', ...argv], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  });
  return JSON.parse(stdout);
}

// ---------------------------------------------------------------------------
// The server process

interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  exited: Promise<void>;
  output(): string;
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Starts the server on a free port. Another test's server may take the port first (freePort only found it free):
 * then this one cannot listen, and the other answers. Each start has a PUBLIC_URL of its own to tell them apart;
 * a start that lost its port is stopped and made again on another.
 */
async function startServer(): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const server = await startServerOnce();
    if (server !== null) return server;
    assert.ok(attempt < 3, 'the server found its port taken by another three times');
  }
}

async function startServerOnce(): Promise<ServerProcess | null> {
  const port = await freePort();
  const publicUrl = `http://crash-${randomUUID()}.test`;
  const child = spawn(process.execPath, [...TYPESCRIPT_ARGS, 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_WRITE_PER_MIN: '1000000',
      RATE_LIMIT_READ_PER_MIN: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const server: ServerProcess = { baseUrl: `http://127.0.0.1:${port}`, child, exited, output: () => output };

  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (!isRunning(child)) {
      if (output.includes('EADDRINUSE')) return null;
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it was up:\n${output}`);
    }
    try {
      const res = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) {
        if (await answersAs(server.baseUrl, publicUrl)) return server;
        // Another server holds the port: this one cannot listen on it.
        if (isRunning(child)) child.kill('SIGKILL');
        await exited;
        return null;
      }
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`the server was not up within ${STARTUP_DEADLINE_MS} ms:\n${output}`);
}

async function stopServer(server: ServerProcess): Promise<void> {
  if (!isRunning(server.child)) return server.exited;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), STOP_GRACE_MS);
  await server.exited;
  clearTimeout(timer);
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-crash-'));
  await admin('user', 'create', '--email', 'crash@example.com', '--quota', '1000000');
  token = (await admin('token', 'mint', '--email', 'crash@example.com', '--caps', 'read,write')).token;
});

after(async () => {
  for (const child of children) if (isRunning(child)) child.kill('SIGKILL');
  await Promise.all([...children].map((child) => (isRunning(child) ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Writing until the kill

interface Attempt {
  title: string;
  elements: Array<Record<string, unknown>>;
  /** Set when the server answered 201. */
  id?: string;
}

/** A distinct create per writer and sequence number; every fifth carries about 100 KB of text. */
function attemptFor(round: number, writer: number, n: number): Attempt {
  const count = 1 + ((writer * 7 + n) % 40);
  return {
    title: `round ${round} writer ${writer} #${n} — ünïcødé 😀`,
    elements: Array.from({ length: count }, (_, i) => ({
      id: `r${round}-w${writer}-n${n}-e${i}`,
      type: i % 3 === 0 ? 'text' : 'rectangle',
      x: i * 10,
      y: n,
      width: 100,
      height: 50,
      ...(i === 0 && n % 5 === 0 ? { text: `${'lorem ipsum '.repeat(8_500)}${n}` } : {}),
    })),
  };
}

interface RoundReport {
  /** Requests other writers still had open at the moment of the kill. */
  inFlightAtKill: number;
  /** Complete answers other than 201, and connection failures before the kill. */
  unexpected: string[];
}

/**
 * Runs WRITERS concurrent create loops against the server and SIGKILLs it on the
 * `killAfter`-th acknowledgement. Every attempt is appended to `attempts`.
 */
async function writeUntilKilled(server: ServerProcess, round: number, killAfter: number, attempts: Attempt[]): Promise<RoundReport> {
  let stopped = false;
  let killed = false;
  let acknowledged = 0;
  let inFlight = 0;
  let inFlightAtKill = 0;
  const unexpected: string[] = [];

  async function writer(w: number): Promise<void> {
    for (let n = 0; !stopped; n++) {
      const attempt = attemptFor(round, w, n);
      attempts.push(attempt);
      inFlight++;
      try {
        const res = await fetch(`${server.baseUrl}/api/v1/diagrams`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: attempt.title, scene: { elements: attempt.elements } }),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await res.text();
        if (res.status !== 201) {
          unexpected.push(`${res.status} ${text.slice(0, 300)}`);
          continue;
        }
        attempt.id = JSON.parse(text).id;
        acknowledged++;
        if (acknowledged === killAfter) {
          inFlightAtKill = inFlight - 1;
          killed = true;
          stopped = true;
          server.child.kill('SIGKILL');
        }
      } catch (error) {
        if (!killed) {
          unexpected.push(`before the kill: ${(error as Error).message} ${String((error as Error).cause ?? '')}`);
          stopped = true;
        }
      } finally {
        inFlight--;
      }
    }
  }

  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  if (!killed) server.child.kill('SIGKILL');
  await server.exited;
  return { inFlightAtKill, unexpected };
}

// ---------------------------------------------------------------------------
// Checking what survived

const acknowledgedOf = (attempts: Attempt[]) => attempts.filter((a): a is Attempt & { id: string } => a.id !== undefined);

async function assertReadableOverHttp(server: ServerProcess, attempts: Attempt[]): Promise<void> {
  for (const attempt of acknowledgedOf(attempts)) {
    const res = await fetch(`${server.baseUrl}/api/v1/diagrams/${attempt.id}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    assert.equal(res.status, 200, `acknowledged diagram ${attempt.id} ("${attempt.title}") reads back after the restart: ${text.slice(0, 300)}`);
    const diagram = JSON.parse(text);
    assert.equal(diagram.title, attempt.title);
    assert.equal(JSON.stringify(diagram.scene.elements), JSON.stringify(attempt.elements), `elements of ${attempt.id}`);
  }
}

/**
 * Opens the database file directly: integrity_check must say ok, every
 * acknowledged create must be there, and every stored diagram must be one the
 * test sent, whole. Read-only keeps the WAL for the next server to recover.
 */
function assertDatabaseSound(attempts: Attempt[], options: { readonly: boolean }): void {
  const db = new SQLite(path.join(dataDir, SQLITE_FILE_NAME), { readonly: options.readonly, fileMustExist: true });
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    const rows = db.prepare('select id, title, elements, element_count from diagrams').all() as Array<{
      id: string;
      title: string;
      elements: string;
      element_count: number;
    }>;
    const rowById = new Map(rows.map((row) => [row.id, row]));
    for (const attempt of acknowledgedOf(attempts)) {
      const row = rowById.get(attempt.id);
      assert.ok(row, `acknowledged diagram ${attempt.id} ("${attempt.title}") is in the database`);
      assert.equal(row.title, attempt.title);
      assert.equal(row.elements, JSON.stringify(attempt.elements));
    }
    const attemptByTitle = new Map(attempts.map((a) => [a.title, a]));
    for (const row of rows) {
      const attempt = attemptByTitle.get(row.title);
      assert.ok(attempt, `stored diagram ${row.id} ("${row.title}") is one the test sent`);
      if (attempt.id !== undefined) assert.equal(row.id, attempt.id, `"${row.title}" is stored once, under its acknowledged id`);
      assert.equal(row.elements, JSON.stringify(attempt.elements), `diagram ${row.id} is stored whole`);
      assert.equal(row.element_count, attempt.elements.length);
    }
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------

test('every create acknowledged before a SIGKILL survives a restart, round after round, and the database stays intact', { timeout: 300_000 }, async () => {
  const attempts: Attempt[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const server = await startServer();
    try {
      // After a crash, the restarted server recovers the database and serves everything acknowledged.
      await assertReadableOverHttp(server, attempts);
      const killAfter = ACKS_BEFORE_KILL[(round - 1) % ACKS_BEFORE_KILL.length]!;
      const before = acknowledgedOf(attempts).length;
      const report = await writeUntilKilled(server, round, killAfter, attempts);
      assert.deepEqual(report.unexpected, [], `round ${round}: every answer before the kill is 201\n${server.output()}`);
      assert.ok(acknowledgedOf(attempts).length - before >= killAfter, `round ${round}: the kill came after ${killAfter} acknowledgements`);
      assert.ok(report.inFlightAtKill > 0, `round ${round}: creates were in flight when the server was killed`);
    } finally {
      if (isRunning(server.child)) server.child.kill('SIGKILL');
      await server.exited;
    }
    assertDatabaseSound(attempts, { readonly: true });
  }

  const server = await startServer();
  try {
    await assertReadableOverHttp(server, attempts);
  } finally {
    await stopServer(server);
  }
  assertDatabaseSound(attempts, { readonly: false });
});
