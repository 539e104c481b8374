import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { WorkerFailure, WorkerPool } from '../../src/workers/pool.ts';

const pool = new WorkerPool<number | string, number>(new URL('./echo-worker.ts', import.meta.url), { size: 2, timeoutMs: 2000 });
after(() => pool.close());

test('jobs run in workers and answer in order of their own completion', async () => {
  assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map((n) => pool.run(n))), [2, 4, 6, 8, 10]);
});

test('a job that throws rejects with its message and the worker keeps serving', async () => {
  await assert.rejects(pool.run('throw'), /asked to throw/);
  assert.equal(await pool.run(21), 42);
});

test('a hung worker is abandoned after the timeout and replaced', async () => {
  await assert.rejects(pool.run('hang'), WorkerFailure);
  assert.equal(await pool.run(5), 10);
});

test('a worker that dies fails its job, and the next job gets a fresh worker', async () => {
  await assert.rejects(pool.run('exit'), WorkerFailure);
  assert.equal(await pool.run(7), 14);
});
