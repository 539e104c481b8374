import { WorkspaceList } from '../../../api/sharing-schemas.ts';
import { listWorkspaces as workspacesOf } from '../../../app/workspaces/manage-workspaces.ts';
import { defineRoute } from '../../../edge/route.ts';

export const listWorkspaces = defineRoute({
  operationId: 'listWorkspaces',
  method: 'GET',
  url: '/api/v1/workspaces',
  access: { capability: 'read' },
  tags: ['workspaces'],
  summary: 'List the workspaces you belong to (extension)',
  description: 'Oldest first, each with your role in it and how many members it has.',
  response: { status: 200, schema: WorkspaceList, description: 'Your workspaces' },
  errors: [],
  handler: async ({ actor, deps }) => ({ json: { items: await workspacesOf(deps, actor) } }),
});
