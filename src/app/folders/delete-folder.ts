import { folderFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** Deletes one of the caller's folders: its diagrams become unfiled (root), its subfolders move up to its parent. */
export async function deleteFolder(deps: AppDeps, caller: Caller, id: string): Promise<void> {
  const folder = await folderFor(deps, caller, id);
  await deps.store.folders.delete(folder.id, deps.now().toISOString());
}
