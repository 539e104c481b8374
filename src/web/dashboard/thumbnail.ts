/**
 * Card thumbnails: the fast PNG render (1024 px wide, cached on disk by
 * content in the renderer), for the signed-in person's own or shared
 * diagrams. The ETag is the diagram's revision, so revalidating an unchanged
 * thumbnail answers 304 without loading the scene; the dashboard puts the
 * revision in the image URL too, so the browser may keep each version a day.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../app/deps.ts';
import { diagramThumbnail } from '../../app/diagrams/render-diagram.ts';
import { requireSession } from '../session.ts';

const CACHE_CONTROL = 'private, max-age=86400';

/** The ETag of a thumbnail: the diagram's revision. */
function thumbnailEtag(revision: string): string {
  return `"${revision}"`;
}

/** Whether an If-None-Match header (a list, weak tags, or *) names `etag`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

export async function serveThumbnail(deps: ServiceDeps, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
  const session = requireSession(request);
  const thumbnail = await diagramThumbnail(deps, session, request.params.id, (revision) => matchesEtag(request.headers['if-none-match'], thumbnailEtag(revision)));
  reply.headers({ 'cache-control': CACHE_CONTROL, 'x-content-type-options': 'nosniff' });
  if (thumbnail.current) return reply.code(304).header('etag', thumbnailEtag(thumbnail.revision)).send();
  reply.header('etag', thumbnailEtag(thumbnail.revision));
  if (!thumbnail.png) return reply.code(204).send();
  return reply.type('image/png').send(thumbnail.png);
}
