/**
 * Web sessions for people in the browser (the API itself takes bearer tokens
 * only). A session is a random cookie value of which only a SHA-256 is stored;
 * the cookie is HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https, and
 * lasts 30 days. Every state-changing web request must carry the session's
 * CSRF token (form field `_csrf` or header `x-csrf-token`) and, when the
 * browser says where it comes from, come from PUBLIC_URL's origin.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.ts';
import { requestPath } from '../http/errors.ts';
import type { AppDeps } from '../http/route.ts';
import type { UserRecord } from '../store/store.ts';

export const SESSION_COOKIE = 'drawbridge_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface WebSession {
  idHash: string;
  user: UserRecord;
  csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, on web routes (null when signed out). */
    webSession: WebSession | null;
  }
}

/** Thrown by requireSession: pages answer it with a redirect to the login page, web API routes with 401. */
export class SignInRequired extends Error {}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameSecret(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Starts a session for `user` and sets its cookie. */
export async function startSession(deps: AppDeps, reply: FastifyReply, user: UserRecord): Promise<WebSession> {
  const value = randomBytes(32).toString('base64url');
  const now = deps.now();
  const session = { idHash: sha256(value), userId: user.id, csrfToken: randomBytes(24).toString('base64url'), createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString() };
  await deps.store.createSession(session);
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    maxAge: SESSION_TTL_MS / 1000,
  });
  return { idHash: session.idHash, user, csrfToken: session.csrfToken };
}

/** Ends the request's session, if any, and clears its cookie. */
export async function endSession(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.webSession) await deps.store.deleteSession(request.webSession.idHash);
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
    const found = await deps.store.findSession(sha256(value), deps.now().toISOString());
    if (found) request.webSession = { idHash: found.session.idHash, user: found.user, csrfToken: found.session.csrfToken };
  });
});
