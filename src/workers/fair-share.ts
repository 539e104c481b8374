/**
 * At most `limit` tasks per caller at once; a caller's further tasks wait, in
 * order and without a deadline, for one of theirs to finish. A waiting task
 * holds no place in a worker pool, so it neither queues ahead of another
 * caller's work nor times out there. Per process: instances sharing a
 * database each keep their own count. Used for renders and for the scene
 * workers' jobs (layout, lint, patch, edit, validation, diffs).
 */
export class FairShare {
  private readonly limit: number;
  /** Caller → tasks running; a caller with none has no entry. */
  private readonly running = new Map<string, number>();
  /** Caller → their waiting tasks' starts, oldest first; a caller with none has no entry. */
  private readonly waitingByCaller = new Map<string, Array<() => void>>();

  constructor(limit: number) {
    this.limit = limit;
  }

  async run<T>(caller: string | undefined, task: () => Promise<T>): Promise<T> {
    if (caller === undefined) return task();
    await this.enter(caller);
    try {
      return await task();
    } finally {
      this.leave(caller);
    }
  }

  /** Tasks waiting for one of their caller's places, all callers together. */
  waiting(): number {
    let count = 0;
    for (const queue of this.waitingByCaller.values()) count += queue.length;
    return count;
  }

  private enter(caller: string): Promise<void> {
    const running = this.running.get(caller) ?? 0;
    if (running < this.limit) {
      this.running.set(caller, running + 1);
      return Promise.resolve();
    }
    return new Promise((start) => {
      const queue = this.waitingByCaller.get(caller);
      if (queue) queue.push(start);
      else this.waitingByCaller.set(caller, [start]);
    });
  }

  private leave(caller: string): void {
    const queue = this.waitingByCaller.get(caller);
    if (queue) {
      // The place passes to the caller's next task: their running count stays.
      const next = queue.shift()!;
      if (queue.length === 0) this.waitingByCaller.delete(caller);
      next();
      return;
    }
    const running = (this.running.get(caller) ?? 1) - 1;
    if (running === 0) this.running.delete(caller);
    else this.running.set(caller, running);
  }
}
