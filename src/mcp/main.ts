import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import * as S from '../api/schemas.ts';
import { DrawbridgeApiError, DrawbridgeClient } from '../client/client.ts';
import { resolveCredentials } from '../client/credentials.ts';

/**
 * `drawbridge-mcp`: the Drawbridge API as an MCP server over stdio. Every tool
 * goes through the typed DrawbridgeClient; results are JSON text, failures are
 * `isError` results carrying the server's error code and message.
 */
const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const HELP = `drawbridge-mcp ${VERSION}: the Drawbridge MCP server (stdio)

Usage: drawbridge-mcp [--health | --version | --help]

With no option, serves MCP over stdin/stdout.
  --health   one authenticated GET /me; exit 0 ok, 1 missing or invalid token, 2 server unreachable
  --version  print the version
  --help     this text

Environment:
  SERVICE_TOKEN    API token (wins over the login stored by \`drawbridge auth login\`)
  SERVICE_API_URL  API base URL (default: the stored login's, else http://localhost:8080)
`;

const NO_TOKEN_MESSAGE =
  'No Drawbridge token is configured. Set SERVICE_TOKEN in the MCP server\'s environment (e.g. "env": { "SERVICE_TOKEN": "..." } in your MCP client configuration), or run `drawbridge auth login`, then restart the server.';

type ToolResult = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

function ok(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value ?? { ok: true }, null, 2) }] };
}

function fail(code: string, message: string): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify({ error: code, message }) }], isError: true };
}

function describeError(error: unknown): ToolResult {
  if (error instanceof DrawbridgeApiError) {
    let hint = '';
    if (error.code === 'insufficient_scope') hint = ' (this token lacks the capability; a human must mint a token that has it)';
    if (error.status === 401) hint = ` (${NO_TOKEN_MESSAGE})`;
    return fail(error.code, `${error.message}${hint}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return fail('unreachable', `Could not reach the Drawbridge API: ${message}`);
}

// ---------- scene helpers ----------

type Element = Record<string, unknown>;

/** A compact, agent-readable summary of a scene: counts, node labels, edges. */
export function summarizeScene(elements: Element[], includeGeometry = false) {
  const live = elements.filter((e) => e.isDeleted !== true);
  const counts: Record<string, number> = {};
  for (const e of live) counts[String(e.type)] = (counts[String(e.type)] ?? 0) + 1;
  const labelOf = new Map<string, string>();
  for (const e of live) if (e.type === 'text' && typeof e.containerId === 'string') labelOf.set(e.containerId, String(e.text ?? ''));
  const bindingId = (b: unknown) => (b && typeof b === 'object' && typeof (b as { elementId?: unknown }).elementId === 'string' ? (b as { elementId: string }).elementId : null);
  const nodes = live
    .filter((e) => e.type !== 'arrow' && e.type !== 'line' && !(e.type === 'text' && e.containerId))
    .map((e) => {
      const label = e.type === 'text' ? String(e.text ?? '') : labelOf.get(String(e.id));
      return { id: String(e.id), type: String(e.type), ...(label ? { label } : {}), ...(includeGeometry ? geometry(e) : {}) };
    });
  const edges = live
    .filter((e) => e.type === 'arrow' || e.type === 'line')
    .map((e) => {
      const label = labelOf.get(String(e.id));
      return { id: String(e.id), from: bindingId(e.startBinding), to: bindingId(e.endBinding), ...(label ? { label } : {}), ...(includeGeometry ? geometry(e) : {}) };
    });
  return { elementCount: live.length, counts, nodes, edges };
}

function geometry(e: Element) {
  return { x: e.x, y: e.y, width: e.width, height: e.height };
}

/** Fills the minimal fields of terse elements (id, type, x, y, width, height); everything else is kept as given. */
export function fillTerseElements(elements: Element[]): Element[] {
  return elements.map((e) => {
    const type = typeof e.type === 'string' ? e.type : 'rectangle';
    const isText = type === 'text';
    return {
      ...e,
      id: typeof e.id === 'string' && e.id !== '' ? e.id : randomUUID(),
      type,
      x: typeof e.x === 'number' ? e.x : 0,
      y: typeof e.y === 'number' ? e.y : 0,
      width: typeof e.width === 'number' ? e.width : isText ? Math.max(10, String(e.text ?? '').length * 10) : 160,
      height: typeof e.height === 'number' ? e.height : isText ? 25 : 80,
    };
  });
}

// ---------- resources ----------

function specGrammar(): string {
  try {
    return fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');
  } catch {
    return 'The spec grammar reference (docs/spec.md) is not available in this installation.';
  }
}

const SCENE_GUIDE = `# Authoring scenes for Drawbridge

A scene is the Excalidraw editor format: { "elements": [...] }. Prefer a DiagramSpec
(generate_diagram) when you want the server to lay the diagram out; write a scene
(create_scene, regenerate_diagram with scene, patch_elements) when you need exact positions.

With create_scene, each element needs only a type and a position; the server
side of this tool fills id (random), x/y (0), width/height (160x80, text: sized to the text).
Any other Excalidraw field (strokeColor, backgroundColor, text, fontSize, points,
startBinding, endBinding, containerId, ...) is passed through unchanged.

Labels: a text element with "containerId" set to a shape's id is that shape's label.
Arrows: give "points" relative to x/y, and "startBinding"/"endBinding" { "elementId": ... }
to connect them to shapes.

## Worked example

{
  "title": "Two boxes",
  "elements": [
    { "id": "a", "type": "rectangle", "x": 0, "y": 0, "width": 160, "height": 80 },
    { "id": "a-label", "type": "text", "x": 40, "y": 28, "text": "Client", "containerId": "a" },
    { "id": "b", "type": "rectangle", "x": 300, "y": 0, "width": 160, "height": 80 },
    { "id": "b-label", "type": "text", "x": 340, "y": 28, "text": "Server", "containerId": "b" },
    { "id": "ab", "type": "arrow", "x": 160, "y": 40, "width": 140, "height": 0,
      "points": [[0, 0], [140, 0]],
      "startBinding": { "elementId": "a", "focus": 0, "gap": 0 },
      "endBinding": { "elementId": "b", "focus": 0, "gap": 0 } }
  ]
}

Afterwards, read_diagram summarises it as nodes a ("Client"), b ("Server") and the edge a -> b;
lint_diagram reports overlaps, clipped labels and unbound arrows to fix with patch_elements.
`;

// ---------- the server ----------

const diagramId = z.string().describe('Diagram id (UUID), as returned by list_diagrams or generate_diagram');

export function buildServer(client: DrawbridgeClient | null): McpServer {
  const server = new McpServer({ name: 'drawbridge', version: VERSION });

  const tool = <Shape extends z.ZodRawShape>(
    name: string,
    description: string,
    inputSchema: Shape,
    run: (args: z.infer<z.ZodObject<Shape>>, client: DrawbridgeClient) => Promise<unknown>,
    annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean } = {},
  ) => {
    server.registerTool(name, { description, inputSchema, annotations }, (async (args: z.infer<z.ZodObject<Shape>>) => {
      if (!client) return fail('unauthorized', NO_TOKEN_MESSAGE);
      try {
        return ok(await run(args, client));
      } catch (error) {
        return describeError(error);
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
  tool(
    'read_diagram',
    'Read a diagram as a compact summary: title, folder, timestamps (docUpdatedAt is the revision to pass as expectedUpdatedAt), element counts by type, nodes with their labels, and edges from -> to. Set includeGeometry for x/y/width/height of each. Use get_scene for the full raw scene. (No rendered image yet: the render endpoint does not exist.)',
    { id: diagramId, includeGeometry: z.boolean().optional().describe('Include x, y, width, height of every node and edge') },
    async (a, c) => {
      const d = await c.getDiagram(a.id);
      return { id: d.id, title: d.title, folderId: d.folderId, updatedAt: d.updatedAt, docUpdatedAt: d.docUpdatedAt, deletedAt: d.deletedAt, ...summarizeScene(d.scene.elements, a.includeGeometry ?? false) };
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
    'Grow or restyle a diagram semantically, keeping the existing layout: addNodes (spec nodes, optionally with x/y/width/height), addEdges (spec edges between existing or new node ids), updateNodes ({ id, label?, strokeColor?, backgroundColor?, fillStyle? }). Returns the ids added and updated.',
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
    'Apply precise element operations to a diagram: { op: "add", element } | { op: "update", id, set } | { op: "move", id, dx, dy } | { op: "resize", id, width, height } | { op: "restyle", id, ... } | { op: "delete", id }. All ops apply atomically. Optional expectedUpdatedAt guards against concurrent changes (stale_read).',
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
  tool('lint_diagram', 'Check a diagram for layout problems: overlapping shapes, clipped labels, unbound or dangling arrows, outliers, low-contrast colours. Returns a list of issues with the element ids involved; empty means clean.', { id: diagramId }, (a, c) => c.lintDiagram(a.id), read);
  tool('list_icons', 'Search the icon catalog (ids like icon-postgresql usable as a spec node\'s icon). Filter by text and/or category.', { q: S.IconListQuery.shape.q, category: S.IconListQuery.shape.category }, (a, c) => c.listIcons({ ...(a.q ? { q: a.q } : {}), ...(a.category ? { category: a.category } : {}) }), read);
  tool('list_folders', 'List the caller\'s folders: id, name, parentId.', {}, (_a, c) => c.listFolders(), read);
  tool('create_folder', 'Create a folder, optionally inside a parent folder.', { name: S.CreateFolderBody.shape.name.describe('Folder name'), parentId: S.CreateFolderBody.shape.parentId }, (a, c) => c.createFolder({ name: a.name, ...(a.parentId !== undefined ? { parentId: a.parentId } : {}) }));
  tool('list_comments', 'List the comments on a diagram, with the element each is anchored to and whether it is resolved.', { id: diagramId }, (a, c) => c.listComments(a.id), read);
  tool('add_comment', 'Add a comment to a diagram, optionally anchored to an element id.', { id: diagramId, ...S.CommentBody.shape }, ({ id, ...body }, c) => c.addComment(id, body as S.CommentBody));

  server.registerResource('spec-grammar', 'drawbridge://docs/spec-grammar', { title: 'DiagramSpec grammar', description: 'The DiagramSpec grammar (nodes, edges, layout) with a worked example', mimeType: 'text/markdown' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: specGrammar() }],
  }));
  server.registerResource('scene-guide', 'drawbridge://docs/scene-guide', { title: 'Scene authoring guide', description: 'How to write terse Excalidraw elements for create_scene, with a worked example', mimeType: 'text/markdown' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: SCENE_GUIDE }],
  }));
  return server;
}

async function health(): Promise<number> {
  const creds = resolveCredentials();
  if (!creds.token) {
    process.stderr.write(`drawbridge-mcp: ${NO_TOKEN_MESSAGE}\n`);
    return 1;
  }
  try {
    const me = await new DrawbridgeClient({ apiUrl: creds.apiUrl, token: creds.token, maxRetries: 1 }).me();
    process.stdout.write(`ok: ${me.email} at ${creds.apiUrl} (token from ${creds.source}; capabilities ${me.capabilities.join(',')})\n`);
    return 0;
  } catch (error) {
    if (error instanceof DrawbridgeApiError) {
      process.stderr.write(`drawbridge-mcp: ${error.code}: ${error.message}\n`);
      return error.status === 401 || error.status === 403 ? 1 : 2;
    }
    process.stderr.write(`drawbridge-mcp: cannot reach ${creds.apiUrl}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  if (argv.includes('--version') || argv.includes('-V')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (argv.includes('--health')) {
    process.exitCode = await health();
    return;
  }
  if (argv.length > 0) {
    process.stderr.write(`drawbridge-mcp: unknown option ${argv[0]}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const creds = resolveCredentials();
  if (!creds.token) process.stderr.write(`drawbridge-mcp: no token; tools will answer with an error. ${NO_TOKEN_MESSAGE}\n`);
  else process.stderr.write(`drawbridge-mcp: serving ${creds.apiUrl} (token from ${creds.source === 'env' ? 'SERVICE_TOKEN' : 'stored login'})\n`);
  const client = creds.token ? new DrawbridgeClient({ apiUrl: creds.apiUrl, token: creds.token }) : null;
  await buildServer(client).connect(new StdioServerTransport());
}

await main(process.argv.slice(2));
