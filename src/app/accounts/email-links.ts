import { createHash, randomBytes } from 'node:crypto';
import type { EmailTokenPurpose } from '../../store/store.ts';
import type { AppDeps } from '../deps.ts';

/**
 * One-use links sent by email: 256 random bits in the URL, only their SHA-256
 * in the database, each for one purpose and until it expires.
 */
export const LINK_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function linkUrl(publicUrl: string, purpose: EmailTokenPurpose, token: string): string {
  return purpose === 'verify_email' ? `${publicUrl}/verify?token=${token}` : `${publicUrl}/reset/${token}`;
}

/** Stores a new link for the user and returns its absolute URL (on PUBLIC_URL). */
export async function issueEmailLink(deps: AppDeps, userId: string, purpose: EmailTokenPurpose): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.now();
  await deps.store.emailTokens.create({
    tokenHash: sha256(token),
    userId,
    purpose,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]).toISOString(),
  });
  return linkUrl(deps.config.publicUrl, purpose, token);
}

/** Uses a link: the user id when it is unused, unexpired and for this purpose (and from now on used), else null. */
export async function useEmailLink(deps: AppDeps, token: unknown, purpose: EmailTokenPurpose): Promise<string | null> {
  if (typeof token !== 'string' || !LINK_TOKEN.test(token)) return null;
  return deps.store.emailTokens.consume(sha256(token), purpose, deps.now().toISOString());
}

/** True when the text could be a link token at all (a cheap check before showing a form). */
export function isLinkTokenShape(token: string): boolean {
  return LINK_TOKEN.test(token);
}

