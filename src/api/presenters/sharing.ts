// What leaves the server is built by the presenters in this folder, one file per resource, field by field, from
// the records the use cases read: every transport (the REST API, the web app, MCP through the API) answers with them.
// Sharing: people, their roles and pending invitations, and the workspaces they share.
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

export const share = (record: ShareRecord): ShareView => ({ userId: record.userId, email: record.email, role: record.role, createdAt: record.createdAt });

export const invitation = (record: InvitationRecord): InvitationView => ({
  id: record.id,
  email: record.email,
  role: record.target.role,
  createdAt: record.createdAt,
  expiresAt: record.expiresAt,
});

export const member = (record: MemberRecord): MemberView => ({ userId: record.userId, email: record.email, role: record.role, joinedAt: record.joinedAt });

export const workspace = (record: MemberWorkspace): WorkspaceView => ({
  id: record.id,
  name: record.name,
  ownerId: record.ownerId,
  role: record.role,
  memberCount: record.memberCount,
  createdAt: record.createdAt,
});
