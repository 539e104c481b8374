import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpRoutes } from '../../src/mcp/endpoint.ts';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

const STDIO_TOOLS = ['generate_diagram', 'create_scene', 'read_diagram', 'get_scene', 'list_diagrams', 'rename_diagram', 'move_diagram', 'edit_diagram', 'regenerate_diagram', 'patch_elements', 'trash_diagram', 'restore_diagram', 'lint_diagram', 'list_icons', 'list_folders', 'create_folder', 'list_comments', 'add_comment', 'export_diagram'];

let h: Harness;
let baseUrl: string;
describe('mcp/hosted', () => {
  before(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  after(() => h.close());

  async function connect(token: string | null): Promise<Client> {
    const client = new Client({ name: 'hosted-mcp-test', version: '0.0.0' });
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
    return client;
  }

  /** The API's challenge plus the MCP endpoint's protected-resource metadata (PUBLIC_URL is the harness's). */
  const MCP_CHALLENGE = 'Bearer realm="drawbridge", error="invalid_token", resource_metadata="http://drawbridge.test/.well-known/oauth-protected-resource/mcp"';

  function json(result: unknown): any {
    const content = (result as { content: Array<{ type: string; text: string }> }).content;
    return JSON.parse(content[0]!.text);
  }

  /** A JSON-RPC request as a client would POST it (tools/list unless given as text), for checks below the SDK. */
  function post(headers: Record<string, string>, body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })) {
    return fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });
  }

  describe('hosted MCP at /mcp with a read+write token', () => {
    let user: TestUser;
    let client: Client;
    before(async () => {
      user = await h.user({ caps: 'read,write' });
      client = await connect(user.token);
    });
    after(() => client.close());

    test('lists the same tools and resources as the stdio server', async () => {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const name of STDIO_TOOLS) assert.ok(names.includes(name), `missing tool ${name}`);
      assert.ok(!names.some((n) => n.includes('publish')));
      const uris = (await client.listResources()).resources.map((r) => r.uri).sort();
      assert.deepEqual(uris, ['drawbridge://docs/scene-guide', 'drawbridge://docs/spec-grammar']);
    });

    test('tools act as the caller: generate, read, list, patch, comment', async () => {
      const created = json(await client.callTool({ name: 'generate_diagram', arguments: { title: 'Hosted', spec: { nodes: [{ id: 'a', label: 'Alpha' }, { id: 'b', label: 'Beta' }], edges: ['a -> b'] } } }));
      assert.equal(created.elementCount, 5);
      assert.equal(created.ownerId, user.id);

      const summary = json(await client.callTool({ name: 'read_diagram', arguments: { id: created.id, includeGeometry: true, image: false } }));
      assert.deepEqual(summary.nodes.map((n: { id: string; label?: string }) => [n.id, n.label]).sort(), [['a', 'Alpha'], ['b', 'Beta']]);
      assert.deepEqual([summary.edges[0].from, summary.edges[0].to], ['a', 'b']);

      const list = json(await client.callTool({ name: 'list_diagrams', arguments: {} }));
      assert.deepEqual(list.items.map((d: { id: string }) => d.id), [created.id]);

      const patched = json(await client.callTool({ name: 'patch_elements', arguments: { id: created.id, ops: [{ op: 'move', id: 'b', dx: 40, dy: 0 }] } }));
      assert.equal(patched.applied, 1);
      await client.callTool({ name: 'add_comment', arguments: { id: created.id, elementId: 'a', body: 'via /mcp' } });

      // the changes are in the diagram, as the REST API sees it
      const res = await h.call('GET', `/api/v1/diagrams/${created.id}`, { token: user.token });
      const b = res.json().scene.elements.find((e: { id: string }) => e.id === 'b');
      assert.equal(b.x, summary.nodes.find((n: { id: string }) => n.id === 'b').x + 40);
      const comments = await h.call('GET', `/api/v1/diagrams/${created.id}/comments`, { token: user.token });
      assert.equal(comments.json().items[0].authorId, user.id);
    });

    test('read_diagram includes the rendered PNG image block; export_diagram gives SVG text', async () => {
      const created = json(await client.callTool({ name: 'generate_diagram', arguments: { spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } } }));
      const read = (await client.callTool({ name: 'read_diagram', arguments: { id: created.id, quality: 'fast' } })) as { content: Array<{ type: string; text?: string; data?: string; mimeType?: string }> };
      assert.deepEqual(read.content.map((b) => b.type), ['text', 'image']);
      assert.deepEqual(JSON.parse(read.content[0]!.text!).image, { quality: 'fast' });
      assert.equal(read.content[1]!.mimeType, 'image/png');
      assert.equal(pngSize(Buffer.from(read.content[1]!.data!, 'base64')).width, 1024);
      const svg = (await client.callTool({ name: 'export_diagram', arguments: { id: created.id, format: 'svg', quality: 'fast' } })) as typeof read;
      assert.match(svg.content[1]!.text!, /<svg[\s>]/);
    });

    test('trash_diagram answers insufficient_scope and the diagram stays where it was', async () => {
      const created = json(await client.callTool({ name: 'generate_diagram', arguments: { spec: { nodes: [{ id: 'x' }] } } }));
      const trash = await client.callTool({ name: 'trash_diagram', arguments: { id: created.id } });
      assert.equal(trash.isError, true);
      assert.equal(json(trash).error, 'insufficient_scope');
      assert.match(json(trash).message, /"delete" capability/);
      const res = await h.call('GET', `/api/v1/diagrams/${created.id}`, { token: user.token });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().deletedAt, null);
    });

    test('a top-level __proto__ in tool arguments is PROTO_KEY, as the API answers it, and nothing is written', async () => {
      const args = '{"name":"Polluted","__proto__":{"polluted":true}}';
      const res = await post({ authorization: `Bearer ${user.token}` }, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_folder","arguments":${args}}}`);
      assert.equal(res.status, 200);
      const answer = await res.json();
      assert.equal(answer.id, 7);
      assert.equal(answer.result.isError, true);
      assert.deepEqual(json(answer.result), { error: 'PROTO_KEY', message: 'arguments.__proto__: the key "__proto__" is not allowed anywhere in a payload' });
      assert.equal((await h.call('POST', '/api/v1/folders', { token: user.token, body: args })).json().error, 'PROTO_KEY', 'the API answers the same');
      const folders = (await h.call('GET', '/api/v1/folders', { token: user.token })).json().items as Array<{ name: string }>;
      assert.ok(!folders.some((f) => f.name === 'Polluted'));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    test('every tool taking a diagram id refuses an empty, "." or ".." id with not_found, as the API refuses an id that names nothing', async () => {
      const extra: Record<string, Record<string, unknown>> = {
        rename_diagram: { title: 'x' },
        move_diagram: { folderId: null },
        patch_elements: { ops: [] },
        regenerate_diagram: { spec: { nodes: [{ id: 'a' }] } },
        add_comment: { body: 'x' },
        read_diagram: { image: false },
      };
      const tools = ['read_diagram', 'export_diagram', 'get_scene', 'rename_diagram', 'move_diagram', 'edit_diagram', 'regenerate_diagram', 'patch_elements', 'trash_diagram', 'restore_diagram', 'lint_diagram', 'list_comments', 'add_comment'];
      for (const name of tools) {
        for (const id of ['', '.', '..']) {
          const result = await client.callTool({ name, arguments: { id, ...extra[name] } });
          assert.equal(result.isError, true, `${name} ${JSON.stringify(id)}: ${JSON.stringify(result)}`);
          assert.equal(json(result).error, 'not_found', `${name} ${JSON.stringify(id)}: ${JSON.stringify(result)}`);
        }
      }
    });

    test("another user's diagram is not_found through the tools, as over the API", async () => {
      const other = await h.user();
      const theirs = await h.call('POST', '/api/v1/diagrams', { token: other.token, body: { spec: { nodes: [{ id: 'secret' }] } } });
      const result = await client.callTool({ name: 'read_diagram', arguments: { id: theirs.json().id, image: false } });
      assert.equal(result.isError, true);
      assert.equal(json(result).error, 'not_found');
    });
  });

  describe('hosted MCP authentication', () => {
    test('without a token: 401 with the API envelope and the API\'s WWW-Authenticate naming the resource metadata', async () => {
      const res = await post({});
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), MCP_CHALLENGE);
      assert.equal((await res.json()).error, 'unauthorized');
      await assert.rejects(connect(null), /401|unauthorized/i);
    });

    test('a revoked token is refused from the next request on', async () => {
      const user = await h.user({ caps: 'read' });
      const client = await connect(user.token);
      try {
        assert.ok((await client.listTools()).tools.length > 0);
        const { items } = await h.admin('token', 'list', '--email', user.email);
        await h.admin('token', 'revoke', '--id', items[0].id);
        await assert.rejects(client.listTools(), /401|unauthorized/i);
      } finally {
        await client.close();
      }
      const res = await post({ authorization: `Bearer ${user.token}` });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), MCP_CHALLENGE);
      assert.equal((await res.json()).error, 'unauthorized');
    });

    test('a malformed token is the same 401', async () => {
      const res = await post({ authorization: 'Bearer drw_pat_nope' });
      assert.equal(res.status, 401);
      assert.equal((await res.json()).error, 'unauthorized');
    });

    test('a read-only token can read but its writes are insufficient_scope', async () => {
      const user = await h.user({ caps: 'read' });
      const client = await connect(user.token);
      try {
        const result = await client.callTool({ name: 'generate_diagram', arguments: { spec: { nodes: [{ id: 'a' }] } } });
        assert.equal(result.isError, true);
        assert.equal(json(result).error, 'insufficient_scope');
        assert.deepEqual(json(await client.callTool({ name: 'list_diagrams', arguments: {} })).items, []);
      } finally {
        await client.close();
      }
    });
  });

  describe('hosted MCP transport', () => {
    test('GET and DELETE /mcp are 405 naming POST, in the error envelope (stateless: no stream, no session)', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${baseUrl}/mcp`, { method, headers: { accept: 'text/event-stream' } });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'POST');
        assert.deepEqual(await res.json(), { error: 'method_not_allowed', message: 'allowed methods: POST' });
      }
    });

    test('a body that is not an MCP JSON-RPC message is 400 bad_request in the envelope, naming the problem, and counts as a read', async () => {
      const user = await h.user({ caps: 'read,write' });
      const authorization = `Bearer ${user.token}`;
      const cases: Array<[string, RegExp]> = [
        ['', /^a JSON request body is required$/],
        ['"tools/list"', /^body: not a JSON-RPC 2\.0 message of MCP: send a request /],
        ['[]', /^body: a batch holds 1 to 100 messages$/],
        [JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }), /^body: not a JSON-RPC 2\.0 message/],
        [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', extra: true }), /^body: not a JSON-RPC 2\.0 message/],
        [JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))), /^body: .*\b1 to 100\b/],
      ];
      for (const [body, message] of cases) {
        const res = await post({ authorization }, body);
        assert.equal(res.status, 400, body.slice(0, 80));
        assert.match(res.headers.get('ratelimit') ?? '', /^"read";r=\d+;t=\d+$/, body.slice(0, 80));
        const answer = await res.json();
        assert.equal(answer.error, 'bad_request', body.slice(0, 80));
        assert.match(answer.message, message, body.slice(0, 80));
      }
      // A batch is one message each: a ping and a tools/list in one POST get both answers.
      const batch = await post({ authorization }, JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }]));
      assert.equal(batch.status, 200);
      const answers = (await batch.json()) as Array<{ id: number; result: { tools?: unknown[] } }>;
      assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2]);
      assert.ok(answers.find((a) => a.id === 2)!.result.tools!.length > 0);
      // What the declaration says the endpoint answers.
      const [declared] = mcpRoutes;
      assert.equal(declared!.response.schema!.safeParse(answers).success, true);
      assert.equal(declared!.response.schema!.safeParse([{ answer: 1 }]).success, false);
    });

    test('answers carry x-request-id and the caller\'s rate-limit state; no session id is issued', async () => {
      const user = await h.user({ caps: 'read' });
      const res = await post({ authorization: `Bearer ${user.token}` });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('x-request-id'));
      assert.match(res.headers.get('ratelimit') ?? '', /^"read";r=\d+;t=\d+$/);
      assert.match(res.headers.get('ratelimit-policy') ?? '', /"read";q=\d+;w=60/);
      assert.equal(res.headers.get('mcp-session-id'), null);
      const body = await res.json();
      assert.ok(body.result.tools.some((t: { name: string }) => t.name === 'read_diagram'));
      // the in-process API calls are logged as requests of their own, never with the token
      assert.ok(!h.logs().includes(user.token));
    });
  });

  test('rate limits apply as for the API: each MCP request and each API call a tool makes counts', async () => {
    const limited = await startHarness({ env: { RATE_LIMIT_READ_PER_MIN: '3' } });
    try {
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(limited.app.server.address() as AddressInfo).port}/mcp`;
      const user = await limited.user({ caps: 'read' });
      const client = new Client({ name: 'hosted-mcp-test', version: '0.0.0' });
      // initialize and its notification are two requests (two reads)
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${user.token}` } } }));
      try {
        // the third read admits the tool call; its own GET /diagrams is the fourth, over the budget
        const result = await client.callTool({ name: 'list_diagrams', arguments: {} });
        assert.equal(result.isError, true);
        assert.equal(json(result).error, 'rate_limited');
      } finally {
        await client.close();
      }
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      assert.equal(res.status, 429);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal((await res.json()).error, 'rate_limited');
    } finally {
      await limited.close();
    }
  });
});
