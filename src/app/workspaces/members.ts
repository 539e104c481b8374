/**
 * A workspace's members: any member sees them and may leave; admins invite
 * (a verified account joins at once, any other address is invited by mail),
 * change roles and remove members. A workspace always keeps an admin: the
 * last one can neither leave nor be demoted (bad_request, saying so).
 * Anything beyond the caller's role is not_found, like a missing workspace.
 */
import type { WorkspaceRole } from '../../auth/policy.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { MemberChange } from '../../store/store.ts';
import { isUuid, workspaceFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { invite, inviteeAddress, type SharingDeps, verifiedAccount } from '../sharing/invitations.ts';
import type { InvitationView, MemberView } from '../../api/presenters/sharing.ts';
import * as present from '../../api/presenters/sharing.ts';
import { publishAccessChanged } from '../live/notify.ts';

const LAST_ADMIN = 'a workspace needs at least one admin: make another member admin first';

/** The members, in the order they joined, and the invitations still pending. */
export async function listMembers(deps: AppDeps, caller: Caller, workspaceId: string): Promise<{ members: MemberView[]; invitations: InvitationView[] }> {
  const { workspace } = await workspaceFor(deps, caller, workspaceId, 'view');
  const [members, invitations] = await Promise.all([
    deps.store.sharing.listMembers(workspace.id),
    deps.store.sharing.pendingInvitations({ kind: 'workspace', id: workspace.id }, deps.now().toISOString()),
  ]);
  return { members: members.map(present.member), invitations: invitations.map(present.invitation) };
}

/** Adds the address's verified account as a member (or changes the role of a member already there), or invites the address by mail. */
export async function inviteMember(
  deps: SharingDeps,
  caller: Caller,
  workspaceId: string,
  input: { email: string; role: WorkspaceRole },
): Promise<{ member: MemberView } | { invitation: InvitationView }> {
  const { workspace } = await workspaceFor(deps, caller, workspaceId, 'manage');
  const email = inviteeAddress(input.email);
  const account = await verifiedAccount(deps, email);
  if (!account) {
    const invitation = await invite(deps, caller, email, { kind: 'workspace', workspaceId: workspace.id, role: input.role }, { kind: 'workspace', name: workspace.name });
    return { invitation: present.invitation(invitation) };
  }
  if ((await deps.store.sharing.memberRole(workspace.id, account.id)) === null) {
    await deps.store.sharing.setWorkspaceMember(workspace.id, account.id, input.role, deps.now().toISOString());
  } else {
    outcome(await deps.store.sharing.changeMemberRole(workspace.id, account.id, input.role));
    await publishAccessChanged(deps, { workspaceId: workspace.id });
  }
  return { member: await memberOf(deps, workspace.id, account.id) };
}

/** Changes a member's role: admins may. */
export async function changeMemberRole(deps: AppDeps, caller: Caller, workspaceId: string, userId: string, role: WorkspaceRole): Promise<MemberView> {
  const { workspace } = await workspaceFor(deps, caller, workspaceId, 'manage');
  if (!isUuid(userId)) throw notFound();
  outcome(await deps.store.sharing.changeMemberRole(workspace.id, userId, role));
  await publishAccessChanged(deps, { workspaceId: workspace.id });
  return memberOf(deps, workspace.id, userId);
}

/** Removes a member: admins may remove anyone, any member may remove themselves (leave). */
export async function removeMember(deps: AppDeps, caller: Caller, workspaceId: string, userId: string): Promise<void> {
  const leaving = userId === caller.user.id;
  const { workspace } = await workspaceFor(deps, caller, workspaceId, leaving ? 'view' : 'manage');
  if (!isUuid(userId)) throw notFound();
  outcome(await deps.store.sharing.removeMember(workspace.id, userId));
  await publishAccessChanged(deps, { workspaceId: workspace.id });
}

function outcome(change: MemberChange): void {
  if (change === 'missing') throw notFound();
  if (change === 'last_admin') throw badRequest(LAST_ADMIN);
}

async function memberOf(deps: AppDeps, workspaceId: string, userId: string): Promise<MemberView> {
  const member = (await deps.store.sharing.listMembers(workspaceId)).find((m) => m.userId === userId);
  if (!member) throw notFound();
  return present.member(member);
}
