/**
 * scripts/test-files.mjs, which `npm test` runs the test files through: the files in the order
 * given (so that the longest start first), TAP on stdout, exit status 1 when a test failed and
 * 0 when the only failure is a test marked todo; the files run at the render workers' priority.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { test } from 'node:test';
import { RENDER_NICE } from '../src/render/renderer.ts';
import { freePort } from './helpers/ports.ts';
import { TYPESCRIPT_ARGS } from './helpers/typescript.ts';

const FIXTURES = 'test/fixtures/runner';

function runFiles(name: string, env: Record<string, string> = {}) {
  return runFileList([name], env);
}

function runFileList(names: string[], env: Record<string, string> = {}) {
  return runPaths(names.map((name) => `${FIXTURES}/${name}`), env);
}

function runPaths(paths: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [...TYPESCRIPT_ARGS, 'scripts/test-files.mjs', '1', '60000', ...paths], {
    encoding: 'utf8',
    // Not as a test of this run: the runner's own children report to it in a form of their own.
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, ...env },
  });
  const started = [...result.stdout.matchAll(/^# Subtest: (.+)$/gm)].map((match) => match[1]);
  return { status: result.status, started, stdout: result.stdout };
}

test('the files run in the order given, not sorted by path, and a failure makes the exit status 1', () => {
  const { status, started, stdout } = runFileList(['passes.ts', 'fails.ts']);
  assert.deepEqual(started, ['passes', 'fails'], stdout);
  assert.equal(status, 1, stdout);
  assert.deepEqual(runFileList(['fails.ts', 'passes.ts']).started, ['fails', 'passes']);
});

test('the exit status is 0 when every test passed, or failed marked todo', () => {
  const { status, stdout } = runFileList(['passes.ts', 'todo-fails.ts']);
  assert.match(stdout, /^not ok \d+ - fails, marked todo # TODO not yet$/m);
  assert.equal(status, 0, stdout);
});

test('the files run at the render workers\' priority, so that one file\'s tests do not starve another file\'s workers', () => {
  const nice = (stdout: string) => Number(/^# nice (\d+)$/m.exec(stdout)?.[1]);
  const { status, stdout } = runFiles('priority.ts');
  assert.equal(status, 0, stdout);
  assert.equal(nice(stdout), Math.max(os.getPriority(), RENDER_NICE), stdout);
  // Started below the level, the runner lowers itself to it (this process may already run at RENDER_NICE, under npm test).
  const lower = Math.max(os.getPriority(), RENDER_NICE) + 2;
  assert.equal(nice(runFiles('priority.ts', { TEST_NICE: String(lower) }).stdout), lower);
});

test('the files of the shared process run in one process, one after another, every test of a file that awaits at its top included', () => {
  const files = ['shared-first.ts', 'shared-second.ts'].map((name) => `${FIXTURES}/${name}`);
  const { status, stdout } = runSharedProcess(files);
  assert.equal(status, 0, stdout);
  assert.match(stdout, /^# tests 2$/m, stdout);
  assert.match(stdout, /^# pass 2$/m, stdout);
  assert.match(stdout, /^ok \d+ - first$/m);
  assert.match(stdout, /^ok \d+ - second$/m);
});

test('a file with a hook at its top, which would be every file\'s, is refused by the shared process', () => {
  const { status, stdout } = runSharedProcess([`${FIXTURES}/passes.ts`, `${FIXTURES}/root-hook.ts`]);
  assert.equal(status, 1, stdout);
  assert.match(stdout, /hooks outside any describe, and cannot share a process: test\/fixtures\/runner\/root-hook\.ts/);
});

function runSharedProcess(files: string[]) {
  return runPaths(['scripts/shared-process-tests.mjs'], { DRAWBRIDGE_SHARED_TEST_FILES: JSON.stringify({ 'shared-process-tests': files }) });
}

test('the README names the folders whose files share a process, as npm test has them', () => {
  const listed = /^const SHARED_PROCESSES = \{([\s\S]*?)\n\};$/m.exec(fs.readFileSync('scripts/test.mjs', 'utf8'))?.[1] ?? '';
  const folders = [...listed.matchAll(/'([^']+)'/g)].map((match) => match[1]);
  const sentence = /except those of (.*?), which share one process per/s.exec(fs.readFileSync('README.md', 'utf8'))?.[1] ?? '';
  assert.deepEqual([...sentence.matchAll(/`([^`]+)`/g)].map((match) => match[1]), folders);
  assert.ok(folders.length > 0);
});

test('freePort gives each caller of a run its own port, below the kernel\'s ephemeral range', async () => {
  const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const ports = await Promise.all(Array.from({ length: 200 }, () => freePort()));
  assert.equal(new Set(ports).size, ports.length, 'no port is given twice (200 draws among some 22,000 ports would repeat one about 60 % of the time)');
  for (const port of ports) assert.ok(port >= 10_000 && port < low!, `${port} is below the ephemeral range (from ${low})`);
});
