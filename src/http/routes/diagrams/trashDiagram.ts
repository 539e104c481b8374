import { setTrashed } from '../../../app/diagrams/set-trashed.ts';
import { defineRoute } from '../../../edge/route.ts';

export const trashDiagram = defineRoute({
  operationId: 'trashDiagram',
  method: 'DELETE',
  url: '/api/v1/diagrams/:id',
  access: { capability: 'delete' },
  tags: ['diagrams'],
  summary: 'Move a diagram to the trash',
  description: 'Owner only. Idempotent: trashing a trashed diagram is still 204. Trashed diagrams stop counting toward the quota.',
  response: { status: 204, description: 'Trashed' },
  // No body is expected, but one sent anyway is still parsed, and refused as any route refuses a bad body.
  errors: ['not_found', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
  handler: async ({ params, actor, deps }) => {
    await setTrashed(deps, actor, params.id!, true);
    return { status: 204 };
  },
});
