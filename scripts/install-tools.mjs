#!/usr/bin/env node
// Installs the test tools under tools/, each from its own lock, when it is missing or its lock changed since
// it was installed; a tool already installed from the same lock is left as it is. `node scripts/install-tools.mjs
// [NAME...]` installs the named tools (all when none is named).
//
// tools/openapi-typescript needs the TypeScript 5 compiler API, and the project compiles with TypeScript 7
// (no JavaScript API), so it keeps its own node_modules and lock. Only a test uses it
// (test/http/openapi-document.test.ts, which runs this script before it starts), so `npm install` leaves it
// out: the server never needs it, and an install for running the server does not wait for a second install.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const toolsDirectory = path.join(root, 'tools');
/** In a tool's node_modules: a hash of the lock it was installed from. */
const STAMP = '.installed-from-lock';

const named = process.argv.slice(2);
const names = named.length > 0 ? named : fs.readdirSync(toolsDirectory).filter((name) => fs.existsSync(path.join(toolsDirectory, name, 'package-lock.json')));
for (const name of names) {
  const dir = path.join(toolsDirectory, name);
  const lock = path.join(dir, 'package-lock.json');
  if (!fs.existsSync(lock)) {
    console.error(`install-tools: tools/${name} has no package-lock.json`);
    process.exit(1);
  }
  const stamp = path.join(dir, 'node_modules', STAMP);
  const hash = createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === hash) continue;
  console.error(`# install-tools: installing tools/${name} from its lock`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Whatever the caller's npm was told (--omit=dev, --package-lock-only, by npm_config_* variables), the tool's install is a plain one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_(omit|package_lock_only|dry_run|global)$/i.test(key)));
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], env });
  if (result.status !== 0) {
    console.error(`install-tools: npm ci in tools/${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  fs.writeFileSync(stamp, `${hash}\n`);
}
