import { z } from 'zod';
import { RenderOptionsQuery } from '../../../api/render-options.ts';
import { RenderEnvelope, RenderFormat } from '../../../api/schemas.ts';
import { renderDiagram as render, renderOptionsFrom } from '../../../app/diagrams/render-diagram.ts';
import { RENDERED_SVG_CSP } from '../../../edge/rendered-svg.ts';
import { defineRoute } from '../../../edge/route.ts';

const RenderQuery = RenderOptionsQuery.extend({
  format: RenderFormat.optional().meta({ description: '`json` (default): the envelope with svg and base64 png; `png`; `svg`; `pdf` (extension): one vector page sized to the drawing' }),
  // Anything but one of the two values (a repeated parameter included) is invalid_quality.
  quality: z.unknown().optional().meta({ type: 'string', enum: ['faithful', 'fast'], description: '`faithful` (default): the editor\'s own exporter; `fast`: the lightweight preview' }),
  rev: z.string().optional().meta({ description: 'Render this past revision (a `rev` from the diagram\'s history) instead of the current content' }),
  embed: z.enum(['scene']).optional().meta({ description: '`scene`: the PNG and the SVG carry the diagram\'s whole scene, as the Excalidraw editor\'s "Embed scene" export does, so the file opens again as an editable drawing in Excalidraw, and `POST /diagrams` takes it as a `scene`; not with `format=pdf`' }),
});

/** `inline; filename="…pdf"` for a diagram's title: an ASCII fallback and the title itself (RFC 6266). */
function pdfDisposition(title: string): string {
  const name = title.trim() === '' ? 'diagram' : title.trim();
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${ascii}.pdf"; filename*=UTF-8''${encodeURIComponent(`${name}.pdf`)}`;
}

export const renderDiagram = defineRoute({
  operationId: 'renderDiagram',
  method: 'GET',
  url: '/api/v1/diagrams/:id/render',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Render a diagram to SVG, PNG or PDF',
  description:
    'Faithful (default) is the editor\'s own exporter: hand-drawn strokes, the editor\'s fonts embedded, catalog icons. When it is unavailable the answer falls back to the fast preview, with quality `fast` and note `faithful_unavailable`. PNGs are exactly 1024 px wide unless `width` or `scale` says otherwise. Raw image answers carry `x-render-quality` and, when a note applies, `x-render-note`; an empty scene gives 204 for png, svg and pdf. `rev` renders a past revision. Extensions: `format=pdf`, and the options `width`, `scale`, `padding`, `background`, `theme`, `elements`, `frame` (each absent: the default look); renders are cached per scene and options.',
  query: RenderQuery,
  response: {
    status: 200,
    schema: RenderEnvelope,
    rawContentTypes: ['image/png', 'image/svg+xml', 'application/pdf'],
    description:
      'The render envelope (format=json), or the bytes (format=png: image/png; format=svg: image/svg+xml; format=pdf: application/pdf, with Content-Disposition inline and a file name from the title) with `x-render-quality` and, when a note applies, `x-render-note`',
    noContent: 'format=png, svg or pdf of an empty scene: no body',
  },
  errors: ['not_found', 'bad_request', 'invalid_quality', 'invalid_selection', 'render_failed'],
  handler: async ({ params, query, actor, deps }) => {
    const format = query.format ?? 'json';
    const options = renderOptionsFrom(query);
    const result = await render(deps, actor, params.id!, format, query.quality ?? 'faithful', query.rev, options, query.embed);
    const { diagram } = result;
    if (format === 'json') {
      const { isEmpty, svg, png, note } = result;
      return {
        json: { isEmpty, elementCount: isEmpty ? 0 : diagram.elementCount, svg, png: png?.toString('base64') ?? null, quality: result.quality, ...(note ? { note } : {}) },
      };
    }
    const { image } = result;
    if (image === null) return { status: 204 };
    const headers: Record<string, string> = { 'x-render-quality': result.quality, 'x-content-type-options': 'nosniff' };
    if (result.note) headers['x-render-note'] = result.note;
    if (format === 'svg') headers['content-security-policy'] = RENDERED_SVG_CSP;
    if (format === 'pdf') headers['content-disposition'] = pdfDisposition(diagram.title);
    return { raw: image.bytes, contentType: image.contentType, headers };
  },
});
