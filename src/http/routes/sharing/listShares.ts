import { DiagramSharing } from '../../../api/sharing-schemas.ts';
import { listShares as sharesOf } from '../../../app/sharing/shares.ts';
import { defineRoute } from '../../../edge/route.ts';

export const listShares = defineRoute({
  operationId: 'listShares',
  method: 'GET',
  url: '/api/v1/diagrams/:id/shares',
  access: { capability: 'read' },
  tags: ['sharing'],
  summary: 'Who a diagram is shared with (extension)',
  description: 'Owner only (anyone else: 404 not_found). The owner, the people the diagram is shared with, in the order they were added, and the pending invitations.',
  response: { status: 200, schema: DiagramSharing, description: 'The shares and pending invitations' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => ({ json: await sharesOf(deps, actor, params.id!) }),
});
