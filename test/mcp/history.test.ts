import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DrawbridgeClient } from '../../src/client/client.ts';
import { createMcpServer } from '../../src/mcp/tools.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';

// An agent's mistake, seen and undone through the MCP tools against a real
// server: the agent works with a token named "agent-bot", its writes are
// attributed to that token and to the tool that made each, diff_revisions
// names what a write changed, and restore_revision brings the scene back.

let h: ListeningHarness;
let email: string;
let agentToken: string;
let agent: Client;
describe('mcp/history', () => {
  before(async () => {
    h = await startHarness({ listen: true });
    email = (await h.user({ caps: 'read,write' })).email;
    agentToken = ((await h.admin('token', 'mint', '--email', email, '--caps', 'read,write', '--name', 'agent-bot')) as { token: string }).token;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(new DrawbridgeClient({ apiUrl: h.baseUrl, token: agentToken }), { authHelp: 'unused', appUrl: h.baseUrl }).connect(serverSide);
    agent = new Client({ name: 'history-test', version: '0.0.0' });
    await agent.connect(clientSide);
  });
  after(async () => {
    await agent.close();
    await h.close();
  });

  type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean };

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
    const result = (await client.callTool({ name, arguments: args })) as Result;
    assert.notEqual(result.isError, true, `${name}: ${result.content[0]?.text}`);
    return JSON.parse(result.content[0]!.text!);
  }

  async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<{ error: string; message: string }> {
    const result = (await client.callTool({ name, arguments: args })) as Result;
    assert.equal(result.isError, true, `${name} should have failed: ${result.content[0]?.text}`);
    return JSON.parse(result.content[0]!.text!);
  }

  /**
   * An element without the editor's bookkeeping (version, versionNonce,
   * updated): a restored element that differs from its current self continues
   * the current version, so that an open editor takes it.
   */
  const content = (elements: Array<Record<string, unknown>>) => elements.map(({ version: _v, versionNonce: _n, updated: _u, ...rest }) => rest);

  const SPEC = { nodes: [{ id: 'api', label: 'Orders API' }, { id: 'db', label: 'Orders DB' }], edges: ['api -> db : SQL'] };

  describe('an agent undoes its own mistake', () => {
    test('the wrong patch is in the history as the agent\'s token and tool, diff_revisions names what it changed, restore_revision brings the scene back', async () => {
      const { id } = await call(agent, 'generate_diagram', { title: 'Orders', spec: SPEC });
      const original = (await call(agent, 'get_scene', { id })).scene.elements;

      // the mistake: the database deleted, the API moved far away
      await call(agent, 'patch_elements', { id, ops: [{ op: 'delete', id: 'db' }, { op: 'move', id: 'api', dx: 600, dy: 0 }] });

      const history = await call(agent, 'list_revisions', { id });
      assert.match(history.editorUrl, new RegExp(`/app/d/${id}$`));
      assert.equal(history.nextCursor, null);
      assert.deepEqual(
        history.items.map((r: { kind: string; author: string; via: unknown }) => [r.kind, r.author, r.via]),
        [
          ['patch', email, { kind: 'mcp', name: 'patch_elements', token: 'agent-bot' }],
          ['create', email, { kind: 'mcp', name: 'generate_diagram', token: 'agent-bot' }],
        ],
      );
      const [patch, create] = history.items;
      assert.equal(create.elementCount, original.length);
      assert.ok(patch.elementCount < original.length);
      assert.ok(patch.summary.length > 0);
      assert.ok(!Number.isNaN(Date.parse(patch.at)));

      const diff = await call(agent, 'diff_revisions', { id, rev: patch.rev });
      assert.equal(diff.from, create.rev);
      assert.equal(diff.to, patch.rev);
      assert.ok(diff.removed.includes('db'), JSON.stringify(diff));
      assert.ok(diff.changed.some((c: { id: string; aspects: string[] }) => c.id === 'api' && c.aspects.includes('geometry')), JSON.stringify(diff));
      assert.equal(diff.summary, patch.summary);
      assert.equal('elements' in diff, false, 'the elements only when asked for');
      const full = await call(agent, 'diff_revisions', { id, rev: patch.rev, includeElements: true });
      assert.ok(full.elements.some((e: { id: string }) => e.id === 'api'));

      const restored = await call(agent, 'restore_revision', { id, rev: create.rev });
      assert.equal(restored.restoredFrom, create.rev);
      assert.notEqual(restored.rev, create.rev);
      assert.equal(restored.elements, original.length);
      assert.match(restored.editorUrl, new RegExp(`/app/d/${id}$`));
      assert.deepEqual(content((await call(agent, 'get_scene', { id })).scene.elements), content(original));

      const after = await call(agent, 'list_revisions', { id });
      assert.deepEqual(after.items.map((r: { kind: string }) => r.kind), ['restore', 'patch', 'create']);
      assert.equal(after.items[0].rev, restored.rev);
      assert.equal(after.items[0].restoredFrom, create.rev);
      assert.deepEqual(after.items[0].via, { kind: 'mcp', name: 'restore_revision', token: 'agent-bot' });
    });

    test('list_revisions pages with cursor and limit, newest first', async () => {
      const { id } = await call(agent, 'generate_diagram', { spec: SPEC });
      for (const dx of [10, 20, 30]) await call(agent, 'patch_elements', { id, ops: [{ op: 'move', id: 'api', dx, dy: 0 }] });
      const first = await call(agent, 'list_revisions', { id, limit: 3 });
      assert.deepEqual(first.items.map((r: { kind: string }) => r.kind), ['patch', 'patch', 'patch']);
      assert.equal(typeof first.nextCursor, 'string');
      const rest = await call(agent, 'list_revisions', { id, limit: 3, cursor: first.nextCursor });
      assert.deepEqual(rest.items.map((r: { kind: string }) => r.kind), ['create']);
      assert.equal(rest.nextCursor, null);
    });

    test('a stale expectedUpdatedAt refuses the restore with stale_read and writes nothing', async () => {
      const { id } = await call(agent, 'generate_diagram', { spec: SPEC });
      const { docUpdatedAt } = await call(agent, 'get_scene', { id });
      await call(agent, 'patch_elements', { id, ops: [{ op: 'delete', id: 'db' }] });
      const [, create] = (await call(agent, 'list_revisions', { id })).items;
      const stale = await refused(agent, 'restore_revision', { id, rev: create.rev, expectedUpdatedAt: docUpdatedAt });
      assert.equal(stale.error, 'stale_read');
      assert.deepEqual((await call(agent, 'list_revisions', { id })).items.map((r: { kind: string }) => r.kind), ['patch', 'create']);
    });
  });

  test('over the hosted /mcp endpoint, writes are attributed to the tool and the token too', async () => {
    const hosted = new Client({ name: 'history-hosted', version: '0.0.0' });
    await hosted.connect(new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agentToken}` } } }));
    try {
      const { id } = await call(hosted, 'generate_diagram', { spec: SPEC });
      await call(hosted, 'edit_diagram', { id, updateNodes: [{ id: 'db', label: 'Orders database' }] });
      const res = await h.call('GET', `/api/v1/diagrams/${id}/revisions`, { token: agentToken });
      assert.equal(res.statusCode, 200, res.body);
      const [edit, create] = res.json().items;
      assert.equal(edit.kind, 'edit');
      assert.equal(edit.via.kind, 'mcp');
      assert.equal(edit.via.name, 'edit_diagram');
      assert.equal(edit.via.token.name, 'agent-bot');
      assert.equal(create.via.name, 'generate_diagram');
    } finally {
      await hosted.close();
    }
  });

  test('a write over the API without the header is attributed to the token alone', async () => {
    const created = await h.call('POST', '/api/v1/diagrams', { token: agentToken, body: { spec: SPEC } });
    assert.equal(created.statusCode, 201, created.body);
    const [create] = (await h.call('GET', `/api/v1/diagrams/${created.json().id}/revisions`, { token: agentToken })).json().items;
    assert.equal(create.via.kind, 'token');
    assert.equal(create.via.name, 'agent-bot');
    assert.equal(create.via.token.name, 'agent-bot');
  });
});
