import { ShareBody, ShareResult } from '../../../api/sharing-schemas.ts';
import { shareDiagram as share } from '../../../app/sharing/shares.ts';
import { defineRoute } from '../../../edge/route.ts';

export const shareDiagram = defineRoute({
  operationId: 'shareDiagram',
  method: 'POST',
  url: '/api/v1/diagrams/:id/shares',
  access: { capability: 'publish' },
  tags: ['sharing'],
  summary: 'Share a diagram with someone by email (extension)',
  description:
    'Owner only. An address with a verified account gets the share at once (sharing again changes the role); any other address is sent an invitation by mail, and gets the share when it signs up and verifies the address. Inviting the same address again replaces its pending invitation.',
  body: ShareBody,
  response: { status: 200, schema: ShareResult, description: 'The share, or the invitation sent' },
  errors: ['not_found', 'bad_request'],
  handler: async ({ body, params, actor, deps }) => ({ json: await share(deps, actor, params.id!, body) }),
});
