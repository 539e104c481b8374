/**
 * Sharing a diagram with people, by its owner only (the one access policy,
 * src/auth/policy.ts): anyone else, and a missing diagram, get not_found.
 * A verified account is given the share at once; any other address is
 * invited by mail and given it when the address is verified.
 */
import type { ShareRole } from '../../auth/policy.ts';
import { badRequest, notFound } from '../../errors.ts';
import { diagramFor, isUuid } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { invite, inviteeAddress, type SharingDeps, verifiedAccount } from './invitations.ts';
import type { DiagramSharing, InvitationView, ShareView } from '../../api/presenters/sharing.ts';
import * as present from '../../api/presenters/sharing.ts';
import { publishAccessChanged } from '../live/notify.ts';

/** The diagram's owner, its shares and the invitations still pending. */
export async function listShares(deps: AppDeps, caller: Caller, diagramId: string): Promise<DiagramSharing> {
  const diagram = await diagramFor(deps, caller, diagramId, 'own');
  const [shares, invitations] = await Promise.all([
    deps.store.sharing.listShares(diagram.id),
    deps.store.sharing.pendingInvitations({ kind: 'diagram', id: diagram.id }, deps.now().toISOString()),
  ]);
  return { ownerId: diagram.ownerId, ownerEmail: caller.user.email, shares: shares.map(present.share), invitations: invitations.map(present.invitation) };
}

/**
 * Shares the diagram with the address as viewer or editor: a verified
 * account gets the share (or its new role) at once; any other address is
 * invited by mail. Sharing with oneself, the owner, is bad_request.
 */
export async function shareDiagram(
  deps: SharingDeps,
  caller: Caller,
  diagramId: string,
  input: { email: string; role: ShareRole },
): Promise<{ share: ShareView } | { invitation: InvitationView }> {
  const diagram = await diagramFor(deps, caller, diagramId, 'own');
  const email = inviteeAddress(input.email);
  if (email === caller.user.email) throw badRequest('you own this diagram; share it with someone else');
  const account = await verifiedAccount(deps, email);
  if (!account) {
    const invitation = await invite(deps, caller, email, { kind: 'diagram', diagramId: diagram.id, role: input.role }, { kind: 'diagram', name: diagram.title });
    return { invitation: present.invitation(invitation) };
  }
  await deps.store.sharing.shareDiagram(diagram.id, account.id, input.role, deps.now().toISOString());
  await publishAccessChanged(deps, { diagramId: diagram.id });
  return { share: await shareOf(deps, diagram.id, account.id) };
}

/** Changes the role of an existing share; a user the diagram is not shared with is not_found. */
export async function changeShare(deps: AppDeps, caller: Caller, diagramId: string, userId: string, role: ShareRole): Promise<ShareView> {
  const diagram = await diagramFor(deps, caller, diagramId, 'own');
  if (!isUuid(userId) || !(await deps.store.sharing.changeShare(diagram.id, userId, role))) throw notFound();
  await publishAccessChanged(deps, { diagramId: diagram.id });
  return shareOf(deps, diagram.id, userId);
}

/** Ends a share; a user the diagram is not shared with is not_found. */
export async function removeShare(deps: AppDeps, caller: Caller, diagramId: string, userId: string): Promise<void> {
  const diagram = await diagramFor(deps, caller, diagramId, 'own');
  if (!isUuid(userId) || !(await deps.store.sharing.removeShare(diagram.id, userId))) throw notFound();
  await publishAccessChanged(deps, { diagramId: diagram.id });
}

async function shareOf(deps: AppDeps, diagramId: string, userId: string): Promise<ShareView> {
  const share = (await deps.store.sharing.listShares(diagramId)).find((s) => s.userId === userId);
  if (!share) throw notFound();
  return present.share(share);
}
