import { z } from 'zod';
import { DiagramSource, ExportLanguage } from '../../../api/schemas.ts';
import { SCENE_WORK_ERRORS } from '../../../app/diagrams/content.ts';
import { diagramSource } from '../../../app/diagrams/diagram-source.ts';
import type { ExportLanguage as Language } from '../../../domain/export/languages.ts';
import { defineRoute } from '../../../edge/route.ts';

const SourceQuery = z.object({
  language: ExportLanguage.optional(),
  format: z.enum(['json', 'text']).optional().meta({ description: '`json` (default): the envelope with the text and its warnings; `text`: the text alone, with the warnings counted in `x-export-warnings`' }),
});

/** The text's media type when it is sent alone: DOT's registered one; Mermaid has none, and a spec alone is plain text (the JSON answer is the envelope). */
const MEDIA_TYPES: Record<Language, string> = {
  spec: 'text/plain; charset=utf-8',
  mermaid: 'text/plain; charset=utf-8',
  dot: 'text/vnd.graphviz; charset=utf-8',
};

export const getDiagramSource = defineRoute({
  method: 'GET',
  url: '/api/v1/diagrams/:id/source',
  operationId: 'getDiagramSource',
  access: { capability: 'read' },
  tags: ['diagrams'],
  summary: 'Export a diagram as text: its spec, Mermaid or DOT (extension)',
  description:
    'The diagram as the spec it draws (JSON), a Mermaid flowchart or Graphviz DOT, whatever made it: a spec, a source, the editor or a raw scene. Shapes with their bound text are nodes (node ids kept), arrows bound at both ends are edges with their labels, heads and styles, a shape or frame holding others is a container (a subgraph, a cluster); a diagram made by Drawbridge comes back with its shapes, colours, head and tail labels and caption. What the language cannot say is listed in `warnings` with the elements it is about. The text can be sent back to create or regenerate as `spec` or `source`.',
  query: SourceQuery,
  response: {
    status: 200,
    schema: DiagramSource,
    rawContentTypes: ['text/plain', 'text/vnd.graphviz'],
    description: 'The envelope (format=json), or the text alone (format=text: text/vnd.graphviz for DOT, text/plain for a spec or Mermaid) with its warnings counted in `x-export-warnings`',
  },
  errors: ['not_found', 'bad_request', ...SCENE_WORK_ERRORS],
  handler: async ({ params, query, actor, deps }) => {
    const source = await diagramSource(deps, actor, params.id!, query.language ?? 'spec');
    if (query.format !== 'text') return { json: source };
    return { raw: Buffer.from(source.text, 'utf8'), contentType: MEDIA_TYPES[source.language], headers: { 'x-export-warnings': String(source.warnings.length), 'x-content-type-options': 'nosniff' } };
  },
});
