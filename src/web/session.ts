/**
 * Web sessions in the browser: the session's secret travels in a cookie,
 * HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, for the session's
 * 30 days (the sessions themselves are src/app/sessions). Every state-changing web request must carry the session's
 * CSRF token (form field `_csrf` or header `x-csrf-token`) and, when the
 * browser says where it comes from, come from PUBLIC_URL's origin.
 */
import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../app/deps.ts';
import { endSession as endStoredSession, openSession, type Session, SESSION_TTL_MS, startSession as startStoredSession } from '../app/sessions/sessions.ts';
import { requestPath } from '../edge/errors.ts';
import { ApiError } from '../errors.ts';
import type { UserRecord } from '../store/store.ts';

export const SESSION_COOKIE = 'drawbridge_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type WebSession = Session;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, on web routes (null when signed out). */
    webSession: WebSession | null;
  }
}

/** Thrown by requireSession: pages answer it with a redirect to the login page, web API routes with 401. */
export class SignInRequired extends Error {}

function sameSecret(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Starts a session for `user` and sets its cookie. */
export async function startSession(deps: AppDeps, reply: FastifyReply, user: UserRecord): Promise<WebSession> {
  const { secret, session } = await startStoredSession(deps, user);
  reply.setCookie(SESSION_COOKIE, secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    maxAge: SESSION_TTL_MS / 1000,
  });
  return session;
}

/** Ends the request's session, if any, and clears its cookie. */
export async function endSession(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.webSession) await endStoredSession(deps, request.webSession);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The signed-in person, or SignInRequired. */
export function requireSession(request: FastifyRequest): WebSession {
  if (!request.webSession) throw new SignInRequired();
  return request.webSession;
}

/**
 * Refuses a state-changing request that lacks the session's CSRF token or
 * comes from another origin (csrf_failed, nothing done). Call it before any
 * change in every non-GET web handler.
 */
export function verifyCsrf(request: FastifyRequest, session: WebSession, publicUrl: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  // Any Origin but this site's is refused, `null` included (a sandboxed frame, a data: or file: page, a cross-site redirect).
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== new URL(publicUrl).origin) {
    throw new ApiError('csrf_failed', 'this request came from another site');
  }
  const body = request.body as Record<string, unknown> | undefined;
  const sent = request.headers['x-csrf-token'] ?? body?._csrf;
  if (typeof sent !== 'string' || !sameSecret(sent, session.csrfToken)) {
    throw new ApiError('csrf_failed', 'the form is out of date: reload the page and try again');
  }
}

/** Reads the session cookie on every web request (never on /api or /mcp, which take bearer tokens). */
export const sessionPlugin = fp<{ deps: AppDeps }>(async (app, { deps }) => {
  await app.register(cookie);
  app.decorateRequest('webSession', null);
  app.addHook('onRequest', async (request) => {
    const path = requestPath(request.url);
    if (path.startsWith('/api/') || path.startsWith('/mcp')) return;
    const value = request.cookies[SESSION_COOKIE];
    if (!value) return;
    request.webSession = await openSession(deps, value);
  });
});
