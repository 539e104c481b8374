import { DiffRevisionsQuery, RevisionDiff } from '../../../api/history-schemas.ts';
import { SCENE_WORK_ERRORS } from '../../../app/diagrams/content.ts';
import { diffRevisions as diff } from '../../../app/history/diff-revisions.ts';
import { defineRoute } from '../../../edge/route.ts';

export const diffRevisions = defineRoute({
  operationId: 'diffRevisions',
  method: 'GET',
  url: '/api/v1/diagrams/:id/revisions/:rev/diff',
  access: { capability: 'read' },
  tags: ['history'],
  summary: 'What changed between two revisions',
  description:
    'The element ids added, removed and changed (with which aspects changed: geometry, style, text, binding) between `against` (default: the revision before `rev`) and `rev`, a one-line summary, and the delta itself: `elements` (the added and changed elements as they are in `rev`), `removed` and, when the order is not implied, `order`. Applying it to the scene of `against` gives the scene of `rev`.',
  query: DiffRevisionsQuery,
  response: { status: 200, schema: RevisionDiff, description: 'The difference' },
  errors: ['bad_request', 'not_found', ...SCENE_WORK_ERRORS],
  handler: async ({ params, query, actor, deps }) => ({ rawJson: await diff(deps, actor, params.id!, params.rev!, query.against) }),
});
