import { CreateDiagramBody, CreatedDiagram } from '../../../api/schemas.ts';
import { createDiagramFor } from '../../../commands/create-diagram.ts';
import type { ErrorCode } from '../../../errors.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';
import { SCENE_WORK_ERRORS } from '../../scene-content.ts';

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

export const createDiagram = defineRoute({
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
  errors: ['quota_exceeded', 'folder_forbidden', ...SPEC_CONTENT_ERRORS, ...SCENE_WORK_ERRORS],
  handler: async ({ body, actor, deps }) => {
    const diagram = await createDiagramFor(deps, actor, body);
    return { status: 201, json: present.created(diagram) };
  },
});
