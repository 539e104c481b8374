import { PatchBody, PatchResult } from '../../../api/schemas.ts';
import { SCENE_CONTENT_ERRORS, SCENE_WORK_ERRORS } from '../../../app/diagrams/content.ts';
import { patchDiagram as applyOps } from '../../../app/diagrams/patch-diagram.ts';
import { ETAG_DOC, IF_MATCH_DOC, ifMatch } from '../../conditional.ts';
import { defineRoute } from '../../../edge/route.ts';

export const patchDiagram = defineRoute({
  operationId: 'patchDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/patch',
  access: { capability: 'write' },
  tags: ['editing'],
  summary: 'Apply element operations in place',
  description:
    'Ops (add, update, move, resize, restyle, delete) apply in order, all or nothing. Moving or resizing a shape carries its label and re-routes its bound arrows; deleting a shape deletes its label and unbinds its arrows. `expectedUpdatedAt` or `If-Match` as for regenerate.',
  body: PatchBody,
  requestHeaders: IF_MATCH_DOC,
  response: { status: 200, schema: PatchResult, description: 'What the patch did', headers: ETAG_DOC },
  errors: ['not_found', 'stale_read', ...SCENE_CONTENT_ERRORS, ...SCENE_WORK_ERRORS],
  handler: async ({ body, params, actor, deps, request }) => {
    const { etag, ...patched } = await applyOps(deps, actor, params.id!, body.ops, body.expectedUpdatedAt ?? null, ifMatch(request.headers['if-match']));
    return { json: { id: params.id!, ...patched }, headers: { etag } };
  },
});
