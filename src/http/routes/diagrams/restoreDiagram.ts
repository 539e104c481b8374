import { setTrashed } from '../../../app/diagrams/set-trashed.ts';
import { defineRoute } from '../../../edge/route.ts';

export const restoreDiagram = defineRoute({
  operationId: 'restoreDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/restore',
  access: { capability: 'delete' },
  tags: ['diagrams'],
  summary: 'Restore a diagram from the trash',
  description: 'Owner only. Restoring an active diagram is a harmless no-op (204).',
  response: { status: 204, description: 'Restored' },
  // No body is expected, but one sent anyway is still parsed, and refused as any route refuses a bad body.
  errors: ['not_found', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
  handler: async ({ params, actor, deps }) => {
    await setTrashed(deps, actor, params.id!, false);
    return { status: 204 };
  },
});
