import { IconList, IconListQuery } from '../../../api/schemas.ts';
import { type CatalogIcon, listIcons as listCatalogIcons } from '../../../domain/icons/catalog.ts';
import { defineRoute } from '../../../edge/route.ts';

/** A catalog item as the API shows it: its fields, never the SVG itself. */
const presentIcon = (icon: CatalogIcon) => ({
  id: icon.id,
  label: icon.label,
  category: icon.category,
  ...(icon.subcategory !== undefined ? { subcategory: icon.subcategory } : {}),
  ...(icon.aliases !== undefined ? { aliases: icon.aliases } : {}),
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
    'Icons a diagram can embed: a spec node `icon`, or an image element `fileId`. Brand logos, generic symbols, and the AWS, Azure, Google Cloud and Kubernetes architecture icon sets. Extension: `q` finds icons by name, abbreviation (`s3`, `aks`, `gke`, `pvc`) or category, best match first; `category` keeps one category (an unknown one is 400).',
  query: IconListQuery,
  response: { status: 200, schema: IconList, description: 'The matching catalog icons: best match first with q, else by id' },
  errors: ['bad_request'],
  handler: async ({ query }) => {
    return { json: { items: listCatalogIcons(query).map(presentIcon) } };
  },
});
