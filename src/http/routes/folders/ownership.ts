import { ApiError, notFound } from '../../../errors.ts';
import type { FolderRecord } from '../../../store/store.ts';
import { type Caller, isUuid } from '../../diagram-access.ts';
import type { AppDeps } from '../../route.ts';
import { sanitizeTitle } from '../../../domain/title.ts';
import { badRequest } from '../../../errors.ts';

/** A folder named as a destination must be the caller's own: otherwise 403 folder_forbidden. */
export async function requireOwnFolder(deps: AppDeps, actor: Caller, folderId: string): Promise<FolderRecord> {
  const folder = await deps.store.findFolder(folderId);
  if (!folder || folder.ownerId !== actor.user.id) {
    throw new ApiError('folder_forbidden', `folder ${folderId} does not exist or is not yours`);
  }
  return folder;
}

/** A folder addressed by the path must be the caller's own: otherwise 404, like a missing one. */
export async function folderOwnedBy(deps: AppDeps, actor: Caller, folderId: string): Promise<FolderRecord> {
  const folder = isUuid(folderId) ? await deps.store.findFolder(folderId) : null;
  if (!folder || folder.ownerId !== actor.user.id) throw notFound();
  return folder;
}

export function folderName(raw: string): string {
  const name = sanitizeTitle(raw);
  if (name === '') throw badRequest('name must not be empty');
  return name;
}
