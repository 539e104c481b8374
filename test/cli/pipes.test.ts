import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';

const BIN = fileURLToPath(new URL('../../bin/drawbridge', import.meta.url));

let h: ListeningHarness;
let alice: TestUser;
let id: string;
describe('cli/pipes', () => {
  before(async () => {
    h = await startHarness({ listen: true });
    alice = await h.user();
    for (let i = 0; i < 30; i++) {
      const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: `Diagram ${i}`, spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } } });
      id = created.json().id;
    }
  });
  after(() => h.close());

  interface Ended {
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }

  /**
   * Runs the real bin/drawbridge as a child process. `close` names the output
   * whose reading end this side closes before the CLI writes anything, as
   * `| head` does once it has its line: every write there then fails with EPIPE.
   */
  function run(args: string[], options: { close?: 'stdout' | 'stderr'; env?: NodeJS.ProcessEnv; shell?: boolean } = {}): Promise<Ended> {
    const HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-cli-pipes-'));
    const env = { PATH: process.env.PATH, HOME, SERVICE_TOKEN: alice.token, SERVICE_API_URL: h.baseUrl, BIN, ...options.env };
    const child = options.shell ? spawn('bash', ['-o', 'pipefail', '-c', args[0]!], { env }) : spawn(BIN, args, { env });
    if (options.close) child[options.close].destroy();
    let stdout = '';
    let stderr = '';
    if (options.close !== 'stdout') child.stdout.on('data', (chunk) => (stdout += chunk));
    if (options.close !== 'stderr') child.stderr.on('data', (chunk) => (stderr += chunk));
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
  }

  test('diagrams list --all into a closed pipe ends quietly with exit 0', async () => {
    const ended = await run(['diagrams', 'list', '--all'], { close: 'stdout' });
    assert.deepEqual(ended, { code: 0, signal: null, stdout: '', stderr: '' });
  });

  test('--json output and image bytes into a closed pipe end quietly with exit 0 too', async () => {
    assert.deepEqual(await run(['diagrams', 'list', '--all', '--json'], { close: 'stdout' }), { code: 0, signal: null, stdout: '', stderr: '' });
    assert.deepEqual(await run(['render', id, '-o', '-', '--quality', 'fast'], { close: 'stdout' }), { code: 0, signal: null, stdout: '', stderr: '' });
  });

  test('a shell pipeline into head -1 gets the first line and a success status', async () => {
    const ended = await run(['"$BIN" diagrams list --all | head -1'], { shell: true });
    assert.equal(ended.stderr, '');
    assert.equal(ended.code, 0, 'pipefail: the CLI itself exited 0');
    assert.match(ended.stdout, /^ID\s+UPDATED\s+FOLDER\s+TITLE\n$/);
  });

  test('a closed standard error loses only the messages: the command keeps its own exit code', async () => {
    // logout with SERVICE_TOKEN set succeeds and writes a note on standard error
    const ok = await run(['auth', 'logout'], { close: 'stderr' });
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, 'No stored login.\n');
    // a failing command still fails, with the API-error code rather than a crash's
    const missing = await run(['diagrams', 'get', '00000000-0000-4000-8000-000000000000'], { close: 'stderr' });
    assert.equal(missing.code, 1);
    assert.equal(missing.signal, null);
    const usage = await run(['diagrams', 'frobnicate'], { close: 'stderr' });
    assert.equal(usage.code, 2);
  });
});
