// Workers do not inherit the parent's loader: on a Node that does not strip types itself
// (before 22.18), register tsx; then load the TypeScript entry (a thread gets it as
// workerData; a forked process as its first argument).
import { isMainThread, workerData } from 'node:worker_threads';

if (!process.features.typescript) (await import('tsx/esm/api')).register();
await import(isMainThread ? process.argv[2] : workerData.entry);
