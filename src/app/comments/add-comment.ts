import { randomUUID } from 'node:crypto';
import { badRequest } from '../../errors.ts';
import type { CommentRecord } from '../../store/store.ts';
import { diagramWithElementsFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/**
 * Comments on a diagram the caller may edit, or on one of its elements: an
 * `elementId` must name an element of the current scene, and the comment is
 * resolved automatically when a later write removes that element.
 */
export async function addComment(deps: AppDeps, caller: Caller, diagramId: string, input: { body: string; elementId?: string | null | undefined }): Promise<CommentRecord> {
  const text = input.body.trim();
  if (text === '') throw badRequest('body must not be empty');
  const diagram = await diagramWithElementsFor(deps, caller, diagramId, 'write');
  const elementId = input.elementId ?? null;
  if (elementId !== null) {
    const elements = JSON.parse(diagram.elementsJson) as Array<{ id?: unknown; isDeleted?: unknown }>;
    if (!elements.some((e) => e.id === elementId && e.isDeleted !== true)) throw badRequest(`elementId "${elementId}" names no element of this diagram`);
  }
  return deps.store.comments.add({
    id: randomUUID(),
    diagramId: diagram.id,
    elementId,
    body: text,
    authorId: caller.user.id,
    createdAt: deps.now().toISOString(),
    resolved: false,
    resolvedReason: null,
  });
}
