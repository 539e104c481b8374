import { randomUUID } from 'node:crypto';
import type { FolderRecord } from '../../store/store.ts';
import { destinationFolderFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { folderName } from './folder-name.ts';

/** Creates a folder at the top level (parentId null) or inside one of the caller's folders. */
export async function createFolder(deps: AppDeps, caller: Caller, input: { name: string; parentId?: string | null | undefined }): Promise<FolderRecord> {
  const name = folderName(input.name);
  const parentId = input.parentId ?? null;
  if (parentId !== null) await destinationFolderFor(deps, caller, parentId);
  const now = deps.now().toISOString();
  return deps.store.folders.create({ id: randomUUID(), ownerId: caller.user.id, name, parentId, createdAt: now, updatedAt: now });
}
