/**
 * The fast renderer, in a worker process (fast-job.ts). Never needs the
 * editor's bundle, so it starts in a moment.
 */
import { serveProcessWorker } from '../workers/pool.ts';
import { type FastJob, renderFastJob } from './fast-job.ts';
import type { RenderOutput } from './types.ts';

serveProcessWorker<FastJob, RenderOutput>(renderFastJob);
