import * as present from '../../../api/presenters/diagrams.ts';
import { PublicLink } from '../../../api/schemas.ts';
import { getPublicLink as linkOf } from '../../../app/public-links/get-public-link.ts';
import { defineRoute } from '../../../edge/route.ts';

export const getPublicLink = defineRoute({
  operationId: 'getPublicLink',
  method: 'GET',
  url: '/api/v1/diagrams/:id/public-link',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Whether and where a diagram is published',
  description:
    'Anyone who may read the diagram. The same shape as the PUT answer; a diagram never published answers `{ slug: null, enabled: false, hasPassword: false, version: 0, url: null }`.',
  response: { status: 200, schema: PublicLink, description: 'The public link' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    return { json: present.publicLink(await linkOf(deps, actor, params.id!), deps.config.publicUrl) };
  },
});
