import { LintReport } from '../../../api/schemas.ts';
import { lintScene } from '../../../domain/lint/lint.ts';
import { diagramWithElementsFor } from '../../diagram-access.ts';
import { defineRoute } from '../../route.ts';

export const lintDiagram = defineRoute({
  method: 'GET',
  url: '/api/v1/diagrams/:id/lint',
  operationId: 'lintDiagram',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Check a diagram for layout and binding problems (extension)',
  description:
    'Overlapping shapes, labels clipped by their container (measured with the editor font), arrows not bound at an end or bound to a missing element, elements far outside the main cluster, and text with a WCAG contrast ratio under 3 against its fill or the background.',
  response: { status: 200, schema: LintReport, description: 'The issues found; an empty list means clean' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    const diagram = await diagramWithElementsFor(deps, actor, params.id!, 'read');
    return { json: { issues: lintScene(JSON.parse(diagram.elementsJson) as unknown[]) } };
  },
});
