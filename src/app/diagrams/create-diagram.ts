import { randomUUID } from 'node:crypto';
import { sanitizeTitle, UNTITLED } from '../../domain/title.ts';
import { ApiError } from '../../errors.ts';
import type { SourceWarning } from '../../domain/source/types.ts';
import type { DiagramRecord } from '../../store/store.ts';
import { destinationFolderFor } from '../access.ts';
import { createdRevision } from '../history/recording.ts';
import { type Caller, type ServiceDeps, viaOf } from '../deps.ts';
import { type ContentInput, contentFromInput, requireOneContent } from './content.ts';

export interface NewDiagram extends ContentInput {
  title?: string;
  /** A folder the caller owns, or null (or absent) for the root. */
  folderId?: string | null;
}

/**
 * Creates a diagram for the caller: exactly one kind of content is asked for,
 * then the destination folder is checked (a cheap read, before any layout),
 * then the content is validated (and a spec or
 * a source laid out; a source's own title is the title when none is sent),
 * then the quota (trashed diagrams do not count), so a refused request stores
 * nothing and a wrong folder never costs a layout.
 */
export async function createDiagram(deps: ServiceDeps, caller: Caller, input: NewDiagram): Promise<DiagramRecord & { warnings?: SourceWarning[] }> {
  requireOneContent(input);
  const folderId = input.folderId ?? null;
  if (folderId !== null) await destinationFolderFor(deps, caller, folderId);
  const content = await contentFromInput(deps, input, caller);

  const now = deps.now().toISOString();
  const diagram: DiagramRecord = {
    id: randomUUID(),
    ownerId: caller.user.id,
    title: sanitizeTitle(input.title ?? content.sourceTitle ?? '') || UNTITLED,
    folderId,
    workspaceId: null,
    starred: false,
    elementsJson: content.elementsJson,
    elementCount: content.elementCount,
    createdAt: now,
    updatedAt: now,
    docUpdatedAt: now,
    deletedAt: null,
  };
  const revision = deps.config.history ? createdRevision({ userId: caller.user.id, via: viaOf(caller) }, content.elementCount) : null;
  const outcome = await deps.store.diagrams.create(diagram, caller.user.quota, revision);
  if (outcome === 'quota_exceeded') {
    throw new ApiError('quota_exceeded', `your account may keep ${caller.user.quota} active diagrams; trash one or raise the quota`);
  }
  return content.warnings === undefined ? diagram : { ...diagram, warnings: content.warnings };
}
