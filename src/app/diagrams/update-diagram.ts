import { ApiError, badRequest } from '../../errors.ts';
import type { DiagramMeta } from '../../store/store.ts';
import { destinationFolderFor, diagramFor } from '../access.ts';
import { type AppDeps, type Caller, viaOf } from '../deps.ts';
import { changeRecording } from '../history/recording.ts';
import { changedTitle } from './content.ts';

export interface DiagramChange {
  title?: string;
  /** Present: move (a folder the caller owns, or null for the root); absent: stay. */
  folderId?: string | null;
}

/**
 * Renames and/or moves a diagram. Renaming needs write access; folders are
 * personal, so only the owner may move a diagram, and only into a folder of
 * their own.
 */
export async function updateDiagram(deps: AppDeps, caller: Caller, id: string, change: DiagramChange): Promise<DiagramMeta> {
  if (change.title === undefined && change.folderId === undefined) throw badRequest('send at least one of "title" or "folderId"');
  const title = changedTitle(change.title);
  const diagram = await diagramFor(deps, caller, id, 'write');
  if (change.folderId !== undefined) {
    if (diagram.ownerId !== caller.user.id) throw new ApiError('folder_forbidden', 'only the owner can move a diagram between folders');
    if (change.folderId !== null) await destinationFolderFor(deps, caller, change.folderId);
  }
  const updated = await deps.store.diagrams.updateMeta(diagram.id, {
    ...(title === undefined ? {} : { title }),
    ...(change.folderId === undefined ? {} : { folderId: change.folderId }),
    updatedAt: deps.now().toISOString(),
  }, deps.config.history ? changeRecording({ userId: caller.user.id, via: viaOf(caller) }) : null);
  return updated ?? diagram;
}
