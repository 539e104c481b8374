import { z } from 'zod';
import { RenderEnvelope, RenderFormat } from '../../../api/schemas.ts';
import { renderDiagram as render } from '../../../app/diagrams/render-diagram.ts';
import { defineRoute } from '../../route.ts';

const RenderQuery = z.object({
  format: RenderFormat.optional().meta({ description: '`json` (default): the envelope with svg and base64 png; `png`; `svg`' }),
  // Anything but one of the two values (a repeated parameter included) is invalid_quality.
  quality: z.unknown().optional().meta({ type: 'string', enum: ['faithful', 'fast'], description: '`faithful` (default): the editor\'s own exporter; `fast`: the lightweight preview' }),
  rev: z.string().optional().meta({ description: 'Render this past revision (a `rev` from the diagram\'s history) instead of the current content' }),
});

/** What may be done with a rendered SVG opened directly in a browser: draw, nothing else. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

export const renderDiagram = defineRoute({
  operationId: 'renderDiagram',
  method: 'GET',
  url: '/api/v1/diagrams/:id/render',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Render a diagram to SVG and PNG',
  description:
    'Faithful (default) is the editor\'s own exporter: hand-drawn strokes, the editor\'s fonts embedded, catalog icons. When it is unavailable the answer falls back to the fast preview, with quality `fast` and note `faithful_unavailable`. PNGs are exactly 1024 px wide. Raw image answers carry `x-render-quality` and, when a note applies, `x-render-note`; an empty scene gives 204 for png and svg. `rev` renders a past revision.',
  query: RenderQuery,
  response: {
    status: 200,
    schema: RenderEnvelope,
    rawContentTypes: ['image/png', 'image/svg+xml'],
    description: 'The render envelope (format=json), or the image bytes (format=png: image/png; format=svg: image/svg+xml) with `x-render-quality` and, when a note applies, `x-render-note`',
    noContent: 'format=png or svg of an empty scene: no body',
  },
  errors: ['not_found', 'bad_request', 'invalid_quality', 'render_failed'],
  handler: async ({ params, query, actor, deps }) => {
    const format = query.format ?? 'json';
    const result = await render(deps, actor, params.id!, format, query.quality ?? 'faithful', query.rev);
    const { diagram } = result;
    if (format === 'json') {
      const { isEmpty, svg, png, note } = result;
      return {
        json: { isEmpty, elementCount: isEmpty ? 0 : diagram.elementCount, svg, png: png?.toString('base64') ?? null, quality: result.quality, ...(note ? { note } : {}) },
      };
    }
    if (result.isEmpty) return { status: 204 };
    const headers: Record<string, string> = { 'x-render-quality': result.quality, 'x-content-type-options': 'nosniff' };
    if (result.note) headers['x-render-note'] = result.note;
    if (format === 'svg') return { raw: result.svg!, contentType: 'image/svg+xml; charset=utf-8', headers: { ...headers, 'content-security-policy': SVG_CSP } };
    return { raw: result.png!, contentType: 'image/png', headers };
  },
});
