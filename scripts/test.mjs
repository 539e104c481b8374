#!/usr/bin/env node
// `npm test`: type-check, check the import boundaries of src/, then run every test/**/*.test.ts with node's test runner.
// PostgreSQL tests use TEST_DATABASE_URL; when it is unset and PostgreSQL's
// binaries are installed, a throwaway cluster is started for the run.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

const typecheck = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], { stdio: 'inherit' });
if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
// Import cycles and layer boundaries of src/ (docs/architecture.md).
const architecture = spawnSync(process.execPath, ['scripts/check-architecture.mjs'], { stdio: 'inherit' });
if (architecture.status !== 0) process.exit(architecture.status ?? 1);

function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}
const filter = process.argv.slice(2);
const files = findTests('test').filter((f) => filter.length === 0 || filter.some((part) => f.includes(part))).sort();

let clusterDir = null;
const env = { ...process.env };
const pgBin = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
if (!env.TEST_DATABASE_URL && fs.existsSync(path.join(pgBin, 'initdb'))) {
  clusterDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-pg-'));
  env.TEST_DATABASE_URL = execFileSync('scripts/pg-cluster.sh', ['start', clusterDir], { encoding: 'utf8' }).trim();
  console.log(`# PostgreSQL test cluster at ${env.TEST_DATABASE_URL}`);
}
if (!env.TEST_DATABASE_URL) console.log('# TEST_DATABASE_URL unset and no PostgreSQL binaries: PostgreSQL tests are skipped');

// A test file whose process stops answering (its main thread blocked for good, as when the TypeScript
// loader's esbuild service dies under it) fails after this long instead of holding the run until CI gives up.
// The longest file, test/process/container.test.ts (an npm ci that compiles better-sqlite3, a build, and
// two server starts), takes 5 minutes on a quiet machine and took 11 to 16 on one loaded by other work.
const FILE_TIMEOUT_MS = 30 * 60 * 1000;
const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/helpers/fast-check-seed.ts', '--test', '--test-concurrency=2', `--test-timeout=${FILE_TIMEOUT_MS}`, ...files], { stdio: 'inherit', env });
if (clusterDir) execFileSync('scripts/pg-cluster.sh', ['stop', clusterDir]);
process.exit(result.status ?? 1);
