import { RegenerateBody, RegenerateResult } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS, SPEC_CONTENT_ERRORS } from '../../../app/diagrams/content.ts';
import { regenerateDiagram as replaceScene } from '../../../app/diagrams/regenerate-diagram.ts';
import { ETAG_DOC, IF_MATCH_DOC, ifMatch } from '../../conditional.ts';
import { defineRoute } from '../../../edge/route.ts';

export const regenerateDiagram = defineRoute({
  operationId: 'regenerateDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/regenerate',
  access: { capability: 'write' },
  tags: ['editing'],
  summary: 'Replace the whole scene in place',
  description:
    'From a `spec` or a Mermaid/DOT `source` (ids are deterministic, a source\'s node ids are its own, so comments on reused ids stay anchored; a source\'s `warnings` list what the drawing cannot show), laid out as `layout` says: `keep` draws the change over the stored scene, what stays keeping its place (the answer lists `kept`, `placed` and `removed` node ids), `fresh` lays everything out again; or a `scene` (stored exactly as supplied, `version`, `versionNonce` and `updated` untouched; open editors replace their scene with it). Keeps the id and URL. With `expectedUpdatedAt` (or, instead, the `If-Match` header), a diagram changed since is 409 stale_read and nothing is written; of concurrent regenerates with the same value exactly one succeeds.',
  body: RegenerateBody,
  requestHeaders: IF_MATCH_DOC,
  response: { status: 200, schema: RegenerateResult, description: 'What was replaced', headers: ETAG_DOC },
  errors: ['not_found', 'stale_read', ...SPEC_CONTENT_ERRORS, ...SCENE_WORK_ERRORS],
  handler: async ({ body, params, actor, deps, request }) => {
    const { etag, ...done } = await replaceScene(deps, actor, params.id!, { ...body, ifMatch: ifMatch(request.headers['if-match']) });
    return { json: { id: params.id!, ...done }, headers: { etag } };
  },
});
