import { randomUUID } from 'node:crypto';
import type { Caller } from '../http/diagram-access.ts';
import type { AppDeps } from '../http/route.ts';
import { folderName, requireOwnFolder } from '../http/routes/folders/ownership.ts';
import type { FolderRecord } from '../store/store.ts';

/** Creates a folder at the top level (parentId null) or inside one of the caller's folders. */
export async function createFolderFor(deps: AppDeps, caller: Caller, input: { name: string; parentId?: string | null }): Promise<FolderRecord> {
  const name = folderName(input.name);
  const parentId = input.parentId ?? null;
  if (parentId !== null) await requireOwnFolder(deps, caller, parentId);
  const now = deps.now().toISOString();
  return deps.store.createFolder({ id: randomUUID(), ownerId: caller.user.id, name, parentId, createdAt: now, updatedAt: now });
}
