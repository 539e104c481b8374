import type { FolderRecord } from '../../store/store.ts';
import { folderFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { folderName } from './folder-name.ts';

/** Renames one of the caller's folders. */
export async function renameFolder(deps: AppDeps, caller: Caller, id: string, rawName: string): Promise<FolderRecord> {
  const name = folderName(rawName);
  const folder = await folderFor(deps, caller, id);
  const renamed = await deps.store.folders.rename(folder.id, name, deps.now().toISOString());
  return renamed ?? { ...folder, name };
}
