import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/program.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

// drawbridge history, diff, restore and render --rev against a real server:
// a token named "agent-bot" makes a diagram and a wrong patch; the history
// shows both with who and how, diff names what the patch changed, restore
// brings the scene back.

let h: ListeningHarness;
let email: string;
let token: string;
describe('cli/history', () => {
  before(async () => {
    h = await startHarness({ listen: true });
    email = (await h.user({ caps: 'read,write' })).email;
    token = ((await h.admin('token', 'mint', '--email', email, '--caps', 'read,write', '--name', 'agent-bot')) as { token: string }).token;
  });
  after(() => h.close());

  const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-cli-history-'));

  async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      env: { HOME: tempDir(), SERVICE_TOKEN: token, SERVICE_API_URL: h.baseUrl },
      stdout: { write: (s: string | Uint8Array) => void (stdout += typeof s === 'string' ? s : Buffer.from(s).toString('latin1')) },
      stderr: { write: (s: string | Uint8Array) => void (stderr += String(s)) },
    });
    return { code, stdout, stderr };
  }

  const api = async (method: string, url: string, body?: unknown) => {
    const res = await h.call(method, url, { token, body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  /** An element without the editor's bookkeeping (version, versionNonce, updated), which a restore moves on for elements it changes. */
  const content = (elements: Array<Record<string, unknown>>) => elements.map(({ version: _v, versionNonce: _n, updated: _u, ...rest }) => rest);

  const SPEC = { nodes: [{ id: 'api', label: 'Orders API' }, { id: 'db', label: 'Orders DB' }], edges: ['api -> db : SQL'] };

  /** A diagram made over the API, then patched wrongly (db deleted, api moved); its original elements. */
  async function mistake(): Promise<{ id: string; original: unknown[] }> {
    const { id } = await api('POST', '/api/v1/diagrams', { title: 'Orders', spec: SPEC });
    const original = (await api('GET', `/api/v1/diagrams/${id}`)).scene.elements;
    await api('POST', `/api/v1/diagrams/${id}/patch`, { ops: [{ op: 'delete', id: 'db' }, { op: 'move', id: 'api', dx: 600, dy: 0 }] });
    return { id, original };
  }

  describe('history', () => {
    test('a table of rev, when, who, via, kind and summary, newest first; --json is the API\'s page', async () => {
      const { id } = await mistake();
      const json = await cli(['history', id, '--json']);
      assert.equal(json.code, 0, json.stderr);
      const page = JSON.parse(json.stdout);
      assert.equal(page.nextCursor, null);
      assert.deepEqual(page.items.map((r: { kind: string }) => r.kind), ['patch', 'create']);
      const [patch, create] = page.items;
      assert.equal(patch.via.token.name, 'agent-bot');

      const run = await cli(['history', id]);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trimEnd().split('\n');
      assert.match(lines[0]!, /^REV +WHEN +WHO +VIA +KIND +SUMMARY$/);
      assert.equal(lines.length, 3);
      assert.ok(lines[1]!.startsWith(`${patch.rev} `), lines[1]);
      for (const cell of [email, 'token agent-bot', 'patch', patch.summary]) assert.ok(lines[1]!.includes(cell), `${cell} in ${lines[1]}`);
      assert.match(lines[1]!, / \d{4}-\d\d-\d\d \d\d:\d\d:\d\d /);
      assert.ok(lines[2]!.startsWith(`${create.rev} `) && lines[2]!.includes('create'), lines[2]);
    });

    test('--limit pages like diagrams list: a note says older revisions exist; --all and --cursor reach them', async () => {
      const { id } = await mistake();
      const first = await cli(['history', id, '--limit', '1']);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout.trimEnd().split('\n').length, 3, first.stdout);
      const cursor = /--cursor (\S+) for the next page/.exec(first.stdout)?.[1];
      assert.ok(cursor, first.stdout);
      const next = JSON.parse((await cli(['history', id, '--limit', '1', '--cursor', cursor, '--json'])).stdout);
      assert.deepEqual(next.items.map((r: { kind: string }) => r.kind), ['create']);
      const all = JSON.parse((await cli(['history', id, '--all', '--limit', '1', '--json'])).stdout);
      assert.deepEqual(all.items.map((r: { kind: string }) => r.kind), ['patch', 'create']);
      assert.equal(all.nextCursor, null);
    });

    test('an unknown diagram exits 1 with not_found', async () => {
      const run = await cli(['history', '00000000-0000-4000-8000-000000000000']);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /\[not_found, HTTP 404\]/);
    });
  });

  describe('diff', () => {
    test('prints the summary and the ids removed and changed; --json is the API\'s diff, elements included', async () => {
      const { id } = await mistake();
      const [patch, create] = JSON.parse((await cli(['history', id, '--json'])).stdout).items;
      const run = await cli(['diff', id, patch.rev]);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trimEnd().split('\n');
      assert.equal(lines[0], `${create.rev} → ${patch.rev}: ${patch.summary}`);
      assert.match(run.stdout, /^removed: +(.*, )?db(,|$)/m);
      assert.match(run.stdout, /^changed: +(.*, )?api \([a-z, ]*geometry[a-z, ]*\)/m);

      const json = JSON.parse((await cli(['diff', id, patch.rev, '--json'])).stdout);
      assert.equal(json.from, create.rev);
      assert.ok(json.removed.includes('db'));
      assert.ok(json.elements.some((e: { id: string }) => e.id === 'api'));

      const against = JSON.parse((await cli(['diff', id, create.rev, '--against', patch.rev, '--json'])).stdout);
      assert.ok(against.added.includes('db'), 'from the patch back to the create, db comes back');
    });

    test('an unknown revision exits 1 with not_found', async () => {
      const { id } = await mistake();
      const run = await cli(['diff', id, 'r999999']);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /\[not_found, HTTP 404\]/);
    });
  });

  describe('restore', () => {
    test('brings the scene of an earlier revision back as a new revision and says what it restored', async () => {
      const { id, original } = await mistake();
      const [, create] = JSON.parse((await cli(['history', id, '--json'])).stdout).items;
      const run = await cli(['restore', id, create.rev]);
      assert.equal(run.code, 0, run.stderr);
      const [restore] = JSON.parse((await cli(['history', id, '--json'])).stdout).items;
      assert.equal(restore.kind, 'restore');
      assert.equal(restore.restoredFrom, create.rev);
      assert.equal(run.stdout.split('\n')[0], `Restored ${create.rev} of ${id} as revision ${restore.rev} (${original.length} elements).`);
      assert.match(run.stdout, /^Changes: .+$/m);
      assert.deepEqual(content((await api('GET', `/api/v1/diagrams/${id}`)).scene.elements), content(original as Array<Record<string, unknown>>));
    });

    test('--json is the API\'s answer; a stale --expected-updated-at exits 1 with stale_read and writes nothing', async () => {
      const { id } = await mistake();
      const [patch, create] = JSON.parse((await cli(['history', id, '--json'])).stdout).items;
      const stale = await cli(['restore', id, create.rev, '--expected-updated-at', create.at]);
      assert.equal(stale.code, 1);
      assert.match(stale.stderr, /\[stale_read, HTTP 409\]/);
      assert.deepEqual(JSON.parse((await cli(['history', id, '--json'])).stdout).items.map((r: { rev: string }) => r.rev), [patch.rev, create.rev]);

      const { docUpdatedAt } = await api('GET', `/api/v1/diagrams/${id}`);
      const run = await cli(['restore', id, create.rev, '--expected-updated-at', docUpdatedAt, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const restored = JSON.parse(run.stdout);
      assert.equal(restored.id, id);
      assert.equal(restored.restoredFrom, create.rev);
      assert.equal(typeof restored.rev, 'string');
      assert.equal(typeof restored.docUpdatedAt, 'string');
    });
  });

  describe('render --rev', () => {
    test('renders the revision asked for; the default file is ID-REV.FORMAT', async () => {
      const { id } = await mistake();
      const [, create] = JSON.parse((await cli(['history', id, '--json'])).stdout).items;
      const dir = tempDir();
      const run = await cli(['render', id, '--rev', create.rev, '--dir', dir, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const file = path.join(dir, `${id}-${create.rev}.png`);
      assert.deepEqual(JSON.parse(run.stdout), { id, rev: create.rev, file, format: 'png', bytes: fs.statSync(file).size, quality: 'faithful', note: null });
      assert.equal(pngSize(fs.readFileSync(file)).width, 1024);

      const envelope = JSON.parse((await cli(['render', id, '--rev', create.rev, '-o', '-', '--format', 'json'])).stdout);
      const current = await api('GET', `/api/v1/diagrams/${id}/render?format=json&quality=fast`);
      assert.equal(envelope.elementCount, create.elementCount);
      assert.notEqual(envelope.elementCount, current.elementCount);
    });

    test('an unknown revision exits 1 and writes nothing', async () => {
      const { id } = await mistake();
      const dir = tempDir();
      const run = await cli(['render', id, '--rev', 'r999999', '-o', path.join(dir, 'x.png')]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /\[not_found, HTTP 404\]/);
      assert.deepEqual(fs.readdirSync(dir), []);
    });
  });
});
