import { threadId } from 'node:worker_threads';
import { parentPort } from 'node:worker_threads';
import { serveWorker } from '../../src/workers/pool.ts';

/** Test job: 'id' answers the thread's id; a number n keeps n MB of numbers alive in the heap (so the worker's heap grows), then answers its id. */
const kept: number[][] = [];
serveWorker<'id' | number, number>(
  parentPort!,
  (input) => {
    // 131,072 doubles are 1 MB.
    for (let mb = 0; typeof input === 'number' && mb < input; mb++) kept.push(Array.from({ length: 131_072 }, (_, i) => i + 0.5));
    return threadId;
  },
  { retireAboveHeapMb: 64 },
);
