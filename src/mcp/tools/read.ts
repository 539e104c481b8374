/** `read_diagram`, `export_diagram` and `get_scene`: a diagram as a summary with a picture, as an SVG or PNG file, and as its raw scene. */
import { z } from 'zod';
import type { RenderOptions } from '../../api/render-options.ts';
import type { ContentBlock } from '../failures.ts';
import { summarizeScene } from '../scene.ts';
import { Blocks, describeRenderFailure, diagramId, EXAMPLE_ID, jsonBlock, linked, onDiagram, pngBlock, read, renderLook, renderQuality, type ToolKit } from '../tool-kit.ts';

export function registerReadTools(kit: ToolKit): void {
  const { tool, link } = kit;
  tool(
    'read_diagram',
    {
      description:
        'Read a diagram: a compact summary and a rendered PNG of it (1024 px wide) to look at. The summary has the title, editorUrl, folder, timestamps (docUpdatedAt is the revision to pass as expectedUpdatedAt), element counts by type, nodes with their labels and edges from -> to. includeGeometry adds x/y/width/height of each node and edge; image: false leaves the PNG out. If rendering fails the summary still comes back, with imageNote saying why. Use get_scene for the full raw scene, export_diagram for SVG.',
      fields: {
        id: diagramId,
        includeGeometry: z.boolean().optional().describe('Include x, y, width, height of every node and edge'),
        image: z.boolean().optional().describe('Include the rendered PNG (default true)'),
        quality: renderQuality,
      },
      example: { id: EXAMPLE_ID, includeGeometry: true },
      output: linked({ title: z.string(), nodes: z.array(z.looseObject({ id: z.string() })), edges: z.array(z.looseObject({})) }),
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => {
      const [d, rendered] = await Promise.all([
        c.getDiagram(a.id),
        a.image === false ? null : c.renderDiagram(a.id, { format: 'png', quality: a.quality ?? 'faithful' }).catch((error: unknown) => ({ error })),
      ]);
      const { editorUrl } = link(d);
      const summary = { id: d.id, title: d.title, editorUrl, folderId: d.folderId, updatedAt: d.updatedAt, docUpdatedAt: d.docUpdatedAt, deletedAt: d.deletedAt, ...summarizeScene(d.scene.elements, a.includeGeometry ?? false) };
      if (rendered === null) return summary;
      if ('error' in rendered) return { ...summary, imageNote: `no image: ${describeRenderFailure(rendered.error)}` };
      if (rendered.bytes === null) return { ...summary, imageNote: 'no image: the diagram is empty' };
      const withImage = { ...summary, image: { quality: rendered.quality, ...(rendered.note ? { note: rendered.note } : {}) } };
      return new Blocks([jsonBlock(withImage), pngBlock(rendered.bytes)], withImage);
    },
  );
  tool(
    'export_diagram',
    {
      description:
        'Render a diagram as a PNG image (1024 px wide unless width or scale says otherwise, returned as an image block), an SVG document (returned as text, to save or embed) or a PDF (one vector page sized to the drawing, returned as an embedded application/pdf resource). Options change the look: width or scale (size), padding, background (transparent, white, #hex), theme (dark as the editor exports it), and elements or frame to draw only part of the diagram. The first block says which quality was delivered (faithful can fall back to fast, with a note). An empty diagram has nothing to export.',
      fields: { id: diagramId, format: z.enum(['png', 'svg', 'pdf']).optional().describe('png (default), svg or pdf'), quality: renderQuality, ...renderLook },
      example: { id: EXAMPLE_ID, format: 'png', width: 1600, theme: 'dark' },
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => {
      const format = a.format ?? 'png';
      const { width, scale, padding, background, theme, elements, frame } = a;
      const look = { width, scale, padding, background: background as RenderOptions['background'], theme, elementIds: elements, frameId: frame };
      const rendered = await c.renderDiagram(a.id, { format, quality: a.quality ?? 'faithful', ...look });
      const { editorUrl } = link({ id: a.id });
      if (rendered.bytes === null) return { id: a.id, editorUrl, format, isEmpty: true, message: 'The diagram is empty: nothing to export.' };
      const about = jsonBlock({ id: a.id, editorUrl, format, mimeType: rendered.contentType, quality: rendered.quality, ...(rendered.note ? { note: rendered.note } : {}) });
      const body: ContentBlock =
        format === 'png'
          ? pngBlock(rendered.bytes)
          : format === 'pdf'
            ? { type: 'resource', resource: { uri: `${editorUrl}.pdf`, mimeType: 'application/pdf', blob: Buffer.from(rendered.bytes).toString('base64') } }
            : { type: 'text', text: Buffer.from(rendered.bytes).toString('utf8') };
      return new Blocks([about, body]);
    },
  );
  tool(
    'get_scene',
    {
      description: 'Get the full raw Excalidraw scene of a diagram (every element with every field) and its docUpdatedAt revision. Large; prefer read_diagram for an overview.',
      fields: { id: diagramId },
      example: { id: EXAMPLE_ID },
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => {
      const d = await c.getDiagram(a.id);
      return { id: d.id, title: d.title, editorUrl: link(d).editorUrl, docUpdatedAt: d.docUpdatedAt, scene: d.scene };
    },
  );
}
