import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema, JSONRPCResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MCP_RESOURCE_PATH, OAUTH_PATHS } from '../api/oauth-paths.ts';
import { bearerToken } from '../auth/token.ts';
import { DrawbridgeClient } from '../client/client.ts';
import { defineRoute, type RouteDef } from '../edge/route.ts';
import { connectGuarded } from './argument-guard.ts';
import { inProcessFetch } from './in-process-fetch.ts';
import { createMcpServer } from './tools.ts';

const AUTH_HELP =
  'Send a valid Drawbridge token as the header "Authorization: Bearer <token>": connect through the MCP authorization flow (OAuth), or set a personal access token from Settings → API tokens in this MCP server\'s entry in the client configuration.';

/** The most messages one POST may carry, as the MCP SDK's transport allows. */
const MAX_BATCH = 100;

const NOT_A_MESSAGE = `not a JSON-RPC 2.0 message of MCP: send a request {"jsonrpc":"2.0","id":1,"method":"tools/list"}, a notification (no "id"), a response ("id" with "result" or "error"), or an array of 1 to ${MAX_BATCH} of them`;

const BATCH_SIZE = { error: `a batch holds 1 to ${MAX_BATCH} messages` };

/** What an MCP client POSTs: one JSON-RPC message, or a batch of them (MCP's schema, from its SDK). */
const McpMessages = z
  .union([JSONRPCMessageSchema, z.array(JSONRPCMessageSchema).min(1, BATCH_SIZE).max(MAX_BATCH, BATCH_SIZE)], { error: NOT_A_MESSAGE })
  .meta({ id: 'McpMessages', description: 'One JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification or a response), or a batch of them.' });

/**
 * The hosted MCP endpoint: the stdio server's tools over Streamable HTTP,
 * stateless (a fresh server and transport per POST, no session id). The
 * caller's token is checked as any API route's (capabilities, unverified email,
 * rate limits: each MCP message counts as a read, and each API call a tool
 * makes counts for itself), and every tool call is an in-process API request
 * with the caller's token, so access rules are exactly the API's. A refused
 * token's challenge names the endpoint's protected-resource metadata (RFC 9728),
 * where an MCP host finds how to get a token. The other methods answer 405
 * (stateless: no server-initiated stream for GET, no session to DELETE).
 */
export const mcpRoutes: readonly RouteDef[] = [
  defineRoute({
    operationId: 'mcp',
    method: 'POST',
    url: MCP_RESOURCE_PATH,
    access: { anyToken: true },
    allowUnverified: true,
    rateLimitBucket: 'read',
    resourceMetadataPath: `${OAUTH_PATHS.protectedResourceMetadata}${MCP_RESOURCE_PATH}`,
    handsOnBody: true,
    tags: ['mcp'],
    summary: 'The MCP server (Streamable HTTP, stateless)',
    description:
      "Drawbridge's MCP tools and resources over MCP's Streamable HTTP transport, without sessions: each POST is answered on its own. Send `Accept: application/json, text/event-stream`. A message that needs no answer (a notification, a response) is accepted with 202 and no body. The MCP transport's own refusals (406 for an Accept without both types, 415, 400 for a second initialize) are JSON-RPC errors.",
    body: McpMessages,
    response: { status: 200, schema: z.union([JSONRPCResponseSchema, z.array(JSONRPCResponseSchema)]), description: 'The JSON-RPC answer, or the answers to a batch' },
    errors: [],
    handler: async ({ body, request, reply, deps }) => {
      const client = new DrawbridgeClient({
        apiUrl: 'http://in-process',
        token: bearerToken(request.headers.authorization), // the token the route's authentication just accepted
        fetch: inProcessFetch(request.server, { remoteAddress: request.ip, requestId: request.id }),
        // A 429 goes back to the agent (rate_limited, with the wait) instead of holding this request open.
        maxRetries: 0,
      });
      const server = createMcpServer(client, { authHelp: AUTH_HELP, appUrl: deps.config.publicUrl });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      const res = reply.raw;
      // What the route's authentication set (the request id, the caller's rate-limit state), which the transport's answer carries too.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
      res.setHeader('x-request-id', request.id);
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await connectGuarded(server, transport);
        await transport.handleRequest(request.raw, res, body);
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
      }
      return { hijacked: true };
    },
  }),
];

