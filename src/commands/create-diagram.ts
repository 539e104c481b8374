import { randomUUID } from 'node:crypto';
import { sanitizeTitle, UNTITLED } from '../domain/title.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { Caller } from '../http/diagram-access.ts';
import type { ServiceDeps } from '../http/route.ts';
import { requireOwnFolder } from '../http/routes/folders/ownership.ts';
import { contentFromScene, contentFromSpec } from '../http/scene-content.ts';
import type { DiagramRecord } from '../store/store.ts';

export interface NewDiagram {
  title?: string;
  /** A folder the caller owns, or null (or absent) for the root. */
  folderId?: string | null;
  /** Exactly one of `spec` (laid out by the server) and `scene` (stored as supplied). */
  spec?: unknown;
  scene?: unknown;
}

/**
 * Creates a diagram for the caller (POST /api/v1/diagrams and the dashboard's
 * "New diagram"): the content is validated (and a spec laid out) first, then
 * the folder is checked, then the quota, so a refused request stores nothing.
 */
export async function createDiagramFor(deps: ServiceDeps, caller: Caller, input: NewDiagram): Promise<DiagramRecord> {
  const hasSpec = input.spec !== undefined;
  if (hasSpec === (input.scene !== undefined)) throw badRequest('send exactly one of "spec" or "scene"');
  const content = hasSpec ? await contentFromSpec(deps, input.spec, caller) : contentFromScene(input.scene);
  const folderId = input.folderId ?? null;
  if (folderId !== null) await requireOwnFolder(deps, caller, folderId);

  const now = deps.now().toISOString();
  const diagram: DiagramRecord = {
    id: randomUUID(),
    ownerId: caller.user.id,
    title: sanitizeTitle(input.title ?? '') || UNTITLED,
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
  const outcome = await deps.store.createDiagram(diagram, caller.user.quota);
  if (outcome === 'quota_exceeded') {
    throw new ApiError('quota_exceeded', `your account may keep ${caller.user.quota} active diagrams; trash one or raise the quota`);
  }
  return diagram;
}
