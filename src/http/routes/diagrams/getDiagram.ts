import { present } from '../../../api/presenters.ts';
import { Diagram } from '../../../api/schemas.ts';
import { getDiagram as diagramOf } from '../../../app/diagrams/get-diagram.ts';
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
    const diagram = await diagramOf(deps, actor, params.id!);
    return { rawJson: present.diagramJson(diagram, deps.config.publicUrl) };
  },
});
