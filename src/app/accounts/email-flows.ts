/**
 * What people do with their accounts through emailed links: sign up (and
 * prove the address), ask for a password reset and use it. Each link is one
 * use, for one purpose, until it expires (email-links.ts).
 */
import { hashPassword } from '../../auth/passwords.ts';
import type { UserRecord } from '../../store/store.ts';
import type { AppDeps } from '../deps.ts';
import { createAccount, findAccount, setNewPassword, verifyEmail } from './accounts.ts';
import { issueEmailLink, useEmailLink } from './email-links.ts';
import { type SignUpRefusal, signUpRefusal } from './sign-up-policy.ts';

/** What signing up did: made the account, found the address taken (nothing changes), or refused it (SIGNUP, SIGNUP_DOMAINS). */
export type SignUpOutcome = { outcome: 'created'; user: UserRecord; verifyLink: string } | { outcome: 'taken' } | { outcome: 'refused'; refusal: SignUpRefusal };

/**
 * Creates an unverified account with the default quota and returns the link
 * that proves its address, if the sign-up rules let the address in
 * (sign-up-policy.ts). The password is hashed before the address is looked
 * up, so a new and a taken address take as long.
 */
export async function signUp(deps: AppDeps, email: string, password: string): Promise<SignUpOutcome> {
  const refusal = await signUpRefusal(deps, email);
  if (refusal) return { outcome: 'refused', refusal };
  const created = await createAccount(deps, { email, emailVerified: false, quota: deps.config.defaultQuota, passwordHash: await hashPassword(password) });
  return created ? { outcome: 'created', user: created, verifyLink: await verificationLink(deps, created) } : { outcome: 'taken' };
}

/** A new link that proves the account's address. */
export function verificationLink(deps: AppDeps, user: Pick<UserRecord, 'id'>): Promise<string> {
  return issueEmailLink(deps, user.id, 'verify_email');
}

/**
 * Uses a verification link: the address counts as verified (and the
 * invitations pending for it are accepted) and every session
 * of the account ends but the one that opened the link, if it is the
 * account's own (someone who signed up first with another person's address,
 * and could sign in unverified, loses those sessions). Null for a bad link;
 * else the account's id, and whether the opener was signed in to it.
 */
export async function confirmEmail(deps: AppDeps, token: unknown, opener: { idHash: string; user: { id: string } } | null): Promise<{ sameAccount: boolean; userId: string } | null> {
  const userId = await useEmailLink(deps, token, 'verify_email');
  if (!userId) return null;
  const sameAccount = opener?.user.id === userId;
  await verifyEmail(deps, deps.config, userId, sameAccount ? opener.idHash : undefined);
  return { sameAccount, userId };
}

/** A password-reset link for the address's account, or null when it has none. */
export async function passwordResetLink(deps: AppDeps, email: string): Promise<string | null> {
  const user = await findAccount(deps, email);
  return user ? issueEmailLink(deps, user.id, 'reset_password') : null;
}

/** Uses a reset link to set a new password (every session of the account ends); the account, or null for a bad link. */
export async function resetPassword(deps: AppDeps, token: string, password: string): Promise<UserRecord | null> {
  const userId = await useEmailLink(deps, token, 'reset_password');
  return userId ? setNewPassword(deps, deps.config, userId, password) : null;
}
