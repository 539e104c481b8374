import { notFound } from '../../../errors.ts';
import { findIcon } from '../../../domain/icons/catalog.ts';
import { defineRoute } from '../../../edge/route.ts';

// The bytes of an id never change within a deployment, and the document must
// stay inert even when opened directly in a browser. `private`: the route needs
// a token, so shared caches must not answer it for others.
const ICON_HEADERS = {
  'cache-control': 'private, max-age=86400, immutable',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
};

export const getIcon = defineRoute({
  operationId: 'getIcon',
  method: 'GET',
  url: '/api/v1/icons/:id',
  access: { capability: 'read' },
  tags: ['icons'],
  summary: 'Get a catalog icon as SVG',
  description: 'Extension: the raw `image/svg+xml` document of a catalog icon. Ids outside the catalog are 404.',
  response: { status: 200, description: 'The SVG document', contentType: 'image/svg+xml' },
  errors: ['not_found'],
  handler: async ({ params }) => {
    const icon = findIcon(params.id!);
    if (!icon) throw notFound();
    return { raw: icon.svg, contentType: icon.mimeType, headers: ICON_HEADERS };
  },
});
