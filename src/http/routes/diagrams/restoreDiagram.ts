import { diagramFor } from '../../diagram-access.ts';
import { defineRoute } from '../../route.ts';

export const restoreDiagram = defineRoute({
  operationId: 'restoreDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/restore',
  access: { capability: 'delete' },
  tags: ['diagrams'],
  summary: 'Restore a diagram from the trash',
  description: 'Owner only. Restoring an active diagram is a harmless no-op (204).',
  response: { status: 204, description: 'Restored' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    const diagram = await diagramFor(deps, actor, params.id!, 'own');
    await deps.store.setDiagramTrashed(diagram.id, false, deps.now().toISOString());
    return { status: 204 };
  },
});
