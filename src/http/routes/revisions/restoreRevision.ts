import { RestoredRevision, RestoreRevisionBody } from '../../../api/history-schemas.ts';
import { SCENE_WORK_ERRORS } from '../../../app/diagrams/content.ts';
import { restoreRevision as restore } from '../../../app/history/restore-revision.ts';
import { ETAG_DOC, IF_MATCH_DOC, ifMatch } from '../../conditional.ts';
import { defineRoute } from '../../../edge/route.ts';

export const restoreRevision = defineRoute({
  operationId: 'restoreRevision',
  method: 'POST',
  url: '/api/v1/diagrams/:id/revisions/:rev/restore',
  access: { capability: 'write' },
  tags: ['history'],
  summary: 'Bring a past revision back',
  description:
    "Writes that revision's scene as a new revision (history is never rewritten, so a restore can itself be undone). Comments resolved because their element was removed are opened again when the element comes back. `expectedUpdatedAt` or `If-Match`: a diagram changed since is 409 stale_read and nothing is written. Needs write access to the diagram.",
  // No body at all is a restore with no precondition.
  body: RestoreRevisionBody.optional(),
  requestHeaders: IF_MATCH_DOC,
  response: { status: 200, schema: RestoredRevision, description: 'What the restore wrote', headers: ETAG_DOC },
  errors: ['not_found', 'stale_read', ...SCENE_WORK_ERRORS],
  handler: async ({ params, body, actor, deps, request }) => {
    const { etag, ...restored } = await restore(deps, actor, params.id!, params.rev!, {
      expectedUpdatedAt: body?.expectedUpdatedAt ?? null,
      ifMatch: ifMatch(request.headers['if-match']),
    });
    return { json: { id: params.id!, ...restored }, headers: { etag } };
  },
});
