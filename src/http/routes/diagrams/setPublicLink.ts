import * as present from '../../../api/presenters/diagrams.ts';
import { PublicLink, PublicLinkBody } from '../../../api/schemas.ts';
import { setPublicLink as publish } from '../../../app/public-links/set-public-link.ts';
import { defineRoute } from '../../../edge/route.ts';

export const setPublicLink = defineRoute({
  operationId: 'setPublicLink',
  method: 'PUT',
  url: '/api/v1/diagrams/:id/public-link',
  access: { capability: 'publish' },
  tags: ['diagrams'],
  summary: 'Enable or disable the public link',
  description:
    'Owner only. The slug is fixed for the life of the diagram; `version` increases by one on every successful call. `password`: a string sets it, null clears it, an absent key leaves it. The public page is `url`.',
  body: PublicLinkBody,
  response: { status: 200, schema: PublicLink, description: 'The public link' },
  errors: ['not_found'],
  handler: async ({ body, params, actor, deps }) => {
    const link = await publish(deps, actor, params.id!, body);
    return { json: present.publicLink(link, deps.config.publicUrl) };
  },
});
