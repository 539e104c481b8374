import { RevisionScene } from '../../../api/history-schemas.ts';
import { revisionWithScene } from '../../../app/history/get-revision.ts';
import * as present from '../../../api/presenters/history.ts';
import { defineRoute } from '../../../edge/route.ts';

export const getRevision = defineRoute({
  operationId: 'getRevision',
  method: 'GET',
  url: '/api/v1/diagrams/:id/revisions/:rev',
  access: { capability: 'read' },
  tags: ['history'],
  summary: 'Get the scene of a past revision',
  description: 'The scene current after that revision; for an event (a rename, a move), the content current at that time. An unknown or malformed `rev` is 404.',
  response: { status: 200, schema: RevisionScene, description: 'The diagram as it was' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    const { record, elementsJson } = await revisionWithScene(deps, actor, params.id!, params.rev!);
    return { rawJson: present.revisionJson(record, elementsJson) };
  },
});
