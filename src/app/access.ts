/**
 * Loading what a use case acts on, through the one access policy
 * (src/auth/policy.ts). A diagram or folder outside the caller's access
 * answers exactly like one that does not exist (not_found), except a folder
 * named as a destination, which is folder_forbidden: the caller named it.
 * A workspace beyond the caller's role is not_found too, like a diagram.
 */
import { type DiagramAction, mayInWorkspace, mayPerform, mayUseFolder, type WorkspaceAction, type WorkspaceRole } from '../auth/policy.ts';
import { ApiError, notFound } from '../errors.ts';
import type { DiagramMeta, DiagramRecord, FolderRecord, WorkspaceRecord } from '../store/store.ts';
import type { AppDeps, Caller } from './deps.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The diagram with its elements, if the caller may perform `action` on it; otherwise not_found. */
export async function diagramWithElementsFor(deps: AppDeps, caller: Caller, id: string, action: DiagramAction): Promise<DiagramRecord> {
  const found = isUuid(id) ? await deps.store.diagrams.findForUser(id, caller.user.id) : null;
  if (!found || !mayPerform(found.access, caller.user.id, action)) throw notFound();
  return found.diagram;
}

/** The diagram's metadata (no elements), if the caller may perform `action` on it; otherwise not_found. */
export async function diagramFor(deps: AppDeps, caller: Caller, id: string, action: DiagramAction): Promise<DiagramMeta> {
  const found = isUuid(id) ? await deps.store.diagrams.findMetaForUser(id, caller.user.id) : null;
  if (!found || !mayPerform(found.access, caller.user.id, action)) throw notFound();
  return found.diagram;
}

/** Whether the caller may perform `action` on the diagram: false for a missing one too. */
export async function mayActOnDiagram(deps: AppDeps, caller: Caller, id: string, action: DiagramAction): Promise<boolean> {
  const found = isUuid(id) ? await deps.store.diagrams.findMetaForUser(id, caller.user.id) : null;
  return found !== null && mayPerform(found.access, caller.user.id, action);
}

/** A folder addressed by the path: the caller's own, or not_found like a missing one. */
export async function folderFor(deps: AppDeps, caller: Caller, folderId: string): Promise<FolderRecord> {
  const folder = isUuid(folderId) ? await deps.store.folders.find(folderId) : null;
  if (!folder || !mayUseFolder(folder, caller.user.id)) throw notFound();
  return folder;
}

/** A folder named as a destination (to create in, or move into): the caller's own, or folder_forbidden. */
export async function destinationFolderFor(deps: AppDeps, caller: Caller, folderId: string): Promise<FolderRecord> {
  const folder = await deps.store.folders.find(folderId);
  if (!folder || !mayUseFolder(folder, caller.user.id)) {
    throw new ApiError('folder_forbidden', `folder ${folderId} does not exist or is not yours`);
  }
  return folder;
}

/** A workspace and the caller's role in it, if the caller's role allows `action`; otherwise not_found. */
export async function workspaceFor(
  deps: AppDeps,
  caller: Caller,
  workspaceId: string,
  action: WorkspaceAction,
): Promise<{ workspace: WorkspaceRecord; role: WorkspaceRole }> {
  const workspace = isUuid(workspaceId) ? await deps.store.sharing.findWorkspace(workspaceId) : null;
  const role = workspace ? await deps.store.sharing.memberRole(workspace.id, caller.user.id) : null;
  if (!workspace || !mayInWorkspace(role, action)) throw notFound();
  return { workspace, role: role as WorkspaceRole };
}
