import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import * as S from '../api/schemas.ts';
import { DrawbridgeApiError, type DrawbridgeClient } from '../client/client.ts';
import { registerResources } from './resources.ts';
import { type Element, fillTerseElements, summarizeScene } from './scene.ts';

// The MCP tools over the typed DrawbridgeClient. Results are JSON text (plus
// image blocks for renders); failures are `isError` results carrying the
// server's error code and message.

/** The package version, reported to MCP clients. */
export const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

type ContentBlock = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
type ToolResult = { content: ContentBlock[]; isError?: boolean };

/** What a tool returns when its answer is more than one JSON value (an image, SVG text). */
class Blocks {
  constructor(readonly content: ContentBlock[]) {}
}

const jsonBlock = (value: unknown): ContentBlock => ({ type: 'text', text: JSON.stringify(value ?? { ok: true }, null, 2) });
const pngBlock = (bytes: Uint8Array): ContentBlock => ({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: 'image/png' });

function ok(value: unknown): ToolResult {
  return { content: value instanceof Blocks ? value.content : [jsonBlock(value)] };
}

function fail(code: string, message: string): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify({ error: code, message }) }], isError: true };
}

function describeRenderFailure(error: unknown): string {
  if (error instanceof DrawbridgeApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function describeFailure(error: unknown, authHelp: string): ToolResult {
  if (error instanceof DrawbridgeApiError) {
    let hint = '';
    if (error.code === 'insufficient_scope') hint = ' (this token lacks the capability; a human must mint a token that has it)';
    if (error.status === 401) hint = ` (${authHelp})`;
    return fail(error.code, `${error.message}${hint}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return fail('unreachable', `Could not reach the Drawbridge API: ${message}`);
}

const diagramId = z.string().describe('Diagram id (UUID), as returned by list_diagrams or generate_diagram');

export interface McpServerOptions {
  /** Told to the agent when there is no client or the API refuses the token: how, for this transport, a human supplies a valid one. */
  authHelp: string;
}

/**
 * The Drawbridge MCP server: every tool and resource, acting through `client`
 * (null: no token configured; every tool then answers with `authHelp`). Used by
 * the stdio bin and by the hosted endpoint at /mcp.
 */
export function createMcpServer(client: DrawbridgeClient | null, options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'drawbridge', version: VERSION });

  const tool = <Shape extends z.ZodRawShape>(
    name: string,
    description: string,
    inputSchema: Shape,
    run: (args: z.infer<z.ZodObject<Shape>>, client: DrawbridgeClient) => Promise<unknown>,
    annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean } = {},
  ) => {
    server.registerTool(name, { description, inputSchema, annotations }, (async (args: z.infer<z.ZodObject<Shape>>) => {
      if (!client) return fail('unauthorized', options.authHelp);
      try {
        return ok(await run(args, client));
      } catch (error) {
        return describeFailure(error, options.authHelp);
      }
    }) as never);
  };
  const read = { readOnlyHint: true };

  tool(
    'generate_diagram',
    'Create a new diagram from a DiagramSpec (nodes, edges, layout); the server lays it out with bound arrows and sized labels. See the resource drawbridge://docs/spec-grammar. Returns the new diagram id, title and element count.',
    { spec: S.SpecInput.describe('DiagramSpec: { version?, nodes: [{ id, label?, shape?, icon?, ... }], edges?: ["a -> b : label" | { from, to, label? }], layout?: { direction } }'), title: S.CreateDiagramBody.shape.title, folderId: S.CreateDiagramBody.shape.folderId },
    (a, c) => c.createDiagram({ spec: a.spec, ...(a.title !== undefined ? { title: a.title } : {}), ...(a.folderId !== undefined ? { folderId: a.folderId } : {}) }),
  );
  tool(
    'create_scene',
    'Create a new diagram from terse Excalidraw elements at exact positions. Each element needs only type and x/y; id, width and height are filled in when absent and every other field is kept as given. See drawbridge://docs/scene-guide. Returns the new diagram id and element count.',
    {
      elements: z.array(z.looseObject({ type: z.string().describe('rectangle, ellipse, diamond, text, arrow, line, ...'), id: z.string().optional(), x: z.number().optional(), y: z.number().optional(), width: z.number().optional(), height: z.number().optional() })).describe('Terse Excalidraw elements'),
      title: S.CreateDiagramBody.shape.title,
      folderId: S.CreateDiagramBody.shape.folderId,
    },
    (a, c) => c.createDiagram({ scene: { elements: fillTerseElements(a.elements as Element[]) }, ...(a.title !== undefined ? { title: a.title } : {}), ...(a.folderId !== undefined ? { folderId: a.folderId } : {}) }),
  );
  const renderQuality = S.RenderQuality.optional().describe('faithful (default): the editor\'s own look, hand-drawn strokes and fonts; fast: a plain preview, quicker');
  tool(
    'read_diagram',
    'Read a diagram: a compact summary and a rendered PNG of it (1024 px wide) to look at. The summary has the title, folder, timestamps (docUpdatedAt is the revision to pass as expectedUpdatedAt), element counts by type, nodes with their labels and edges from -> to. Set includeGeometry for x/y/width/height of each node and edge; image: false for the summary alone. If rendering fails the summary still comes back, with imageNote saying why. Use get_scene for the full raw scene, export_diagram for SVG.',
    {
      id: diagramId,
      includeGeometry: z.boolean().optional().describe('Include x, y, width, height of every node and edge'),
      image: z.boolean().optional().describe('Include the rendered PNG (default true)'),
      quality: renderQuality,
    },
    async (a, c) => {
      const [d, rendered] = await Promise.all([
        c.getDiagram(a.id),
        a.image === false ? null : c.renderDiagram(a.id, { format: 'png', quality: a.quality ?? 'faithful' }).catch((error: unknown) => ({ error })),
      ]);
      const summary = { id: d.id, title: d.title, folderId: d.folderId, updatedAt: d.updatedAt, docUpdatedAt: d.docUpdatedAt, deletedAt: d.deletedAt, ...summarizeScene(d.scene.elements, a.includeGeometry ?? false) };
      if (rendered === null) return summary;
      if ('error' in rendered) return { ...summary, imageNote: `no image: ${describeRenderFailure(rendered.error)}` };
      if (rendered.bytes === null) return { ...summary, imageNote: 'no image: the diagram is empty' };
      return new Blocks([jsonBlock({ ...summary, image: { quality: rendered.quality, ...(rendered.note ? { note: rendered.note } : {}) } }), pngBlock(rendered.bytes)]);
    },
    read,
  );
  tool(
    'export_diagram',
    'Render a diagram as a PNG image (1024 px wide, returned as an image block) or as an SVG document (returned as text, to save or embed). The first block says which quality was delivered (faithful can fall back to fast, with a note). An empty diagram has nothing to export.',
    { id: diagramId, format: z.enum(['png', 'svg']).optional().describe('png (default) or svg'), quality: renderQuality },
    async (a, c) => {
      const format = a.format ?? 'png';
      const rendered = await c.renderDiagram(a.id, { format, quality: a.quality ?? 'faithful' });
      if (rendered.bytes === null) return { id: a.id, format, isEmpty: true, message: 'The diagram is empty: nothing to export.' };
      const about = jsonBlock({ id: a.id, format, mimeType: rendered.contentType, quality: rendered.quality, ...(rendered.note ? { note: rendered.note } : {}) });
      return new Blocks([about, format === 'png' ? pngBlock(rendered.bytes) : { type: 'text', text: Buffer.from(rendered.bytes).toString('utf8') }]);
    },
    read,
  );
  tool('get_scene', 'Get the full raw Excalidraw scene of a diagram (every element with every field) and its docUpdatedAt revision. Large; prefer read_diagram for an overview.', { id: diagramId }, async (a, c) => {
    const d = await c.getDiagram(a.id);
    return { id: d.id, title: d.title, docUpdatedAt: d.docUpdatedAt, scene: d.scene };
  }, read);
  tool(
    'list_diagrams',
    'List the caller\'s diagrams, newest first, one page at a time: id, title, folderId, starred, timestamps. Pass nextCursor back as cursor for the next page; filter "trash" lists trashed diagrams.',
    { limit: z.number().int().min(1).max(100).optional().describe('Page size, default 50'), cursor: S.ListDiagramsQuery.shape.cursor, filter: S.ListDiagramsQuery.shape.filter },
    (a, c) => c.listDiagrams({ ...(a.limit !== undefined ? { limit: a.limit } : {}), ...(a.cursor ? { cursor: a.cursor } : {}), ...(a.filter ? { filter: a.filter } : {}) }),
    read,
  );
  tool('rename_diagram', 'Change a diagram\'s title.', { id: diagramId, title: z.string().describe('The new title') }, (a, c) => c.updateDiagram(a.id, { title: a.title }), { idempotentHint: true });
  tool('move_diagram', 'Move a diagram into a folder (folderId from list_folders), or to the root with null.', { id: diagramId, folderId: S.UpdateDiagramBody.shape.folderId.unwrap() }, (a, c) => c.updateDiagram(a.id, { folderId: a.folderId }), { idempotentHint: true });
  tool(
    'edit_diagram',
    'Grow or restyle a diagram semantically, keeping the existing layout: addNodes (spec nodes, optionally with x/y/width/height), addEdges (spec edges between existing or new node ids), updateNodes ({ id, label?, strokeColor?, backgroundColor?, fillStyle? }; a new label keeps its node\'s size and shrinks its font, down to 60 % and never under 12 px, to fit; one that fits at no size is refused). Returns the ids added and updated.',
    { id: diagramId, ...S.EditBody.shape },
    ({ id, ...body }, c) => c.editDiagram(id, body as S.EditBody),
  );
  tool(
    'regenerate_diagram',
    'Replace a diagram\'s whole content with a new spec (laid out by the server) or a new raw scene, keeping its id, folder and comments (comments on vanished elements are reported as orphaned). Pass expectedUpdatedAt (the docUpdatedAt you read) to refuse the write with stale_read if someone changed it since.',
    { id: diagramId, ...S.RegenerateBody.shape },
    ({ id, ...body }, c) => c.regenerateDiagram(id, body as S.RegenerateBody),
  );
  tool(
    'patch_elements',
    'Apply precise element operations to a diagram: { op: "add", element } | { op: "update", id, set } | { op: "move", id, dx, dy } | { op: "resize", id, width, height } | { op: "restyle", id, ... } | { op: "delete", id }. A label given new text is re-wrapped and its shape grows to hold it, as the editor does, never letting the text cover the shape\'s icon. All ops apply atomically. Optional expectedUpdatedAt guards against concurrent changes (stale_read).',
    { id: diagramId, ...S.PatchBody.shape },
    ({ id, ...body }, c) => c.patchDiagram(id, body as S.PatchBody),
  );
  tool('trash_diagram', 'Move a diagram to the trash (recoverable with restore_diagram). Needs a token with the delete capability.', { id: diagramId }, async (a, c) => {
    await c.trashDiagram(a.id);
    return { id: a.id, trashed: true };
  }, { destructiveHint: true, idempotentHint: true });
  tool('restore_diagram', 'Restore a trashed diagram to the active list.', { id: diagramId }, async (a, c) => {
    await c.restoreDiagram(a.id);
    return { id: a.id, restored: true };
  }, { idempotentHint: true });
  tool('lint_diagram', 'Check a diagram for what makes it hard to read or broken: overlapping shapes, clipped labels, unbound or dangling arrows, outliers, low-contrast colours; arrows through shapes (edge_through_shape, within 10 px), arrows sharing a line (edges_overlap, over 10 px within 4 px), arrows across a container\'s label (edge_through_container_label) or another arrow\'s label (arrow_through_label), arrow labels with under 16 px of arrow on a side (crowded_arrow_label) or over 12 px from their arrow (detached_arrow_label), text over shapes, lines or text (label_overlap) and over icons (text_over_icon). Returns a list of issues with the element ids involved (at most 100 per kind); empty means clean.', { id: diagramId }, (a, c) => c.lintDiagram(a.id), read);
  tool('list_icons', 'Search the icon catalog (ids like icon-postgresql usable as a spec node\'s icon). Filter by text and/or category.', { q: S.IconListQuery.shape.q, category: S.IconListQuery.shape.category }, (a, c) => c.listIcons({ ...(a.q ? { q: a.q } : {}), ...(a.category ? { category: a.category } : {}) }), read);
  tool('list_folders', 'List the caller\'s folders: id, name, parentId.', {}, (_a, c) => c.listFolders(), read);
  tool('create_folder', 'Create a folder, optionally inside a parent folder.', { name: S.CreateFolderBody.shape.name.describe('Folder name'), parentId: S.CreateFolderBody.shape.parentId }, (a, c) => c.createFolder({ name: a.name, ...(a.parentId !== undefined ? { parentId: a.parentId } : {}) }));
  tool('list_comments', 'List the comments on a diagram, with the element each is anchored to and whether it is resolved.', { id: diagramId }, (a, c) => c.listComments(a.id), read);
  tool('add_comment', 'Add a comment to a diagram, optionally anchored to an element id.', { id: diagramId, ...S.CommentBody.shape }, ({ id, ...body }, c) => c.addComment(id, body as S.CommentBody));

  registerResources(server);
  return server;
}

