#!/usr/bin/env node
// Root `postinstall`: installs the tools under tools/ that cannot live in the root's dependencies.
// tools/openapi-typescript needs the TypeScript 5 compiler API, and the project compiles with
// TypeScript 7 (no JavaScript API), so it keeps its own node_modules and lock. Skipped when dev
// dependencies are left out (`npm ci --omit=dev`), when only the lock is written (`--package-lock-only`),
// and in a copy without tools/ (the container image's build leaves it out): only tests use the tools.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const omitted = `${process.env.npm_config_omit ?? ''}`.split(/[\s,]+/).includes('dev') || process.env.NODE_ENV === 'production';
// `npm install --package-lock-only` installs nothing: the tools' npm ci would inherit the flag and empty their node_modules.
const lockOnly = process.env.npm_config_package_lock_only === 'true';
const toolsDirectory = path.join(root, 'tools');
if (omitted || lockOnly || !fs.existsSync(toolsDirectory)) process.exit(0);

for (const name of fs.readdirSync(toolsDirectory)) {
  const dir = path.join(toolsDirectory, name);
  if (!fs.existsSync(path.join(dir, 'package-lock.json'))) continue;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`install-tools: npm ci in tools/${name} failed`);
    process.exit(result.status ?? 1);
  }
}
