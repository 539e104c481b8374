import { PatchBody, PatchResult } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS } from '../../../app/diagrams/content.ts';
import { patchDiagram as applyOps } from '../../../app/diagrams/patch-diagram.ts';
import { defineRoute } from '../../route.ts';

export const patchDiagram = defineRoute({
  operationId: 'patchDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/patch',
  access: { capability: 'write' },
  tags: ['editing'],
  summary: 'Apply element operations in place',
  description:
    'Ops (add, update, move, resize, restyle, delete) apply in order, all or nothing. Moving or resizing a shape carries its label and re-routes its bound arrows; deleting a shape deletes its label and unbinds its arrows. `expectedUpdatedAt` as for regenerate.',
  body: PatchBody,
  response: { status: 200, schema: PatchResult, description: 'What the patch did' },
  errors: ['not_found', 'stale_read', 'INVALID_SPEC', 'NOT_A_SCENE', 'BAD_LINK_SCHEME', 'UNKNOWN_ICON', ...SCENE_WORK_ERRORS],
  handler: async ({ body, params, actor, deps }) => {
    const patched = await applyOps(deps, actor, params.id!, body.ops, body.expectedUpdatedAt ?? null);
    return { json: { id: params.id!, ...patched } };
  },
});
