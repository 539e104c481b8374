import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DrawbridgeApiError, DrawbridgeClient } from '../../src/client/client.ts';
import { configPath, resolveCredentials, writeStoredLogin } from '../../src/client/credentials.ts';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let alice: TestUser;
let apiUrl: string;
before(async () => {
  h = await startHarness();
  alice = await h.user();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
after(() => h.close());

describe('DrawbridgeClient against a running server', () => {
  test('covers the diagram lifecycle, folders, icons and editing', async () => {
    const client = new DrawbridgeClient({ apiUrl, token: alice.token });
    assert.equal((await client.me()).email, alice.email);
    const folder = await client.createFolder({ name: 'Client' });
    const created = await client.createDiagram({ title: 'Via client', folderId: folder.id, spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } });
    assert.equal(created.elementCount, 5);
    const diagram = await client.getDiagram(created.id);
    assert.equal(diagram.folderId, folder.id);
    assert.equal((await client.editDiagram(created.id, { addNodes: [{ id: 'c' }], addEdges: ['b -> c'] })).added.length, 2);
    assert.equal((await client.patchDiagram(created.id, { ops: [{ op: 'move', id: 'c', dx: 10, dy: 0 }] })).applied, 1);
    assert.deepEqual((await client.lintDiagram(created.id)).issues, []);
    await client.addComment(created.id, { elementId: 'a', body: 'hi' });
    assert.equal((await client.listComments(created.id)).items.length, 1);
    assert.equal((await client.regenerateDiagram(created.id, { scene: sceneOf(2) })).replaced, 2);
    assert.equal((await client.updateDiagram(created.id, { title: 'Renamed' })).title, 'Renamed');
    await client.trashDiagram(created.id);
    assert.equal((await client.listDiagrams({ filter: 'trash' })).items[0]!.id, created.id);
    await client.restoreDiagram(created.id);
    assert.ok((await client.setPublicLink(created.id, { enabled: true })).url);
    assert.ok((await client.listIcons({ q: 'postgres' })).items.some((i) => i.id === 'icon-postgresql'));
    assert.match((await client.getIcon('icon-database')).toString('utf8'), /^<svg/);
    await client.renameFolder(folder.id, { name: 'Renamed' });
    await client.deleteFolder(folder.id);
    assert.deepEqual((await client.listFolders()).items, []);
  });

  test('allDiagrams follows cursors across pages', async () => {
    const bob = await h.user();
    const client = new DrawbridgeClient({ apiUrl, token: bob.token });
    for (let i = 0; i < 5; i++) await client.createDiagram({ title: `d${i}`, scene: sceneOf(1) });
    const titles: string[] = [];
    for await (const d of client.allDiagrams({ pageSize: 2 })) titles.push(d.title);
    assert.deepEqual(titles, ['d4', 'd3', 'd2', 'd1', 'd0']);
  });

  test('every failure surfaces the server code, message and request id', async () => {
    const client = new DrawbridgeClient({ apiUrl, token: alice.token });
    await assert.rejects(client.getDiagram('00000000-0000-4000-8000-000000000000'), (error: unknown) => {
      assert.ok(error instanceof DrawbridgeApiError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'not_found');
      assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/);
      return true;
    });
    await assert.rejects(client.createDiagram({ spec: { nodes: [{ id: 'a', shape: 'star' }] } }), { code: 'UNKNOWN_SHAPE', status: 422, message: /nodes\[0\]/ });
    await assert.rejects(new DrawbridgeClient({ apiUrl, token: null }).me(), { code: 'unauthorized', status: 401 });
  });
});

test('a 429 is retried after its Retry-After, a bounded number of times', async () => {
  let calls = 0;
  const server = http.createServer((_req, res) => {
    calls += 1;
    if (calls === 1) {
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"rate_limited"}');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"u","email":"e","capabilities":[],"scope":"read"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    assert.equal((await new DrawbridgeClient({ apiUrl: url, token: 'x' }).me()).email, 'e');
    assert.equal(calls, 2);
    calls = 0;
    await assert.rejects(new DrawbridgeClient({ apiUrl: url, token: 'x', maxRetries: 0 }).me(), { code: 'rate_limited', status: 429 });
  } finally {
    server.close();
  }
});

describe('credentials', () => {
  test('SERVICE_TOKEN wins over the stored login, which is written atomically with mode 600', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-home-'));
    try {
      const env = { HOME: home };
      assert.deepEqual(resolveCredentials(env), { token: null, apiUrl: 'http://localhost:8080', source: 'none' });
      const file = configPath(env);
      assert.equal(file, path.join(home, '.config', 'drawbridge', 'config.json'));
      writeStoredLogin(file, { token: 'stored', apiUrl: 'https://draw.example.com/' });
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(fs.readdirSync(path.dirname(file)), ['config.json'], 'no temp file left behind');
      assert.deepEqual(resolveCredentials(env), { token: 'stored', apiUrl: 'https://draw.example.com', source: 'config' });
      assert.deepEqual(resolveCredentials({ ...env, SERVICE_TOKEN: 'from-env', SERVICE_API_URL: 'http://x:1' }), { token: 'from-env', apiUrl: 'http://x:1', source: 'env' });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
