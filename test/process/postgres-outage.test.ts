/**
 * A database outage under a running server: an edit answers 502
 * upstream_unavailable and writes nothing; once PostgreSQL is back the server
 * serves again without a restart.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { openStore } from '../../src/store/open.ts';
import { freePort } from '../helpers/ports.ts';
import { TYPESCRIPT_ARGS } from '../helpers/typescript.ts';

const PG_BIN = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
const skip = fs.existsSync(path.join(PG_BIN, 'initdb')) ? false : 'PostgreSQL binaries are not installed';
const cluster = (...args: string[]) => execFileSync('scripts/pg-cluster.sh', args, { encoding: 'utf8', env: { ...process.env, PG_BIN } }).trim();

let dir = '';
let server: ChildProcess | null = null;
let base = '';
let token = '';

before(async () => {
  if (skip) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-outage-'));
  const databaseUrl = cluster('start', dir);
  const store = await openStore({ dataDir: dir, databaseUrl });
  await runAdminCommand(['user', 'create', '--email', 'outage@example.com', '--quota', '10'], store);
  token = ((await runAdminCommand(['token', 'mint', '--email', 'outage@example.com', '--caps', 'read,write'], store)) as { token: string }).token;
  await store.close();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [...TYPESCRIPT_ARGS, 'src/main.ts'], {
    // It renders nothing: one fast render worker instead of two faithful and two fast ones loading the editor for no test.
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'fatal', DATA_DIR: dir, RENDER_FAITHFUL: 'off', FAST_WORKERS: '1' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not become ready');
});

after(() => {
  server?.kill('SIGKILL');
  if (dir) cluster('stop', dir);
});

const call = (method: string, url: string, body?: unknown) =>
  fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });

test('an edit while PostgreSQL is down is 502 upstream_unavailable and writes nothing', { skip }, async () => {
  const created = await call('POST', '/api/v1/diagrams', { spec: { nodes: [{ id: 'api' }] } });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  const before = await (await call('GET', `/api/v1/diagrams/${id}`)).text();

  cluster('halt', dir);
  try {
    const edit = await call('POST', `/api/v1/diagrams/${id}/edit`, { addNodes: [{ id: 'db' }], addEdges: ['api -> db'] });
    assert.equal(edit.status, 502);
    assert.deepEqual(await edit.json(), { error: 'upstream_unavailable', message: 'the database could not be reached; nothing was written' });
    assert.equal((await fetch(`${base}/readyz`)).status, 502);
    assert.equal((await fetch(`${base}/healthz`)).status, 200, 'the process itself is fine');
  } finally {
    cluster('resume', dir);
  }

  let after = '';
  for (let i = 0; i < 50 && !after; i++) {
    const res = await call('GET', `/api/v1/diagrams/${id}`);
    if (res.ok) after = await res.text();
    else await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(after, before, 'nothing was written');
  const retried = await call('POST', `/api/v1/diagrams/${id}/edit`, { addNodes: [{ id: 'db' }], addEdges: ['api -> db'] });
  assert.equal(retried.status, 200, 'the server recovers without a restart');
});
