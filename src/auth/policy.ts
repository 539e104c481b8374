/**
 * The one access policy, for diagrams and folders. A caller's role on a
 * diagram comes from ownership, a direct share or membership of the diagram's
 * workspace, where the workspace role is a ceiling: a workspace viewer views,
 * a workspace editor or admin edits, and only the owner deletes, restores,
 * publishes or moves a diagram between folders. The better of a share and a
 * workspace role wins. Folders are personal: only their owner sees or uses
 * them. A token's capability is checked separately, before anything is
 * loaded, so a missing capability never reveals whether a diagram exists.
 */
export type ShareRole = 'viewer' | 'editor';
export type WorkspaceRole = 'viewer' | 'editor' | 'admin';
export type DiagramRole = 'owner' | 'editor' | 'viewer';

/** `read` views, `write` changes content or metadata, `own` deletes, restores, publishes, manages shares and moves between workspaces. */
export type DiagramAction = 'read' | 'write' | 'own';

export interface AccessFacts {
  ownerId: string;
  /** The caller's direct share on this diagram, if any. */
  shareRole: ShareRole | null;
  /** The caller's role in the diagram's workspace, if the diagram is in one and the caller is a member. */
  workspaceRole: WorkspaceRole | null;
}

const RANK: Record<DiagramRole, number> = { viewer: 1, editor: 2, owner: 3 };
const REQUIRED: Record<DiagramAction, DiagramRole> = { read: 'viewer', write: 'editor', own: 'owner' };

export function roleOn(facts: AccessFacts, userId: string): DiagramRole | null {
  if (facts.ownerId === userId) return 'owner';
  const fromShare: DiagramRole | null = facts.shareRole;
  const fromWorkspace: DiagramRole | null =
    facts.workspaceRole === null ? null : facts.workspaceRole === 'viewer' ? 'viewer' : 'editor';
  if (fromShare === null) return fromWorkspace;
  if (fromWorkspace === null) return fromShare;
  return RANK[fromShare] >= RANK[fromWorkspace] ? fromShare : fromWorkspace;
}

export function mayPerform(facts: AccessFacts, userId: string, action: DiagramAction): boolean {
  const role = roleOn(facts, userId);
  return role !== null && RANK[role] >= RANK[REQUIRED[action]];
}

/** Folders are personal: the owner may do anything with one, nobody else anything at all. */
export function mayUseFolder(folder: { ownerId: string }, userId: string): boolean {
  return folder.ownerId === userId;
}

/**
 * What a member may do with a workspace: any member `view`s it (its diagrams,
 * its members) and may leave; an editor or admin may `file` their own diagrams
 * into it; only an admin may `manage` it (rename, invite, change roles,
 * remove members). Outsiders may do nothing with it.
 */
export type WorkspaceAction = 'view' | 'file' | 'manage';

const WORKSPACE_RANK: Record<WorkspaceRole, number> = { viewer: 1, editor: 2, admin: 3 };
const WORKSPACE_REQUIRED: Record<WorkspaceAction, WorkspaceRole> = { view: 'viewer', file: 'editor', manage: 'admin' };

export function mayInWorkspace(role: WorkspaceRole | null, action: WorkspaceAction): boolean {
  return role !== null && WORKSPACE_RANK[role] >= WORKSPACE_RANK[WORKSPACE_REQUIRED[action]];
}
