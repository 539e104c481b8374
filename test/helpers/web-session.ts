// A signed-in browser session without a browser or the login form: the session
// row is written through the store exactly as startSession writes it, and the
// cookie carries the secret whose SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_TTL_MS } from '../../src/app/sessions/sessions.ts';
import { SESSION_COOKIE } from '../../src/web/session.ts';
import type { Harness } from './harness.ts';

export interface SignedIn {
  /** The value for a `cookie` request header. */
  cookie: string;
  /** The session's CSRF token, for the `_csrf` form field or the `x-csrf-token` header. */
  csrfToken: string;
}

export async function signIn(h: Pick<Harness, 'store'>, userId: string): Promise<SignedIn> {
  const value = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const now = Date.now();
  await h.store.sessions.create({
    idHash: createHash('sha256').update(value).digest('hex'),
    userId,
    csrfToken,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
  });
  return { cookie: `${SESSION_COOKIE}=${value}`, csrfToken };
}
