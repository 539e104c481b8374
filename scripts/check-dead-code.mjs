#!/usr/bin/env node
// Dead code: an export nothing imports (a value or a type), or a file no entry reaches.
// knip reads the entries (the server, the CLIs, the workers, the browser bundles, scripts,
// benches and tests) from knip.json; an export used only by a test counts as used.
// Extra arguments go to knip (`--directory DIR` checks another project). Exit 1 on a finding.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const knip = path.join(root, 'node_modules/knip/bin/knip.js');
const result = spawnSync(process.execPath, [knip, '--include', 'exports,types,files', '--no-progress', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
