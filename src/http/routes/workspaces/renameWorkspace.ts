import { Workspace, WorkspaceBody } from '../../../api/sharing-schemas.ts';
import { renameWorkspace as rename } from '../../../app/workspaces/manage-workspaces.ts';
import { defineRoute } from '../../../edge/route.ts';

export const renameWorkspace = defineRoute({
  operationId: 'renameWorkspace',
  method: 'PATCH',
  url: '/api/v1/workspaces/:id',
  access: { capability: 'write' },
  tags: ['workspaces'],
  summary: 'Rename a workspace (extension)',
  description: 'Admins only (anyone else: 404 not_found).',
  body: WorkspaceBody,
  response: { status: 200, schema: Workspace, description: 'The workspace' },
  errors: ['not_found', 'bad_request'],
  handler: async ({ body, params, actor, deps }) => ({ json: await rename(deps, actor, params.id!, body.name) }),
});
