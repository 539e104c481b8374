// scripts/check-architecture.mjs: import cycles and layer boundaries of src/ (docs/architecture.md).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.join(ROOT, 'test/fixtures/architecture');

function check(...args: string[]): { status: number | null; lines: string[]; output: string } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-architecture.mjs'), ...args], { encoding: 'utf8' });
  const output = run.stdout + run.stderr;
  return { status: run.status, lines: run.stdout.split('\n').filter((line) => line.startsWith('[')), output };
}

test('the checker reports every broken rule and cycle of a fixture tree, and fails', () => {
  const { status, lines, output } = check('--root', FIXTURE);
  assert.equal(status, 1, output);
  assert.deepEqual(lines.sort(), [
    '[app-allowed-layers] src/app/create.ts → src/web/page.ts',
    '[domain-no-io-packages] src/domain/shape.ts → fastify (package)',
    '[domain-only-domain] src/domain/shape.ts → src/http/route.ts',
    // The cycle closes through an `import type`: type-only imports count.
    '[no-circular] src/store/codec.ts → src/store/rows.ts → src/store/codec.ts',
    '[transports-apart] src/web/page.ts → src/http/route.ts',
  ]);
});

test('an exception silences exactly its import, and one that matches nothing fails the check', () => {
  const { status, lines, output } = check('--root', FIXTURE, '--config', path.join(FIXTURE, 'exceptions.config.mjs'));
  assert.equal(status, 1, output);
  assert.ok(!lines.some((line) => line.startsWith('[domain-only-domain]')), output);
  assert.ok(lines.includes('[domain-no-io-packages] src/domain/shape.ts → fastify (package)'), output);
  assert.ok(lines.includes('[stale-exception] transports-apart: src/web/gone.ts → src/http/route.ts no longer happens: remove it from the exceptions'), output);
  assert.equal(lines.length, 5, output);
});

test('src/ has no import cycle and keeps to its layer boundaries', () => {
  const { status, output } = check();
  assert.equal(status, 0, output);
});
