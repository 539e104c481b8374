/**
 * Two real server processes over one PostgreSQL database: the limits and
 * guarantees that only hold if they live in the database (rate-limit buckets,
 * the diagram quota, keyset pagination, the expectedUpdatedAt check of a
 * regenerate) must hold across instances too.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { openStore } from '../../src/store/open.ts';
import type { SqlStore } from '../../src/store/sql-store.ts';
import { freshPostgresDatabase, skipWithoutPostgres } from '../helpers/postgres.ts';
import { freePort } from '../helpers/ports.ts';
import { TYPESCRIPT_ARGS } from '../helpers/typescript.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const WRITE_LIMIT = 10;
const STARTUP_DEADLINE_MS = 60_000;
const STOP_GRACE_MS = 5_000;

// ---------------------------------------------------------------------------
// Server processes

interface ServerProcess {
  name: string;
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
}

const children = new Set<ChildProcess>();
// Last resort if the runner is torn down before the after hook: never leave a server behind.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(name: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...TYPESCRIPT_ARGS, 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const server: ServerProcess = { name, baseUrl: `http://127.0.0.1:${port}`, child, output: () => output };

  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`${server.baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${name} was not ready within ${STARTUP_DEADLINE_MS} ms:\n${output}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!graceful) {
    child.kill('SIGKILL');
    await exited;
  }
  children.delete(child);
}

// ---------------------------------------------------------------------------
// HTTP

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

async function call(server: ServerProcess, method: string, url: string, token: string, body?: unknown): Promise<Reply> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${server.baseUrl}${url}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** A minimal valid scene with `n` rectangles. */
function scene(n: number) {
  return {
    type: 'excalidraw',
    version: 2,
    elements: Array.from({ length: n }, (_, i) => ({ id: `el-${i}`, type: 'rectangle', x: i * 10, y: 0, width: 100, height: 50 })),
    appState: {},
  };
}

const createDiagram = (server: ServerProcess, token: string, title: string) =>
  call(server, 'POST', '/api/v1/diagrams', token, { title, scene: scene(1) });

/** `"write";r=3;t=42` → { bucket, remaining, reset } */
function parseRateLimit(header: string | null) {
  const match = /^"(read|write)";r=(\d+);t=(\d+)$/.exec(header ?? '');
  assert.ok(match, `RateLimit header is malformed: ${header}`);
  return { bucket: match[1], remaining: Number(match[2]), reset: Number(match[3]) };
}

interface ListItem {
  id: string;
  createdAt: string;
}

/** Every active diagram of the caller, paging until nextCursor is null. */
async function listAll(server: ServerProcess, token: string): Promise<ListItem[]> {
  const items: ListItem[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await call(server, 'GET', `/api/v1/diagrams?limit=100${query}`, token);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return items;
}

/** Newest first: createdAt descending, then id descending. */
const comesBefore = (a: ListItem, b: ListItem) => a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

// ---------------------------------------------------------------------------

describe('two server processes on one PostgreSQL database', { skip: skipWithoutPostgres, timeout: 240_000 }, () => {
  let store: SqlStore | undefined;
  let dataDir: string;
  /** Write limit 10 per minute (reads effectively unlimited). */
  let limited: [ServerProcess, ServerProcess];
  /** Limits high enough never to interfere. */
  let roomy: [ServerProcess, ServerProcess];
  let userCount = 0;

  async function newUser(quota: number): Promise<{ email: string; token: string }> {
    userCount += 1;
    const email = `two-servers-${process.pid}-${userCount}@example.com`;
    await runAdminCommand(['user', 'create', '--email', email, '--quota', String(quota)], store!);
    const minted = (await runAdminCommand(['token', 'mint', '--email', email, '--caps', 'read,write,publish,delete'], store!)) as { token: string };
    return { email, token: minted.token };
  }

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-two-servers-'));
    const databaseUrl = await freshPostgresDatabase();
    // Opening the store migrates the database before either server starts.
    store = await openStore({ dataDir, databaseUrl });
    // These servers render nothing: they start one fast render worker each instead of two faithful and two fast
    // ones, which would load the editor four times over for no test.
    const common = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PUBLIC_URL: 'http://drawbridge.test', RENDER_FAITHFUL: 'off', FAST_WORKERS: '1' };
    const limitedEnv = { ...common, RATE_LIMIT_WRITE_PER_MIN: String(WRITE_LIMIT), RATE_LIMIT_READ_PER_MIN: '100000' };
    const roomyEnv = { ...common, RATE_LIMIT_WRITE_PER_MIN: '100000', RATE_LIMIT_READ_PER_MIN: '100000' };
    const [la, lb, ra, rb] = await Promise.all([
      startServer('limited-a', limitedEnv),
      startServer('limited-b', limitedEnv),
      startServer('roomy-a', roomyEnv),
      startServer('roomy-b', roomyEnv),
    ]);
    limited = [la, lb];
    roomy = [ra, rb];
  });

  after(async () => {
    await Promise.all([...children].map(stopChild));
    await store?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("one user's write budget is shared by both servers: 10 writes pass, the rest are 429 rate_limited", async () => {
    const alice = await newUser(1000);
    const replies: Reply[] = [];
    for (let i = 0; i < 16; i += 1) {
      replies.push(await call(limited[i % 2]!, 'POST', '/api/v1/folders', alice.token, { name: `folder ${i}` }));
    }
    assert.deepEqual(
      replies.map((r) => r.status),
      [...Array(WRITE_LIMIT).fill(201), ...Array(16 - WRITE_LIMIT).fill(429)],
      'the first 10 writes (alternating servers) pass and every later one is refused',
    );
    replies.forEach((reply, i) => {
      assert.match(reply.headers.get('ratelimit-policy') ?? '', /"write";q=10;w=60/);
      const state = parseRateLimit(reply.headers.get('ratelimit'));
      assert.equal(state.bucket, 'write');
      // One counter across both processes: remaining counts down 9, 8, … 0 whichever server answers.
      assert.equal(state.remaining, Math.max(0, WRITE_LIMIT - 1 - i), `remaining after write ${i + 1}`);
    });
    for (const refused of replies.slice(WRITE_LIMIT)) {
      assert.equal(refused.body.error, 'rate_limited');
      const retryAfter = refused.headers.get('retry-after');
      assert.match(retryAfter ?? '', /^\d+$/, 'Retry-After is whole seconds');
      assert.ok(Number(retryAfter) >= 1, `Retry-After ${retryAfter} is at least 1`);
      assert.ok(Number(retryAfter) <= 60, `Retry-After ${retryAfter} is within the 60 s window`);
      assert.equal(parseRateLimit(refused.headers.get('ratelimit')).reset, Number(retryAfter), 'RateLimit t= agrees with Retry-After');
    }

    // Reads have their own bucket, on both servers; refused writes created nothing.
    for (const server of limited) {
      const read = await call(server, 'GET', '/api/v1/folders', alice.token);
      assert.equal(read.status, 200, `${server.name}: ${JSON.stringify(read.body)}`);
      assert.equal(parseRateLimit(read.headers.get('ratelimit')).bucket, 'read');
      assert.equal(read.body.items.length, WRITE_LIMIT);
    }
    // Reads did not refill the write bucket.
    const again = await call(limited[1], 'POST', '/api/v1/folders', alice.token, { name: 'still limited' });
    assert.equal(again.status, 429);

    // Another user on the same servers has a full budget of their own.
    const bob = await newUser(1000);
    for (const [i, server] of limited.entries()) {
      const write = await call(server, 'POST', '/api/v1/folders', bob.token, { name: `bob ${i}` });
      assert.equal(write.status, 201, `${server.name}: ${JSON.stringify(write.body)}`);
      assert.equal(parseRateLimit(write.headers.get('ratelimit')).remaining, WRITE_LIMIT - 1 - i);
    }
  });

  test('a concurrent burst of writes split across both servers admits exactly the limit', async () => {
    const carol = await newUser(1000);
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) => call(limited[i % 2]!, 'POST', '/api/v1/folders', carol.token, { name: `burst ${i}` })),
    );
    const passed = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status === 429);
    assert.equal(passed.length, WRITE_LIMIT, `statuses: ${replies.map((r) => r.status).join(',')}`);
    assert.equal(refused.length, 16 - WRITE_LIMIT);
    for (const reply of refused) assert.equal(reply.body.error, 'rate_limited');
    // Each admitted write saw its own count: the remaining values are exactly 9 … 0, none repeated.
    const remaining = passed.map((r) => parseRateLimit(r.headers.get('ratelimit')).remaining).sort((a, b) => a - b);
    assert.deepEqual(remaining, Array.from({ length: WRITE_LIMIT }, (_, i) => i));
    const folders = await call(limited[0], 'GET', '/api/v1/folders', carol.token);
    assert.equal(folders.body.items.length, WRITE_LIMIT);
  });

  for (const attempts of [4, 12]) {
    test(`a quota of 3 holds when ${attempts} creates race across both servers`, async () => {
      const dana = await newUser(3);
      const replies = await Promise.all(
        Array.from({ length: attempts }, (_, i) => createDiagram(roomy[i % 2]!, dana.token, `race ${i}`)),
      );
      const created = replies.filter((r) => r.status === 201);
      const refused = replies.filter((r) => r.status !== 201);
      assert.equal(created.length, 3, `statuses: ${replies.map((r) => r.status).join(',')}`);
      for (const reply of refused) {
        assert.equal(reply.status, 403);
        assert.equal(reply.body.error, 'quota_exceeded');
      }
      const createdIds = created.map((r) => r.body.id as string).sort();
      for (const server of roomy) {
        const listed = await call(server, 'GET', '/api/v1/diagrams', dana.token);
        assert.equal(listed.status, 200);
        assert.deepEqual(listed.body.items.map((d: ListItem) => d.id).sort(), createdIds, `${server.name} lists exactly the 3 created`);
        assert.equal(listed.body.nextCursor, null);
      }
    });
  }

  test('paging newest-first while both servers keep creating shows every earlier diagram exactly once, in order', async () => {
    const erin = await newUser(100_000);
    const initial = await Promise.all(Array.from({ length: 30 }, (_, i) => createDiagram(roomy[i % 2]!, erin.token, `before ${i}`)));
    for (const reply of initial) assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const existing = new Set(initial.map((r) => r.body.id as string));

    // Creators: one loop per server, running until paging is done.
    const createdDuring: string[] = [];
    let creationWaiters: Array<() => void> = [];
    const wakeWaiters = () => {
      const waiters = creationWaiters;
      creationWaiters = [];
      for (const wake of waiters) wake();
    };
    let paging = true;
    let creatorFailure: unknown = null;
    const creator = async (server: ServerProcess) => {
      try {
        for (let n = 0; paging; n += 1) {
          const reply = await createDiagram(server, erin.token, `during ${server.name} ${n}`);
          assert.equal(reply.status, 201, `${server.name}: ${JSON.stringify(reply.body)}`);
          createdDuring.push(reply.body.id);
          wakeWaiters();
        }
      } catch (error) {
        creatorFailure ??= error;
        wakeWaiters();
      }
    };
    const untilCreatedAtLeast = async (count: number) => {
      while (createdDuring.length < count) {
        if (creatorFailure !== null) throw creatorFailure;
        await new Promise<void>((resolve) => creationWaiters.push(resolve));
      }
    };

    const creators = Promise.all(roomy.map(creator));
    const pages: ListItem[][] = [];
    try {
      let cursor: string | null = null;
      do {
        // Make sure new diagrams land between every two pages, so an offset-based
        // listing would shift and repeat items.
        if (pages.length > 0) await untilCreatedAtLeast(createdDuring.length + 1);
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const page = await call(roomy[pages.length % 2]!, 'GET', `/api/v1/diagrams?limit=7${query}`, erin.token);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        pages.push(page.body.items);
        cursor = page.body.nextCursor;
        if (cursor !== null) assert.equal(page.body.items.length, 7, 'a page with a next cursor is full');
      } while (cursor !== null);
    } finally {
      paging = false;
      await creators;
    }
    if (creatorFailure !== null) throw creatorFailure;

    const seen = pages.flat();
    assert.ok(pages.length >= 5, `30 diagrams at 7 a page take at least 5 pages, got ${pages.length}`);
    const ids = seen.map((d) => d.id);
    assert.equal(new Set(ids).size, ids.length, 'no diagram appears twice');
    for (let i = 1; i < seen.length; i += 1) {
      assert.ok(comesBefore(seen[i - 1]!, seen[i]!), `items ${i - 1} and ${i} are out of order: ${JSON.stringify([seen[i - 1], seen[i]])}`);
    }
    for (const id of existing) {
      assert.equal(ids.filter((x) => x === id).length, 1, `diagram ${id}, created before paging, is listed exactly once`);
    }
    const known = new Set([...existing, ...createdDuring]);
    for (const id of ids) assert.ok(known.has(id), `listed diagram ${id} is one of the caller's`);

    // Once quiet, a full listing has every diagram the caller created, from either server.
    for (const server of roomy) {
      const all = (await listAll(server, erin.token)).map((d) => d.id).sort();
      assert.deepEqual(all, [...known].sort(), `${server.name} lists every created diagram`);
    }
  });

  test('of 10 regenerates racing with the same expectedUpdatedAt across both servers exactly one wins; the rest are 409 stale_read', async () => {
    const fay = await newUser(1000);
    /** A different small spec per writer: its ids name the writer. */
    const specOf = (tag: string) => ({ nodes: [{ id: `n${tag}` }, { id: `m${tag}`, shape: 'ellipse' }], edges: [`n${tag} -> m${tag}`] });
    const idsOf = (tag: string) => [`m${tag}`, `m${tag}-label`, `n${tag}`, `n${tag}-label`, `n${tag}-to-m${tag}`].sort();
    const read = async (server: ServerProcess, id: string) => {
      const reply = await call(server, 'GET', `/api/v1/diagrams/${id}`, fay.token);
      assert.equal(reply.status, 200, `${server.name}: ${JSON.stringify(reply.body)}`);
      return reply.body as { title: string; docUpdatedAt: string; scene: { elements: Array<{ id: string }> } };
    };
    const elementIds = (diagram: { scene: { elements: Array<{ id: string }> } }) => diagram.scene.elements.map((e) => e.id).sort();

    const created = await call(roomy[0], 'POST', '/api/v1/diagrams', fay.token, { title: 'Race', spec: specOf('-start') });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;

    // Three rounds, each racing from the revision the previous one left.
    for (let round = 0; round < 3; round += 1) {
      const before = await read(roomy[round % 2]!, id);
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(roomy[i % 2]!, 'POST', `/api/v1/diagrams/${id}/regenerate`, fay.token, { spec: specOf(`${round}w${i}`), expectedUpdatedAt: before.docUpdatedAt }),
        ),
      );
      const statuses = replies.map((r) => r.status);
      assert.deepEqual([...statuses].sort(), [200, ...Array(9).fill(409)], `round ${round}: statuses ${statuses.join(',')}`);
      const winner = statuses.indexOf(200);
      assert.deepEqual(replies[winner]!.body, { id, replaced: 5, orphanedComments: 0, layout: 'fresh' }, `round ${round}: the winner's result`);
      for (const refused of replies.filter((r) => r.status === 409)) {
        assert.equal(refused.body.error, 'stale_read', `round ${round}: ${JSON.stringify(refused.body)}`);
      }

      // Both servers now show the winner's scene, at one new revision: nothing of a loser was written.
      const [a, b] = await Promise.all([read(roomy[0], id), read(roomy[1], id)]);
      for (const [server, diagram] of [[roomy[0], a], [roomy[1], b]] as const) {
        assert.deepEqual(elementIds(diagram), idsOf(`${round}w${winner}`), `round ${round}: ${server.name} holds writer ${winner}'s elements`);
        assert.ok(diagram.docUpdatedAt > before.docUpdatedAt, `round ${round}: ${server.name} docUpdatedAt moved on from ${before.docUpdatedAt}`);
        assert.equal(diagram.title, 'Race');
      }
      assert.equal(a.docUpdatedAt, b.docUpdatedAt, `round ${round}: both servers report the same revision`);
    }

    // Without expectedUpdatedAt the write is forced, whichever server takes it.
    const settled = await read(roomy[1], id);
    const forced = await call(roomy[1], 'POST', `/api/v1/diagrams/${id}/regenerate`, fay.token, { spec: specOf('-forced') });
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    assert.deepEqual(forced.body, { id, replaced: 5, orphanedComments: 0, layout: 'fresh' });
    for (const server of roomy) {
      const diagram = await read(server, id);
      assert.deepEqual(elementIds(diagram), idsOf('-forced'), `${server.name} holds the forced regenerate's elements`);
      assert.ok(diagram.docUpdatedAt > settled.docUpdatedAt, `${server.name}: docUpdatedAt moved on`);
    }
  });
});
