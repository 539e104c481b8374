/**
 * Workspaces as their members use them: anyone may create one (and is its
 * first admin); members see it; admins rename it. A workspace the caller is
 * not a member of is not_found, like a missing one.
 */
import { randomUUID } from 'node:crypto';
import { sanitizeTitle } from '../../domain/title.ts';
import { badRequest, notFound } from '../../errors.ts';
import { workspaceFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import type { WorkspaceView } from '../../api/presenters/sharing.ts';
import * as present from '../../api/presenters/sharing.ts';

/** A workspace name as stored: sanitised like a title, and not empty. */
function workspaceName(raw: string): string {
  const name = sanitizeTitle(raw);
  if (!name) throw badRequest('workspace name must not be empty');
  return name;
}

/** The workspaces the caller belongs to, oldest first, with the caller's role in each. */
export async function listWorkspaces(deps: AppDeps, caller: Caller): Promise<WorkspaceView[]> {
  return (await deps.store.sharing.workspacesOf(caller.user.id)).map(present.workspace);
}

/** One workspace the caller belongs to. */
export async function getWorkspace(deps: AppDeps, caller: Caller, workspaceId: string): Promise<WorkspaceView> {
  const { workspace } = await workspaceFor(deps, caller, workspaceId, 'view');
  const found = (await deps.store.sharing.workspacesOf(caller.user.id)).find((w) => w.id === workspace.id);
  if (!found) throw notFound();
  return present.workspace(found);
}

/** Creates a workspace with the caller as its owner and first admin. */
export async function createWorkspace(deps: AppDeps, caller: Caller, name: string): Promise<WorkspaceView> {
  const workspace = await deps.store.sharing.createWorkspace({ id: randomUUID(), name: workspaceName(name), ownerId: caller.user.id, createdAt: deps.now().toISOString() });
  return getWorkspace(deps, caller, workspace.id);
}

/** Renames a workspace: its admins may. */
export async function renameWorkspace(deps: AppDeps, caller: Caller, workspaceId: string, name: string): Promise<WorkspaceView> {
  const { workspace } = await workspaceFor(deps, caller, workspaceId, 'manage');
  await deps.store.sharing.renameWorkspace(workspace.id, workspaceName(name));
  return getWorkspace(deps, caller, workspace.id);
}
