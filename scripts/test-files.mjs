#!/usr/bin/env node
// Runs the test files given, in the order given (`node --test` would sort them by path), some at a
// time, each in a process of its own with this process's flags (`--import …`); writes TAP to stdout
// and exits 1 if any test failed. scripts/test.mjs starts it: `test-files.mjs CONCURRENCY TIMEOUT_MS FILE…`.
import { run } from 'node:test';
import { tap } from 'node:test/reporters';

const [concurrency, timeout, ...files] = process.argv.slice(2);
const stream = run({ files, concurrency: Number(concurrency), timeout: Number(timeout) });
// A failing test marked todo is reported but fails nothing, as with `node --test`.
stream.on('test:fail', (event) => void (!event.todo && (process.exitCode = 1)));
stream.compose(tap).pipe(process.stdout);
