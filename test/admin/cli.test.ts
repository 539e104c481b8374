import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { maskedValue } from '../../src/admin/config-show.ts';
import { adminProgram } from '../../src/admin/program.ts';
import { hashToken } from '../../src/auth/token.ts';
import { SETTINGS } from '../../src/config.ts';
import { openStore } from '../../src/store/open.ts';
import { createdRevision } from '../../src/app/history/recording.ts';

const run = promisify(execFile);
const BIN = path.resolve('bin/drawbridge-admin');
let dataDir: string;

describe('admin/cli', () => {
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-admin-'));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /**
   * Runs the program bin/drawbridge-admin runs, in this process (a process per command would
   * start the TypeScript loader each time), with exactly these settings; its exit status,
   * and what it wrote to stdout and stderr. The last tests run the bin itself.
   */
  async function adminIn(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await adminProgram(args, { env, stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
    return { code, stdout, stderr };
  }

  async function admin(...args: string[]): Promise<any> {
    const { code, stdout, stderr } = await adminIn({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, ...args);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'exactly one JSON object on stdout');
    return JSON.parse(lines[0]!);
  }

  async function adminFails(...args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
    const result = await adminIn({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, ...args);
    assert.notEqual(result.code, 0, `drawbridge-admin ${args.join(' ')} succeeded`);
    return result;
  }

  test('the admin CLI manages users, tokens, workspaces, shares and the kill switch, one JSON object per command', async () => {
    const user = await admin('user', 'create', '--email', 'Ops@Example.com', '--unverified', '--quota', '7');
    assert.deepEqual(Object.keys(user).sort(), ['email', 'emailVerified', 'id', 'quota']);
    assert.equal(user.email, 'ops@example.com');
    assert.equal(user.emailVerified, false);
    assert.equal(user.quota, 7);

    assert.deepEqual(await admin('user', 'verify', '--email', 'ops@example.com'), { id: user.id, email: 'ops@example.com', emailVerified: true });
    assert.deepEqual(await admin('user', 'set-quota', '--email', 'ops@example.com', '--quota', '9'), { id: user.id, quota: 9 });

    const minted = await admin('token', 'mint', '--email', 'ops@example.com', '--caps', 'write,read', '--expires-in', '30d', '--name', 'ci');
    assert.deepEqual(Object.keys(minted).sort(), ['capabilities', 'expiresAt', 'id', 'token']);
    assert.match(minted.token, /^drw_pat_[0-9A-Za-z]{32,}_[0-9A-Za-z]{6}$/);
    assert.deepEqual(minted.capabilities, ['read', 'write']);
    const days = (Date.parse(minted.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    const forever = await admin('token', 'mint', '--email', 'ops@example.com', '--caps', 'read');
    assert.equal(forever.expiresAt, null);

    const list = await admin('token', 'list', '--email', 'ops@example.com');
    assert.equal(list.items.length, 2);
    const listed = list.items.find((t: { id: string }) => t.id === minted.id);
    assert.deepEqual(Object.keys(listed).sort(), ['capabilities', 'createdAt', 'expiresAt', 'id', 'last4', 'lastUsedAt', 'name', 'revokedAt']);
    assert.equal(listed.last4, minted.token.slice(-4));
    assert.equal(listed.name, 'ci');
    assert.ok(!JSON.stringify(list).includes(minted.token), 'the token is printed once, at mint, never again');

    const revoked = await admin('token', 'revoke', '--id', minted.id);
    assert.equal(revoked.id, minted.id);
    assert.match(revoked.revokedAt, /^\d{4}-/);

    const owner = await admin('user', 'create', '--email', 'owner@example.com');
    assert.equal(owner.quota, 3, 'the default quota is 3');
    assert.equal(owner.emailVerified, true);
    const workspace = await admin('workspace', 'create', '--name', 'Platform', '--owner', 'owner@example.com');
    assert.deepEqual(Object.keys(workspace).sort(), ['id', 'name']);
    assert.deepEqual(await admin('workspace', 'add-member', '--workspace', workspace.id, '--email', 'ops@example.com', '--role', 'editor'), {
      workspaceId: workspace.id,
      userId: user.id,
      role: 'editor',
    });

    assert.deepEqual(await admin('api', 'disable'), { apiEnabled: false });
    assert.deepEqual(await admin('api', 'enable'), { apiEnabled: true });

    // Only a hash of the token is at rest.
    const store = await openStore({ dataDir });
    try {
      const rows = await store.db.selectFrom('tokens').selectAll().execute();
      assert.ok(rows.every((r) => !JSON.stringify(r).includes(minted.token)));
      assert.ok(rows.some((r) => r.token_hash === hashToken(minted.token)));
    } finally {
      await store.close();
    }
  });

  test('diagram share and set-workspace name the diagram they changed', async () => {
    await admin('user', 'create', '--email', 'a@example.com');
    await admin('user', 'create', '--email', 'b@example.com');
    const workspace = await admin('workspace', 'create', '--name', 'W', '--owner', 'a@example.com');
    const store = await openStore({ dataDir });
    const owner = (await store.accounts.findByEmail('a@example.com'))!;
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    await store.diagrams.create(
      { id, ownerId: owner.id, title: 'D', folderId: null, workspaceId: null, starred: false, elementsJson: '[]', elementCount: 0, createdAt: now, updatedAt: now, docUpdatedAt: now, deletedAt: null },
      3,
      createdRevision({ userId: owner.id, via: null }, 0),
    );
    await store.close();
    const share = await admin('diagram', 'share', '--id', id, '--email', 'b@example.com', '--role', 'viewer');
    assert.equal(share.diagramId, id);
    assert.equal(share.role, 'viewer');
    assert.deepEqual(await admin('diagram', 'set-workspace', '--id', id, '--workspace', workspace.id), { id, workspaceId: workspace.id });
    assert.deepEqual(await admin('diagram', 'set-workspace', '--id', id, '--workspace', 'none'), { id, workspaceId: null });
  });

  test('failures print one line on stderr and exit non-zero', async () => {
    await admin('user', 'create', '--email', 'dup@example.com');
    const cases: string[][] = [
      ['user', 'create', '--email', 'dup@example.com'],
      ['user', 'create', '--email', 'not-an-email'],
      ['user', 'verify', '--email', 'nobody@example.com'],
      ['token', 'mint', '--email', 'dup@example.com', '--caps', 'read,admin'],
      ['token', 'mint', '--email', 'dup@example.com', '--caps', ''],
      ['token', 'mint', '--email', 'dup@example.com', '--caps', 'read', '--expires-in', 'soon'],
      ['token', 'revoke', '--id', 'nope'],
      ['workspace', 'add-member', '--workspace', 'nope', '--email', 'dup@example.com', '--role', 'editor'],
      ['diagram', 'share', '--id', 'nope', '--email', 'dup@example.com', '--role', 'owner'],
      ['user', 'frobnicate'],
      ['user', 'create'],
    ];
    for (const args of cases) {
      const { code, stderr, stdout } = await adminFails(...args);
      assert.notEqual(code, 0, args.join(' '));
      assert.equal(stdout, '');
      assert.equal(stderr.trim().split('\n').length, 1, `one line: ${stderr}`);
      assert.match(stderr, /^drawbridge-admin: /);
    }
  });

  /** The program with exactly these settings (and nothing from the test runner's environment). */
  const adminWith = (env: Record<string, string>, ...args: string[]) => adminIn({ DATA_DIR: dataDir, ...env }, ...args);

  /** Runs the real bin with exactly these settings (and nothing from the test runner's environment but PATH). */
  async function binWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(BIN, args, { env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stderr: string; stdout: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  test('config show prints every setting with its value in effect and whether it was set, as one JSON object', async () => {
    const shown = await adminWith({ PORT: '9000', SIGNUP: 'invite', SIGNUP_DOMAINS: 'example.com', FAST_WORKERS: '3' }, 'config', 'show');
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stderr, '');
    const lines = shown.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'exactly one JSON object on stdout');
    const settings = JSON.parse(lines[0]!);
    assert.deepEqual(Object.keys(settings), SETTINGS.map((setting) => setting.name));
    assert.deepEqual(settings.PORT, { value: '9000', source: 'set' });
    assert.deepEqual(settings.PUBLIC_URL, { value: 'http://localhost:9000', source: 'default' });
    assert.deepEqual(settings.FAST_WORKERS, { value: '3', source: 'set' });
    assert.deepEqual(settings.SIGNUP, { value: 'invite', source: 'set' });
    assert.deepEqual(settings.SIGNUP_DOMAINS, { value: 'example.com', source: 'set' });
    assert.deepEqual(settings.DEFAULT_QUOTA, { value: '3', source: 'default' });
    assert.deepEqual(settings.DATABASE_URL, { value: null, source: 'default' });
    assert.deepEqual(settings.RENDER_WORKERS, { value: '2', source: 'default' });
  });

  test('config show masks passwords and tokens, and needs no database: it works with a PostgreSQL nobody can reach', async () => {
    const env = {
      DATABASE_URL: 'postgres://drawbridge:Pg-Secret-4711@127.0.0.1:1/drawbridge?sslmode=disable',
      SMTP_URL: 'smtps://mailer:Relay-Secret-0815@smtp.example.com:465',
      METRICS_TOKEN: 'metrics-token-value-2718',
    };
    const shown = await adminWith(env, 'config', 'show');
    assert.equal(shown.code, 0, shown.stderr);
    for (const secret of ['Pg-Secret-4711', 'Relay-Secret-0815', 'metrics-token-value-2718']) assert.ok(!shown.stdout.includes(secret), `${secret} is not printed`);
    const settings = JSON.parse(shown.stdout);
    assert.deepEqual(settings.DATABASE_URL, { value: 'postgres://drawbridge:***@127.0.0.1:1/drawbridge?sslmode=disable', source: 'set' });
    assert.deepEqual(settings.SMTP_URL, { value: 'smtps://mailer:***@smtp.example.com:465', source: 'set' });
    // Any other command opens that database, and says it cannot.
    const other = await adminWith(env, 'token', 'list', '--email', 'a@example.com');
    assert.equal(other.code, 1);
    assert.match(other.stderr, /^drawbridge-admin: cannot open the database/);
    assert.ok(!other.stderr.includes('Pg-Secret-4711'));
  });

  test('config show masks whole any setting named like a secret, and the password of any URL', () => {
    assert.equal(maskedValue('METRICS_TOKEN', 'metrics-token-value'), '***');
    assert.equal(maskedValue('SESSION_SECRET', 'x'), '***');
    assert.equal(maskedValue('RELAY_PASSWORD', 'x'), '***');
    assert.equal(maskedValue('METRICS_TOKEN', null), null, 'an unset secret is shown unset');
    assert.equal(maskedValue('DATABASE_URL', 'postgres://u:p%40ss@db/x'), 'postgres://u:***@db/x');
    assert.equal(maskedValue('DATABASE_URL', 'postgres://u@db/x?password=hunter2&sslmode=require'), 'postgres://u@db/x?password=***&sslmode=require');
    assert.equal(maskedValue('DATABASE_URL', 'postgres://u:hunter2@/x?host=/run/postgresql'), 'postgres://u:***@/x?host=/run/postgresql');
    assert.equal(maskedValue('DATABASE_URL', 'postgres://db.internal/x'), 'postgres://db.internal/x', 'a URL without a password is shown as it is');
    assert.equal(maskedValue('PUBLIC_URL', 'https://draw.example.com'), 'https://draw.example.com');
    assert.equal(maskedValue('OAUTH_ACCESS_TOKEN_TTL_SECONDS', '3600'), '3600', 'a lifetime of tokens is no secret');
  });

  test('the bin: an invalid setting makes config show and every other command fail with the one line that names it, exit status 1; a usage error exits 2', async () => {
    for (const args of [['config', 'show'], ['user', 'create', '--email', 'x@example.com']]) {
      const failed = await binWith({ SIGNUP: 'sometimes' }, ...args);
      assert.equal(failed.code, 1, args.join(' '));
      assert.equal(failed.stdout, '');
      assert.equal(failed.stderr, 'drawbridge-admin: SIGNUP must be "open", "invite" or "closed", got "sometimes"\n');
    }
    const usage = await binWith({}, 'config');
    assert.equal(usage.code, 2);
    assert.equal(usage.stderr, 'drawbridge-admin: config needs a command: config show\n');
  });

  test('the bin: SIGNUP=closed does not restrict the admin CLI, user create still makes accounts and prints one JSON object, exit status 0', async () => {
    const made = await binWith({ SIGNUP: 'closed', SIGNUP_DOMAINS: 'example.org' }, 'user', 'create', '--email', 'ops-closed@elsewhere.test');
    assert.equal(made.code, 0, made.stderr);
    assert.equal(made.stderr, '');
    assert.equal(made.stdout.trim().split('\n').length, 1, 'exactly one JSON object on stdout');
    assert.equal(JSON.parse(made.stdout).email, 'ops-closed@elsewhere.test');
  });
});
