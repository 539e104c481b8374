import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import v8 from 'node:v8';
import { type MessagePort, Worker } from 'node:worker_threads';

interface Job<Out> {
  input: unknown;
  resolve: (value: Out) => void;
  reject: (error: Error) => void;
  /** A worker took the job: from now on the job's own timeout applies. */
  taken: () => void;
}

/** A worker's answer; `retire` when its heap grew past its bound: it is replaced rather than given another job. */
type Reply<Out> = ({ ok: true; value: Out } | { ok: false; error: string }) & { retire?: boolean };
/** What a worker says once its module has loaded; only then does it get jobs (loading is not job time). */
type Ready = { ready: true };
type WorkerMessage = Reply<unknown> | Ready;

/** One worker, thread or process, as the pool drives it. */
interface WorkerHandle {
  readonly pid: number | undefined;
  send(input: unknown): void;
  on(event: 'message', listener: (message: WorkerMessage) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'exit', listener: (code: number | null) => void): void;
  off(event: 'message' | 'error' | 'exit', listener: (...args: any[]) => void): void;
  kill(): void;
}

interface Slot {
  worker: WorkerHandle;
  state: 'starting' | 'idle' | 'busy';
  /** Set while the worker is idle and the pool stops idle workers: when it fires, the worker is stopped. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * A job that no worker finished: it ran past the timeout (`timeout`), its
 * worker crashed or ran out of heap (`crashed`), no worker took it in time
 * (`busy`), the pool closed (`closed`), or no worker could start (`start`).
 */
export class WorkerFailure extends Error {
  readonly reason: 'timeout' | 'crashed' | 'busy' | 'closed' | 'start';
  constructor(message: string, reason: 'timeout' | 'crashed' | 'busy' | 'closed' | 'start') {
    super(message);
    this.reason = reason;
  }
}

/** Why a worker was replaced: its job ran past the timeout, it died, it never became ready, or its heap outgrew its bound. */
export type WorkerReplacement = 'timeout' | 'crashed' | 'start' | 'heap';

/** What a pool holds right now, and how many workers it has replaced since it was made (for the metrics). */
export interface WorkerPoolStats {
  /** The most workers it runs at once. */
  size: number;
  starting: number;
  idle: number;
  busy: number;
  /** Jobs waiting for a worker. */
  queued: number;
  replaced: Record<WorkerReplacement, number>;
  /** Workers stopped for being idle (idleMs) since the pool was made. */
  stoppedIdle: number;
}

export interface WorkerPoolOptions {
  size: number;
  /** A job not answered within this fails, and its worker is replaced. */
  timeoutMs: number;
  /** A worker not ready within this (default 60 s) is replaced, failing one waiting job. */
  startTimeoutMs?: number;
  /** A worker idle this long is stopped (its memory back to the system), and started again when work comes; absent: never. */
  idleMs?: number;
  /**
   * `thread` (default) for pure CPU work; `process` for work that must not
   * share the server's heap or globals (the editor's bundle, a native
   * rasteriser): a crash or runaway kills the process, never the server.
   */
  kind?: 'thread' | 'process';
  /** The most heap (V8's old generation, MB) a worker may hold; past it the worker dies and its job fails as `crashed`. */
  heapLimitMb?: number;
  /**
   * Process workers only: the size of each half of V8's young generation (MB, `--max-semi-space-size`).
   * Node sizes it from the machine's memory; a small one keeps a worker's resident memory down.
   */
  semiSpaceMb?: number;
  /**
   * Process workers only: their scheduling priority (nice, 0–19). Background
   * work at a lower priority than the server keeps small requests fast while
   * every core renders.
   */
  nice?: number;
}

/** Whether this module runs compiled (`npm run build`, dist/workers/pool.js) rather than from source through tsx. */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * The module a worker runs, in the form this process runs. Callers name the
 * source, `new URL('./fast-worker.ts', import.meta.url)`; compiled, that is
 * the `.js` file beside it.
 */
function workerEntry(file: URL): URL {
  if (!COMPILED || !file.pathname.endsWith('.ts')) return file;
  const compiled = new URL(file.href);
  compiled.pathname = `${file.pathname.slice(0, -'.ts'.length)}.js`;
  return compiled;
}

/**
 * What a worker starts: a TypeScript entry through the bootstrap, which
 * registers tsx first (workers do not inherit the parent's loader); a
 * JavaScript one directly, so compiled workers never load tsx.
 */
function launcher(entry: URL): URL {
  return entry.pathname.endsWith('.ts') ? new URL('./bootstrap.mjs', import.meta.url) : entry;
}

function threadWorker(entry: URL, heapLimitMb: number | undefined): WorkerHandle {
  // execArgv: []: the parent's preloads (e.g. a test runner's --import) are not the worker's business;
  // the bootstrap registers the TypeScript loader itself.
  const worker = new Worker(launcher(entry), {
    workerData: { entry: entry.href },
    execArgv: [],
    ...(heapLimitMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapLimitMb } }),
  });
  worker.unref();
  return {
    pid: undefined,
    send: (input) => worker.postMessage(input),
    on: (event: string, listener: (...args: any[]) => void) => void worker.on(event, listener),
    off: (event, listener) => void worker.off(event, listener),
    kill: () => void worker.terminate(),
  };
}

function processWorker(entry: URL, nice: number, heapLimitMb: number | undefined, semiSpaceMb: number | undefined): WorkerHandle {
  const child: ChildProcess = fork(launcher(entry), [entry.href], {
    execArgv: [
      ...(heapLimitMb === undefined ? [] : [`--max-old-space-size=${heapLimitMb}`]),
      ...(semiSpaceMb === undefined ? [] : [`--max-semi-space-size=${semiSpaceMb}`]),
    ],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.unref();
  child.channel?.unref();
  if (nice > 0 && child.pid !== undefined) {
    try {
      os.setPriority(child.pid, nice);
    } catch {
      // Not permitted here (some containers): the worker runs at normal priority.
    }
  }
  return {
    pid: child.pid,
    send: (input) => child.send(input as never),
    on: (event: string, listener: (...args: any[]) => void) => void child.on(event, listener),
    off: (event, listener) => void child.off(event, listener),
    kill: () => void child.kill('SIGKILL'),
  };
}

/**
 * A small pool of workers running one module, so CPU-heavy work (layout,
 * scene generation, rendering) never stalls the event loop. Workers start
 * lazily, take one job at a time, and are replaced when they time out or crash.
 */
export class WorkerPool<In, Out> {
  private readonly slots: Slot[] = [];
  private readonly queue: Array<Job<Out>> = [];
  private closed = false;
  private readonly file: URL;
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly kind: 'thread' | 'process';
  private readonly nice: number;
  private readonly heapLimitMb: number | undefined;
  private readonly semiSpaceMb: number | undefined;
  private readonly idleMs: number | undefined;
  private stoppedIdle = 0;
  private readonly replaced: Record<WorkerReplacement, number> = { timeout: 0, crashed: 0, start: 0, heap: 0 };

  constructor(file: URL, options: WorkerPoolOptions) {
    this.heapLimitMb = options.heapLimitMb;
    this.semiSpaceMb = options.semiSpaceMb;
    this.file = workerEntry(file);
    this.size = Math.max(1, options.size);
    this.timeoutMs = options.timeoutMs;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.kind = options.kind ?? 'thread';
    this.nice = options.nice ?? 0;
    this.idleMs = options.idleMs;
  }

  /** `onTaken` is called when a worker takes the job (the end of its wait in the queue). */
  run(input: In, onTaken?: () => void): Promise<Out> {
    if (this.closed) return Promise.reject(new WorkerFailure('the worker pool is closed', 'closed'));
    return new Promise<Out>((resolve, reject) => {
      // A job no worker takes within the timeout fails too: under a burst, callers fall back rather than wait on.
      // A job that a starting worker will take waits for it (loading is bounded by the start timeout).
      let waited: NodeJS.Timeout;
      const giveUp = () => {
        const at = this.queue.indexOf(job);
        if (at < 0) return;
        if (at < this.slots.filter((slot) => slot.state === 'starting').length) {
          waited = setTimeout(giveUp, this.timeoutMs);
          return;
        }
        this.queue.splice(at, 1);
        reject(new WorkerFailure(`no worker was free within ${this.timeoutMs} ms`, 'busy'));
      };
      waited = setTimeout(giveUp, this.timeoutMs);
      const job: Job<Out> = {
        input,
        resolve: (value) => (clearTimeout(waited), resolve(value)),
        reject: (error) => (clearTimeout(waited), reject(error)),
        taken: () => {
          clearTimeout(waited);
          onTaken?.();
        },
      };
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Starts `count` workers (all of them by default) now rather than on first use, so the first jobs do not wait for workers to load. */
  warm(count = this.size): void {
    while (!this.closed && this.slots.length < Math.min(count, this.size)) this.spawn();
  }

  /** Process ids of the live workers (process pools only): for operators and for tests that kill or stop one. */
  pids(): number[] {
    return this.slots.flatMap((slot) => (slot.worker.pid === undefined ? [] : [slot.worker.pid]));
  }

  stats(): WorkerPoolStats {
    const count = (state: Slot['state']) => this.slots.filter((slot) => slot.state === state).length;
    return { size: this.size, starting: count('starting'), idle: count('idle'), busy: count('busy'), queued: this.queue.length, replaced: { ...this.replaced }, stoppedIdle: this.stoppedIdle };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new WorkerFailure('the worker pool is closed', 'closed'));
    for (const slot of this.slots.splice(0)) {
      clearTimeout(slot.idleTimer);
      slot.worker.kill();
    }
  }

  /** Marks the worker idle, to be stopped if it stays so for idleMs. */
  private rest(slot: Slot): void {
    slot.state = 'idle';
    if (this.idleMs === undefined) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.state !== 'idle' || !this.forget(slot)) return;
      this.stoppedIdle += 1;
      slot.worker.kill();
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.state === 'idle');
      if (slot) {
        this.execute(slot, this.queue.shift()!);
        continue;
      }
      const starting = this.slots.filter((s) => s.state === 'starting').length;
      if (this.slots.length < this.size && starting < this.queue.length) this.spawn();
      return;
    }
  }

  private spawn(): Slot {
    const worker = this.kind === 'process' ? processWorker(this.file, this.nice, this.heapLimitMb, this.semiSpaceMb) : threadWorker(this.file, this.heapLimitMb);
    const slot: Slot = { worker, state: 'starting' };
    this.slots.push(slot);
    const started = () => {
      clearTimeout(timer);
      worker.off('message', onReady);
    };
    const onReady = (message: WorkerMessage) => {
      if (!('ready' in message)) return;
      started();
      this.rest(slot);
      this.dispatch();
    };
    // A worker that cannot start fails one waiting job, so a broken module cannot respawn forever.
    const failStart = (reason: string) => {
      if (slot.state !== 'starting') return;
      started();
      this.retire(slot, 'start');
      this.queue.shift()?.reject(new WorkerFailure(`worker did not start: ${reason}`, 'start'));
      this.dispatch();
    };
    const timer = setTimeout(() => failStart(`not ready within ${this.startTimeoutMs} ms`), this.startTimeoutMs);
    worker.on('message', onReady);
    // An idle worker that dies is simply forgotten; a busy one fails its job (see execute).
    worker.on('exit', (code) => {
      failStart(`exited with code ${code}`);
      if (slot.state === 'idle' && this.forget(slot)) this.replaced.crashed += 1;
    });
    worker.on('error', (error) => {
      failStart(error.message);
      if (slot.state === 'idle' && this.forget(slot)) this.replaced.crashed += 1;
    });
    return slot;
  }

  /** Drops the slot; false when it was no longer there (the pool closed, or it was dropped already). */
  private forget(slot: Slot): boolean {
    const at = this.slots.indexOf(slot);
    if (at < 0) return false;
    this.slots.splice(at, 1);
    return true;
  }

  private retire(slot: Slot, reason: WorkerReplacement): void {
    if (this.forget(slot)) this.replaced[reason] += 1;
    slot.worker.kill();
  }

  private execute(slot: Slot, job: Job<Out>): void {
    job.taken();
    clearTimeout(slot.idleTimer);
    slot.state = 'busy';
    const { worker } = slot;
    const finish = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: WorkerMessage) => {
      if ('ready' in message) return;
      finish();
      if (message.retire) this.retire(slot, 'heap');
      else this.rest(slot);
      if (message.ok) job.resolve(message.value as Out);
      else job.reject(new Error(message.error));
      this.dispatch();
    };
    const fail = (error: WorkerFailure) => {
      finish();
      this.retire(slot, error.reason === 'timeout' ? 'timeout' : 'crashed');
      job.reject(error);
      this.dispatch();
    };
    const onError = (error: Error) => fail(new WorkerFailure(`worker failed: ${error.message}`, 'crashed'));
    const onExit = (code: number | null) => fail(new WorkerFailure(`worker exited with code ${code}`, 'crashed'));
    const timer = setTimeout(() => fail(new WorkerFailure(`worker did not answer within ${this.timeoutMs} ms`, 'timeout')), this.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    try {
      worker.send(job.input);
    } catch (error) {
      fail(new WorkerFailure(`worker could not take the job: ${error instanceof Error ? error.message : String(error)}`, 'crashed'));
    }
  }
}

/** Where a worker reads jobs and posts replies: a thread's parentPort, or the process itself. */
type JobChannel = Pick<MessagePort, 'on'> & { postMessage(message: WorkerMessage): void };

/**
 * The worker side, in a thread: answers each message with `handle`'s result or
 * its error. With `retireAboveHeapMb`, a worker whose heap has grown past that
 * after a job (a huge layout leaves V8's heap large long after) asks to be
 * replaced, so the memory goes back to the system instead of staying with the
 * server for good.
 */
export function serveWorker<In, Out>(port: MessagePort, handle: (input: In) => Out | Promise<Out>, options: { retireAboveHeapMb?: number | (() => number) } = {}): void {
  serve(port, handle, options.retireAboveHeapMb);
}

/** The worker side, in a process forked by a `kind: 'process'` pool; `retireAboveHeapMb` as for serveWorker. */
export function serveProcessWorker<In, Out>(handle: (input: In) => Out | Promise<Out>, options: { retireAboveHeapMb?: number | (() => number) } = {}): void {
  if (!process.send) throw new Error('serveProcessWorker: not started by a process pool (no IPC channel)');
  const channel = { on: (event: 'message', listener: (input: In) => void) => process.on(event, listener), postMessage: (message: WorkerMessage) => process.send!(message) };
  serve(channel as unknown as JobChannel, handle, options.retireAboveHeapMb);
  // The parent going away (killed, crashed) must not leave this process behind.
  process.on('disconnect', () => process.exit(0));
}

function serve<In, Out>(channel: JobChannel, handle: (input: In) => Out | Promise<Out>, retireAboveHeapMb: number | (() => number) = Infinity): void {
  const retire = () => {
    const limit = typeof retireAboveHeapMb === 'function' ? retireAboveHeapMb() : retireAboveHeapMb;
    return Number.isFinite(limit) && v8.getHeapStatistics().total_heap_size > limit * 2 ** 20 ? { retire: true } : {};
  };
  channel.on('message', async (input: In) => {
    try {
      const value = await handle(input);
      channel.postMessage({ ok: true, value, ...retire() });
    } catch (error) {
      channel.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error), ...retire() });
    }
  });
  channel.postMessage({ ready: true });
}
