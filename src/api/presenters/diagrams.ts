// What leaves the server is built by the presenters in this folder, one file per resource, field by field, from
// the records the use cases read: every transport (the REST API, the web app, MCP through the API) answers with them.
import type { DiagramMeta, DiagramRecord, PublicLinkRecord } from '../../store/store.ts';
import type { DiagramRole } from '../../auth/policy.ts';
import { editorUrl } from '../paths.ts';

/** The fields every answer about one diagram starts with, in this order; `publicUrl` is the service's PUBLIC_URL. */
function summary(d: DiagramMeta, publicUrl: string) {
  return {
    id: d.id,
    title: d.title,
    folderId: d.folderId,
    ownerId: d.ownerId,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    editorUrl: editorUrl(publicUrl, d.id),
  };
}

export const listItem = (d: DiagramMeta, publicUrl: string) => ({
  id: d.id,
  title: d.title,
  folderId: d.folderId,
  starred: d.starred,
  updatedAt: d.updatedAt,
  createdAt: d.createdAt,
  editorUrl: editorUrl(publicUrl, d.id),
});

/** A diagram listed among those others own or a workspace holds: with the caller's role and its workspace. */
export const reachableItem = (d: DiagramMeta & { role: DiagramRole }, publicUrl: string) => ({ ...listItem(d, publicUrl), role: d.role, workspaceId: d.workspaceId });

export const created = (d: DiagramMeta, publicUrl: string) => ({ ...summary(d, publicUrl), elementCount: d.elementCount });

export const updated = (d: DiagramMeta, publicUrl: string) => ({ ...summary(d, publicUrl), deletedAt: d.deletedAt });

/**
 * The full diagram as JSON text, with `more` fields after its scene; the stored elements are spliced in
 * without a parse/serialise round trip.
 */
export function diagramJson(d: DiagramRecord, publicUrl: string, more: Record<string, unknown> = {}): string {
  const head = JSON.stringify({ ...summary(d, publicUrl), deletedAt: d.deletedAt, docUpdatedAt: d.docUpdatedAt });
  const tail = Object.entries(more).map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`).join('');
  return `${head.slice(0, -1)},"scene":{"elements":${d.elementsJson},"appState":{}}${tail}}`;
}

/** A diagram's public link; null (never published) is the state every diagram starts in. */
export const publicLink = (link: PublicLinkRecord | null, publicUrl: string) =>
  link === null
    ? { slug: null, enabled: false, hasPassword: false, version: 0, url: null }
    : {
        slug: link.slug,
        enabled: link.enabled,
        hasPassword: link.passwordHash !== null,
        version: link.version,
        url: link.enabled ? `${publicUrl}/p/${link.slug}` : null,
      };
