import { DiagramPlacement, MoveToWorkspaceBody } from '../../../api/sharing-schemas.ts';
import { moveDiagramToWorkspace } from '../../../app/sharing/move-diagram.ts';
import { defineRoute } from '../../../edge/route.ts';

export const moveDiagram = defineRoute({
  operationId: 'moveDiagramToWorkspace',
  method: 'PUT',
  url: '/api/v1/diagrams/:id/workspace',
  access: { capability: 'publish' },
  tags: ['sharing'],
  summary: 'Move a diagram into a workspace, or out of one (extension)',
  description:
    "Owner only, and only into a workspace where the owner is an editor or admin (else 404 not_found). The workspace's members then reach the diagram, their workspace role the ceiling; `workspaceId: null` takes it out.",
  body: MoveToWorkspaceBody,
  response: { status: 200, schema: DiagramPlacement, description: 'Where the diagram is now' },
  errors: ['not_found'],
  handler: async ({ body, params, actor, deps }) => {
    const moved = await moveDiagramToWorkspace(deps, actor, params.id!, body.workspaceId);
    return { json: { id: moved.id, workspaceId: moved.workspaceId } };
  },
});
