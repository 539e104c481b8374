import * as present from '../../../api/presenters/diagrams.ts';
import { UpdateDiagramBody, UpdatedDiagram } from '../../../api/schemas.ts';
import { updateDiagram as changeDiagram } from '../../../app/diagrams/update-diagram.ts';
import { defineRoute } from '../../../edge/route.ts';

export const updateDiagram = defineRoute({
  operationId: 'updateDiagram',
  method: 'PATCH',
  url: '/api/v1/diagrams/:id',
  access: { capability: 'write' },
  tags: ['diagrams'],
  summary: 'Rename or move a diagram',
  description:
    'At least one of `title` and `folderId`. The presence of the `folderId` key moves the diagram (a UUID into that folder, null to the root). Folders are personal, so only the owner can move a diagram.',
  body: UpdateDiagramBody,
  response: { status: 200, schema: UpdatedDiagram, description: 'The diagram summary' },
  errors: ['not_found', 'folder_forbidden'],
  handler: async ({ body, params, actor, deps }) => {
    const updated = await changeDiagram(deps, actor, params.id!, body);
    return { json: present.updated(updated, deps.config.publicUrl) };
  },
});
