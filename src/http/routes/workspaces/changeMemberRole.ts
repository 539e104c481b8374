import { Member, MemberRoleBody } from '../../../api/sharing-schemas.ts';
import { changeMemberRole as change } from '../../../app/workspaces/members.ts';
import { defineRoute } from '../../../edge/route.ts';

export const changeMemberRole = defineRoute({
  operationId: 'changeMemberRole',
  method: 'PATCH',
  url: '/api/v1/workspaces/:id/members/:userId',
  access: { capability: 'write' },
  tags: ['workspaces'],
  summary: "Change a member's role (extension)",
  description: 'Admins only. Demoting the last admin is 400 bad_request: a workspace always keeps one.',
  body: MemberRoleBody,
  response: { status: 200, schema: Member, description: 'The member' },
  errors: ['not_found', 'bad_request'],
  handler: async ({ body, params, actor, deps }) => ({ json: await change(deps, actor, params.id!, params.userId!, body.role) }),
});
