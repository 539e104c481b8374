import { IconList, IconListQuery } from '../../../api/schemas.ts';
import { type CatalogIcon, listIcons as listCatalogIcons } from '../../../domain/icons/catalog.ts';
import { defineRoute } from '../../../edge/route.ts';

/** A catalog item as the API shows it: the six listed fields, never the SVG itself. */
const presentIcon = (icon: CatalogIcon) => ({
  id: icon.id,
  label: icon.label,
  category: icon.category,
  width: icon.width,
  height: icon.height,
  mimeType: icon.mimeType,
});

export const listIcons = defineRoute({
  operationId: 'listIcons',
  method: 'GET',
  url: '/api/v1/icons',
  access: { capability: 'read' },
  tags: ['icons'],
  summary: 'List the icon catalog',
  description:
    'Icons a diagram can embed: a spec node `icon`, or an image element `fileId`. Extension: `q` filters by text in the id, label or category; `category` by category (an unknown one is 400).',
  query: IconListQuery,
  response: { status: 200, schema: IconList, description: 'The matching catalog icons, ordered by id' },
  errors: ['bad_request'],
  handler: async ({ query }) => {
    return { json: { items: listCatalogIcons(query).map(presentIcon) } };
  },
});
