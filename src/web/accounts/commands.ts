/** What the account pages do to accounts, apart from HTTP. */
import { randomUUID } from 'node:crypto';
import { DEFAULT_QUOTA } from '../../auth/accounts.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import type { AppDeps } from '../../http/route.ts';
import { StoreConflict, type UserRecord } from '../../store/store.ts';

/**
 * Creates an unverified account with the default quota and this password
 * hash; null when the address already has an account (nothing is changed then).
 */
export async function createAccount(deps: AppDeps, email: string, passwordHash: string): Promise<UserRecord | null> {
  if (await deps.store.findUserByEmail(email)) return null;
  const user: UserRecord = { id: randomUUID(), email, emailVerified: false, quota: DEFAULT_QUOTA, createdAt: deps.now().toISOString() };
  try {
    await deps.store.createUser(user);
  } catch (error) {
    if (error instanceof StoreConflict) return null;
    throw error;
  }
  await deps.store.setPasswordHash(user.id, passwordHash);
  return user;
}

let decoyHash: Promise<string> | undefined;

/**
 * The account these credentials open, or null. An unknown address, or one
 * without a password (made by the admin CLI), costs a hash comparison too, so
 * that the time taken does not tell which addresses have accounts.
 */
export async function checkPassword(deps: AppDeps, email: string | null, password: string): Promise<UserRecord | null> {
  const user = email ? await deps.store.findUserByEmail(email) : null;
  const stored = user ? await deps.store.findPasswordHash(user.id) : null;
  if (!user || !stored) {
    decoyHash ??= hashPassword('no account has this password');
    await verifyPassword(password, await decoyHash);
    return null;
  }
  return (await verifyPassword(password, stored)) ? user : null;
}

/**
 * Marks the address verified and ends every session of the account but
 * `keepSession`. Someone who signed up first with another person's address
 * (and could sign in, unverified) loses those sessions when the owner of the
 * address verifies it.
 */
export async function verifyEmail(deps: AppDeps, userId: string, keepSession: string | undefined): Promise<void> {
  await deps.store.setEmailVerified(userId, true);
  await deps.store.deleteSessionsOfUser(userId, keepSession);
}

/**
 * Sets a new password after a reset link was used: every session of the
 * account ends, and the address counts as verified (the link reached it).
 * Returns the account as it now is.
 */
export async function setNewPassword(deps: AppDeps, userId: string, password: string): Promise<UserRecord | null> {
  const hash = await hashPassword(password);
  await deps.store.setPasswordHash(userId, hash);
  await deps.store.setEmailVerified(userId, true);
  await deps.store.deleteSessionsOfUser(userId);
  // Any other reset link still in a mailbox must not set the password again.
  await deps.store.deleteEmailTokensOfUser(userId, 'reset_password');
  return deps.store.findUserById(userId);
}
