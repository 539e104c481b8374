#!/usr/bin/env node
// `npm run build`: compiles the server (src/, per tsconfig.build.json) to dist/ and
// copies the data files its modules read beside themselves (*.json), and the files of
// dev dependencies the server serves (Redoc's bundle), so `npm start` runs plain
// JavaScript on node, without tsx, and without the dev dependencies.
//
// `--if-stale` (what `npm start` runs first) builds only when the inputs changed since
// the last build: dist/.build-stamp holds a hash of them (the sources, the tsconfig
// files, this script), so a repeat start costs a hash, and a built dist/ still starts
// once the dev dependencies (TypeScript) are pruned.
//
// The build is written to a staging directory beside dist/ and swapped in whole:
// a failed or interrupted build never leaves a half-written dist/.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(root, 'src');
const DIST = path.join(root, 'dist');
const STAMP = '.build-stamp';
const CONFIG = 'tsconfig.build.json';
/** Browser code: bundled by esbuild from src/ when the server starts (src/web/assets.ts), never compiled here. */
const NOT_COMPILED = path.join(SRC, 'web', 'client');
/** Files the compiled modules read beside themselves (font metrics, the icon catalog) or start as threads (plain JavaScript: the SQLite writer). */
const COPIED = /\.(json|mjs)$/;
/**
 * Files of dev dependencies that the server serves, copied into dist/ beside the module that reads them:
 * src/web/front-door/api-docs.ts serves Redoc's standalone bundle, one file of a package that brings a
 * hundred others the server never loads. Their versions in package-lock.json are inputs of the build.
 */
const PACKAGE_FILES = [{ name: 'redoc', file: 'bundles/redoc.standalone.js', target: 'web/front-door/redoc.standalone.js' }];

function listFiles(directory) {
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(directory, entry.name);
      if (full === NOT_COMPILED) return [];
      if (entry.isDirectory()) return listFiles(full);
      return entry.isFile() ? [full] : [];
    })
    .sort();
}

/** TypeScript's compiler, or null when it is not installed (it is a dev dependency). */
function typescript() {
  try {
    const manifest = createRequire(import.meta.url).resolve('typescript/package.json');
    return path.join(path.dirname(manifest), 'bin', 'tsc');
  } catch {
    return null;
  }
}

/** The locked version of a package (the lock, not node_modules: a runtime without the dev dependencies hashes the same). */
function lockedVersion(name) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  return lock.packages?.[`node_modules/${name}`]?.version ?? 'none';
}

/** A hash of everything the build depends on. */
function inputHash() {
  const hash = createHash('sha256');
  for (const { name } of PACKAGE_FILES) hash.update(`${name}@${lockedVersion(name)}\0`);
  const inputs = ['tsconfig.json', CONFIG, 'scripts/build.mjs'].map((file) => path.join(root, file)).concat(listFiles(SRC));
  for (const file of inputs) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp(directory) {
  try {
    return fs.readFileSync(path.join(directory, STAMP), 'utf8').trim();
  } catch {
    return null;
  }
}

function build(tsc, hash) {
  const started = performance.now();
  const staging = fs.mkdtempSync(path.join(root, '.dist-staging-'));
  try {
    // --noCheck: the output is the same with or without the type check (an error in the types never changes
    // what is emitted), and the check takes 9 s of the 10; `npm run typecheck` and `npm test` make it. A syntax
    // error still fails the build.
    const result = spawnSync(process.execPath, [tsc, '-p', CONFIG, '--outDir', staging, '--noCheck'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`tsc -p ${CONFIG} --noCheck failed (exit ${result.status ?? result.signal})`);
    for (const file of listFiles(SRC)) {
      if (!COPIED.test(file)) continue;
      const target = path.join(staging, path.relative(SRC, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
    }
    for (const { name, file, target } of PACKAGE_FILES) {
      let source;
      try {
        source = createRequire(import.meta.url).resolve(`${name}/${file}`);
      } catch {
        throw new Error(`${name} is not installed (a dev dependency, ${name}/${file} is copied into dist/): npm ci, then npm run build`);
      }
      fs.mkdirSync(path.dirname(path.join(staging, target)), { recursive: true });
      fs.copyFileSync(source, path.join(staging, target));
    }
    fs.writeFileSync(path.join(staging, STAMP), `${hash}\n`);
    // mkdtemp made the staging directory private (0700): dist/ is read by whoever runs the server,
    // which need not be who built it (the container image builds as root and serves as uid 1000).
    fs.chmodSync(staging, 0o755);
    swapIn(staging, hash);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  console.log(`# built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Replaces dist/ with the staging directory; another build finishing first with the same inputs wins. */
function swapIn(staging, hash) {
  const old = `${staging}-old`;
  try {
    fs.renameSync(DIST, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    fs.renameSync(staging, DIST);
  } catch (error) {
    if (readStamp(DIST) !== hash) throw error;
  } finally {
    fs.rmSync(old, { recursive: true, force: true });
  }
}

const ifStale = process.argv.includes('--if-stale');
const hash = inputHash();
if (ifStale && readStamp(DIST) === hash) process.exit(0);
const tsc = typescript();
if (!tsc) {
  console.error(
    fs.existsSync(DIST)
      ? 'dist/ is out of date with src/ and TypeScript is not installed to rebuild it: install the dev dependencies (npm ci), then npm run build'
      : 'dist/ is missing and TypeScript is not installed to build it: install the dev dependencies (npm ci), then npm run build',
  );
  process.exit(1);
}
try {
  build(tsc, hash);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
