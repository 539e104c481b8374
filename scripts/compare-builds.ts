// Runs two builds of the service side by side and lists every answer that differs: the proof that a
// restructuring changed what it meant to change and nothing else.
//
//   npm run compare:builds -- OLD [NEW] [--engine sqlite|postgres|both] [--out DIR]
//
// OLD and NEW are git revisions (NEW defaults to the working tree, written `.`). Each build runs
// scripts/compare-builds/scenario.ts (from this checkout) on a fresh database: the same requests, over every
// route (REST, web app, public pages, MCP, OAuth, admin commands), with the same random numbers and the same
// clock (scripts/compare-builds/determinism.mjs), so that ids, tokens and timestamps agree and a difference is
// a difference in behaviour. Both builds use this checkout's node_modules.
//
// Prints, per engine, how many exchanges agree and each one that does not (status, headers, body: the first
// differences, by JSON path or by line), and writes both builds' exchanges and the full list to DIR (default: a
// new folder under the temporary directory). Exits 1 when anything differs. PostgreSQL runs when
// TEST_DATABASE_URL is set or PostgreSQL's binaries are installed (a throwaway cluster is started).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compareExchanges } from './compare-builds/compare.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { engine: { type: 'string', default: 'both' }, out: { type: 'string' } },
});
const [oldRev, newRev = '.'] = positionals;
if (!oldRev || !['sqlite', 'postgres', 'both'].includes(values.engine!)) {
  console.error('usage: npm run compare:builds -- OLD [NEW] [--engine sqlite|postgres|both] [--out DIR]');
  process.exit(2);
}
const outDir = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-compare-'));
fs.mkdirSync(outDir, { recursive: true });

/** A build's source tree: this checkout for `.`, else the revision's files in a folder of their own. */
function treeOf(rev: string, name: string): string {
  if (rev === '.') return root;
  const dir = path.join(outDir, `tree-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  const archive = execFileSync('git', ['-C', root, 'archive', '--format=tar', rev], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

const builds = [
  { name: 'old', rev: oldRev, tree: treeOf(oldRev, 'old') },
  { name: 'new', rev: newRev, tree: treeOf(newRev, 'new') },
];

// ——— PostgreSQL ———
let cluster: string | null = null;
let adminUrl = process.env.TEST_DATABASE_URL;
const pgBin = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
const engines: string[] = values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine];
if (engines.includes('postgres') && !adminUrl) {
  if (fs.existsSync(path.join(pgBin, 'initdb'))) {
    cluster = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-compare-pg-'));
    adminUrl = execFileSync(path.join(root, 'scripts/pg-cluster.sh'), ['start', cluster], { encoding: 'utf8' }).trim();
  } else {
    console.log('# no TEST_DATABASE_URL and no PostgreSQL binaries: PostgreSQL is not compared');
    engines.splice(engines.indexOf('postgres'), 1);
  }
}

async function freshDatabase(name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name}`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

function runScenario(build: { name: string; rev: string; tree: string }, engine: string, databaseUrl: string | undefined, routes: string): Promise<string> {
  const file = path.join(outDir, routes === '-' ? `routes-${build.name}-${engine}.json` : `${build.name}-${engine}.jsonl`);
  const determinism = path.join(root, 'scripts/compare-builds/determinism.mjs');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${determinism}`.trim() };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  // Through tsx whatever the Node: an older build may use TypeScript that Node cannot strip.
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/compare-builds/scenario.ts'), build.tree, engine, file, routes], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => void (output += chunk));
    child.on('close', (code) => (code === 0 ? resolve(file) : reject(new Error(`${build.name} (${build.rev}) on ${engine} failed (exit ${code}):\n${output}`))));
  });
}

let differing = 0;
const report: string[] = [];
try {
  for (const engine of engines) {
    // Both builds are probed on every route either serves, with every method either answers: the same requests in the same order.
    const union = new Map<string, string[]>();
    for (const build of builds) {
      const databaseUrl = engine === 'postgres' ? await freshDatabase(`compare_${build.name}_${process.pid}`) : undefined;
      for (const route of JSON.parse(fs.readFileSync(await runScenario(build, engine, databaseUrl, '-'), 'utf8')) as Array<{ url: string; methods: string[] }>) {
        union.set(route.url, [...new Set([...(union.get(route.url) ?? []), ...route.methods])].sort());
      }
    }
    const routesFile = path.join(outDir, `routes-${engine}.json`);
    fs.writeFileSync(routesFile, JSON.stringify([...union].sort(([a], [b]) => a.localeCompare(b)).map(([url, methods]) => ({ url, methods }))));
    const files: string[] = [];
    for (const build of builds) {
      const databaseUrl = engine === 'postgres' ? await freshDatabase(`compare_${build.name}_${process.pid}`) : undefined;
      process.stdout.write(`# ${engine}: running ${build.name} (${build.rev})…\n`);
      files.push(await runScenario(build, engine, databaseUrl, routesFile));
    }
    const { same, lines } = compareExchanges(fs.readFileSync(files[0]!, 'utf8'), fs.readFileSync(files[1]!, 'utf8'));
    differing += lines.length;
    const heading = `## ${engine}: ${same} of ${same + lines.length} exchanges agree, ${lines.length} differ`;
    report.push(heading, ...lines, '');
    console.log([heading, ...lines].join('\n'));
  }
} finally {
  if (cluster) execFileSync(path.join(root, 'scripts/pg-cluster.sh'), ['stop', cluster]);
}
fs.writeFileSync(path.join(outDir, 'differences.md'), `${report.join('\n')}\n`);
console.log(`# exchanges and differences.md in ${outDir}`);
process.exit(differing === 0 ? 0 : 1);
