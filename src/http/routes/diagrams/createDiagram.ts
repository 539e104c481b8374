import { resourcePath } from '../../../api/paths.ts';
import { present } from '../../../api/presenters.ts';
import { CreateDiagramBody, CreatedDiagram } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS, SPEC_CONTENT_ERRORS } from '../../../app/diagrams/content.ts';
import { createDiagram as createDiagramFor } from '../../../app/diagrams/create-diagram.ts';
import { defineRoute } from '../../route.ts';

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
  response: {
    status: 201,
    schema: CreatedDiagram,
    description: 'The stored diagram summary with its element count',
    headers: { Location: 'The new diagram: /api/v1/diagrams/{id}' },
  },
  errors: ['quota_exceeded', 'folder_forbidden', ...SPEC_CONTENT_ERRORS, ...SCENE_WORK_ERRORS],
  handler: async ({ body, actor, deps }) => {
    const diagram = await createDiagramFor(deps, actor, body);
    return { status: 201, json: present.created(diagram, deps.config.publicUrl), headers: { location: resourcePath.diagram(diagram.id) } };
  },
});
