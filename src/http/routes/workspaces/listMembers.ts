import { MemberList } from '../../../api/sharing-schemas.ts';
import { listMembers as membersOf } from '../../../app/workspaces/members.ts';
import { defineRoute } from '../../../edge/route.ts';

export const listMembers = defineRoute({
  operationId: 'listMembers',
  method: 'GET',
  url: '/api/v1/workspaces/:id/members',
  access: { capability: 'read' },
  tags: ['workspaces'],
  summary: "A workspace's members and pending invitations (extension)",
  description: 'Any member; members in the order they joined.',
  response: { status: 200, schema: MemberList, description: 'Members and invitations' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => ({ json: await membersOf(deps, actor, params.id!) }),
});
