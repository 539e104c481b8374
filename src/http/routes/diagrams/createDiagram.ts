import { resourcePath } from '../../../api/paths.ts';
import * as present from '../../../api/presenters/diagrams.ts';
import { CreateDiagramBody, CreatedDiagram } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS, SPEC_CONTENT_ERRORS } from '../../../app/diagrams/content.ts';
import { createDiagram as createDiagramFor } from '../../../app/diagrams/create-diagram.ts';
import { defineRoute } from '../../../edge/route.ts';

export const createDiagram = defineRoute({
  operationId: 'createDiagram',
  method: 'POST',
  url: '/api/v1/diagrams',
  access: { capability: 'write' },
  tags: ['diagrams'],
  summary: 'Create a diagram',
  description:
    'From a raw `scene` (stored exactly as supplied, appState dropped), a `spec` laid out by the server, or a `source` in Mermaid (flowchart, stateDiagram) or Graphviz DOT read into a spec and laid out; exactly one of the three. A source that does not parse is 400 INVALID_SOURCE naming the line and column; what the drawing cannot show is listed in `warnings`; without a `title`, the source\'s own (Mermaid `title:`, a DOT graph label) is used. Counts against the diagram quota (trashed diagrams do not).',
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
    const json = { ...present.created(diagram, deps.config.publicUrl), ...(diagram.warnings === undefined ? {} : { warnings: diagram.warnings }) };
    return { status: 201, json, headers: { location: resourcePath.diagram(diagram.id) } };
  },
});
