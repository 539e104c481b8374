/**
 * Web sessions for people in the browser (the API itself takes bearer tokens
 * only). A session's secret is 256 random bits that only the browser holds;
 * the database keeps its SHA-256, so a leaked database opens no session.
 * Each session has its own CSRF token and lasts 30 days.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { UserRecord } from '../../store/store.ts';
import type { AppDeps } from '../deps.ts';
import { publishSessionsEnded } from '../live/notify.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface Session {
  idHash: string;
  user: UserRecord;
  csrfToken: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Starts a session for `user`: returns the secret to hand to the browser, and the session. */
export async function startSession(deps: AppDeps, user: UserRecord): Promise<{ secret: string; session: Session }> {
  const secret = randomBytes(32).toString('base64url');
  const now = deps.now();
  const record = {
    idHash: sha256(secret),
    userId: user.id,
    csrfToken: randomBytes(24).toString('base64url'),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
  };
  await deps.store.sessions.create(record);
  return { secret, session: { idHash: record.idHash, user, csrfToken: record.csrfToken } };
}

/** The live session a browser's secret opens, or null (unknown, ended or expired). */
export async function openSession(deps: AppDeps, secret: string): Promise<Session | null> {
  return sessionByHash(deps, sha256(secret));
}

/** The session, if it is still live (not ended, not expired, its account still there). */
export async function sessionByHash(deps: AppDeps, idHash: string): Promise<Session | null> {
  const found = await deps.store.sessions.find(idHash, deps.now().toISOString());
  return found ? { idHash: found.session.idHash, user: found.user, csrfToken: found.session.csrfToken } : null;
}

/** Ends a session (signing out); ending one already gone is harmless. Live rooms close for it. */
export async function endSession(deps: AppDeps, session: Pick<Session, 'idHash' | 'user'>): Promise<void> {
  await deps.store.sessions.delete(session.idHash);
  await publishSessionsEnded(deps, session.user.id);
}
