import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyPluginAsync } from 'fastify';
import { mcpResourceMetadataUrl } from '../api/oauth-paths.ts';
import { API_PREFIX } from '../api/paths.ts';
import { bearerToken } from '../auth/token.ts';
import { DrawbridgeClient } from '../client/client.ts';
import { WWW_AUTHENTICATE } from '../edge/errors.ts';
import { connectGuarded } from './argument-guard.ts';
import { inProcessFetch } from './in-process-fetch.ts';
import { createMcpServer } from './tools.ts';

const MCP_PATH = '/mcp';

const AUTH_HELP =
  'Send a valid Drawbridge token as the header "Authorization: Bearer <token>": connect through the MCP authorization flow (OAuth), or set a personal access token from Settings → API tokens in this MCP server\'s entry in the client configuration.';

/** Headers of the authentication answer the caller also gets: rate-limit state, and Retry-After on a 429. */
const FORWARDED_HEADERS = ['content-type', 'ratelimit', 'ratelimit-policy', 'retry-after'];

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * The hosted MCP endpoint: the stdio server's tools over Streamable HTTP,
 * stateless (a fresh server and transport per POST, no session id). The caller
 * is authenticated by the API itself (GET /me in-process with the caller's
 * Authorization header), and every tool call is an in-process API request with
 * the caller's token, so capabilities, access rules and rate limits are exactly
 * the API's.
 */
export interface McpEndpointOptions {
  /** The server's public URL (config.publicUrl): where the web app opens a diagram, for results the API gives no editorUrl for. */
  publicUrl?: string;
}

export const mcpEndpoint: FastifyPluginAsync<McpEndpointOptions> = async (app, options) => {
  const publicUrl = (request: { protocol: string; host: string }) => options.publicUrl ?? `${request.protocol}://${request.host}`;
  app.post(MCP_PATH, async (request, reply) => {
    const fetch = inProcessFetch(app, { remoteAddress: request.ip, requestId: request.id });
    const authorization = request.headers.authorization;
    const identity = await fetch(`http://in-process${API_PREFIX}/me`, { headers: authorization ? { authorization } : {} });
    if (!identity.ok) {
      for (const name of FORWARDED_HEADERS) {
        const value = identity.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      // The API's challenge plus where an MCP host finds how to get a token (RFC 9728), the same for every refused token.
      if (identity.status === 401) reply.header('www-authenticate', `${WWW_AUTHENTICATE}, resource_metadata="${mcpResourceMetadataUrl(publicUrl(request))}"`);
      return reply.code(identity.status).send(await identity.text());
    }
    if (request.body === undefined) return reply.code(400).send(jsonRpcError(-32700, 'Parse error: empty body'));

    const client = new DrawbridgeClient({
      apiUrl: 'http://in-process',
      token: bearerToken(authorization), // the token GET /me just accepted
      fetch,
      // A 429 goes back to the agent (rate_limited, with the wait) instead of holding this request open.
      maxRetries: 0,
    });
    // Where the web app is, for a result the API gives no editorUrl for: the public URL, else this server as the caller reached it.
    const server = createMcpServer(client, { authHelp: AUTH_HELP, appUrl: publicUrl(request) });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    const res = reply.raw;
    res.setHeader('x-request-id', request.id);
    for (const name of ['ratelimit', 'ratelimit-policy']) {
      const value = identity.headers.get(name);
      if (value !== null) res.setHeader(name, value);
    }
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await connectGuarded(server, transport);
      await transport.handleRequest(request.raw, res, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(jsonRpcError(-32603, 'Internal server error')));
    }
  });

  // Stateless: no server-initiated stream (GET) and no session to end (DELETE), as in the SDK's stateless example.
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(jsonRpcError(-32000, 'Method not allowed.')),
  });
};
