import { parentPort } from 'node:worker_threads';
import { serveWorker } from '../../src/workers/pool.ts';

/** Test worker: doubles numbers, throws on 'throw', spins forever on 'hang', dies on 'exit'. */
serveWorker<number | string, number>(parentPort!, (input) => {
  if (input === 'throw') throw new Error('asked to throw');
  if (input === 'hang') for (;;);
  if (input === 'exit') process.exit(3);
  return (input as number) * 2;
});
