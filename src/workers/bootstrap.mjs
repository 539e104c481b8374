// Workers do not inherit the parent's tsx loader: register it, then load the TypeScript entry
// (a thread gets it as workerData; a forked process as its first argument).
import { isMainThread, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(isMainThread ? process.argv[2] : workerData.entry);
