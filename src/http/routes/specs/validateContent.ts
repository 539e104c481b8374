import { ValidateBody, ValidationReport } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS } from '../../../app/diagrams/content.ts';
import { validateContent as checkContent } from '../../../app/specs/validate-content.ts';
import { defineRoute } from '../../../edge/route.ts';

export const validateContent = defineRoute({
  operationId: 'validateContent',
  method: 'POST',
  url: '/api/v1/specs/validate',
  access: { capability: 'read' },
  tags: ['editing'],
  summary: 'Check a spec, an edit, patch ops or a scene, listing every problem (extension)',
  description:
    'Exactly one of `spec`, `edit`, `ops`, `scene` or `source` (Mermaid or DOT text), as it would be sent to the write endpoint; nothing is written. A source\'s syntax error is a problem with its `line` and `column`; what its drawing would leave out is listed in `warnings`. Answers 200 with every problem found (code, message, JSON Pointer path, and a one-line hint where the mistake is a common one), not just the first a write would answer with. With `diagramId`, an edit or ops are also checked against that diagram (ids it has, edges to its nodes, the elements ops name). Content problems are never an error status here.',
  body: ValidateBody,
  response: { status: 200, schema: ValidationReport, description: 'Whether the content is valid, and every problem' },
  errors: ['bad_request', 'not_found', ...SCENE_WORK_ERRORS],
  handler: async ({ body, actor, deps }) => {
    return { json: await checkContent(deps, actor, body) };
  },
});
