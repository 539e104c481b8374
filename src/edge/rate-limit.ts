import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { RateLimitBudget, RateLimitStore } from '../store/rate-limits.ts';

export type Bucket = 'read' | 'write';
const WINDOW_SECONDS = 60;

/**
 * A fixed-window budget: `points` requests per key every `duration` seconds. Its
 * counter comes from the store (`store.rateLimits.limiter(budget)`), which keeps
 * it where the service keeps all its limits: in this process's memory on SQLite
 * (one process), in PostgreSQL's rate_limits table when the service runs on it,
 * so that every instance counts together.
 */
export type Budget = RateLimitBudget;

/** Counts one request against `key`: null when it is within the budget, else the seconds to wait. */
export async function consumeOrWait(counter: RateLimiterAbstract, key: string): Promise<number | null> {
  try {
    await counter.consume(key);
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw rejection;
  }
}

export interface RateDecision {
  bucket: Bucket;
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
}

/**
 * Per-caller request budgets: a read bucket (GET) and a write bucket (every
 * other verb), counted independently over a fixed 60-second window. In memory
 * on SQLite (one process); in PostgreSQL when the service runs on it, so the
 * limit holds across instances.
 */
export class RateLimits {
  private readonly limiters: Record<Bucket, RateLimiterAbstract>;
  readonly quotas: Record<Bucket, number>;

  constructor(config: Pick<Config, 'rateLimitReadPerMin' | 'rateLimitWritePerMin'>, counters: RateLimitStore) {
    this.quotas = { read: config.rateLimitReadPerMin, write: config.rateLimitWritePerMin };
    const make = (bucket: Bucket) => counters.limiter({ keyPrefix: bucket, points: this.quotas[bucket], duration: WINDOW_SECONDS });
    this.limiters = { read: make('read'), write: make('write') };
  }

  static bucketFor(method: string): Bucket {
    return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  }

  async consume(key: string, bucket: Bucket): Promise<RateDecision> {
    try {
      const res = await this.limiters[bucket].consume(key);
      return { bucket, allowed: true, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { bucket, allowed: false, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }

  policyHeader(): string {
    return `"read";q=${this.quotas.read};w=${WINDOW_SECONDS}, "write";q=${this.quotas.write};w=${WINDOW_SECONDS}`;
  }

  static stateHeader(decision: RateDecision): string {
    return `"${decision.bucket}";r=${decision.remaining};t=${decision.resetSeconds}`;
  }
}
