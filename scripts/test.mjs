#!/usr/bin/env node
// `npm test`: type-check, check the import boundaries of src/, find exports and files nothing uses, and run every
// test/**/*.test.ts with node's test runner.
// PostgreSQL tests use TEST_DATABASE_URL; when it is unset and PostgreSQL's
// binaries are installed, a throwaway cluster is started for the run.
//
// The three checks run beside the tests rather than before them (their output is printed
// when they end, and any failing fails the run), and the files known to take longest
// start first, so that the run does not end with one long file running alone.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasRootHook } from './root-hooks.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

/**
 * Groups of folders whose test files share one process per group (scripts/shared-process-tests.mjs), their
 * tests run one after another in it. Each process of its own loads the app's modules (Fastify, the domain,
 * the layout, the editor under jsdom, Mermaid) again before its first test; in one process they load once.
 * The machine is busy throughout a run (its cores are never idle), so what the run saves is that work: the
 * 45 files of the first group took 136 core-seconds in processes of their own and 55 in one, twelve files of
 * test/http/ 94 and 67 (November 2026), the same tests passing. There are several groups so that they run
 * side by side. A file of these folders still runs in a process of its own when it has a hook at its top
 * (outside any describe, it would be every file's hook) or is one of LONGEST_FIRST's, which start first.
 */
const SHARED_PROCESSES = {
  pure: ['test/domain/', 'test/render/', 'test/auth/', 'test/bench/', 'test/app/'],
  http: ['test/http/'],
  web: ['test/web/', 'test/mcp/'],
  tools: ['test/cli/', 'test/client/', 'test/admin/', 'test/store/', 'test/deploy/', 'test/workers/', 'test/config.test.ts', 'test/docs-stand-alone.test.ts'],
};
const SHARED_ENTRY = 'scripts/shared-process-tests.mjs';
/** The folder, in the run's temporary folder, of the files that start each group's shared process. */
const SHARED_STARTERS = 'shared-process';

/**
 * Files that take longest, longest first: a container build, processes killed and restarted,
 * thousands of hostile requests, browsers, a spawned CLI per command. A name is matched by
 * substring; a file matching none runs after them, in path order. Only the order depends on
 * this list: a file missing from it still runs.
 */
const LONGEST_FIRST = [
  'test/process/container.test.ts',
  'test/http/hostile-routes-',
  `/${SHARED_STARTERS}/`,
  'test/process/crash.test.ts',
  'test/http/render-limits.test.ts',
  'test/http/model.test.ts',
  'test/web/sharing-routes.test.ts',
  'test/process/postgres-two-servers.test.ts',
  'test/web/page-limits.test.ts',
  'test/http/neighbours.test.ts',
  'test/http/render-workers.test.ts',
  '.browser.test.ts',
  'test/mcp/oauth-e2e.test.ts',
  'test/http/render-options.test.ts',
  'test/http/sharing-access.test.ts',
  'test/mcp/mcp.test.ts',
  'test/process/',
];

/**
 * Test files run at once: one more than there are cores. The cores are busy throughout (vmstat: no idle
 * time), yet a third file on two cores still ended the whole `.ci/run` sooner: 1,003 and 1,040 s against
 * 1,034 and 1,193 s for two, as a file starting or ending, or waiting on a browser, leaves a core to the
 * others. Every file runs at the render workers' priority (scripts/test-files.mjs), so a file's workers get
 * their share of the cores: before that, one more file starved the other files' workers past their limits.
 */
const CONCURRENCY = os.availableParallelism() + 1;

// A test file whose process stops answering (its main thread blocked for good, as when the TypeScript
// loader's esbuild service dies under it) fails after this long instead of holding the run until CI gives up.
// The longest file, test/process/container.test.ts (an npm ci, a build, and two server starts), took about
// 1.5 minutes in a quiet full run and 11 to 16 on a machine loaded by other work.
const FILE_TIMEOUT_MS = 30 * 60 * 1000;

function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

function rank(file) {
  const index = LONGEST_FIRST.findIndex((part) => file.includes(part));
  return index === -1 ? LONGEST_FIRST.length : index;
}

/** Runs a command to its end; resolves with its exit status and, when `quiet`, what it printed. */
function run(args, { env, quiet }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => void (output += chunk));
    child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output }));
  });
}

const filter = process.argv.slice(2);
const chosen = findTests('test')
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();
const LONGEST = LONGEST_FIRST.length;
const groupOf = (file) =>
  rank(file) === LONGEST && !hasRootHook(file)
    ? Object.keys(SHARED_PROCESSES).find((group) => SHARED_PROCESSES[group].some((folder) => file.startsWith(folder)))
    : undefined;
const groups = {};
for (const file of chosen) {
  const group = groupOf(file);
  if (group) (groups[group] ??= []).push(file);
}
let clusterDir = null;
const env = { ...process.env };
// V8's compiled code for every module, kept between processes: each test file, and each worker and CLI it
// spawns, loads much the same few thousand modules, and compiles them once instead of once per process.
// Left as it is when the caller set it (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules', '.cache', 'node-compile-cache');
// One temporary folder for the run, removed at its end: the files, servers, workers and browsers the tests
// start put their temporary files (fonts, homes, databases, builds) under it, and none outlives the run.
// Open to every user as /tmp is (the container test runs the image's processes as the image's user).
const runTemp = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-test-run-'));
fs.chmodSync(runTemp, 0o1777);
env.TMPDIR = runTemp;
// Each group's process starts from a file named after the group, which only loads the shared entry: the entry
// takes the group's files from DRAWBRIDGE_SHARED_TEST_FILES by the name of the file it was started from.
const starters = Object.keys(groups).map((group) => {
  const starter = path.join(runTemp, SHARED_STARTERS, `${group}.mjs`);
  fs.mkdirSync(path.dirname(starter), { recursive: true });
  fs.writeFileSync(starter, `import ${JSON.stringify(pathToFileURL(path.join(root, SHARED_ENTRY)).href)};\n`);
  return starter;
});
env.DRAWBRIDGE_SHARED_TEST_FILES = JSON.stringify(groups);
const grouped = new Set(Object.values(groups).flat());
const files = [...chosen.filter((f) => !grouped.has(f)), ...starters].sort((a, b) => rank(a) - rank(b));
const pgBin = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
if (!env.TEST_DATABASE_URL && fs.existsSync(path.join(pgBin, 'initdb'))) {
  clusterDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-pg-'));
  env.TEST_DATABASE_URL = execFileSync('scripts/pg-cluster.sh', ['start', clusterDir], { encoding: 'utf8' }).trim();
  console.log(`# PostgreSQL test cluster at ${env.TEST_DATABASE_URL}`);
}
if (!env.TEST_DATABASE_URL) console.log('# TEST_DATABASE_URL unset and no PostgreSQL binaries: PostgreSQL tests are skipped');

const checks = [
  { name: 'type check (tsc -p .)', run: run(['node_modules/typescript/bin/tsc', '-p', '.'], { env, quiet: true }) },
  // Import cycles and layer boundaries of src/ (docs/architecture.md).
  { name: 'import boundaries (scripts/check-architecture.mjs)', run: run(['scripts/check-architecture.mjs'], { env, quiet: true }) },
  { name: 'dead code (scripts/check-dead-code.mjs)', run: run(['scripts/check-dead-code.mjs'], { env, quiet: true }) },
];
// A Node that strips types itself (22.18 and later) runs the tests as they are; an older one through tsx.
const typescript = process.features.typescript ? [] : ['--import', 'tsx'];
const tests = await run([...typescript, '--import', './test/helpers/fast-check-seed.ts', 'scripts/test-files.mjs', String(CONCURRENCY), String(FILE_TIMEOUT_MS), ...files], {
  env,
  quiet: false,
});
let status = tests.status;
for (const check of checks) {
  const { status: checkStatus, output } = await check.run;
  console.log(`# ${check.name}: ${checkStatus === 0 ? 'passed' : `FAILED (exit ${checkStatus})`}`);
  if (output.trim()) console.log(output.trimEnd());
  if (checkStatus !== 0 && status === 0) status = checkStatus;
}
if (clusterDir) execFileSync('scripts/pg-cluster.sh', ['stop', clusterDir]);
fs.rmSync(runTemp, { recursive: true, force: true });
process.exit(status);
