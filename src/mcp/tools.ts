import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MCP_TOOL_HEADER, type RevisionItem } from '../api/history-schemas.ts';
import * as S from '../api/schemas.ts';
import * as Sh from '../api/sharing-schemas.ts';
import { DrawbridgeApiError, type DrawbridgeClient, type ValidateContentBody } from '../client/client.ts';
import type { RenderOptions } from '../api/render-options.ts';
import { DiagramSpec, EditFragment, PatchOps, Scene } from './content-schemas.ts';
import { type ContentBlock, describeFailure, failure, type FailureContext, type ToolResult } from './failures.ts';
import { INSTRUCTIONS, registerPrompts } from './guide.ts';
import { Links } from './links.ts';
import { registerResources } from './resources.ts';
import { type Element, fillTerseElements, summarizeScene } from './scene.ts';
import { type ToolArgs, toolInput, type ToolInputDefinition } from './tool-input.ts';

// The MCP tools over the typed DrawbridgeClient. Results are JSON text (plus
// image blocks for renders), and the same value as structuredContent where the
// tool declares an outputSchema; failures are `isError` results with the
// server's code and one sentence (src/mcp/failures.ts).

/** The package version, reported to MCP clients. */
export const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** What a tool returns when its answer is more than one JSON value (an image, SVG text); `structured` is its JSON part. */
class Blocks {
  readonly content: ContentBlock[];
  readonly structured: Record<string, unknown> | null;
  constructor(content: ContentBlock[], structured: Record<string, unknown> | null = null) {
    this.content = content;
    this.structured = structured;
  }
}

const jsonBlock = (value: unknown): ContentBlock => ({ type: 'text', text: JSON.stringify(value ?? { ok: true }, null, 2) });
const pngBlock = (bytes: Uint8Array): ContentBlock => ({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: 'image/png' });

function describeRenderFailure(error: unknown): string {
  if (error instanceof DrawbridgeApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** An example diagram id, in the examples of the descriptions. */
const EXAMPLE_ID = '5f0c6f1e-8a4b-4c1d-9e2f-3a7b6c5d4e10';
const EXAMPLE_FOLDER = '9b2d7e4a-1c3f-4a5b-8d6e-0f1a2b3c4d50';
const EXAMPLE_WORKSPACE = '3e8f1a2b-7c4d-4e5f-9a6b-1c2d3e4f5a60';
const EXAMPLE_USER = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c70';

const diagramId = z.string().describe('Diagram id (UUID), as returned by list_diagrams or generate_diagram');
const title = z.string().optional().describe('Diagram title');
const folderId = z.guid().nullable().optional().describe('UUID of a folder (from list_folders), or null for the root');
const revision = z.string().optional().describe('The docUpdatedAt you read last: the write is refused with stale_read if the diagram changed since');
const renderQuality = S.RenderQuality.optional().describe('faithful (default): the editor\'s own look, hand-drawn strokes and fonts; fast: a plain preview, quicker');
/** The render options export_diagram takes, as the API reads them (docs/rendering.md, "Options"). */
const renderLook = {
  width: z.number().int().min(256).max(4096).optional().describe('PNG width in pixels, 256 to 4096 (default 1024); the height follows. For SVG: the document\'s width. Not with scale'),
  scale: z.number().min(1).max(4).optional().describe('PNG pixels per drawing pixel, 1 to 4 (a PNG over 4096 × 4096 pixels is scaled down to that). Not with width'),
  padding: z.number().int().min(0).max(200).optional().describe('Space around the drawing in drawing pixels, 0 to 200 (default 10)'),
  background: z.string().optional().describe('transparent, white, or a hex colour #rgb / #rrggbb: the colour behind the drawing, in either theme (default white; #121212 in the dark theme)'),
  theme: z.enum(['light', 'dark']).optional().describe('dark: as the editor exports dark mode (light strokes on a dark canvas); default light'),
  elements: z.array(z.string()).min(1).optional().describe('Draw only these element ids (from get_scene), with the text bound to them and what frames among them hold; an id the diagram does not draw is invalid_selection. Not with frame'),
  frame: z.string().optional().describe('Draw only this frame (its element id), cropped to it as the editor exports a frame; not a frame is invalid_selection. Not with elements'),
};

const iconQuery = { q: S.IconListQuery.shape.q, category: S.IconListQuery.shape.category };

/** Results that name a diagram: its id and where a person opens it; anything else the API said is kept. */
const linked = (shape: z.ZodRawShape = {}) => z.looseObject({ id: z.string(), editorUrl: z.string().describe('Where a person opens the diagram in the editor'), ...shape });

/** Exactly one of the given arguments. */
const exactlyOne = (...names: string[]) => ({ oneOf: names.map((name) => ({ required: [name] })) });

/** A diagram written in Mermaid or DOT, as the tools that take a spec also take it. */
const sourceFields = {
  mermaid: z.string().optional().describe('Instead of spec: a Mermaid flowchart (graph/flowchart) or stateDiagram-v2, as written inside a ```mermaid block, without the fences'),
  dot: z.string().optional().describe('Instead of spec: a Graphviz DOT digraph or graph'),
};
type SourceArgs = { mermaid?: string | undefined; dot?: string | undefined };
/** The API's content for a tool's spec, mermaid or dot argument; bad_request unless exactly one of `names` is given. */
function contentOf(a: SourceArgs & Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const given = names.filter((key) => a[key] !== undefined);
  if (given.length !== 1) throw new DrawbridgeApiError(400, 'bad_request', `Give exactly one of ${names.join(', ')} (got ${given.length === 0 ? 'none' : given.join(' and ')})`, null);
  const key = given[0]!;
  if (key === 'mermaid' || key === 'dot') return { source: { language: key, text: a[key] } };
  return { [key]: a[key] };
}
/** What a failed call's content is checked as, to list every problem with it; none unless exactly one of `names` is given. */
function validationOf(a: SourceArgs & Record<string, unknown>, names: readonly string[]): ValidateContentBody | undefined {
  const given = names.filter((key) => a[key] !== undefined);
  return given.length === 1 ? (contentOf(a, names) as ValidateContentBody) : undefined;
}

export interface McpServerOptions {
  /** Told to the agent when there is no client or the API refuses the token: how, for this transport, a human supplies a valid one. */
  authHelp: string;
  /** The base URL of the web app (where /app/d/<id> opens a diagram), for servers whose answers carry no editorUrl. */
  appUrl: string;
}

interface ToolDefinition<F extends z.ZodRawShape, C extends z.ZodRawShape> extends ToolInputDefinition<F, C> {
  description: string;
  output?: z.ZodObject;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  /** What a failure is about: the diagram named, the content sent (for every problem at once). */
  about?: (args: ToolArgs<F, C>) => Omit<FailureContext, 'tool'>;
}

/**
 * The Drawbridge MCP server: every tool, prompt and resource, acting through
 * `client` (null: no token configured; every tool then answers with
 * `authHelp`). Used by the stdio bin and by the hosted endpoint at /mcp.
 */
export function createMcpServer(client: DrawbridgeClient | null, options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'drawbridge', version: VERSION }, { instructions: INSTRUCTIONS });
  const links = new Links(options.appUrl);
  const link = <T extends { id: string }>(value: T) => links.with(value);

  const tool = <F extends z.ZodRawShape, C extends z.ZodRawShape = Record<never, never>>(
    name: string,
    definition: ToolDefinition<F, C>,
    run: (args: ToolArgs<F, C>, client: DrawbridgeClient) => Promise<unknown>,
  ) => {
    const input = toolInput(name, definition);
    const description = `${definition.description}\n\nExample arguments: ${JSON.stringify(definition.example)}`;
    const config = { description, inputSchema: input.sdkSchema, annotations: definition.annotations ?? {}, ...(definition.output ? { outputSchema: definition.output } : {}) };
    // Every API call the tool makes names it, so the diagram's history says which tool wrote. A client of
    // its own per tool, not a header set around each call: calls of different tools run concurrently.
    const toolClient = client?.withHeaders({ [MCP_TOOL_HEADER]: name }) ?? null;
    server.registerTool(name, config, (async (raw: unknown): Promise<ToolResult> => {
      if (!toolClient) return failure({ error: 'unauthorized', message: options.authHelp });
      const checked = input.check(raw);
      if (!checked.ok) return failure({ error: 'bad_request', message: checked.message });
      try {
        const value = await run(checked.args, toolClient);
        if (value instanceof Blocks) return { content: value.content, ...(definition.output && value.structured ? { structuredContent: value.structured } : {}) };
        return { content: [jsonBlock(value)], ...(definition.output ? { structuredContent: value as Record<string, unknown> } : {}) };
      } catch (error) {
        return describeFailure(error, { tool: name, ...definition.about?.(checked.args) }, toolClient, options.authHelp);
      }
    }) as never);
  };
  const read = { readOnlyHint: true };
  const onDiagram = (a: { id: string }) => ({ diagramId: a.id });

  tool(
    'generate_diagram',
    {
      description:
        'Create a new diagram from a DiagramSpec, or from Mermaid (flowchart, stateDiagram-v2) or Graphviz DOT text: give exactly one of spec, mermaid and dot. The server lays it out (shapes sized to their labels, arrows bound at both ends, nothing overlapping). Prefer this to create_scene. Mermaid or DOT that does not parse is refused with its line and column; what the drawing cannot show comes back as warnings [{ line, message }]. Nodes: { id, label?, shape?: rectangle (default) | ellipse | diamond | text | start | end | fork (markers without a label), icon? (an id from search_icons), parent? (the id of the container node it sits in), strokeColor?, backgroundColor?, fillStyle? }. Edges: shorthand strings "a -> b : label" (also <-, <->, --, --> dashed) or { from, to, label?, style?, arrowhead? }. Direction: layout.direction TB | BT | LR | RL. Returns id, title, elementCount and editorUrl. A refused spec comes back with every problem and a hint for each.',
      fields: { title, folderId, ...sourceFields },
      content: { spec: DiagramSpec.optional() },
      root: exactlyOne('spec', 'mermaid', 'dot'),
      example: {
        title: 'Checkout',
        spec: {
          layout: { direction: 'LR' },
          nodes: [
            { id: 'web', label: 'Web app' },
            { id: 'api', label: 'Orders API', icon: 'icon-nodejs' },
            { id: 'db', label: 'Orders DB', icon: 'icon-postgresql' },
          ],
          edges: ['web -> api : HTTPS', { from: 'api', to: 'db', label: 'SQL' }],
        },
      },
      output: linked({ title: z.string(), elementCount: z.number(), warnings: z.array(z.object({ line: z.number(), message: z.string() })).optional() }),
      about: (a) => ({ validation: validationOf(a, ['spec', 'mermaid', 'dot']) }),
    },
    async (a, c) =>
      link(await c.createDiagram({ ...contentOf(a, ['spec', 'mermaid', 'dot']), ...(a.title !== undefined ? { title: a.title } : {}), ...(a.folderId !== undefined ? { folderId: a.folderId } : {}) } as S.CreateDiagramBody)),
  );
  const terseElement = z
    .looseObject({
      type: z.string().describe('rectangle, ellipse, diamond, text, arrow, line, ...'),
      id: z.string().optional(),
      x: z.number().optional(),
      y: z.number().optional(),
      width: z.number().optional(),
      height: z.number().optional(),
    })
    .describe('An Excalidraw element; any other field (text, containerId, points, startBinding, strokeColor, ...) is kept as given');
  tool(
    'create_scene',
    {
      description:
        'Create a new diagram from Excalidraw elements at exact positions, when a laid-out spec (generate_diagram) will not do. Each element needs only type and x/y; id, width and height are filled in when absent and every other field is kept as given. A text element with containerId is its shape\'s label; an arrow binds with startBinding/endBinding { elementId }. Returns id, title, elementCount and editorUrl.',
      fields: { title, folderId },
      content: { elements: z.array(terseElement) },
      example: {
        title: 'Two boxes',
        elements: [
          { id: 'a', type: 'rectangle', x: 0, y: 0 },
          { type: 'text', x: 40, y: 28, text: 'Client', containerId: 'a' },
          { id: 'b', type: 'rectangle', x: 300, y: 0 },
        ],
      },
      output: linked({ title: z.string(), elementCount: z.number() }),
      about: (a) => ({ validation: { scene: { elements: Array.isArray(a.elements) ? fillTerseElements(a.elements as Element[]) : a.elements } } }),
    },
    async (a, c) => {
      const elements = Array.isArray(a.elements) ? fillTerseElements(a.elements as Element[]) : a.elements;
      return link(await c.createDiagram({ scene: { elements }, ...(a.title !== undefined ? { title: a.title } : {}), ...(a.folderId !== undefined ? { folderId: a.folderId } : {}) }));
    },
  );
  tool(
    'validate_diagram',
    {
      description:
        'Check a spec, Mermaid or DOT text, an edit fragment, patch ops or a scene without writing anything: answers { valid, problems: [{ code, message, path, hint }] } with every problem at once (path is a JSON Pointer into what you sent; for Mermaid or DOT, line and column too), and for Mermaid or DOT the warnings [{ line, message }] of what the drawing would leave out. Give exactly one of spec, mermaid, dot, edit, ops, scene; with diagramId, an edit or ops are also checked against that diagram (their node and element ids must exist in it).',
      fields: { diagramId: z.string().optional().describe('Also check an edit or ops against this diagram\'s current content'), ...sourceFields },
      content: { spec: DiagramSpec.optional(), edit: EditFragment.optional(), ops: PatchOps.optional(), scene: Scene.optional() },
      root: exactlyOne('spec', 'mermaid', 'dot', 'edit', 'ops', 'scene'),
      example: { spec: { nodes: [{ id: 'a', label: 'Client' }, { id: 'b', label: 'Server', shape: 'ellipse' }], edges: ['a -> b'] } },
      // The API's ValidationReport (a copy without its component id, so the schema's root is the object itself).
      output: z.object(S.ValidationReport.shape),
      annotations: read,
      about: (a) => (a.diagramId !== undefined ? { diagramId: a.diagramId } : {}),
    },
    async (a, c) => {
      const body = { ...contentOf(a, ['spec', 'mermaid', 'dot', 'edit', 'ops', 'scene']), ...(a.diagramId !== undefined ? { diagramId: a.diagramId } : {}) } as ValidateContentBody;
      return c.validateContent(body);
    },
  );
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
  tool(
    'list_diagrams',
    {
      description:
        'List your diagrams, newest first, one page at a time: id, title, folderId, starred, timestamps and editorUrl of each. Narrow with q (text in the title), folderId (a folder id from list_folders, or "none" for diagrams in no folder) and starred. Pass nextCursor back as cursor, with the same filters, for the next page; filter "trash" lists trashed diagrams. filter "shared" lists instead the diagrams others own that are shared with you or in a workspace you belong to, and workspace (an id from list_workspaces) the diagrams of that workspace; their items also carry role (yours: owner, editor or viewer) and workspaceId, and q, folderId and starred do not apply to them.',
      fields: {
        limit: z.number().int().min(1).max(100).optional().describe('Page size, default 50'),
        cursor: S.ListDiagramsQuery.shape.cursor,
        filter: S.ListDiagramsQuery.shape.filter,
        workspace: S.ListDiagramsQuery.shape.workspace,
        q: S.ListDiagramsQuery.shape.q,
        folderId: S.ListDiagramsQuery.shape.folderId,
        starred: z.boolean().optional().describe('true: only starred diagrams; false: only the others'),
      },
      example: { q: 'checkout', limit: 20 },
      output: z.looseObject({ items: z.array(linked()), nextCursor: z.string().nullable() }),
      annotations: read,
    },
    async (a, c) => {
      const { limit, cursor, filter, workspace, q, folderId, starred } = a;
      const page = await c.listDiagrams({ ...(limit !== undefined ? { limit } : {}), ...(cursor ? { cursor } : {}), ...(filter ? { filter } : {}), ...(workspace ? { workspace } : {}), ...(q !== undefined ? { q } : {}), ...(folderId !== undefined ? { folderId } : {}), ...(starred !== undefined ? { starred } : {}) });
      return { ...page, items: page.items.map(link) };
    },
  );
  tool(
    'rename_diagram',
    { description: 'Change a diagram\'s title.', fields: { id: diagramId, title: z.string().describe('The new title') }, example: { id: EXAMPLE_ID, title: 'Checkout (v2)' }, output: linked({ title: z.string() }), annotations: { idempotentHint: true }, about: onDiagram },
    async (a, c) => link(await c.updateDiagram(a.id, { title: a.title })),
  );
  tool(
    'move_diagram',
    {
      description: 'Move a diagram into a folder (folderId from list_folders), or to the root with null.',
      fields: { id: diagramId, folderId: z.guid().nullable().describe('UUID of a folder (from list_folders), or null for the root') },
      example: { id: EXAMPLE_ID, folderId: EXAMPLE_FOLDER },
      output: linked({ folderId: z.string().nullable() }),
      annotations: { idempotentHint: true },
      about: onDiagram,
    },
    async (a, c) => link(await c.updateDiagram(a.id, { folderId: a.folderId })),
  );
  tool(
    'edit_diagram',
    {
      description:
        'Grow or restyle a diagram semantically, keeping its layout and whatever a person changed by hand (prefer this to regenerate_diagram): addNodes (spec nodes, optionally with x/y/width/height; parent puts one into an existing container, which grows to hold it if it must), addEdges (spec edges between existing or new node ids), updateNodes ({ id, label?, strokeColor?, backgroundColor?, fillStyle? }; a new label keeps its node\'s size and shrinks its font, down to 60 % and never under 12 px, to fit; one that fits at no size is refused). Returns the ids added and updated, and editorUrl. A refused edit comes back with every problem and a hint for each.',
      fields: { id: diagramId },
      content: EditFragment.shape,
      example: { id: EXAMPLE_ID, addNodes: [{ id: 'cache', label: 'Cache', icon: 'icon-redis' }], addEdges: ['api -> cache'], updateNodes: [{ id: 'db', backgroundColor: '#e7f5ff' }] },
      output: linked({ added: z.array(z.string()), updated: z.array(z.string()) }),
      about: (a) => ({ diagramId: a.id, validation: { edit: fragmentOf(a), diagramId: a.id } }),
    },
    async (a, c) => link({ id: a.id, ...(await c.editDiagram(a.id, fragmentOf(a) as S.EditBody)) }),
  );
  tool(
    'regenerate_diagram',
    {
      description:
        'Replace a diagram\'s whole content with a new spec, Mermaid or DOT text (laid out by the server) or a new raw scene, keeping its id, folder and comments (comments on vanished elements are reported as orphaned). This discards any change a person made by hand: to change part of a diagram use edit_diagram or patch_elements instead. Give exactly one of spec, mermaid, dot or scene; Mermaid or DOT answers with warnings [{ line, message }] for what the drawing cannot show. Pass expectedUpdatedAt (the docUpdatedAt you read) to refuse the write with stale_read if someone changed it since.',
      fields: { id: diagramId, title, expectedUpdatedAt: revision, ...sourceFields },
      content: { spec: DiagramSpec.optional(), scene: Scene.optional() },
      root: exactlyOne('spec', 'mermaid', 'dot', 'scene'),
      example: { id: EXAMPLE_ID, spec: { nodes: [{ id: 'a', label: 'Start', shape: 'ellipse' }, { id: 'b', label: 'Done' }], edges: ['a -> b'] } },
      output: linked({ replaced: z.number(), warnings: z.array(z.object({ line: z.number(), message: z.string() })).optional() }),
      about: (a) => ({ diagramId: a.id, validation: validationOf(a, ['spec', 'mermaid', 'dot', 'scene']) }),
    },
    async ({ id, title, expectedUpdatedAt, ...rest }, c) =>
      link(await c.regenerateDiagram(id, { ...contentOf(rest, ['spec', 'mermaid', 'dot', 'scene']), ...(title !== undefined ? { title } : {}), ...(expectedUpdatedAt !== undefined ? { expectedUpdatedAt } : {}) } as S.RegenerateBody)),
  );
  tool(
    'patch_elements',
    {
      description:
        'Apply precise element operations to a diagram, atomically: { op: "add", element } | { op: "update", id, set: { field: value } } | { op: "move", id, dx, dy } (or x, y) | { op: "resize", id, width, height } | { op: "restyle", id, strokeColor?, backgroundColor?, ... } | { op: "delete", id }. Element ids are those read_diagram and get_scene show. A label given new text is re-wrapped and its shape grows to hold it. Optional expectedUpdatedAt guards against concurrent changes (stale_read). Refused ops come back with every problem and a hint for each.',
      fields: { id: diagramId, expectedUpdatedAt: revision },
      content: { ops: PatchOps },
      example: { id: EXAMPLE_ID, ops: [{ op: 'move', id: 'db', dx: 40, dy: 0 }, { op: 'restyle', id: 'api', backgroundColor: '#fff3bf' }] },
      output: linked({ applied: z.number() }),
      about: (a) => ({ diagramId: a.id, validation: { ops: a.ops, diagramId: a.id } }),
    },
    async ({ id, ...body }, c) => link(await c.patchDiagram(id, body as S.PatchBody)),
  );
  tool(
    'trash_diagram',
    { description: 'Move a diagram to the trash (recoverable with restore_diagram). Needs a token with the delete capability.', fields: { id: diagramId }, example: { id: EXAMPLE_ID }, output: linked({ trashed: z.boolean() }), annotations: { destructiveHint: true, idempotentHint: true }, about: onDiagram },
    async (a, c) => {
      await c.trashDiagram(a.id);
      return link({ id: a.id, trashed: true });
    },
  );
  tool(
    'restore_diagram',
    { description: 'Restore a trashed diagram to the active list.', fields: { id: diagramId }, example: { id: EXAMPLE_ID }, output: linked({ restored: z.boolean() }), annotations: { idempotentHint: true }, about: onDiagram },
    async (a, c) => {
      await c.restoreDiagram(a.id);
      return link({ id: a.id, restored: true });
    },
  );
  tool(
    'lint_diagram',
    {
      description:
        'Check a diagram for what makes it hard to read or broken: overlapping shapes, clipped labels, unbound or dangling arrows, outliers, low-contrast colours; arrows through shapes (edge_through_shape, within 10 px), arrows sharing a line (edges_overlap, over 10 px within 4 px), arrows across a container\'s label (edge_through_container_label) or another arrow\'s label (arrow_through_label), arrow labels with under 16 px of arrow on a side (crowded_arrow_label) or over 12 px from their arrow (detached_arrow_label), text over shapes, lines or text (label_overlap) and over icons (text_over_icon); words wrapped between two letters (broken_word), arrows side by side under 16 px apart for over 30 px (edges_too_close), arrowheads on one side of a shape under 16 px apart (piled_arrowheads), arrowheads drawn under half size because the last leg is short (small_arrowhead), containers over 2.5× the room their contents need (container_slack), self-loops reaching under 24 px out or hidden by their label (hidden_self_loop), labels within 6 px of the outline of their shape (label_near_outline), and a flow whose first node is not in the first quarter of the drawing (late_flow_start). Returns the issues with the element ids involved (at most 100 per kind; fix them with patch_elements); empty means clean.',
      fields: { id: diagramId },
      example: { id: EXAMPLE_ID },
      output: linked({ issues: z.array(z.looseObject({ kind: z.string(), elementIds: z.array(z.string()), message: z.string() })) }),
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => link({ id: a.id, ...(await c.lintDiagram(a.id)) }),
  );
  const revisionRef = z.string().min(1).describe('A revision id (rev) from list_revisions, e.g. "r17"; opaque, pass it as it is');
  tool(
    'list_revisions',
    {
      description:
        'List a diagram\'s history, newest first, one page at a time: every write (create, edit, patch, regenerate, a save in the web editor, restore) and every rename or move. Each item has rev (what diff_revisions and restore_revision take), at, author (an email), via (how the write came: kind token, oauth, web or mcp; name: the token, the application, "web editor" or the MCP tool that wrote; token: the token\'s name), kind, summary ("moved 3 shapes, relabelled db") and elementCount. Use it when a diagram is not as you expected or to undo a mistake: find the last good rev here, check what the writes after it changed with diff_revisions, bring it back with restore_revision. Pass nextCursor back as cursor for older revisions.',
      fields: {
        id: diagramId,
        cursor: z.string().optional().describe('The nextCursor of the previous page'),
        limit: z.number().int().min(1).max(100).optional().describe('Page size, default 50'),
      },
      example: { id: EXAMPLE_ID, limit: 10 },
      output: linked({ items: z.array(z.looseObject({ rev: z.string(), kind: z.string(), summary: z.string() })), nextCursor: z.string().nullable() }),
      annotations: read,
      about: onDiagram,
    },
    async (a, c) => {
      const page = await c.listRevisions(a.id, { ...(a.cursor ? { cursor: a.cursor } : {}), ...(a.limit !== undefined ? { limit: a.limit } : {}) });
      return link({ id: a.id, items: page.items.map(revisionLine), nextCursor: page.nextCursor });
    },
  );
  tool(
    'diff_revisions',
    {
      description:
        'See what a revision changed: the ids of the elements added, removed and changed (each with what changed: geometry, style, text, binding, other) from the revision before rev, or from against, to rev, and a one-line summary ("moved 3 shapes, relabelled db"). Element ids are those read_diagram and get_scene show. includeElements: true adds the added and changed elements as they are at rev (large; leave it out to decide what to restore). Use it between list_revisions and restore_revision to make sure which write went wrong.',
      fields: {
        id: diagramId,
        rev: revisionRef,
        against: revisionRef.optional().describe('The revision to compare with (default: the one before rev)'),
        includeElements: z.boolean().optional().describe('Also answer the added and changed elements in full, as they are at rev'),
      },
      example: { id: EXAMPLE_ID, rev: 'r17' },
      output: linked({ from: z.string().nullable(), to: z.string(), summary: z.string(), added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.looseObject({ id: z.string() })) }),
      annotations: read,
      about: (a) => ({ diagramId: a.id, revisions: [a.rev, ...(a.against !== undefined ? [a.against] : [])] }),
    },
    async (a, c) => {
      const { elements, order, ...diff } = await c.diffRevisions(a.id, a.rev, a.against);
      return link({ id: a.id, ...diff, ...(a.includeElements ? { elements, ...(order ? { order } : {}) } : {}) });
    },
  );
  tool(
    'restore_revision',
    {
      description:
        'Bring a diagram\'s elements back to how they were at revision rev (from list_revisions). The old scene is written as a new revision, so nothing is lost: the restore shows in list_revisions and can itself be undone by restoring the revision before it. Comments anchored to elements that come back are opened again; the title and folder stay as they are. Pass expectedUpdatedAt (the docUpdatedAt you read) to refuse the restore with stale_read if someone changed the diagram since. To undo your own last write: call list_revisions and restore the rev of the item after yours (the list is newest first). Answers the new rev, restoredFrom, docUpdatedAt, the element count and editorUrl.',
      fields: { id: diagramId, rev: revisionRef, expectedUpdatedAt: revision },
      example: { id: EXAMPLE_ID, rev: 'r16' },
      output: linked({ rev: z.string().nullable().describe('The new revision; null when the server records no history'), restoredFrom: z.string(), docUpdatedAt: z.string() }),
      annotations: { destructiveHint: false },
      about: (a) => ({ diagramId: a.id, revisions: [a.rev] }),
    },
    async (a, c) => link(await c.restoreRevision(a.id, a.rev, a.expectedUpdatedAt !== undefined ? { expectedUpdatedAt: a.expectedUpdatedAt } : {})),
  );
  const icons = (a: { q?: string | undefined; category?: string | undefined }, c: DrawbridgeClient) =>
    c.listIcons({ ...(a.q ? { q: a.q } : {}), ...(a.category ? { category: a.category } : {}) });
  tool(
    'search_icons',
    {
      description: 'Search the icon catalog by technology or product name and/or category. Use a result\'s id (like icon-postgresql) as a spec node\'s icon; an icon id not in the catalog is refused.',
      fields: iconQuery,
      example: { q: 'postgres' },
      annotations: read,
    },
    icons,
  );
  tool('list_icons', { description: 'The same as search_icons (its former name, kept for existing clients).', fields: iconQuery, example: { q: 'kafka' }, annotations: read }, icons);
  tool('list_folders', { description: 'List your folders: id, name, parentId.', fields: {}, example: {}, annotations: read }, (_a, c) => c.listFolders());
  tool(
    'create_folder',
    { description: 'Create a folder, optionally inside a parent folder.', fields: { name: S.CreateFolderBody.shape.name.describe('Folder name'), parentId: S.CreateFolderBody.shape.parentId }, example: { name: 'Architecture' } },
    (a, c) => c.createFolder({ name: a.name, ...(a.parentId !== undefined ? { parentId: a.parentId } : {}) }),
  );
  tool(
    'list_comments',
    { description: 'List the comments on a diagram, with the element each is anchored to and whether it is resolved.', fields: { id: diagramId }, example: { id: EXAMPLE_ID }, annotations: read, about: onDiagram },
    (a, c) => c.listComments(a.id),
  );
  tool(
    'add_comment',
    { description: 'Add a comment to a diagram, optionally anchored to an element id.', fields: { id: diagramId, ...S.CommentBody.shape }, example: { id: EXAMPLE_ID, elementId: 'db', body: 'Is this the primary or a replica?' }, about: onDiagram },
    ({ id, ...body }, c) => c.addComment(id, body as S.CommentBody),
  );
  const workspaceId = z.guid().describe('Workspace id (UUID), from list_workspaces');
  const userId = z.guid().describe('The person\'s user id, from list_shares or list_workspace_members');
  tool(
    'list_shares',
    {
      description: 'Who one of your diagrams is shared with: the people (userId, email, role viewer or editor) and the addresses invited by mail that have not signed up yet. Only the owner may see this; for anyone else the diagram is not found.',
      fields: { id: diagramId },
      example: { id: EXAMPLE_ID },
      annotations: read,
      about: onDiagram,
    },
    (a, c) => c.listShares(a.id),
  );
  tool(
    'share_diagram',
    {
      description:
        'Share one of your diagrams with a person by email, as viewer (reads) or editor (reads and changes the content); sharing again changes the role. Only the owner may, with a token that has the publish capability. If the address has a verified account it gets access at once (answer: share); otherwise an invitation is mailed to the address and it gets access when that person signs up and verifies it (answer: invitation, with when it expires). Do not share with an address the user did not ask for: the person there is emailed.',
      fields: { id: diagramId, email: Sh.ShareBody.shape.email, role: Sh.ShareRole },
      example: { id: EXAMPLE_ID, email: 'ana@example.com', role: 'editor' },
      about: onDiagram,
    },
    ({ id, email, role }, c) => c.shareDiagram(id, { email, role }),
  );
  tool(
    'unshare_diagram',
    {
      description: 'Stop sharing one of your diagrams with a person (their userId from list_shares); they may still reach it through a workspace. Owner only, publish capability.',
      fields: { id: diagramId, userId },
      example: { id: EXAMPLE_ID, userId: EXAMPLE_USER },
      output: linked({ unshared: z.boolean() }),
      annotations: { destructiveHint: true, idempotentHint: true },
      about: onDiagram,
    },
    async (a, c) => {
      await c.removeShare(a.id, a.userId);
      return link({ id: a.id, unshared: true });
    },
  );
  tool(
    'list_workspaces',
    { description: 'The workspaces you belong to: id, name, your role (viewer, editor or admin), memberCount. List a workspace\'s diagrams with list_diagrams and workspace.', fields: {}, example: {}, annotations: read },
    (_a, c) => c.listWorkspaces(),
  );
  tool(
    'create_workspace',
    { description: 'Create a workspace; you become its first admin. Then invite people with invite_to_workspace and move diagrams in with move_to_workspace.', fields: { name: Sh.WorkspaceBody.shape.name.describe('Workspace name') }, example: { name: 'Platform team' } },
    (a, c) => c.createWorkspace({ name: a.name }),
  );
  tool(
    'list_workspace_members',
    { description: 'The members of a workspace you belong to (userId, email, role) and the addresses invited that have not joined yet.', fields: { workspaceId }, example: { workspaceId: EXAMPLE_WORKSPACE }, annotations: read },
    (a, c) => c.listMembers(a.workspaceId),
  );
  tool(
    'invite_to_workspace',
    {
      description:
        'Add a person to a workspace you administer, by email, as viewer (reads its diagrams), editor (also edits them and may move their own in) or admin (also manages the workspace). A verified account joins at once (answer: member); any other address is mailed an invitation and joins when it signs up and verifies (answer: invitation). Do not invite an address the user did not ask for.',
      fields: { workspaceId, email: Sh.MemberBody.shape.email, role: Sh.WorkspaceRole },
      example: { workspaceId: EXAMPLE_WORKSPACE, email: 'ana@example.com', role: 'editor' },
    },
    ({ workspaceId: id, email, role }, c) => c.inviteMember(id, { email, role }),
  );
  tool(
    'move_to_workspace',
    {
      description:
        'Move one of your diagrams into a workspace where you are an editor or admin (its members then reach it, their workspace role the ceiling), or out of its workspace with workspaceId null. Only the owner may, with a token that has the publish capability.',
      fields: { id: diagramId, workspaceId: Sh.MoveToWorkspaceBody.shape.workspaceId },
      example: { id: EXAMPLE_ID, workspaceId: EXAMPLE_WORKSPACE },
      output: linked({ workspaceId: z.string().nullable() }),
      about: onDiagram,
    },
    async (a, c) => link(await c.moveDiagramToWorkspace(a.id, { workspaceId: a.workspaceId })),
  );

  registerPrompts(server);
  registerResources(server);
  return server;
}

/**
 * A revision as list_revisions answers it: who by email, how by kind and
 * name (and the token's or application's name), without the ids an agent
 * has no use for.
 */
function revisionLine(item: RevisionItem) {
  const { via } = item;
  return {
    rev: item.rev,
    at: item.at,
    author: item.author?.email ?? null,
    via: via === null ? null : { kind: via.kind, name: via.name, ...(via.token ? { token: via.token.name } : {}), ...(via.client ? { client: via.client.name } : {}) },
    kind: item.kind,
    summary: item.summary,
    elementCount: item.elementCount,
    ...(item.restoredFrom !== undefined ? { restoredFrom: item.restoredFrom } : {}),
  };
}

/** The edit fragment of edit_diagram's arguments. */
function fragmentOf(a: { addNodes?: unknown; addEdges?: unknown; updateNodes?: unknown }): Record<string, unknown> {
  return { ...(a.addNodes !== undefined ? { addNodes: a.addNodes } : {}), ...(a.addEdges !== undefined ? { addEdges: a.addEdges } : {}), ...(a.updateNodes !== undefined ? { updateNodes: a.updateNodes } : {}) };
}
