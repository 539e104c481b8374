import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitBudget, RateLimitStore } from '../rate-limits.ts';

/** Refusals by budget name since the store opened: each limiter's `consume` that refuses adds one. */
class Refusals {
  private readonly counts: Record<string, number> = {};

  watch(budget: RateLimitBudget, limiter: RateLimiterAbstract): RateLimiterAbstract {
    this.counts[budget.keyPrefix] ??= 0;
    const consume = limiter.consume.bind(limiter);
    limiter.consume = async (...args: Parameters<RateLimiterAbstract['consume']>) => {
      try {
        return await consume(...args);
      } catch (rejection) {
        // A refusal is a RateLimiterRes; an Error is the counter's store failing, which refuses nobody.
        if (rejection instanceof RateLimiterRes) this.counts[budget.keyPrefix]! += 1;
        throw rejection;
      }
    };
    return limiter;
  }

  snapshot(): Record<string, number> {
    return { ...this.counts };
  }
}

/**
 * Counters in PostgreSQL's `rate_limits` table (rate-limiter-flexible's layout,
 * made by the migrations), shared by every instance on the database; keys are
 * the budget's prefix and the caller's key, as they always were.
 */
export class PostgresRateLimits implements RateLimitStore {
  private readonly pool: pg.Pool;
  private readonly refusals = new Refusals();

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  limiter(budget: RateLimitBudget): RateLimiterAbstract {
    return this.refusals.watch(budget, new RateLimiterPostgres({ ...budget, storeClient: this.pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true }));
  }

  rejections(): Record<string, number> {
    return this.refusals.snapshot();
  }
}

/** Counters in this process's memory (SQLite: the service is one process); each limiter counts on its own. */
export class MemoryRateLimits implements RateLimitStore {
  private readonly refusals = new Refusals();

  limiter(budget: RateLimitBudget): RateLimiterAbstract {
    return this.refusals.watch(budget, new RateLimiterMemory(budget));
  }

  rejections(): Record<string, number> {
    return this.refusals.snapshot();
  }
}
