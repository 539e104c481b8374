import type { FolderRecord } from '../../store/store.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** The caller's folders (folders are personal: nobody sees another's). */
export function listFolders(deps: AppDeps, caller: Caller): Promise<FolderRecord[]> {
  return deps.store.folders.list(caller.user.id);
}
