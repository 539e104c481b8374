import { Diagram } from '../../../api/schemas.ts';
import { readDiagram } from '../../../app/diagrams/get-diagram.ts';
import { ETAG_DOC, noneMatch } from '../../conditional.ts';
import { defineRoute } from '../../../edge/route.ts';

export const getDiagram = defineRoute({
  operationId: 'getDiagram',
  method: 'GET',
  url: '/api/v1/diagrams/:id',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Get a diagram with its scene',
  description:
    'Works for trashed diagrams (deletedAt is set). `docUpdatedAt` is the revision to pass as `expectedUpdatedAt`; the `ETag` header is the one to pass as `If-Match` (or back as `If-None-Match` to revalidate).',
  requestHeaders: {
    'If-None-Match': 'The ETag of the copy the client holds (or a list of them, or `*`): while it is current the answer is 304 with no body. A malformed value is ignored.',
  },
  response: {
    status: 200,
    schema: Diagram,
    description: 'The diagram',
    headers: ETAG_DOC,
    notModified: 'If-None-Match named the current ETag: no body; the ETag is repeated',
  },
  errors: ['not_found'],
  handler: async ({ params, actor, deps, request }) => {
    const { etag, body } = await readDiagram(deps, actor, params.id!, (current) => noneMatch(request.headers['if-none-match'], current));
    return body === null ? { status: 304, headers: { etag } } : { rawJson: body, headers: { etag } };
  },
});
