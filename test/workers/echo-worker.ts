import { parentPort } from 'node:worker_threads';
import { serveWorker } from '../../src/workers/pool.ts';
import { echo } from './echo.ts';

serveWorker(parentPort!, echo);
