import { cancelInvitation } from '../../../app/sharing/invitations.ts';
import { defineRoute } from '../../../edge/route.ts';

export const cancelWorkspaceInvitation = defineRoute({
  operationId: 'cancelWorkspaceInvitation',
  method: 'DELETE',
  url: '/api/v1/workspaces/:id/invitations/:invitationId',
  access: { capability: 'write' },
  tags: ['workspaces'],
  summary: 'Cancel a pending invitation to a workspace (extension)',
  description: 'Admins, or whoever sent it. An accepted, unknown or foreign invitation is 404 not_found; once cancelled, the invitation grants nothing.',
  response: { status: 204, description: 'Cancelled' },
  errors: ['not_found', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
  handler: async ({ params, actor, deps }) => {
    await cancelInvitation(deps, actor, params.invitationId!, { kind: 'workspace', id: params.id! });
    return { status: 204 };
  },
});
