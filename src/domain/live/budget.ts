/**
 * What one live connection may send: a budget of messages and of bytes, each
 * a token bucket (a burst allowance that refills at a steady rate). A message
 * the budget cannot pay for is refused, changing nothing; refusals have a
 * budget of their own, and a client that runs through it too (it keeps
 * sending while refused) is told to go. Pure: the caller passes the time.
 */

/** A token bucket: holds at most `capacity` tokens and gains `perSecond` a second; a cost is taken whole or not at all. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  readonly capacity: number;
  readonly perSecond: number;
  constructor(capacity: number, perSecond: number, now: number) {
    this.capacity = capacity;
    this.perSecond = perSecond;
    this.tokens = capacity;
    this.at = now;
  }

  /** The tokens held at `now`. */
  level(now: number): number {
    if (now > this.at) {
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) / 1000) * this.perSecond);
      this.at = now;
    }
    return this.tokens;
  }

  take(cost: number, now: number): boolean {
    if (this.level(now) < cost) return false;
    this.tokens -= cost;
    return true;
  }
}

export interface LiveBudgetLimits {
  messagesPerSecond: number;
  messageBurst: number;
  bytesPerSecond: number;
  /** At least the largest message allowed, so any one message can be paid for once the budget is full. */
  byteBurst: number;
  /** Refusals a second a connection may take without being closed: more than a well-behaved client can ever be refused. */
  refusalsPerSecond: number;
  refusalBurst: number;
}

/** accept: handle it; refuse: answer an error and drop it; close: the sender ignored the refusals. */
export type BudgetVerdict = 'accept' | 'refuse' | 'close';

export class LiveBudget {
  private readonly messages: TokenBucket;
  private readonly bytes: TokenBucket;
  private readonly refusals: TokenBucket;

  constructor(limits: LiveBudgetLimits, now: number) {
    this.messages = new TokenBucket(limits.messageBurst, limits.messagesPerSecond, now);
    this.bytes = new TokenBucket(limits.byteBurst, limits.bytesPerSecond, now);
    this.refusals = new TokenBucket(limits.refusalBurst, limits.refusalsPerSecond, now);
  }

  /** Pays for a message of `size` bytes if both buckets can; else counts a refusal. */
  admit(size: number, now: number): BudgetVerdict {
    if (this.messages.level(now) >= 1 && this.bytes.level(now) >= size) {
      this.messages.take(1, now);
      this.bytes.take(size, now);
      return 'accept';
    }
    return this.refusals.take(1, now) ? 'refuse' : 'close';
  }
}

/**
 * Budgets by key (a person): all the connections of one key draw from one
 * budget, so opening another connection, or reconnecting after being closed,
 * does not bring a fresh one. A key without connections is forgotten once its
 * budget would be full again anyway.
 */
export class SharedBudgets {
  private readonly limits: LiveBudgetLimits;
  private readonly forgetAfterMs: number;
  private readonly byKey = new Map<string, { budget: LiveBudget; connections: number; releasedAt: number }>();

  constructor(limits: LiveBudgetLimits) {
    this.limits = limits;
    this.forgetAfterMs = 1000 * Math.max(limits.messageBurst / limits.messagesPerSecond, limits.byteBurst / limits.bytesPerSecond, limits.refusalBurst / limits.refusalsPerSecond);
  }

  /** Keys remembered (for tests and operators). */
  get size(): number {
    return this.byKey.size;
  }

  /** The budget of `key` for a new connection of theirs; `release` it when the connection closes. */
  take(key: string, now: number): LiveBudget {
    for (const [other, entry] of this.byKey) if (entry.connections === 0 && now - entry.releasedAt >= this.forgetAfterMs) this.byKey.delete(other);
    let entry = this.byKey.get(key);
    if (!entry) this.byKey.set(key, (entry = { budget: new LiveBudget(this.limits, now), connections: 0, releasedAt: now }));
    entry.connections += 1;
    return entry.budget;
  }

  release(key: string, now: number): void {
    const entry = this.byKey.get(key);
    if (!entry) return;
    entry.connections -= 1;
    entry.releasedAt = now;
  }
}
