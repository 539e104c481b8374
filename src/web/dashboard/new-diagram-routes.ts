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
import { SourceWarning } from '../../api/schemas.ts';
import { SCENE_WORK_ERRORS, SPEC_CONTENT_ERRORS } from '../../app/diagrams/content.ts';
import { previewContent } from '../../app/specs/preview-spec.ts';
import { findIcon, listIcons } from '../../domain/icons/catalog.ts';
import { defineRoute } from '../../edge/route.ts';
import { NO_STORE } from '../static-response.ts';
import { notFound } from '../../errors.ts';
import { requireSession } from '../session.ts';
import { parsedSpec } from './new-diagram.ts';

const PreviewBody = z.union([z.strictObject({ spec: z.unknown() }), z.strictObject({ source: z.unknown() })]);
const PickerIcons = z.object({
  items: z.array(z.object({ id: z.string(), label: z.string(), category: z.string(), subcategory: z.string().optional(), aliases: z.array(z.string()).optional() })),
});
const Preview = z.object({
  svg: z.string().nullable().meta({ description: 'The fast SVG; null when there is nothing to draw' }),
  warnings: z.array(SourceWarning).optional().meta({ description: 'For a source: what the drawing leaves out' }),
});

/** An icon's bytes never change within a deployment; the document stays inert even opened on its own. */
const ICON_HEADERS = {
  'cache-control': 'private, max-age=86400, immutable',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
};

const TAGS = ['web new diagram'];

export const newDiagramApiRoutes = [
  // A preview writes nothing, but it spends the caller's share of the workers: it is a change-like request (CSRF-checked) all the same.
  defineRoute({
    operationId: 'webPreviewContent',
    method: 'POST',
    url: '/app/api/specs/preview',
    access: { session: true },
    tags: TAGS,
    summary: 'A fast SVG of a spec or source as it is typed',
    body: PreviewBody,
    response: { status: 200, schema: Preview, description: 'The preview' },
    errors: ['bad_request', 'csrf_failed', ...SPEC_CONTENT_ERRORS, ...SCENE_WORK_ERRORS],
    handler: async ({ body, actor, deps }) => {
      const content = 'spec' in body ? { spec: await parsedSpec(deps, actor, body.spec) } : body;
      return { json: await previewContent(deps, actor, content), headers: NO_STORE };
    },
  }),
  defineRoute({
    operationId: 'webListIcons',
    method: 'GET',
    url: '/app/api/icons',
    access: { session: true },
    tags: TAGS,
    summary: 'The whole icon catalogue, for the picker',
    response: { status: 200, schema: PickerIcons, description: 'Every catalog icon, in id order' },
    errors: [],
    handler: async () => ({
      json: {
        items: listIcons().map(({ id, label, category, subcategory, aliases }) => ({
          id,
          label,
          category,
          ...(subcategory !== undefined ? { subcategory } : {}),
          ...(aliases !== undefined ? { aliases } : {}),
        })),
      },
      headers: { 'cache-control': 'private, max-age=3600' },
    }),
  }),
];

/** The icon picker's pictures. */
export const newDiagramRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { file: string } }>('/app/icons/:file', async (request, reply) => {
    requireSession(request);
    const icon = request.params.file.endsWith('.svg') ? findIcon(request.params.file.slice(0, -'.svg'.length)) : undefined;
    if (!icon) throw notFound();
    return reply.headers(ICON_HEADERS).type(icon.mimeType).send(icon.svg);
  });
};
