import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { RateLimitStore } from '../store/rate-limits.ts';
import { consumeOrWait } from './rate-limit.ts';

const PAGE_WINDOW_SECONDS = 60;

/** An onRequest hook: counts the request, or refuses it with 429 rate_limited and Retry-After. */
export type PageRequestLimit = (request: FastifyRequest) => Promise<void>;

/**
 * The budget of the pages anyone can reach without signing in (public
 * diagrams, the account pages): RATE_LIMIT_PAGES_PER_MIN requests a minute per
 * client address, all of those pages together, counted with the service's
 * other limits (shared by every instance on PostgreSQL). It bounds floods of
 * renders, slug probes and form posts; the budgets of sign-in, sign-up and
 * password guesses still apply beneath it. Each plugin answers the refusal in
 * its own error page.
 */
export function pageRequestLimit(config: Pick<Config, 'rateLimitPagesPerMin'>, counters: RateLimitStore): PageRequestLimit {
  const counter = counters.limiter({ keyPrefix: 'web-page', points: config.rateLimitPagesPerMin, duration: PAGE_WINDOW_SECONDS });
  return async (request) => {
    const wait = await consumeOrWait(counter, request.ip);
    if (wait !== null) {
      throw new ApiError('rate_limited', `Too many requests from your address. Try again in ${wait} seconds.`, { 'retry-after': String(wait) });
    }
  };
}
