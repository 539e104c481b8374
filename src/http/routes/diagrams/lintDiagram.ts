import { LintReport as LintReportSchema } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS } from '../../../app/diagrams/content.ts';
import { lintDiagram as lintScene } from '../../../app/diagrams/lint-diagram.ts';
import { defineRoute } from '../../../edge/route.ts';

export const lintDiagram = defineRoute({
  method: 'GET',
  url: '/api/v1/diagrams/:id/lint',
  operationId: 'lintDiagram',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Check a diagram for layout and binding problems (extension)',
  description:
    'Overlapping shapes, labels clipped by their container (measured with the editor font), arrows not bound at an end or bound to a missing element, elements far outside the main cluster, text with a WCAG contrast ratio under 3 against its fill or the background, and the layout defects a person sees (arrows through shapes, lines on lines, labels on things or adrift). At most 100 issues of each kind are listed; `counts` has how many of each kind were found; `complete` is false when the scene was too large to check every pair (thousands of elements piled on one spot), and the counts are then lower bounds.',
  response: { status: 200, schema: LintReportSchema, description: 'The issues found; an empty list means clean' },
  errors: ['not_found', ...SCENE_WORK_ERRORS],
  handler: async ({ params, actor, deps }) => {
    return { json: await lintScene(deps, actor, params.id!) };
  },
});
