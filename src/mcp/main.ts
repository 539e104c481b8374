import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DrawbridgeApiError, DrawbridgeClient } from '../client/client.ts';
import { resolveCredentials } from '../client/credentials.ts';
import { connectGuarded } from './argument-guard.ts';
import { createMcpServer, VERSION } from './tools.ts';

/**
 * `drawbridge-mcp`: the Drawbridge MCP server (src/mcp/tools.ts) over stdio,
 * acting with the token from SERVICE_TOKEN or the stored login.
 */
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
  await connectGuarded(createMcpServer(client, { authHelp: NO_TOKEN_MESSAGE, appUrl: creds.apiUrl }), new StdioServerTransport());
}

await main(process.argv.slice(2));
