import type { ShareRole, WorkspaceRole } from '../auth/policy.ts';

export interface WorkspaceRecord {
  id: string;
  name: string;
  ownerId: string;
  createdAt: string;
}

/** Who else may reach a diagram: workspaces with their members, and shares with single users. */
export interface SharingStore {
  /** Creates the workspace with its owner as an admin member. */
  createWorkspace(workspace: WorkspaceRecord): Promise<WorkspaceRecord>;
  findWorkspace(id: string): Promise<WorkspaceRecord | null>;
  /** Adds a member, or replaces the member's role. */
  setWorkspaceMember(workspaceId: string, userId: string, role: WorkspaceRole): Promise<void>;
  setDiagramWorkspace(diagramId: string, workspaceId: string | null): Promise<void>;
  /** Shares a diagram with a user, or replaces the role of an existing share. */
  shareDiagram(diagramId: string, userId: string, role: ShareRole): Promise<void>;
}
