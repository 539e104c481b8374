import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MCP_TOOL_HEADER } from '../api/history-schemas.ts';
import type { DrawbridgeClient } from '../client/client.ts';
import { describeFailure, failure, type ToolResult } from './failures.ts';
import { INSTRUCTIONS, registerPrompts } from './guide.ts';
import { Links } from './links.ts';
import { registerResources } from './resources.ts';
import { toolInput } from './tool-input.ts';
import { Blocks, jsonBlock, type RegisterTool, type ToolKit } from './tool-kit.ts';
import { registerCommentTools } from './tools/comments.ts';
import { registerCreateTools } from './tools/create.ts';
import { registerDiagramTools } from './tools/diagrams.ts';
import { registerFolderTools } from './tools/folders.ts';
import { registerHistoryTools } from './tools/history.ts';
import { registerIconTools } from './tools/icons.ts';
import { registerReadTools } from './tools/read.ts';
import { registerSharingTools } from './tools/sharing.ts';

// The MCP tools over the typed DrawbridgeClient. Results are JSON text (plus
// image blocks for renders), and the same value as structuredContent where the
// tool declares an outputSchema; failures are `isError` results with the
// server's code and one sentence (src/mcp/failures.ts).

/** The package version, reported to MCP clients. */
export const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface McpServerOptions {
  /** Told to the agent when there is no client or the API refuses the token: how, for this transport, a human supplies a valid one. */
  authHelp: string;
  /** The base URL of the web app (where /app/d/<id> opens a diagram), for servers whose answers carry no editorUrl. */
  appUrl: string;
}

/**
 * The Drawbridge MCP server: every tool, prompt and resource, acting through
 * `client` (null: no token configured; every tool then answers with
 * `authHelp`). Used by the stdio bin and by the hosted endpoint at /mcp.
 */
export function createMcpServer(client: DrawbridgeClient | null, options: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'drawbridge', version: VERSION }, { instructions: INSTRUCTIONS });
  const links = new Links(options.appUrl);

  const tool: RegisterTool = (name, definition, run) => {
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
  const kit: ToolKit = { tool, link: (value) => links.with(value) };

  // The order they are registered in is the order tools/list answers with.
  registerCreateTools(kit);
  registerReadTools(kit);
  registerDiagramTools(kit);
  registerHistoryTools(kit);
  registerIconTools(kit);
  registerFolderTools(kit);
  registerCommentTools(kit);
  registerSharingTools(kit);

  registerPrompts(server);
  registerResources(server);
  return server;
}
