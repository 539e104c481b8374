/** `search_icons` (and its former name `list_icons`): the icon catalog. */
import { type DrawbridgeClient } from '../../client/client.ts';
import { iconQuery, read, type ToolKit } from '../tool-kit.ts';

export function registerIconTools(kit: ToolKit): void {
  const { tool } = kit;
  const icons = (a: { q?: string | undefined; category?: string | undefined }, c: DrawbridgeClient) =>
    c.listIcons({ ...(a.q ? { q: a.q } : {}), ...(a.category ? { category: a.category } : {}) });
  tool(
    'search_icons',
    {
      description:
        'Search the icon catalog by product name, abbreviation or category, best match first. It holds brand logos, generic symbols, and the official AWS, Azure, Google Cloud and Kubernetes architecture icons (categories aws, azure, google-cloud, kubernetes), found by name or abbreviation: s3, lambda, aks, gke, bigquery, pod, ingress, pvc. Use a result\'s id (like icon-postgresql or icon-aws-simple-storage-service) as a spec node\'s icon; an icon id not in the catalog is refused.',
      fields: iconQuery,
      example: { q: 'postgres' },
      annotations: read,
    },
    icons,
  );
  tool('list_icons', { description: 'The same as search_icons (its former name, kept for existing clients).', fields: iconQuery, example: { q: 'kafka' }, annotations: read }, icons);
}
