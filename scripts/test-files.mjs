#!/usr/bin/env node
// Runs the test files given, in the order given (`node --test` would sort them by path), some at a
// time, each in a process of its own with this process's flags (`--import …`); writes TAP to stdout
// and exits 1 if any test failed. scripts/test.mjs starts it: `test-files.mjs CONCURRENCY TIMEOUT_MS FILE…`.
import os from 'node:os';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';

/**
 * The test files run at the render workers' priority (`RENDER_NICE` in src/render/renderer.ts), and so do
 * the servers they start. In production the server runs above its workers; here, files run side by side,
 * and at the usual priority one file's tests would take the cores from the other file's workers, which
 * then waited past their limits (a faithful render falling back after 15 s, a worker not started in 60).
 * TEST_NICE sets another level.
 */
const TEST_NICE = Number(process.env.TEST_NICE ?? 10);

const [concurrency, timeout, ...files] = process.argv.slice(2);
// Only ever lowered: a run started at a lower priority stays there.
if (os.getPriority() < TEST_NICE) os.setPriority(TEST_NICE);
const stream = run({ files, concurrency: Number(concurrency), timeout: Number(timeout) });
// A failing test marked todo is reported but fails nothing, as with `node --test`.
stream.on('test:fail', (event) => void (!event.todo && (process.exitCode = 1)));
stream.compose(tap).pipe(process.stdout);
