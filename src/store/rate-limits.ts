import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** A fixed-window budget: `points` requests per key every `duration` seconds. */
export interface RateLimitBudget {
  /** Names the budget: counters of different budgets never mix. */
  keyPrefix: string;
  points: number;
  duration: number;
}

/**
 * Where the service keeps its rate-limit counters: in this process's memory on
 * SQLite (one process), in the database when every instance must count together.
 * Counting is not part of any unit of work: a counted request stays counted.
 */
export interface RateLimitStore {
  /** A new counter for one budget. */
  limiter(budget: RateLimitBudget): RateLimiterAbstract;
  /**
   * Requests refused by this process's limiters since the store opened, by
   * budget name (`keyPrefix`); a budget that has a limiter appears, at 0 until
   * it refuses one (for the metrics).
   */
  rejections(): Record<string, number>;
}
