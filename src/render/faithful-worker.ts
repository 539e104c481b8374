/**
 * A render worker process: loads the editor's bundle once (about 1.5 s), then
 * renders jobs one at a time for the API's faithful render pool.
 */
import { serveProcessWorker } from '../workers/pool.ts';
import { loadExcalidraw } from './editor-runtime.ts';
import { renderFaithfulJob } from './faithful-job.ts';
import type { RenderJob, RenderOutput } from './types.ts';

// Loaded before serving: the pool counts a job's time from when the worker says it is ready.
const editor = await loadExcalidraw();

serveProcessWorker<RenderJob, RenderOutput>((job) => renderFaithfulJob(editor, job));
