import { Workspace } from '../../../api/sharing-schemas.ts';
import { getWorkspace as workspace } from '../../../app/workspaces/manage-workspaces.ts';
import { defineRoute } from '../../../edge/route.ts';

export const getWorkspace = defineRoute({
  operationId: 'getWorkspace',
  method: 'GET',
  url: '/api/v1/workspaces/:id',
  access: { capability: 'read' },
  tags: ['workspaces'],
  summary: 'Get a workspace you belong to (extension)',
  description: 'A workspace you are not a member of is 404 not_found, like a missing one.',
  response: { status: 200, schema: Workspace, description: 'The workspace' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => ({ json: await workspace(deps, actor, params.id!) }),
});
