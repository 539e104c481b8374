import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MCP_TOOL_HEADER, McpToolName } from '../../src/api/history-schemas.ts';
import { DrawbridgeClient } from '../../src/client/client.ts';
import { createMcpServer } from '../../src/mcp/tools.ts';

// Every API request a tool makes names the tool in the Drawbridge-Mcp-Tool
// header, which the API records as the write's `via`. Seen here by a fetch
// that records each request and answers from a table, with no server: the
// first requests are held until all of them have arrived, so the tool calls
// are in flight together on one MCP server, as on a long-lived stdio server.

const ID = '5f0c6f1e-8a4b-4c1d-9e2f-3a7b6c5d4e10';
const NOW = '2026-05-04T10:21:07.512Z';

const ANSWERS: Record<string, () => Response> = {
  [`GET /api/v1/diagrams/${ID}`]: () =>
    Response.json({ id: ID, title: 'T', folderId: null, ownerId: ID, createdAt: NOW, updatedAt: NOW, editorUrl: `http://app.test/app/d/${ID}`, deletedAt: null, docUpdatedAt: NOW, scene: { elements: [], appState: {} } }),
  [`GET /api/v1/diagrams/${ID}/revisions`]: () => Response.json({ items: [], nextCursor: null }),
  [`GET /api/v1/diagrams/${ID}/lint`]: () => Response.json({ issues: [], counts: {}, complete: true }),
  [`POST /api/v1/diagrams/${ID}/patch`]: () => Response.json({ error: 'INVALID_SPEC', message: 'ops[0] names no element' }, { status: 422 }),
  'POST /api/v1/specs/validate': () => Response.json({ valid: false, problems: [{ code: 'INVALID_SPEC', message: 'ops[0] names no element', path: '/0' }] }),
};

/** An MCP client connected in memory to a Drawbridge MCP server over `api`. */
async function connectedTo(api: DrawbridgeClient | null): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(api, { authHelp: 'unused', appUrl: 'http://app.test' }).connect(serverSide);
  const client = new Client({ name: 'attribution-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

test('each tool call names its own tool on every request it makes, with calls of several tools in flight at once', async () => {
  const seen: Array<{ request: string; tool: string | null }> = [];
  const held = 4;
  let inFlight = 0;
  let mostInFlight = 0;
  let release!: () => void;
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const request = `${init.method ?? 'GET'} ${url.pathname}`;
    seen.push({ request, tool: new Headers(init.headers).get(MCP_TOOL_HEADER) });
    if (seen.length <= held) {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (seen.length === held) release();
      // Never hang the run should the calls come one at a time: the count below says so. The calls
      // arrive together at once when they are concurrent; the wait is long only so that a loaded machine is no failure.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([allArrived, new Promise((resolve) => (timer = setTimeout(resolve, 30_000)))]);
      clearTimeout(timer);
      inFlight -= 1;
    }
    const answer = ANSWERS[request];
    assert.ok(answer, `unexpected request ${request}`);
    return answer();
  }) as typeof globalThis.fetch;

  const api = new DrawbridgeClient({ apiUrl: 'http://api.test', token: 'tok', fetch });
  const client = await connectedTo(api);
  try {
    const results = await Promise.all([
      client.callTool({ name: 'get_scene', arguments: { id: ID } }),
      client.callTool({ name: 'list_revisions', arguments: { id: ID } }),
      client.callTool({ name: 'lint_diagram', arguments: { id: ID } }),
      client.callTool({ name: 'patch_elements', arguments: { id: ID, ops: [{ op: 'delete', id: 'ghost' }] } }),
    ]);
    assert.deepEqual(results.map((r) => r.isError === true), [false, false, false, true]);
    assert.equal(mostInFlight, held, 'the four calls were in flight together');
    const byRequest = Object.fromEntries(seen.map((s) => [s.request, s.tool]));
    assert.deepEqual(byRequest, {
      [`GET /api/v1/diagrams/${ID}`]: 'get_scene',
      [`GET /api/v1/diagrams/${ID}/revisions`]: 'list_revisions',
      [`GET /api/v1/diagrams/${ID}/lint`]: 'lint_diagram',
      [`POST /api/v1/diagrams/${ID}/patch`]: 'patch_elements',
      // the problems of the refused ops, asked for by the same call
      'POST /api/v1/specs/validate': 'patch_elements',
    });
    assert.equal(seen.length, 5);
  } finally {
    await client.close();
  }
});

test('every tool\'s name is one the header can carry and the API accepts', async () => {
  const client = await connectedTo(null);
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.length > 20);
    assert.deepEqual(names.filter((name) => !McpToolName.safeParse(name).success), []);
  } finally {
    await client.close();
  }
});

test('the client the server was given is left as it was: its own requests name no tool', async () => {
  const tools: Array<string | null> = [];
  const fetch = (async (_input: string | URL | Request, init: RequestInit = {}) => {
    tools.push(new Headers(init.headers).get(MCP_TOOL_HEADER));
    return ANSWERS[`GET /api/v1/diagrams/${ID}`]!();
  }) as typeof globalThis.fetch;
  const api = new DrawbridgeClient({ apiUrl: 'http://api.test', token: 'tok', fetch });
  const client = await connectedTo(api);
  try {
    await client.callTool({ name: 'get_scene', arguments: { id: ID } });
    await api.getDiagram(ID);
    assert.deepEqual(tools, ['get_scene', null]);
  } finally {
    await client.close();
  }
});
