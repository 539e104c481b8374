import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DrawbridgeClient } from '../../src/client/client.ts';
import { createMcpServer } from '../../src/mcp/tools.ts';
import { type Harness, sceneOf, startHarness, type TestUser, uniqueEmail } from '../helpers/harness.ts';

// The sharing tools in-process, over the typed client, against a real server.
let h: Harness;
let owner: TestUser;
let colleague: TestUser;
let apiUrl: string;
const clients: Client[] = [];

describe('mcp/sharing-tools', () => {
  before(async () => {
    h = await startHarness();
    owner = await h.user();
    colleague = await h.user({ caps: 'read,write' });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const client of clients) await client.close();
    await h.close();
  });

  /** An MCP client whose tools act as `user`. */
  async function mcpAs(user: TestUser): Promise<(name: string, args: Record<string, unknown>) => Promise<{ isError: boolean; value: any }>> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(new DrawbridgeClient({ apiUrl, token: user.token }), { authHelp: 'unused', appUrl: apiUrl }).connect(serverSide);
    const client = new Client({ name: 'sharing-test', version: '0.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return async (name, args) => {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
      const text = result.content[0]!.text;
      return { isError: Boolean(result.isError), value: result.isError ? text : JSON.parse(text) };
    };
  }

  test('share_diagram shares with an account or invites an address; list_shares shows both; unshare_diagram takes a share away', async () => {
    const call = await mcpAs(owner);
    const id = (await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Plan', scene: sceneOf(1) } })).json().id;
    const shared = await call('share_diagram', { id, email: colleague.email, role: 'editor' });
    assert.equal(shared.value.share.role, 'editor');
    const stranger = uniqueEmail('stranger');
    const invited = await call('share_diagram', { id, email: stranger, role: 'viewer' });
    assert.equal(invited.value.invitation.email, stranger);
    const listed = (await call('list_shares', { id })).value;
    assert.deepEqual(listed.shares.map((s: { userId: string }) => s.userId), [colleague.id]);
    assert.deepEqual(listed.invitations.map((i: { email: string }) => i.email), [stranger]);

    // The colleague sees it among what is shared with them, as editor, and may not manage its shares.
    const theirs = await mcpAs(colleague);
    const seen = (await theirs('list_diagrams', { filter: 'shared' })).value.items;
    assert.deepEqual(seen.map((d: { id: string; role: string }) => [d.id, d.role]), [[id, 'editor']]);
    const refused = await theirs('list_shares', { id });
    assert.equal(refused.isError, true);
    assert.match(refused.value, /not_found|cannot see it/);

    assert.equal((await call('unshare_diagram', { id, userId: colleague.id })).value.unshared, true);
    assert.deepEqual((await theirs('list_diagrams', { filter: 'shared' })).value.items, []);
  });

  test('create_workspace, invite_to_workspace, list_workspace_members, move_to_workspace, and the workspace listing', async () => {
    const call = await mcpAs(owner);
    const workspace = (await call('create_workspace', { name: 'Platform' })).value;
    assert.equal(workspace.role, 'admin');
    const member = (await call('invite_to_workspace', { workspaceId: workspace.id, email: colleague.email, role: 'viewer' })).value.member;
    assert.equal(member.userId, colleague.id);
    const members = (await call('list_workspace_members', { workspaceId: workspace.id })).value;
    assert.deepEqual(members.members.map((m: { role: string }) => m.role), ['admin', 'viewer']);
    const id = (await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Infra', scene: sceneOf(1) } })).json().id;
    const moved = (await call('move_to_workspace', { id, workspaceId: workspace.id })).value;
    assert.equal(moved.workspaceId, workspace.id);
    assert.match(moved.editorUrl, new RegExp(`/app/d/${id}$`));

    const theirs = await mcpAs(colleague);
    assert.deepEqual((await theirs('list_workspaces', {})).value.items.map((w: { id: string; role: string }) => [w.id, w.role]), [[workspace.id, 'viewer']]);
    const listed = (await theirs('list_diagrams', { workspace: workspace.id })).value.items;
    assert.deepEqual(listed.map((d: { id: string; role: string }) => [d.id, d.role]), [[id, 'viewer']]);
    // A viewer may not move their own diagram in: the workspace is not found for that.
    const own = (await h.call('POST', '/api/v1/diagrams', { token: colleague.token, body: { scene: sceneOf(1) } })).json().id;
    const refused = await theirs('move_to_workspace', { id: own, workspaceId: workspace.id });
    assert.equal(refused.isError, true);
  });
});
