/**
 * What the sharing use cases answer with: people, their roles and pending
 * invitations, as every transport (REST, the web app, the CLI and MCP through
 * the API) shows them.
 */
import type { ShareRole, WorkspaceRole } from '../../auth/policy.ts';
import type { InvitationRecord, MemberRecord, MemberWorkspace, ShareRecord } from '../../store/store.ts';

export type { WorkspaceRole };

export interface ShareView {
  userId: string;
  email: string;
  role: ShareRole;
  createdAt: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: ShareRole | WorkspaceRole;
  createdAt: string;
  expiresAt: string;
}

/** Who a diagram is shared with: its owner, the people it is shared with and the addresses invited. */
export interface DiagramSharing {
  ownerId: string;
  ownerEmail: string;
  shares: ShareView[];
  invitations: InvitationView[];
}

export interface WorkspaceView {
  id: string;
  name: string;
  ownerId: string;
  /** The caller's role in it. */
  role: WorkspaceRole;
  memberCount: number;
  createdAt: string;
}

export interface MemberView {
  userId: string;
  email: string;
  role: WorkspaceRole;
  joinedAt: string;
}

export const shareView = (share: ShareRecord): ShareView => ({ userId: share.userId, email: share.email, role: share.role, createdAt: share.createdAt });

export const invitationView = (invitation: InvitationRecord): InvitationView => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.target.role,
  createdAt: invitation.createdAt,
  expiresAt: invitation.expiresAt,
});

export const memberView = (member: MemberRecord): MemberView => ({ userId: member.userId, email: member.email, role: member.role, joinedAt: member.joinedAt });

export const workspaceView = (workspace: MemberWorkspace): WorkspaceView => ({
  id: workspace.id,
  name: workspace.name,
  ownerId: workspace.ownerId,
  role: workspace.role,
  memberCount: workspace.memberCount,
  createdAt: workspace.createdAt,
});
