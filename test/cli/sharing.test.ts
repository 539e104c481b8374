import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/program.ts';
import { type Harness, sceneOf, startHarness, type TestUser, uniqueEmail } from '../helpers/harness.ts';
import { waitForMail } from '../web/form-client.ts';

let h: Harness;
let owner: TestUser;
let colleague: TestUser;
let apiUrl: string;
describe('cli/sharing', () => {
  before(async () => {
    h = await startHarness();
    owner = await h.user();
    colleague = await h.user();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  after(() => h.close());

  /** Runs the CLI in-process as `user`. */
  async function cli(user: TestUser, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const env = { HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-cli-home-')), SERVICE_TOKEN: user.token, SERVICE_API_URL: apiUrl };
    const code = await runCli(argv, { env, stdout: { write: (s: string) => void (stdout += s) }, stderr: { write: (s: string) => void (stderr += s) } });
    return { code, stdout, stderr };
  }

  const newDiagram = async (title: string) =>
    (await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title, scene: sceneOf(1) } })).json().id as string;

  test('share add shares with an account at once and invites an unknown address; share list shows both; share remove takes either away', async () => {
    const id = await newDiagram('Runbook');
    const added = await cli(owner, 'share', 'add', id, colleague.email, '--role', 'editor');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Shared with .* as editor/);
    const stranger = uniqueEmail('stranger');
    const invited = await cli(owner, 'share', 'add', id, stranger);
    assert.match(invited.stdout, /Invited .* as viewer by mail/);
    await waitForMail(h, stranger);

    const listed = await cli(owner, 'share', 'list', id);
    assert.match(listed.stdout, new RegExp(`${colleague.id}\\s+editor`));
    assert.match(listed.stdout, /invited, until/);
    const asJson = JSON.parse((await cli(owner, 'share', 'list', id, '--json')).stdout);
    assert.deepEqual(asJson.shares.map((s: { email: string }) => s.email), [colleague.email]);
    assert.deepEqual(asJson.invitations.map((i: { email: string }) => i.email), [stranger]);

    assert.equal((await cli(owner, 'share', 'role', id, colleague.email, 'viewer')).code, 0);
    assert.equal((await h.store.diagrams.findMetaForUser(id, colleague.id))?.access.shareRole, 'viewer');
    assert.match((await cli(owner, 'share', 'remove', id, stranger)).stdout, /Cancelled the invitation/);
    assert.equal((await cli(owner, 'share', 'remove', id, colleague.email)).code, 0);
    assert.deepEqual(JSON.parse((await cli(owner, 'share', 'list', id, '--json')).stdout), { ownerId: owner.id, ownerEmail: owner.email, shares: [], invitations: [] });
  });

  test('someone else cannot manage the shares: the API answer, not_found, exit 1', async () => {
    const id = await newDiagram('Private');
    const refused = await cli(colleague, 'share', 'add', id, 'x@example.com');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not_found, HTTP 404/);
  });

  test('workspaces: create, invite, members, move a diagram in, list it as shared, change a role, leave', async () => {
    const created = JSON.parse((await cli(owner, 'workspaces', 'create', 'Platform', '--json')).stdout);
    assert.equal(created.role, 'admin');
    assert.match((await cli(owner, 'workspaces', 'invite', 'Platform', colleague.email, '--role', 'viewer')).stdout, /is a member as viewer/);
    const members = await cli(owner, 'workspaces', 'members', 'Platform');
    assert.match(members.stdout, new RegExp(`${colleague.id}\\s+viewer`));
    assert.match((await cli(colleague, 'workspaces', 'list')).stdout, new RegExp(`${created.id}\\s+viewer\\s+2\\s+Platform`));

    const id = await newDiagram('Architecture');
    assert.equal((await cli(owner, 'diagrams', 'move-to-workspace', id, 'Platform')).code, 0);
    const shared = await cli(colleague, 'diagrams', 'list', '--shared');
    assert.match(shared.stdout, new RegExp(`${id}\\s+\\S+ \\S+\\s+viewer\\s+Architecture`));
    const inWorkspace = JSON.parse((await cli(colleague, 'diagrams', 'list', '--workspace', created.id, '--json')).stdout);
    assert.deepEqual(inWorkspace.items.map((d: { id: string; role: string; workspaceId: string }) => [d.id, d.role, d.workspaceId]), [[id, 'viewer', created.id]]);

    assert.match((await cli(owner, 'workspaces', 'role', 'Platform', colleague.email, 'editor')).stdout, /is now editor/);
    const lastAdmin = await cli(owner, 'workspaces', 'leave', 'Platform');
    assert.equal(lastAdmin.code, 1);
    assert.match(lastAdmin.stderr, /at least one admin/);
    assert.equal((await cli(colleague, 'workspaces', 'leave', created.id)).code, 0);
    assert.match((await cli(colleague, 'diagrams', 'list', '--shared')).stdout, /Nothing is shared with you/);
  });

  test('--shared does not combine with the filters of your own diagrams', async () => {
    const refused = await cli(owner, 'diagrams', 'list', '--shared', '--starred');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /narrow your own diagrams only/);
  });
});
