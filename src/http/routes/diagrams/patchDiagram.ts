import { PatchBody, PatchResult } from '../../../api/schemas.ts';
import type { PatchedScene } from '../../../workers/scene-worker.ts';
import { writeContent } from '../../content-write.ts';
import { SCENE_WORK_ERRORS, sceneWork } from '../../scene-content.ts';
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
    const now = deps.now().getTime();
    // The ops run in a worker: a patch's cost grows with the scene (re-routing a hub's arrows), never the event loop's.
    const { next, result } = await writeContent(deps, actor, params.id!, body.expectedUpdatedAt ?? null, (_elements, current) =>
      sceneWork<PatchedScene>(deps, { task: 'patch', elementsJson: current.elementsJson, ops: body.ops, now }, actor),
    );
    return {
      json: { id: params.id!, applied: next.applied, elements: next.elementCount, deleted: next.deleted, orphanedComments: result.orphanedComments },
    };
  },
});
