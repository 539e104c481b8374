/**
 * Invitations of addresses that have no (verified) account yet, to a diagram
 * or a workspace: stored, mailed with a link to sign up with the address
 * filled in, and accepted when the address is verified. Each person who joins
 * through invitations earns each of their inviters quota (INVITE_QUOTA_BONUS,
 * up to INVITE_QUOTA_CAP in all).
 */
import { randomUUID } from 'node:crypto';
import { normaliseEmail } from '../../auth/accounts.ts';
import { mayInWorkspace, mayPerform } from '../../auth/policy.ts';
import type { Config } from '../../config.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { InvitationRecord, InvitationTarget, StoreAggregates, UserRecord } from '../../store/store.ts';
import { isUuid } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import type { Mailer } from '../../mail/message.ts';

/** How long an invitation may be accepted. */
const INVITATION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

/** What inviting needs besides the store: the mail. */
export interface SharingDeps extends AppDeps {
  mailer: Mailer;
}

/** The address as stored, or bad_request naming it. */
export function inviteeAddress(raw: string): string {
  const email = normaliseEmail(raw);
  if (!email) throw badRequest(`not an email address: ${JSON.stringify(raw)}`);
  return email;
}

/** An account to share with at once: one whose address is verified. Anyone else is invited, so that only the address's owner gains access. */
export async function verifiedAccount(deps: AppDeps, email: string): Promise<UserRecord | null> {
  const account = await deps.store.accounts.findByEmail(email);
  return account?.emailVerified ? account : null;
}

/** Stores an invitation (replacing one pending for the same address and target) and mails it. */
export async function invite(
  deps: SharingDeps,
  caller: Caller,
  email: string,
  target: InvitationTarget,
  targetName: { kind: string; name: string },
): Promise<InvitationRecord> {
  const now = deps.now();
  const invitation = await deps.store.sharing.invite({
    id: randomUUID(),
    email,
    target,
    inviterId: caller.user.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
    acceptedAt: null,
  });
  deps.mailer.sendInBackground(invitationMessage(deps.config.publicUrl, caller.user.email, invitation, targetName));
  return invitation;
}

function invitationMessage(publicUrl: string, inviter: string, invitation: InvitationRecord, target: { kind: string; name: string }) {
  const link = `${publicUrl}/signup?email=${encodeURIComponent(invitation.email)}`;
  const expires = invitation.expiresAt.slice(0, 10);
  return {
    to: invitation.email,
    subject: `${inviter} invited you to "${target.name}" on Drawbridge`,
    text: [
      `${inviter} invited you to the ${target.kind} "${target.name}" on Drawbridge, as ${invitation.target.role}.`,
      '',
      'Create your account with this address (or sign in, if you have one) and confirm the address: the invitation is accepted then.',
      '',
      link,
      '',
      `The invitation can be accepted until ${expires}. If you did not expect it, ignore this message.`,
      '',
    ].join('\n'),
  };
}

/**
 * Accepts the address's pending invitations for the account, inside the unit
 * of work that verifies it: shares and memberships appear with the
 * verification, or neither does.
 */
export function acceptInvitations(
  tx: StoreAggregates,
  settings: Pick<Config, 'inviteQuotaBonus' | 'inviteQuotaCap'>,
  user: Pick<UserRecord, 'id' | 'email'>,
  now: Date,
): Promise<InvitationRecord[]> {
  return tx.sharing.acceptInvitations(user.email, user.id, now.toISOString(), { bonus: settings.inviteQuotaBonus, cap: settings.inviteQuotaCap });
}

/**
 * Cancels a pending invitation: its inviter, the owner of its diagram or an
 * admin of its workspace may. Anyone else, an accepted or unknown invitation,
 * or one not of `within` (when the path names a diagram or workspace) is
 * not_found.
 */
export async function cancelInvitation(
  deps: AppDeps,
  caller: Caller,
  invitationId: string,
  within?: { kind: 'diagram' | 'workspace'; id: string },
): Promise<void> {
  const invitation = isUuid(invitationId) ? await deps.store.sharing.findInvitation(invitationId) : null;
  if (!invitation || invitation.acceptedAt !== null || !(await mayCancel(deps, caller, invitation))) throw notFound();
  if (within && !isOf(invitation.target, within)) throw notFound();
  if (!(await deps.store.sharing.cancelInvitation(invitation.id))) throw notFound();
}

function isOf(target: InvitationTarget, within: { kind: 'diagram' | 'workspace'; id: string }): boolean {
  const id = target.kind === 'diagram' ? target.diagramId : target.workspaceId;
  return target.kind === within.kind && id.toLowerCase() === within.id.toLowerCase();
}

async function mayCancel(deps: AppDeps, caller: Caller, invitation: InvitationRecord): Promise<boolean> {
  if (invitation.inviterId === caller.user.id) return true;
  const { target } = invitation;
  if (target.kind === 'diagram') {
    const found = await deps.store.diagrams.findMetaForUser(target.diagramId, caller.user.id);
    return found !== null && mayPerform(found.access, caller.user.id, 'own');
  }
  return mayInWorkspace(await deps.store.sharing.memberRole(target.workspaceId, caller.user.id), 'manage');
}
