import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitBudget, RateLimitStore } from '../rate-limits.ts';

/**
 * Counters in PostgreSQL's `rate_limits` table (rate-limiter-flexible's layout,
 * made by the migrations), shared by every instance on the database; keys are
 * the budget's prefix and the caller's key, as they always were.
 */
export class PostgresRateLimits implements RateLimitStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  limiter(budget: RateLimitBudget): RateLimiterAbstract {
    return new RateLimiterPostgres({ ...budget, storeClient: this.pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true });
  }
}

/** Counters in this process's memory (SQLite: the service is one process); each limiter counts on its own. */
export class MemoryRateLimits implements RateLimitStore {
  limiter(budget: RateLimitBudget): RateLimiterAbstract {
    return new RateLimiterMemory(budget);
  }
}
