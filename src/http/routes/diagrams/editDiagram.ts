import { EditBody, EditResult } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS, SPEC_CONTENT_ERRORS } from '../../../app/diagrams/content.ts';
import { editDiagram as mergeFragment } from '../../../app/diagrams/edit-diagram.ts';
import { ETAG_DOC, IF_MATCH_DOC, ifMatch } from '../../conditional.ts';
import { defineRoute } from '../../../edge/route.ts';

export const editDiagram = defineRoute({
  operationId: 'editDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/edit',
  access: { capability: 'write' },
  tags: ['editing'],
  summary: 'Add nodes and edges, restyle or relabel nodes (additive merge)',
  description:
    'Existing elements are never moved, resized or deleted. New nodes without x/y are placed next to the nodes they connect to, overlapping nothing; new edges are bound at both ends. `updateNodes` may change only strokeColor, backgroundColor, fillStyle and label. The change is visible to the next read and render. 502 upstream_unavailable (nothing written) when the database cannot be reached. With `If-Match`, a diagram changed since is 409 stale_read and nothing is written.',
  body: EditBody,
  requestHeaders: IF_MATCH_DOC,
  response: { status: 200, schema: EditResult, description: 'Ids added and updated, and how many elements the merge wrote', headers: ETAG_DOC },
  // Edits carry no version and no scene, so those codes cannot arise.
  errors: ['not_found', 'stale_read', 'upstream_unavailable', ...SPEC_CONTENT_ERRORS.filter((c) => !['UNSUPPORTED_VERSION', 'NOT_A_SCENE', 'BAD_LINK_SCHEME'].includes(c)), ...SCENE_WORK_ERRORS],
  handler: async ({ body, params, actor, deps, request }) => {
    const { etag, ...merged } = await mergeFragment(deps, actor, params.id!, body, ifMatch(request.headers['if-match']));
    return { json: merged, headers: { etag } };
  },
});
