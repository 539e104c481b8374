import { serveProcessWorker } from '../../src/workers/pool.ts';
import { echo } from './echo.ts';

serveProcessWorker(echo);
