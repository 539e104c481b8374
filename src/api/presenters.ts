import { type Capability, legacyScope } from '../auth/capabilities.ts';
import type { DiagramRole } from '../auth/policy.ts';
import type { CommentRecord, DiagramMeta, DiagramRecord, FolderRecord, PublicLinkRecord, UserRecord } from '../store/store.ts';
import { editorUrl } from './paths.ts';

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

/** What leaves the server: every response body is built here, field by field. */
export const present = {
  identity: (actor: { user: UserRecord; capabilities: readonly Capability[] }) => ({
    id: actor.user.id,
    email: actor.user.email,
    capabilities: [...actor.capabilities],
    scope: legacyScope(actor.capabilities),
  }),

  listItem: (d: DiagramMeta, publicUrl: string) => ({
    id: d.id,
    title: d.title,
    folderId: d.folderId,
    starred: d.starred,
    updatedAt: d.updatedAt,
    createdAt: d.createdAt,
    editorUrl: editorUrl(publicUrl, d.id),
  }),

  /** A diagram listed among those others own or a workspace holds: with the caller's role and its workspace. */
  reachableItem: (d: DiagramMeta & { role: DiagramRole }, publicUrl: string) => ({ ...present.listItem(d, publicUrl), role: d.role, workspaceId: d.workspaceId }),

  created: (d: DiagramMeta, publicUrl: string) => ({ ...summary(d, publicUrl), elementCount: d.elementCount }),

  updated: (d: DiagramMeta, publicUrl: string) => ({ ...summary(d, publicUrl), deletedAt: d.deletedAt }),

  /**
   * The full diagram as JSON text, with `more` fields after its scene; the stored elements are spliced in
   * without a parse/serialise round trip.
   */
  diagramJson: (d: DiagramRecord, publicUrl: string, more: Record<string, unknown> = {}): string => {
    const head = JSON.stringify({ ...summary(d, publicUrl), deletedAt: d.deletedAt, docUpdatedAt: d.docUpdatedAt });
    const tail = Object.entries(more).map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`).join('');
    return `${head.slice(0, -1)},"scene":{"elements":${d.elementsJson},"appState":{}}${tail}}`;
  },

  comment: (c: CommentRecord) => ({
    id: c.id,
    elementId: c.elementId,
    body: c.body,
    authorId: c.authorId,
    createdAt: c.createdAt,
    resolved: c.resolved,
    resolvedReason: c.resolvedReason,
  }),

  folder: (f: FolderRecord) => ({ id: f.id, name: f.name, parentId: f.parentId }),

  /** A diagram's public link; null (never published) is the state every diagram starts in. */
  publicLink: (link: PublicLinkRecord | null, publicUrl: string) =>
    link === null
      ? { slug: null, enabled: false, hasPassword: false, version: 0, url: null }
      : {
          slug: link.slug,
          enabled: link.enabled,
          hasPassword: link.passwordHash !== null,
          version: link.version,
          url: link.enabled ? `${publicUrl}/p/${link.slug}` : null,
        },
};
