import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { WorkerFailure, WorkerPool } from '../../src/workers/pool.ts';

const workers = {
  thread: new URL('./echo-worker.ts', import.meta.url),
  process: new URL('./echo-process-worker.ts', import.meta.url),
} as const;

for (const kind of ['thread', 'process'] as const) {
  describe(`a ${kind} pool`, () => {
    const pool = new WorkerPool<number | string, number>(workers[kind], { size: 2, timeoutMs: 2000, kind });
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
  });
}

test('a process worker killed from outside while idle is replaced on the next job', async () => {
  const pool = new WorkerPool<number, number>(workers.process, { size: 1, timeoutMs: 2000, kind: 'process' });
  try {
    assert.equal(await pool.run(1), 2);
    const [pid] = pool.pids();
    process.kill(pid!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await pool.run(4), 8);
    assert.notEqual(pool.pids()[0], pid);
  } finally {
    await pool.close();
  }
});

test('a worker that cannot start fails a waiting job instead of respawning forever', async () => {
  const pool = new WorkerPool<number, number>(new URL('./broken-worker.ts', import.meta.url), { size: 1, timeoutMs: 2000, kind: 'process' });
  try {
    await assert.rejects(pool.run(1), /did not start/);
    await assert.rejects(pool.run(2), /did not start/);
  } finally {
    await pool.close();
  }
});

test('a job no worker takes within the timeout fails instead of waiting on; one a starting worker will take waits for it', async () => {
  const pool = new WorkerPool<number | string, number>(workers.thread, { size: 1, timeoutMs: 1000 });
  try {
    assert.equal(await pool.run(1), 2, 'the worker is up');
    // The hung job's worker is replaced after the timeout; the first waiting job goes to the new worker,
    // the second has waited as long as it may.
    const hung = assert.rejects(pool.run('hang'), WorkerFailure);
    const first = pool.run(3);
    const second = assert.rejects(pool.run(4), /no worker was free/);
    await Promise.all([hung, second]);
    assert.equal(await first, 6);
  } finally {
    await pool.close();
  }
});

test('a thread worker whose heap grew past its bound after a job is replaced; one that stays small serves on', async () => {
  const pool = new WorkerPool<'id' | number, number>(new URL('./heap-worker.ts', import.meta.url), { size: 1, timeoutMs: 10_000 });
  try {
    const first = await pool.run('id');
    assert.equal(await pool.run('id'), first, 'a small heap keeps its worker');
    assert.equal(await pool.run(100), first, 'the job that grew the heap is answered by its worker');
    assert.notEqual(await pool.run('id'), first, 'the next job gets a fresh worker');
  } finally {
    await pool.close();
  }
});

test('a thread worker past its heap limit fails its job as crashed, and the next job gets a fresh worker', async () => {
  const pool = new WorkerPool<'id' | number, number>(new URL('./heap-worker.ts', import.meta.url), { size: 1, timeoutMs: 20_000, heapLimitMb: 64 });
  try {
    await assert.rejects(pool.run(200), (error: unknown) => error instanceof WorkerFailure && error.reason === 'crashed');
    assert.equal(typeof (await pool.run('id')), 'number');
  } finally {
    await pool.close();
  }
});

test('stats count the workers by state, the queue, and each worker replaced by its reason', async () => {
  const pool = new WorkerPool<number | string, number>(workers.thread, { size: 1, timeoutMs: 2000 });
  try {
    assert.deepEqual(pool.stats(), { size: 1, starting: 0, idle: 0, busy: 0, queued: 0, replaced: { timeout: 0, crashed: 0, start: 0, heap: 0 }, stoppedIdle: 0 });
    let takenAt: string | undefined;
    assert.equal(await pool.run(1, () => (takenAt = 'taken')), 2);
    assert.equal(takenAt, 'taken', 'onTaken is called when a worker takes the job');
    assert.deepEqual({ ...pool.stats(), replaced: undefined }, { size: 1, starting: 0, idle: 1, busy: 0, queued: 0, replaced: undefined, stoppedIdle: 0 });
    await assert.rejects(pool.run('exit'), WorkerFailure);
    await assert.rejects(pool.run('hang'), WorkerFailure);
    assert.deepEqual(pool.stats().replaced, { timeout: 1, crashed: 1, start: 0, heap: 0 });
    const running = pool.run(3);
    const waiting = pool.run(4);
    const { starting, busy, queued } = pool.stats();
    assert.equal(starting + busy, 1, 'one worker, starting or at work');
    assert.equal(queued, busy === 1 ? 1 : 2, 'the jobs no worker holds wait in the queue');
    assert.deepEqual(await Promise.all([running, waiting]), [6, 8]);
  } finally {
    await pool.close();
  }
  assert.deepEqual(pool.stats().replaced, { timeout: 1, crashed: 1, start: 0, heap: 0 }, 'closing the pool replaces nothing');
});

test('a worker that cannot start is counted as replaced for that reason', async () => {
  const pool = new WorkerPool<number, number>(new URL('./broken-worker.ts', import.meta.url), { size: 1, timeoutMs: 2000, kind: 'process' });
  try {
    await assert.rejects(pool.run(1), /did not start/);
    assert.equal(pool.stats().replaced.start, 1);
  } finally {
    await pool.close();
  }
});

test('with idleMs, a worker idle that long is stopped and its process gone; work starts one again; a worker at work is not stopped', async () => {
  const pool = new WorkerPool<number | string, number>(workers.process, { size: 2, timeoutMs: 5000, kind: 'process', idleMs: 300 });
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const until = async (done: () => boolean) => {
    for (let waited = 0; !done(); waited += 20) {
      assert.ok(waited < 5000, 'within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    pool.warm(1);
    assert.equal(pool.pids().length, 1, 'warm(1) starts one worker');
    assert.deepEqual(await Promise.all([pool.run(1), pool.run(2)]), [2, 4]);
    const pids = pool.pids();
    assert.equal(pids.length, 2);
    await until(() => pool.pids().length === 0);
    assert.equal(pool.stats().stoppedIdle, 2);
    await until(() => pids.every((pid) => !alive(pid)));
    assert.deepEqual(pool.stats().replaced, { timeout: 0, crashed: 0, start: 0, heap: 0 }, 'stopping an idle worker replaces nothing');
    assert.equal(await pool.run(5), 10, 'a new worker takes the next job');
    assert.equal(pool.pids().length, 1);
    assert.ok(!pids.includes(pool.pids()[0]!));
    // A job longer than idleMs: its worker is busy, not idle, and answers.
    assert.equal(await pool.run('slow'), 0);
  } finally {
    await pool.close();
  }
});

test('a process worker runs with the young generation it was given (semiSpaceMb), and the heap limit beside it', async () => {
  const pool = new WorkerPool<number, number>(workers.process, { size: 1, timeoutMs: 5000, kind: 'process', semiSpaceMb: 8, heapLimitMb: 300 });
  try {
    assert.equal(await pool.run(2), 4);
    const argv = fs.readFileSync(`/proc/${pool.pids()[0]}/cmdline`, 'utf8').split('\0');
    assert.ok(argv.includes('--max-semi-space-size=8'), argv.join(' '));
    assert.ok(argv.includes('--max-old-space-size=300'), argv.join(' '));
  } finally {
    await pool.close();
  }
});
