import type { ChangeRecording } from './history.ts';
import type { AccessFacts, ShareRole, WorkspaceRole } from '../auth/policy.ts';
import type { DiagramMeta, ListPosition } from './diagrams.ts';

export interface WorkspaceRecord {
  id: string;
  name: string;
  ownerId: string;
  createdAt: string;
}

/** A workspace as one of its members sees it: with their role and how many members it has. */
export interface MemberWorkspace extends WorkspaceRecord {
  role: WorkspaceRole;
  memberCount: number;
}

export interface ShareRecord {
  diagramId: string;
  userId: string;
  email: string;
  role: ShareRole;
  createdAt: string;
}

export interface MemberRecord {
  workspaceId: string;
  userId: string;
  email: string;
  role: WorkspaceRole;
  joinedAt: string;
}

/** What an invitation grants once accepted: a share of a diagram, or membership of a workspace. */
export type InvitationTarget = { kind: 'diagram'; diagramId: string; role: ShareRole } | { kind: 'workspace'; workspaceId: string; role: WorkspaceRole };

export interface InvitationRecord {
  id: string;
  /** Normalised (auth/accounts.ts normaliseEmail). */
  email: string;
  target: InvitationTarget;
  inviterId: string;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
}

/** What accepting an address's invitations earns the people who invited it. */
export interface InvitationReward {
  /** Diagrams of quota each inviter gains per person who accepts. */
  bonus: number;
  /** The most quota an account may ever earn by invitations. */
  cap: number;
}

/** Diagrams someone else owns that a user reaches: shared directly, or in a workspace they belong to. */
type ReachableScope = { kind: 'shared' } | { kind: 'workspace'; workspaceId: string };

export interface ReachableDiagramsQuery {
  userId: string;
  scope: ReachableScope;
  after: ListPosition | null;
  limit: number;
}

/** A listed diagram with the facts the access policy needs to give the user's role on it. */
export interface ReachableDiagram {
  diagram: DiagramMeta;
  access: AccessFacts;
}

/** Changing a member when the workspace must keep at least one admin. */
export type MemberChange = 'changed' | 'missing' | 'last_admin';

/** Who else may reach a diagram: workspaces with their members, shares with single users, and invitations of addresses. */
export interface SharingStore {
  /** Creates the workspace with its owner as an admin member. */
  createWorkspace(workspace: WorkspaceRecord): Promise<WorkspaceRecord>;
  findWorkspace(id: string): Promise<WorkspaceRecord | null>;
  renameWorkspace(id: string, name: string): Promise<void>;
  /** The workspaces the user is a member of, oldest first. */
  workspacesOf(userId: string): Promise<MemberWorkspace[]>;
  /** The user's role in the workspace, or null when not a member. */
  memberRole(workspaceId: string, userId: string): Promise<WorkspaceRole | null>;
  /** Adds a member (joining at `joinedAt`, by default the present), or replaces the role of a member already there. */
  setWorkspaceMember(workspaceId: string, userId: string, role: WorkspaceRole, joinedAt?: string): Promise<void>;
  /** Members with their addresses, in the order they joined. */
  listMembers(workspaceId: string): Promise<MemberRecord[]>;
  /** Changes a member's role, unless that would leave the workspace without an admin (atomic against concurrent changes). */
  changeMemberRole(workspaceId: string, userId: string, role: WorkspaceRole): Promise<MemberChange>;
  /** Removes a member, unless they are its last admin (atomic against concurrent changes). */
  removeMember(workspaceId: string, userId: string): Promise<MemberChange>;
  /**
   * Puts a diagram in a workspace, or out of any (null). With `by`, a move
   * that changes the workspace (the workspaces with their names, read in the
   * same transaction) is recorded in the diagram's history as `by.recording`
   * words it, in the same transaction.
   */
  setDiagramWorkspace(diagramId: string, workspaceId: string | null, by?: { recording: ChangeRecording; at: string }): Promise<void>;
  /** Shares a diagram with a user (from `createdAt`, by default the present), or replaces the role of an existing share. */
  shareDiagram(diagramId: string, userId: string, role: ShareRole, createdAt?: string): Promise<void>;
  /** The diagram's shares with their addresses, in the order they were made. */
  listShares(diagramId: string): Promise<ShareRecord[]>;
  /** Changes the role of an existing share; false when there is none. */
  changeShare(diagramId: string, userId: string, role: ShareRole): Promise<boolean>;
  /** Removes a share; false when there was none. */
  removeShare(diagramId: string, userId: string): Promise<boolean>;
  /** Diagrams someone else owns that the user reaches (never trashed ones), newest first, strictly after `after`. */
  listReachable(query: ReachableDiagramsQuery): Promise<ReachableDiagram[]>;
  /**
   * Stores an invitation; one already pending for the same address and target
   * is replaced (new id, role, inviter and lifetime). Returns what is stored.
   */
  invite(invitation: InvitationRecord): Promise<InvitationRecord>;
  findInvitation(id: string): Promise<InvitationRecord | null>;
  /** Invitations to the target not yet accepted and not expired at `now`, oldest first. */
  pendingInvitations(target: { kind: 'diagram' | 'workspace'; id: string }, now: string): Promise<InvitationRecord[]>;
  /** Whether the address (normalised) has an invitation to anything, not accepted yet and not expired at `now`. */
  hasPendingInvitation(email: string, now: string): Promise<boolean>;
  /** Deletes an invitation that is not accepted yet; false when there is none such. */
  cancelInvitation(id: string): Promise<boolean>;
  /**
   * Accepts every pending, unexpired invitation of `email` for the account
   * `userId`, atomically: each becomes a share or membership (never lowering
   * a role the user already has; a target gone since grants nothing) and is
   * marked accepted, and each inviter other than the user gains
   * `reward.bonus` quota once, held to `reward.cap` earned in total (an
   * account without a quota limit gains nothing). Returns the accepted ones.
   */
  acceptInvitations(email: string, userId: string, now: string, reward: InvitationReward): Promise<InvitationRecord[]>;
}
