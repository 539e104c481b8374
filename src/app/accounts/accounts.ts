/** Accounts: making one, signing in, proving the address, resetting the password, the quota. */
import { randomUUID } from 'node:crypto';
import { DEFAULT_QUOTA } from '../../auth/accounts.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import type { Config } from '../../config.ts';
import { StoreConflict, type UserRecord } from '../../store/store.ts';
import type { StoreDeps } from '../deps.ts';
import { publishSessionsEnded } from '../live/notify.ts';
import { acceptInvitations } from '../sharing/invitations.ts';

/** What accepting invitations earns the inviters (INVITE_QUOTA_BONUS, INVITE_QUOTA_CAP). */
export type InvitationSettings = Pick<Config, 'inviteQuotaBonus' | 'inviteQuotaCap'>;

export interface NewAccount {
  /** Already normalised (auth/accounts.ts normaliseEmail). */
  email: string;
  /** False for sign-up (the address is proven later by an emailed link); the operator may create verified accounts. */
  emailVerified: boolean;
  /** Diagrams the account may keep (Infinity: no limit); by default DEFAULT_QUOTA's default (sign-up passes the setting). */
  quota?: number;
  /** A password hash (sign-up); accounts the operator creates have none until a reset. */
  passwordHash?: string;
}

/**
 * Creates an account, the one way every account is made (web sign-up and
 * the admin CLI alike); null when the address already has an account
 * (nothing is changed then).
 */
export async function createAccount(deps: StoreDeps, account: NewAccount): Promise<UserRecord | null> {
  if (await deps.store.accounts.findByEmail(account.email)) return null;
  const user: UserRecord = {
    id: randomUUID(),
    email: account.email,
    emailVerified: account.emailVerified,
    quota: account.quota ?? DEFAULT_QUOTA,
    createdAt: deps.now().toISOString(),
  };
  try {
    await deps.store.accounts.create(user);
  } catch (error) {
    if (error instanceof StoreConflict) return null;
    throw error;
  }
  if (account.passwordHash !== undefined) await deps.store.accounts.setPasswordHash(user.id, account.passwordHash);
  return user;
}

/** The account with this (normalised) address, or null. */
export function findAccount(deps: StoreDeps, email: string): Promise<UserRecord | null> {
  return deps.store.accounts.findByEmail(email);
}

/** Sets how many active diagrams the account may keep. */
/** The account with this id, or null. */
export function findAccountById(deps: StoreDeps, id: string): Promise<UserRecord | null> {
  return deps.store.accounts.findById(id);
}

export function setQuota(deps: StoreDeps, userId: string, quota: number): Promise<void> {
  return deps.store.accounts.setQuota(userId, quota);
}

let decoyHash: Promise<string> | undefined;

/**
 * The account these credentials open, or null. An unknown address, or one
 * without a password (made by the admin CLI), costs a hash comparison too, so
 * that the time taken does not tell which addresses have accounts.
 */
export async function checkPassword(deps: StoreDeps, email: string | null, password: string): Promise<UserRecord | null> {
  const user = email ? await deps.store.accounts.findByEmail(email) : null;
  const stored = user ? await deps.store.accounts.findPasswordHash(user.id) : null;
  if (!user || !stored) {
    decoyHash ??= hashPassword('no account has this password');
    await verifyPassword(password, await decoyHash);
    return null;
  }
  return (await verifyPassword(password, stored)) ? user : null;
}

/**
 * Marks the address verified and accepts the invitations pending for it, in
 * one unit of work: the shares and memberships they grant appear with the
 * verification (and their inviters earn quota), or nothing changes. Every way
 * an address becomes verified goes through here.
 */
async function confirmAddress(deps: StoreDeps, settings: InvitationSettings, userId: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const user = await tx.accounts.findById(userId);
    if (!user) return;
    await tx.accounts.setEmailVerified(userId, true);
    await acceptInvitations(tx, settings, user, deps.now());
  });
}

/**
 * Marks the address verified (accepting its invitations) and ends every
 * session of the account but `keepSession`. Someone who signed up first with
 * another person's address (and could sign in, unverified) loses those
 * sessions when the owner of the address verifies it.
 */
export async function verifyEmail(deps: StoreDeps, settings: InvitationSettings, userId: string, keepSession?: string): Promise<void> {
  await confirmAddress(deps, settings, userId);
  await deps.store.sessions.deleteOfUser(userId, keepSession);
  await publishSessionsEnded(deps, userId);
}

/**
 * Sets a new password after a reset link was used: every session of the
 * account ends, and the address counts as verified (the link reached it).
 * Returns the account as it now is.
 */
export async function setNewPassword(deps: StoreDeps, settings: InvitationSettings, userId: string, password: string): Promise<UserRecord | null> {
  const hash = await hashPassword(password);
  await deps.store.accounts.setPasswordHash(userId, hash);
  await confirmAddress(deps, settings, userId);
  await deps.store.sessions.deleteOfUser(userId);
  await publishSessionsEnded(deps, userId);
  // Any other reset link still in a mailbox must not set the password again.
  await deps.store.emailTokens.deleteOfUser(userId, 'reset_password');
  return deps.store.accounts.findById(userId);
}

/** Marks the address verified (accepting its invitations) without ending any session: the operator vouches for it. */
export function markVerified(deps: StoreDeps, settings: InvitationSettings, userId: string): Promise<void> {
  return confirmAddress(deps, settings, userId);
}
