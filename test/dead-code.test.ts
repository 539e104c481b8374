// scripts/check-dead-code.mjs: exports nothing imports and files no entry reaches (knip, configured in knip.json).
// The check of this repository itself runs beside the tests in `npm test`; here, on a fixture, it must find what is dead.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.join(ROOT, 'test/fixtures/dead-code');

test('the check names an unused export, an unused exported type and an unreachable file, and fails', () => {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-dead-code.mjs'), '--directory', FIXTURE], { encoding: 'utf8' });
  const output = run.stdout + run.stderr;
  assert.equal(run.status, 1, output);
  assert.match(output, /^helper\s+function\s+src\/shapes\.ts:6/m, output);
  assert.match(output, /^Unread\s+type\s+src\/shapes\.ts:10/m, output);
  assert.match(output, /^src\/orphan\.ts$/m, output);
  assert.doesNotMatch(output, /^used\b/m, 'an export the entry imports is not reported');
});
