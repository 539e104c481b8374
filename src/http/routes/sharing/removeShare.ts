import { removeShare as remove } from '../../../app/sharing/shares.ts';
import { defineRoute } from '../../../edge/route.ts';

export const removeShare = defineRoute({
  operationId: 'removeShare',
  method: 'DELETE',
  url: '/api/v1/diagrams/:id/shares/:userId',
  access: { capability: 'publish' },
  tags: ['sharing'],
  summary: 'Stop sharing a diagram with someone (extension)',
  description: 'Owner only. A user the diagram is not shared with is 404 not_found. They may still reach it through a workspace.',
  response: { status: 204, description: 'No longer shared' },
  errors: ['not_found', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
  handler: async ({ params, actor, deps }) => {
    await remove(deps, actor, params.id!, params.userId!);
    return { status: 204 };
  },
});
