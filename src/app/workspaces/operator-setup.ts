/**
 * Shared workspaces and direct shares, as the operator sets them up. Access
 * they grant is decided by the one policy (src/auth/policy.ts): a workspace
 * role is a ceiling on what its members may do with its diagrams, a direct
 * share gives a viewer or editor role on one diagram.
 */
import { randomUUID } from 'node:crypto';
import type { ShareRole, WorkspaceRole } from '../../auth/policy.ts';
import { sanitizeTitle } from '../../domain/title.ts';
import { badRequest } from '../../errors.ts';
import type { DiagramMeta, WorkspaceRecord } from '../../store/store.ts';
import type { StoreDeps } from '../deps.ts';

/** Creates a workspace owned by `ownerId`; its name is sanitised like a title and must not end up empty. */
export function createWorkspace(deps: StoreDeps, ownerId: string, rawName: string): Promise<WorkspaceRecord> {
  const name = sanitizeTitle(rawName);
  if (!name) throw badRequest('workspace name must not be empty');
  return deps.store.sharing.createWorkspace({ id: randomUUID(), name, ownerId, createdAt: deps.now().toISOString() });
}

export function findWorkspace(deps: Pick<StoreDeps, 'store'>, id: string): Promise<WorkspaceRecord | null> {
  return deps.store.sharing.findWorkspace(id);
}

/** Adds a member with a role, or changes the role of one already there. */
export function setWorkspaceMember(deps: Pick<StoreDeps, 'store'>, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
  return deps.store.sharing.setWorkspaceMember(workspaceId, userId, role);
}

/** Any diagram by id, whoever owns it: for the operator only. */
export function findAnyDiagram(deps: Pick<StoreDeps, 'store'>, id: string): Promise<DiagramMeta | null> {
  return deps.store.diagrams.find(id);
}

/** Puts a diagram in a workspace (or out of any, with null). */
export function setDiagramWorkspace(deps: Pick<StoreDeps, 'store'>, diagramId: string, workspaceId: string | null): Promise<void> {
  return deps.store.sharing.setDiagramWorkspace(diagramId, workspaceId);
}

/** Shares a diagram directly with a person as viewer or editor. */
export function shareDiagram(deps: Pick<StoreDeps, 'store'>, diagramId: string, userId: string, role: ShareRole): Promise<void> {
  return deps.store.sharing.shareDiagram(diagramId, userId, role);
}
