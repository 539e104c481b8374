import { randomUUID } from 'node:crypto';
import { CreateDiagramBody, CreatedDiagram } from '../../../api/schemas.ts';
import { contentFromScene, contentFromSpec } from '../../scene-content.ts';
import { sanitizeTitle, UNTITLED } from '../../../domain/title.ts';
import { ApiError, badRequest, type ErrorCode } from '../../../errors.ts';
import type { DiagramRecord } from '../../../store/store.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';
import { requireOwnFolder } from '../folders/ownership.ts';

/** The content-model codes a spec or scene can answer with (SPEC.md). */
export const SPEC_CONTENT_ERRORS: ErrorCode[] = [
  'INVALID_SPEC',
  'UNSUPPORTED_VERSION',
  'MISSING_NODE_ID',
  'DUPLICATE_NODE_ID',
  'UNKNOWN_SHAPE',
  'UNKNOWN_ICON',
  'DANGLING_EDGE',
  'MALFORMED_SHORTHAND',
  'MALFORMED_EDGE',
  'SPEC_TOO_LARGE',
  'ID_COLLISION',
  'NOT_A_SCENE',
  'BAD_LINK_SCHEME',
  'SCENE_TOO_LARGE',
];

export const createDiagram = defineRoute<CreateDiagramBody>({
  operationId: 'createDiagram',
  method: 'POST',
  url: '/api/v1/diagrams',
  access: { capability: 'write' },
  tags: ['diagrams'],
  summary: 'Create a diagram',
  description:
    'From a raw `scene` (stored exactly as supplied, appState dropped) or a `spec` laid out by the server; exactly one of the two. Counts against the diagram quota (trashed diagrams do not).',
  body: CreateDiagramBody,
  response: { status: 201, schema: CreatedDiagram, description: 'The stored diagram summary with its element count' },
  errors: ['quota_exceeded', 'folder_forbidden', ...SPEC_CONTENT_ERRORS],
  handler: async ({ body, actor, deps }) => {
    const hasSpec = body.spec !== undefined;
    const hasScene = body.scene !== undefined;
    if (hasSpec === hasScene) throw badRequest('send exactly one of "spec" or "scene"');
    const content = hasSpec ? await contentFromSpec(deps, body.spec) : contentFromScene(body.scene);
    const folderId = body.folderId ?? null;
    if (folderId !== null) await requireOwnFolder(deps, actor, folderId);

    const now = deps.now().toISOString();
    const diagram: DiagramRecord = {
      id: randomUUID(),
      ownerId: actor.user.id,
      title: sanitizeTitle(body.title ?? '') || UNTITLED,
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
    const outcome = await deps.store.createDiagram(diagram, actor.user.quota);
    if (outcome === 'quota_exceeded') {
      throw new ApiError('quota_exceeded', `your account may keep ${actor.user.quota} active diagrams; trash one or raise the quota`);
    }
    return { status: 201, json: present.created(diagram) };
  },
});
