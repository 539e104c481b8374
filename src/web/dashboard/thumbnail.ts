/**
 * Card thumbnails: the fast PNG render (1024 px wide, cached on disk by
 * content in the renderer), for the signed-in person's own or shared
 * diagrams. The ETag is the diagram's revision, so revalidating an unchanged
 * thumbnail answers 304 without loading the scene; the dashboard puts the
 * revision in the image URL too, so the browser may keep each version a day.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { diagramFor, diagramWithElementsFor } from '../../http/diagram-access.ts';
import type { ServiceDeps } from '../../http/route.ts';
import type { DiagramMeta } from '../../store/store.ts';
import { requireSession } from '../session.ts';

const CACHE_CONTROL = 'private, max-age=86400';

export function thumbnailEtag(diagram: Pick<DiagramMeta, 'docUpdatedAt' | 'updatedAt'>): string {
  return `"${diagram.docUpdatedAt ?? diagram.updatedAt}"`;
}

/** Whether an If-None-Match header (a list, weak tags, or *) names `etag`. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

export async function serveThumbnail(deps: ServiceDeps, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
  const session = requireSession(request);
  const meta = await diagramFor(deps, session, request.params.id, 'read');
  reply.headers({ 'cache-control': CACHE_CONTROL, 'x-content-type-options': 'nosniff' });
  if (matchesEtag(request.headers['if-none-match'], thumbnailEtag(meta))) {
    return reply.code(304).header('etag', thumbnailEtag(meta)).send();
  }
  const diagram = await diagramWithElementsFor(deps, session, request.params.id, 'read');
  const result = await deps.renderer.render({
    elementsJson: diagram.elementsJson,
    elementCount: diagram.elementCount,
    format: 'png',
    quality: 'fast',
    icons: true,
    // The signed-in person's fair share of the workers, the one their API renders count against.
    caller: `user:${session.user.id}`,
  });
  // The revision of the elements actually rendered, should a write have landed since the first read.
  reply.header('etag', thumbnailEtag(diagram));
  if (result.isEmpty || !result.png) return reply.code(204).send();
  return reply.type('image/png').send(result.png);
}
