#!/usr/bin/env node
// Test files that share one process: imported one after another, so that their tests register with this
// process's test runner and run one after another in it. DRAWBRIDGE_SHARED_TEST_FILES holds the groups as a
// JSON object, each group's files by its name; this process runs the group named after the file it was
// started from (scripts/test.mjs starts each group from a file `<group>.mjs` that imports this one, and
// scripts/test-files.mjs runs that file as it runs any test file, in a process of its own).
//
// No test starts before every file is imported: a file that awaits at its top (loading the editor, say)
// would otherwise register its tests while the runner is already running others, and node:test cancels
// them. A hook outside every describe (`before(…)` at the top of a file) would belong to this process's
// root, that is to every file here: such a file is refused, so that it is seen rather than run wrongly.
import path from 'node:path';
import { before } from 'node:test';
import { pathToFileURL } from 'node:url';
import { hasRootHook } from './root-hooks.mjs';

const group = path.basename(process.argv[1], path.extname(process.argv[1]));
const files = JSON.parse(process.env.DRAWBRIDGE_SHARED_TEST_FILES ?? '{}')[group] ?? [];
const rootHooks = files.filter(hasRootHook);
if (rootHooks.length > 0) throw new Error(`these test files have hooks outside any describe, and cannot share a process: ${rootHooks.join(', ')}`);

let imported;
before(() => new Promise((resolve) => (imported = resolve)));
for (const file of files) await import(pathToFileURL(file).href);
imported();
