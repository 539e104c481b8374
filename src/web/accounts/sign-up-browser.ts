/**
 * Following the verification link signs in, but only in the browser that
 * signed up. Sign-up leaves a cookie (`drawbridge_signup`, sent to /verify
 * alone, for the link's 24 hours) holding the secret of a session started for
 * the new account; /verify signs in when that session is still live and is of
 * the account the link verifies. The link opened anywhere else only verifies:
 * whoever signed up first with someone else's address must not get their
 * browser signed in by the owner's click, nor the owner theirs into an account
 * whose password someone else chose.
 *
 * The cookie is set for a taken address too (with a secret that opens
 * nothing), so the answer to the form still does not tell who has an account.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LINK_LIFETIME_MS } from '../../app/accounts/email-links.ts';
import type { AppDeps } from '../../app/deps.ts';
import { openSession, startSession as startStoredSession } from '../../app/sessions/sessions.ts';
import type { UserRecord } from '../../store/store.ts';

export const SIGN_UP_COOKIE = 'drawbridge_signup';
const COOKIE_PATH = '/verify';

/** Marks this browser as the one that signed up for `user` (null: the address was taken). */
export async function rememberSignUp(deps: AppDeps, reply: FastifyReply, user: UserRecord | null): Promise<void> {
  const secret = user ? (await startStoredSession(deps, user)).secret : randomBytes(32).toString('base64url');
  reply.setCookie(SIGN_UP_COOKIE, secret, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    maxAge: LINK_LIFETIME_MS.verify_email / 1000,
  });
}

/**
 * The account this browser signed up for, if it did (read before the link is
 * used: verifying ends every session of the account, this one included).
 * The cookie is cleared either way.
 */
export async function signedUpHere(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
  const secret = request.cookies[SIGN_UP_COOKIE];
  if (!secret) return null;
  reply.clearCookie(SIGN_UP_COOKIE, { path: COOKIE_PATH });
  return (await openSession(deps, secret))?.user.id ?? null;
}
