import { MemberBody, MemberResult } from '../../../api/sharing-schemas.ts';
import { inviteMember as invite } from '../../../app/workspaces/members.ts';
import { defineRoute } from '../../../edge/route.ts';

export const inviteMember = defineRoute({
  operationId: 'inviteMember',
  method: 'POST',
  url: '/api/v1/workspaces/:id/members',
  access: { capability: 'write' },
  tags: ['workspaces'],
  summary: 'Add a member by email, or invite them (extension)',
  description:
    'Admins only. An address with a verified account becomes a member at once (a member already there gets the new role); any other address is sent an invitation by mail and joins when it signs up and verifies the address.',
  body: MemberBody,
  response: { status: 200, schema: MemberResult, description: 'The member, or the invitation sent' },
  errors: ['not_found', 'bad_request'],
  handler: async ({ body, params, actor, deps }) => ({ json: await invite(deps, actor, params.id!, body) }),
});
