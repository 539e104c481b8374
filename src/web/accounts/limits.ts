import { createHash } from 'node:crypto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { consumeOrWait } from '../../edge/rate-limit.ts';
import type { RateLimitStore } from '../../store/rate-limits.ts';

/**
 * Budgets of the account pages. Like the API's (src/edge/rate-limit.ts) they
 * are kept in memory on SQLite and in PostgreSQL's rate_limits table when the
 * service runs on it, so that they hold across instances. Email addresses
 * enter keys only as SHA-256 hashes.
 */
const ACCOUNT_LIMITS = {
  /** Sign-in attempts for one address from one client address. */
  loginPerIpAndEmail: { points: 10, duration: 60 },
  /** Sign-in attempts from one client address, whatever the account. */
  loginPerIp: { points: 50, duration: 60 },
  /** Sign-up and reset requests from one client address. */
  mailFormsPerIp: { points: 30, duration: 600 },
  /** Messages sent to one address: over it, mail is dropped silently (the page says the same either way). */
  mailPerAddress: { points: 5, duration: 3600 },
} as const;

type LimitName = keyof typeof ACCOUNT_LIMITS;

/** Seconds to wait before trying again, or null when the attempt is allowed. */
export type Wait = number | null;

const hashed = (email: string) => createHash('sha256').update(email).digest('hex');

export class AccountLimits {
  private readonly limiters: Record<LimitName, RateLimiterAbstract>;

  constructor(counters: RateLimitStore) {
    const make = (name: LimitName) => counters.limiter({ keyPrefix: `web-${name}`, ...ACCOUNT_LIMITS[name] });
    this.limiters = {
      loginPerIpAndEmail: make('loginPerIpAndEmail'),
      loginPerIp: make('loginPerIp'),
      mailFormsPerIp: make('mailFormsPerIp'),
      mailPerAddress: make('mailPerAddress'),
    };
  }

  /** Counts a sign-in attempt against both budgets. */
  async loginAttempt(ip: string, email: string): Promise<Wait> {
    const waits = await Promise.all([this.consume('loginPerIpAndEmail', `${ip}|${hashed(email)}`), this.consume('loginPerIp', ip)]);
    const blocked = waits.filter((w): w is number => w !== null);
    return blocked.length ? Math.max(...blocked) : null;
  }

  /** A successful sign-in clears that address's failures (the per-client budget stays). */
  async loginSucceeded(ip: string, email: string): Promise<void> {
    await this.limiters.loginPerIpAndEmail.delete(`${ip}|${hashed(email)}`);
  }

  mailFormSubmission(ip: string): Promise<Wait> {
    return this.consume('mailFormsPerIp', ip);
  }

  /** True when one more message may go to this address now. */
  async mayMail(email: string): Promise<boolean> {
    return (await this.consume('mailPerAddress', hashed(email))) === null;
  }

  private consume(name: LimitName, key: string): Promise<Wait> {
    return consumeOrWait(this.limiters[name], key);
  }
}
