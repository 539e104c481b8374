import { Diagram } from '../../../api/schemas.ts';
import { diagramWithElementsFor } from '../../diagram-access.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';

export const getDiagram = defineRoute({
  operationId: 'getDiagram',
  method: 'GET',
  url: '/api/v1/diagrams/:id',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Get a diagram with its scene',
  description: 'Works for trashed diagrams (deletedAt is set). `docUpdatedAt` is the revision to pass as `expectedUpdatedAt`.',
  response: { status: 200, schema: Diagram, description: 'The diagram' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    const diagram = await diagramWithElementsFor(deps, actor, params.id!, 'read');
    return { rawJson: present.diagramJson(diagram) };
  },
});
