import { PatchBody, PatchResult } from '../../../api/schemas.ts';
import type { SceneElement } from '../../../domain/edit/types.ts';
import { isCatalogIcon } from '../../../domain/icons/catalog.ts';
import { applyPatch } from '../../../domain/patch/apply.ts';
import { writeContent, writeStamp } from '../../content-write.ts';
import { defineRoute } from '../../route.ts';

export const patchDiagram = defineRoute<PatchBody>({
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
  errors: ['not_found', 'stale_read', 'INVALID_SPEC', 'NOT_A_SCENE', 'BAD_LINK_SCHEME', 'UNKNOWN_ICON', 'SCENE_TOO_LARGE'],
  handler: async ({ body, params, actor, deps }) => {
    const stamp = writeStamp(deps);
    const { next, result } = await writeContent(deps, actor, params.id!, body.expectedUpdatedAt ?? null, (elements) =>
      applyPatch(elements as SceneElement[], body.ops, stamp, { isIcon: isCatalogIcon }),
    );
    return {
      json: { id: params.id!, applied: next.applied, elements: next.elements.length, deleted: next.deleted, orphanedComments: result.orphanedComments },
    };
  },
});
