import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DrawbridgeApiError, DrawbridgeClient } from '../../src/client/client.ts';
import { configPath, resolveCredentials, writeStoredLogin } from '../../src/client/credentials.ts';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

let h: Harness;
let alice: TestUser;
let apiUrl: string;
describe('client/client', () => {
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

  describe('history through the client against a running server', () => {
    test('lists, pages, reads, diffs and restores revisions, and renders one', async () => {
      const bob = await h.user();
      const client = new DrawbridgeClient({ apiUrl, token: bob.token });
      const { id } = await client.createDiagram({ scene: sceneOf(2) });
      const original = (await client.getDiagram(id)).scene.elements;
      await client.patchDiagram(id, { ops: [{ op: 'delete', id: String(original[1]!.id) }] });
      await client.patchDiagram(id, { ops: [{ op: 'move', id: String(original[0]!.id), dx: 40, dy: 0 }] });

      const page = await client.listRevisions(id, { limit: 2 });
      assert.deepEqual(page.items.map((r) => r.kind), ['patch', 'patch']);
      assert.ok(page.nextCursor);
      const all: string[] = [];
      for await (const item of client.allRevisions(id, { pageSize: 2 })) all.push(item.kind);
      assert.deepEqual(all, ['patch', 'patch', 'create']);
      const [moved, deleted, created] = (await client.listRevisions(id)).items;

      const then = await client.getRevision(id, created!.rev);
      assert.equal(then.rev, created!.rev);
      assert.deepEqual(then.scene.elements, original);
      const diff = await client.diffRevisions(id, deleted!.rev);
      assert.deepEqual(diff.removed, [String(original[1]!.id)]);
      assert.equal(diff.from, created!.rev);
      const across = await client.diffRevisions(id, moved!.rev, created!.rev);
      assert.equal(across.from, created!.rev);
      assert.deepEqual(across.removed, [String(original[1]!.id)]);
      assert.deepEqual(across.changed.map((c) => c.id), [String(original[0]!.id)]);

      const envelope = await client.renderDiagram(id, { rev: created!.rev });
      assert.equal(envelope.elementCount, 2);
      const png = await client.renderDiagram(id, { format: 'png', quality: 'fast', rev: created!.rev });
      assert.equal(pngSize(png.bytes!).width, 1024);

      const { docUpdatedAt } = await client.getDiagram(id);
      await assert.rejects(client.restoreRevision(id, created!.rev, { expectedUpdatedAt: created!.at }), { code: 'stale_read', status: 409 });
      const restored = await client.restoreRevision(id, created!.rev, { expectedUpdatedAt: docUpdatedAt! });
      assert.equal(restored.restoredFrom, created!.rev);
      assert.equal(restored.elements, 2);
      // As it was, but for the editor's bookkeeping of the element the restore changed back (version, versionNonce, updated).
      const content = (elements: Array<Record<string, unknown>>) => elements.map(({ version: _v, versionNonce: _n, updated: _u, ...rest }) => rest);
      assert.deepEqual(content((await client.getDiagram(id)).scene.elements), content(original));
      await assert.rejects(client.getRevision(id, 'r999999'), { code: 'not_found', status: 404 });
    });
  });

  /** What the server logged for each request it answered: URL and status, in order. */
  function answered(server: Harness): Array<{ url: string; status: number }> {
    const urls = new Map<string, string>();
    const out: Array<{ url: string; status: number }> = [];
    for (const line of server.logs().split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line);
      if (entry.msg === 'incoming request') urls.set(entry.reqId, entry.req.url);
      if (entry.msg === 'request completed') out.push({ url: urls.get(entry.reqId) ?? '?', status: entry.res.statusCode });
    }
    return out;
  }

  test('a 429 is retried after its Retry-After (capped), a bounded number of times', async () => {
    const limited = await startHarness({ env: { RATE_LIMIT_READ_PER_MIN: '1' } });
    try {
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(limited.app.server.address() as AddressInfo).port}`;
      const user = await limited.user();
      const refused = () => answered(limited).filter((a) => a.status === 429).length;
      // the window's one read
      assert.equal((await new DrawbridgeClient({ apiUrl: url, token: user.token }).me()).email, user.email);
      // the server asks for about a minute
      const direct = await fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${user.token}` } });
      assert.equal(direct.status, 429);
      assert.ok(Number(direct.headers.get('retry-after')) > 1, `retry-after: ${direct.headers.get('retry-after')}`);
      assert.equal(refused(), 1);

      // no retries: the first 429 is the answer
      await assert.rejects(new DrawbridgeClient({ apiUrl: url, token: user.token, maxRetries: 0 }).me(), { code: 'rate_limited', status: 429 });
      assert.equal(refused(), 2);

      // two retries, each after the server's Retry-After capped at 1 s: three requests, then the error
      const started = Date.now();
      await assert.rejects(new DrawbridgeClient({ apiUrl: url, token: user.token, maxRetries: 2, maxRetryAfterSeconds: 1 }).me(), { code: 'rate_limited', status: 429 });
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 1900 && elapsed < 10_000, `waited ${elapsed} ms`);
      assert.equal(refused(), 5);
    } finally {
      await limited.close();
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

  describe('renderDiagram against a running server', () => {
    test('json is the envelope; png and svg are bytes with the delivered quality; an empty scene is null bytes', async () => {
      const client = new DrawbridgeClient({ apiUrl, token: alice.token });
      const { id } = await client.createDiagram({ scene: sceneOf(2) });

      const envelope = await client.renderDiagram(id);
      assert.equal(envelope.isEmpty, false);
      assert.equal(envelope.elementCount, 2);
      assert.match(envelope.svg ?? '', /<svg[\s>]/);
      assert.equal(pngSize(Buffer.from(envelope.png!, 'base64')).width, 1024);
      assert.equal(envelope.quality, 'faithful');
      assert.equal(envelope.note, undefined);

      const png = await client.renderDiagram(id, { format: 'png', quality: 'fast' });
      assert.equal(pngSize(png.bytes!).width, 1024);
      assert.deepEqual({ ...png, bytes: null }, { bytes: null, contentType: 'image/png', quality: 'fast', note: null });

      const svg = await client.renderDiagram(id, { format: 'svg', quality: 'faithful' });
      assert.match(Buffer.from(svg.bytes!).toString('utf8'), /<svg[\s>]/);
      assert.match(svg.contentType, /^image\/svg\+xml\b/);
      assert.equal(svg.quality, 'faithful');
      assert.equal(svg.note, null);

      const { id: emptyId } = await client.createDiagram({ scene: { elements: [] } });
      assert.deepEqual(await client.renderDiagram(emptyId), { isEmpty: true, elementCount: 0, svg: null, png: null, quality: 'fast' });
      const empty = await client.renderDiagram(emptyId, { format: 'svg' });
      assert.equal(empty.bytes, null);
      assert.equal(empty.quality, 'fast');
      assert.equal(empty.note, null);

      // what was asked: format always, quality only when given
      assert.deepEqual(
        answered(h).filter((a) => a.url.includes('/render')).filter((a) => a.url.includes(id) || a.url.includes(emptyId)),
        [
          { url: `/api/v1/diagrams/${id}/render?format=json`, status: 200 },
          { url: `/api/v1/diagrams/${id}/render?format=png&quality=fast`, status: 200 },
          { url: `/api/v1/diagrams/${id}/render?format=svg&quality=faithful`, status: 200 },
          { url: `/api/v1/diagrams/${emptyId}/render?format=json`, status: 200 },
          { url: `/api/v1/diagrams/${emptyId}/render?format=svg`, status: 204 },
        ],
      );
    });

    test('refusals are DrawbridgeApiErrors: an unknown quality, a diagram that is not yours', async () => {
      const client = new DrawbridgeClient({ apiUrl, token: alice.token });
      const { id } = await client.createDiagram({ scene: sceneOf(1) });
      await assert.rejects(client.renderDiagram(id, { format: 'png', quality: 'best' as 'fast' }), { code: 'invalid_quality', status: 400, message: /best/ });
      const bob = await h.user();
      await assert.rejects(new DrawbridgeClient({ apiUrl, token: bob.token }).renderDiagram(id, { format: 'png' }), { code: 'not_found', status: 404 });
    });

    test('with the faithful renderer off, the fast fallback and its note come through in every format', async () => {
      const off = await startHarness({ env: { RENDER_FAITHFUL: 'off' } });
      try {
        await off.app.listen({ port: 0, host: '127.0.0.1' });
        const user = await off.user();
        const client = new DrawbridgeClient({ apiUrl: `http://127.0.0.1:${(off.app.server.address() as AddressInfo).port}`, token: user.token });
        const { id } = await client.createDiagram({ scene: sceneOf(2) });
        const envelope = await client.renderDiagram(id);
        assert.equal(envelope.quality, 'fast');
        assert.equal(envelope.note, 'faithful_unavailable');
        assert.equal(pngSize(Buffer.from(envelope.png!, 'base64')).width, 1024);
        const png = await client.renderDiagram(id, { format: 'png' });
        assert.equal(pngSize(png.bytes!).width, 1024);
        assert.equal(png.quality, 'fast');
        assert.equal(png.note, 'faithful_unavailable');
      } finally {
        await off.close();
      }
    });
  });
});
