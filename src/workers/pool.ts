import { Worker } from 'node:worker_threads';

interface Job<Out> {
  input: unknown;
  resolve: (value: Out) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

/** A worker that did not answer in time, or died. */
export class WorkerFailure extends Error {}

/**
 * A small pool of worker threads running one module, so CPU-heavy pure work
 * (layout, scene generation) never stalls the event loop. Workers start lazily,
 * take one job at a time, and are replaced when they time out or crash.
 */
export class WorkerPool<In, Out> {
  private readonly slots: Slot[] = [];
  private readonly queue: Array<Job<Out>> = [];
  private closed = false;
  private readonly file: URL;
  private readonly size: number;
  private readonly timeoutMs: number;

  constructor(file: URL, options: { size: number; timeoutMs: number }) {
    this.file = file;
    this.size = Math.max(1, options.size);
    this.timeoutMs = options.timeoutMs;
  }

  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(new WorkerFailure('the worker pool is closed'));
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new WorkerFailure('the worker pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      this.execute(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    // execArgv: []: the parent's preloads (e.g. a test runner's --import) are not the worker's business;
    // the bootstrap registers the TypeScript loader itself.
    const worker = new Worker(new URL('./bootstrap.mjs', import.meta.url), { workerData: { entry: this.file.href }, execArgv: [] });
    const slot: Slot = { worker, busy: false };
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private retire(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
  }

  private execute(slot: Slot, job: Job<Out>): void {
    slot.busy = true;
    const { worker } = slot;
    const finish = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: { ok: true; value: Out } | { ok: false; error: string }) => {
      finish();
      slot.busy = false;
      if (message.ok) job.resolve(message.value);
      else job.reject(new Error(message.error));
      this.dispatch();
    };
    const fail = (error: Error) => {
      finish();
      this.retire(slot);
      job.reject(error);
      this.dispatch();
    };
    const onError = (error: Error) => fail(new WorkerFailure(`worker failed: ${error.message}`));
    const onExit = (code: number) => fail(new WorkerFailure(`worker exited with code ${code}`));
    const timer = setTimeout(() => fail(new WorkerFailure(`worker did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job.input);
  }
}

/** The worker side: answers each message with `handle`'s result or its error. */
export function serveWorker<In, Out>(port: import('node:worker_threads').MessagePort, handle: (input: In) => Out): void {
  port.on('message', (input: In) => {
    try {
      port.postMessage({ ok: true, value: handle(input) });
    } catch (error) {
      port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
