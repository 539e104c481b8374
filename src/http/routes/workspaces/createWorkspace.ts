import { resourcePath } from '../../../api/paths.ts';
import { Workspace, WorkspaceBody } from '../../../api/sharing-schemas.ts';
import { createWorkspace as create } from '../../../app/workspaces/manage-workspaces.ts';
import { defineRoute } from '../../../edge/route.ts';

export const createWorkspace = defineRoute({
  operationId: 'createWorkspace',
  method: 'POST',
  url: '/api/v1/workspaces',
  access: { capability: 'write' },
  tags: ['workspaces'],
  summary: 'Create a workspace (extension)',
  description: 'You become its owner and first admin. The name is sanitised like a title and must not end up empty.',
  body: WorkspaceBody,
  response: { status: 201, schema: Workspace, description: 'The new workspace', headers: { Location: 'The new workspace: /api/v1/workspaces/{id}' } },
  errors: ['bad_request'],
  handler: async ({ body, actor, deps }) => {
    const workspace = await create(deps, actor, body.name);
    return { status: 201, json: workspace, headers: { location: resourcePath.workspace(workspace.id) } };
  },
});
