import { Workspace, WorkspaceBody } from '../../../api/sharing-schemas.ts';
import { createWorkspace as create } from '../../../app/workspaces/manage-workspaces.ts';
import { defineRoute } from '../../route.ts';

export const createWorkspace = defineRoute({
  operationId: 'createWorkspace',
  method: 'POST',
  url: '/api/v1/workspaces',
  access: { capability: 'write' },
  tags: ['workspaces'],
  summary: 'Create a workspace (extension)',
  description: 'You become its owner and first admin. The name is sanitised like a title and must not end up empty.',
  body: WorkspaceBody,
  response: { status: 201, schema: Workspace, description: 'The new workspace' },
  errors: ['bad_request'],
  handler: async ({ body, actor, deps }) => ({ status: 201, json: await create(deps, actor, body.name) }),
});
