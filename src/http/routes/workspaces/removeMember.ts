import { removeMember as remove } from '../../../app/workspaces/members.ts';
import { defineRoute } from '../../../edge/route.ts';

export const removeMember = defineRoute({
  operationId: 'removeMember',
  method: 'DELETE',
  url: '/api/v1/workspaces/:id/members/:userId',
  access: { capability: 'write' },
  tags: ['workspaces'],
  summary: 'Remove a member, or leave (extension)',
  description:
    'Admins remove anyone; any member removes themselves (leaves) with their own id or `me`. The last admin cannot leave: 400 bad_request. Their diagrams stay in the workspace, still theirs.',
  response: { status: 204, description: 'No longer a member' },
  errors: ['not_found', 'bad_request', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
  handler: async ({ params, actor, deps }) => {
    await remove(deps, actor, params.id!, params.userId === 'me' ? actor.user.id : params.userId!);
    return { status: 204 };
  },
});
