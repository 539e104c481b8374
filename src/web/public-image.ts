import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ServiceDeps } from '../app/deps.ts';
import { RenderOptionsQuery } from '../api/render-options.ts';
import { renderOptionsFrom } from '../app/diagrams/render-diagram.ts';
import { renderPublishedImage } from '../app/public-links/published-diagram.ts';
import { toApiError } from '../edge/errors.ts';
import { parseWith } from '../edge/validate.ts';
import type { PageRequestLimit } from '../edge/page-limits.ts';
import { ApiError } from '../errors.ts';
import { RENDERED_SVG_CSP } from '../edge/rendered-svg.ts';

/**
 * Every answer is revalidated before it is used (`no-cache`), by browsers and
 * by shared caches and image proxies alike (GitHub's camo among them), so an
 * image in a README shows the diagram as it is now; `public` lets those
 * caches keep a copy, and the ETag makes their revalidation a 304 with no body.
 */
const CACHE_CONTROL = 'public, no-cache';

/** The tags an If-None-Match lists match `etag` (weak comparison, as RFC 9110 has for GET), or it is `*`. */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Whether a resource last changed at `changed` is unmodified since If-Modified-Since (whole seconds, as HTTP dates are). */
function unmodifiedSince(header: string | undefined, changed: Date): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(changed.getTime() / 1000) * 1000 <= since;
}

/**
 * The embeddable images of published diagrams: `GET /p/:slug.svg` and
 * `/p/:slug.png`, with the render options as query parameters (docs/rendering.md,
 * "Embedding"). Public exactly when the page `/p/:slug` is public without a
 * password; otherwise 404, as for an unknown slug. Errors are the API's JSON
 * envelope: whoever reads one is a program or a person debugging a URL.
 */
export const publicImagePlugin: FastifyPluginAsync<{ deps: ServiceDeps; pageLimit: PageRequestLimit }> = async (app, { deps, pageLimit }) => {
  // The same budget per client address as the public page: a picture costs what a page costs.
  app.addHook('onRequest', pageLimit);
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'public image failed');
    reply.code(apiError.status).headers(apiError.headers).send(apiError.toBody());
  });

  const answer = async (format: 'svg' | 'png' | 'pdf', slug: string, query: Record<string, unknown>, headers: Record<string, string | string[] | undefined>, reply: FastifyReply) => {
    // Only the options are read: other parameters (a cache-busting ?v=2, say) are left alone.
    const options = renderOptionsFrom(parseWith(RenderOptionsQuery, query, 'query'));
    const image = await renderPublishedImage(deps, slug, format, options);
    if (!image) throw new ApiError('not_found');
    const picture = image.image;
    if (picture === null) return reply.code(204).header('cache-control', CACHE_CONTROL).send();
    const { bytes } = picture;
    const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
    const changed = new Date(image.contentUpdatedAt);
    reply.headers({ etag, 'cache-control': CACHE_CONTROL, 'last-modified': changed.toUTCString(), 'x-render-quality': image.quality });
    if (image.note) reply.header('x-render-note', image.note);
    const ifNoneMatch = headers['if-none-match'];
    const ifModifiedSince = headers['if-modified-since'];
    const notModified =
      ifNoneMatch !== undefined
        ? noneMatch(String(ifNoneMatch), etag)
        : // A date says nothing of a fallback drawn since: only the image asked for (faithful, nothing left out) is vouched for by date.
          image.quality === 'faithful' && image.note === undefined && unmodifiedSince(typeof ifModifiedSince === 'string' ? ifModifiedSince : undefined, changed);
    if (notModified) return reply.code(304).send();
    reply.header('x-content-type-options', 'nosniff');
    if (format === 'svg') reply.header('content-security-policy', RENDERED_SVG_CSP);
    return reply.type(picture.contentType).send(bytes);
  };

  app.get<{ Params: { slug: string }; Querystring: Record<string, unknown> }>('/p/:slug.svg', (request, reply) =>
    answer('svg', request.params.slug, request.query, request.headers, reply),
  );
  app.get<{ Params: { slug: string }; Querystring: Record<string, unknown> }>('/p/:slug.png', (request, reply) =>
    answer('png', request.params.slug, request.query, request.headers, reply),
  );
  app.get<{ Params: { slug: string }; Querystring: Record<string, unknown> }>('/p/:slug.pdf', (request, reply) =>
    answer('pdf', request.params.slug, request.query, request.headers, reply),
  );
};
