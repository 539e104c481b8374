/**
 * What the "New diagram" page's script asks for: a preview of the spec being
 * typed, and the icon catalogue for its picker.
 *
 *   POST /app/api/specs/preview   { spec } or { source } → { svg, warnings? } (svg null: nothing to draw); refused content is the error create would answer
 *   GET  /app/api/icons           { items: [{ id, label, category }] }, the whole catalogue, in id order
 *   GET  /app/icons/:id.svg       one icon's SVG, for the picker's pictures
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ServiceDeps } from '../../app/deps.ts';
import { previewContent } from '../../app/specs/preview-spec.ts';
import { findIcon, listIcons } from '../../domain/icons/catalog.ts';
import { BODY_LIMIT_BYTES } from '../../edge/validate.ts';
import { notFound } from '../../errors.ts';
import { requireSession } from '../session.ts';
import { sessionChange } from '../session-change.ts';

const PreviewBody = z.union([z.strictObject({ spec: z.unknown() }), z.strictObject({ source: z.unknown() })]);

/** An icon's bytes never change within a deployment; the document stays inert even opened on its own. */
const ICON_HEADERS = {
  'cache-control': 'private, max-age=86400, immutable',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
};

export const newDiagramRoutes: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  // A preview writes nothing, but it spends the caller's share of the workers: it is a change-like request (CSRF-checked) all the same.
  app.post('/app/api/specs/preview', { bodyLimit: BODY_LIMIT_BYTES }, async (request, reply) => {
    const { session, body } = sessionChange(request, deps.config.publicUrl, PreviewBody);
    return reply.header('cache-control', 'no-store').send(await previewContent(deps, session, body));
  });

  app.get('/app/api/icons', async (request, reply) => {
    requireSession(request);
    const items = listIcons().map(({ id, label, category }) => ({ id, label, category }));
    return reply.header('cache-control', 'private, max-age=3600').send({ items });
  });

  app.get<{ Params: { file: string } }>('/app/icons/:file', async (request, reply) => {
    requireSession(request);
    const icon = request.params.file.endsWith('.svg') ? findIcon(request.params.file.slice(0, -'.svg'.length)) : undefined;
    if (!icon) throw notFound();
    return reply.headers(ICON_HEADERS).type(icon.mimeType).send(icon.svg);
  });
};
