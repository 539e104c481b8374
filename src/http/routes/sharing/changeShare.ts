import { Share, ShareRoleBody } from '../../../api/sharing-schemas.ts';
import { changeShare as change } from '../../../app/sharing/shares.ts';
import { defineRoute } from '../../../edge/route.ts';

export const changeShare = defineRoute({
  operationId: 'changeShare',
  method: 'PATCH',
  url: '/api/v1/diagrams/:id/shares/:userId',
  access: { capability: 'publish' },
  tags: ['sharing'],
  summary: "Change a share's role (extension)",
  description: 'Owner only. A user the diagram is not shared with is 404 not_found.',
  body: ShareRoleBody,
  response: { status: 200, schema: Share, description: 'The share' },
  errors: ['not_found'],
  handler: async ({ body, params, actor, deps }) => ({ json: await change(deps, actor, params.id!, params.userId!, body.role) }),
});
