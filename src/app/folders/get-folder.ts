import type { FolderRecord } from '../../store/store.ts';
import { folderFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** One of the caller's folders; not_found for any other. */
export function getFolder(deps: AppDeps, caller: Caller, id: string): Promise<FolderRecord> {
  return folderFor(deps, caller, id);
}
