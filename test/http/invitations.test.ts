import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { type Engine, type Harness, sceneOf, startHarness, type TestUser, uniqueEmail } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { FormClient, linkIn, mailsTo, waitForMail } from '../web/form-client.ts';
import { TYPESCRIPT_ARGS } from '../helpers/typescript.ts';

/**
 * Invitations by mail: an address without a verified account is invited; when
 * it signs up and verifies, the invitation becomes a share or membership and
 * the inviter earns INVITE_QUOTA_BONUS quota, up to INVITE_QUOTA_CAP.
 */
const PASSWORD = 'correct horse battery';

for (const { engine, skip } of [
  { engine: 'sqlite' as Engine, skip: false as const },
  { engine: 'postgres' as Engine, skip: skipWithoutPostgres },
]) {
  describe(`invitations on ${engine}`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ engine, env: { INVITE_QUOTA_BONUS: '2', INVITE_QUOTA_CAP: '3' } });
    });
    after(() => h.close());

    const newDiagram = async (owner: TestUser, title = 'Plan') =>
      (await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title, scene: sceneOf(1) } })).json().id as string;
    const quotaOf = async (user: TestUser) => (await h.store.accounts.findById(user.id))?.quota;

    /** Signs up through the web form at the address, and follows the verification link. */
    async function signUpAndVerify(email: string): Promise<string> {
      // The invitation is mailed in the background: wait for it, so that the next message is the verification.
      const invitations = mailsTo(h, email).length > 0 ? mailsTo(h, email).length : (await waitForMail(h, email), 1);
      const client = new FormClient(h);
      assert.equal((await client.post('/signup', { email, password: PASSWORD, confirm: PASSWORD })).statusCode, 200);
      const verified = await client.get(linkIn(h, await waitForMail(h, email, invitations + 1), '/verify?token='));
      assert.ok(verified.statusCode < 400, verified.body);
      const account = await h.store.accounts.findByEmail(email);
      assert.ok(account?.emailVerified);
      return account.id;
    }

    test('an unknown address is invited by mail, signs up with it filled in, and reaches the diagram once verified; the inviter earns quota', async () => {
      const owner = await h.user({ quota: 3 });
      const id = await newDiagram(owner, 'Roadmap');
      const email = uniqueEmail('invitee');
      const invited = await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner.token, body: { email: `  ${email.toUpperCase()} `, role: 'editor' } });
      assert.equal(invited.statusCode, 200);
      const { invitation } = invited.json();
      assert.equal(invitation.email, email);
      assert.equal(invitation.role, 'editor');

      const mail = await waitForMail(h, email);
      assert.match(mail.headers.subject!, /invited you to "Roadmap"/);
      assert.match(mail.body, new RegExp(owner.email.replace(/[.+]/g, '\\$&')));
      const signUpLink = linkIn(h, mail, '/signup?email=');
      const page = await new FormClient(h).get(signUpLink);
      assert.match(page.body, new RegExp(`name="email"[^>]*value="${email.replace(/[.+]/g, '\\$&')}"`), 'the address is filled in');

      const pending = (await h.call('GET', `/api/v1/diagrams/${id}/shares`, { token: owner.token })).json();
      assert.deepEqual(pending.invitations.map((i: { email: string }) => i.email), [email]);
      assert.deepEqual(pending.shares, []);

      const inviteeId = await signUpAndVerify(email);
      const sharing = (await h.call('GET', `/api/v1/diagrams/${id}/shares`, { token: owner.token })).json();
      assert.deepEqual(sharing.invitations, []);
      assert.deepEqual(sharing.shares.map((s: { userId: string; role: string }) => [s.userId, s.role]), [[inviteeId, 'editor']]);
      assert.equal(await quotaOf(owner), 5, 'INVITE_QUOTA_BONUS added');

      const token = (await h.admin('token', 'mint', '--email', email, '--caps', 'read,write')).token;
      const shared = (await h.call('GET', '/api/v1/diagrams?filter=shared', { token })).json().items;
      assert.deepEqual(shared.map((d: { id: string; role: string }) => [d.id, d.role]), [[id, 'editor']]);
      const edited = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token, body: { title: 'Roadmap v2' } });
      assert.equal(edited.statusCode, 200);
    });

    test('the quota earned by invitations stops at INVITE_QUOTA_CAP, and the earned quota can be used', async () => {
      const owner = await h.user({ quota: 1 });
      const id = await newDiagram(owner);
      const workspace = (await h.call('POST', '/api/v1/workspaces', { token: owner.token, body: { name: 'Crew' } })).json().id;
      const first = uniqueEmail('first');
      const second = uniqueEmail('second');
      await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner.token, body: { email: first, role: 'viewer' } });
      await h.call('POST', `/api/v1/workspaces/${workspace}/members`, { token: owner.token, body: { email: second, role: 'editor' } });
      await signUpAndVerify(first);
      assert.equal(await quotaOf(owner), 3);
      // The operator vouching for the address accepts its invitations too.
      const member = await h.admin('user', 'create', '--email', second);
      assert.equal(await quotaOf(owner), 4, 'held to the cap of 3 earned');
      const members = (await h.call('GET', `/api/v1/workspaces/${workspace}/members`, { token: owner.token })).json();
      assert.deepEqual(members.members.map((m: { userId: string; role: string }) => [m.userId, m.role]), [[owner.id, 'admin'], [member.id, 'editor']]);
      assert.deepEqual(members.invitations, []);
      for (let i = 0; i < 3; i += 1) assert.equal((await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { scene: sceneOf(1) } })).statusCode, 201);
      const over = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { scene: sceneOf(1) } });
      assert.equal(over.json().error, 'quota_exceeded');
    });

    test('an expired or cancelled invitation grants nothing and earns nothing', async () => {
      const owner = await h.user({ quota: 3 });
      const id = await newDiagram(owner);
      const late = uniqueEmail('late');
      const cancelled = uniqueEmail('cancelled');
      const expiring = (await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner.token, body: { email: late, role: 'viewer' } })).json().invitation;
      const withdrawn = (await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner.token, body: { email: cancelled, role: 'viewer' } })).json().invitation;
      await h.store.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expiring.id).execute();
      const stranger = await h.user();
      const refused = await h.call('DELETE', `/api/v1/diagrams/${id}/invitations/${withdrawn.id}`, { token: stranger.token });
      assert.equal(refused.statusCode, 404);
      assert.equal((await h.call('DELETE', `/api/v1/diagrams/${id}/invitations/${withdrawn.id}`, { token: owner.token })).statusCode, 204);
      assert.equal((await h.call('DELETE', `/api/v1/diagrams/${id}/invitations/${withdrawn.id}`, { token: owner.token })).statusCode, 404);
      assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${id}/shares`, { token: owner.token })).json().invitations, []);

      await signUpAndVerify(late);
      await signUpAndVerify(cancelled);
      assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${id}/shares`, { token: owner.token })).json().shares, []);
      assert.equal(await quotaOf(owner), 3);
    });

    test('an account whose address is not verified yet is invited, not given the share, until it verifies', async () => {
      const owner = await h.user();
      const id = await newDiagram(owner);
      const squatter = await h.user({ unverified: true });
      const answer = (await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner.token, body: { email: squatter.email, role: 'editor' } })).json();
      assert.deepEqual(Object.keys(answer), ['invitation']);
      assert.equal((await h.store.diagrams.findMetaForUser(id, squatter.id))?.access.shareRole, null);
      await h.admin('user', 'verify', '--email', squatter.email);
      assert.equal((await h.store.diagrams.findMetaForUser(id, squatter.id))?.access.shareRole, 'editor');
    });

    test('sharing with yourself, with a role that is not one, or with no address is 400 and changes nothing', async () => {
      const owner = await h.user();
      const id = await newDiagram(owner);
      for (const body of [{ email: owner.email, role: 'viewer' }, { email: 'x@example.com', role: 'owner' }, { email: 'nobody', role: 'viewer' }, { role: 'viewer' }]) {
        const res = await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner.token, body });
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.json().error, 'bad_request');
      }
      assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${id}/shares`, { token: owner.token })).json(), { ownerId: owner.id, ownerEmail: owner.email, shares: [], invitations: [] });
    });

    test('the last admin cannot leave or be demoted (400 bad_request); once another is admin, they can; members leave with `me`', async () => {
      const owner = await h.user();
      const colleague = await h.user();
      const workspace = (await h.call('POST', '/api/v1/workspaces', { token: owner.token, body: { name: 'Pair' } })).json().id;
      await h.call('POST', `/api/v1/workspaces/${workspace}/members`, { token: owner.token, body: { email: colleague.email, role: 'viewer' } });
      for (const [method, url, body] of [
        ['DELETE', `/api/v1/workspaces/${workspace}/members/me`, undefined],
        ['PATCH', `/api/v1/workspaces/${workspace}/members/${owner.id}`, { role: 'editor' }],
      ] as const) {
        const res = await h.call(method, url, { token: owner.token, ...(body ? { body } : {}) });
        assert.equal(res.statusCode, 400);
        assert.match(res.json().message, /at least one admin/);
      }
      assert.equal((await h.call('PATCH', `/api/v1/workspaces/${workspace}/members/${colleague.id}`, { token: owner.token, body: { role: 'admin' } })).json().role, 'admin');
      assert.equal((await h.call('DELETE', `/api/v1/workspaces/${workspace}/members/me`, { token: owner.token })).statusCode, 204);
      assert.equal((await h.call('GET', `/api/v1/workspaces/${workspace}`, { token: owner.token })).statusCode, 404, 'gone from the workspace');
      const left = (await h.call('GET', `/api/v1/workspaces/${workspace}`, { token: colleague.token })).json();
      assert.equal(left.memberCount, 1);
    });
  });
}

describe('quota settings', () => {
  test('DEFAULT_QUOTA takes a number or unlimited; INVITE_QUOTA_BONUS and INVITE_QUOTA_CAP whole numbers; defaults 3, 2 and 10', () => {
    const defaults = loadConfig({});
    assert.deepEqual([defaults.defaultQuota, defaults.inviteQuotaBonus, defaults.inviteQuotaCap], [3, 2, 10]);
    assert.equal(loadConfig({ DEFAULT_QUOTA: 'unlimited' }).defaultQuota, Infinity);
    assert.equal(loadConfig({ DEFAULT_QUOTA: '0' }).defaultQuota, 0);
    for (const [name, value] of [
      ['DEFAULT_QUOTA', 'lots'],
      ['DEFAULT_QUOTA', '-1'],
      ['DEFAULT_QUOTA', '2.5'],
      ['INVITE_QUOTA_BONUS', 'unlimited'],
      ['INVITE_QUOTA_BONUS', '-2'],
      ['INVITE_QUOTA_CAP', 'ten'],
    ] as const) {
      assert.throws(() => loadConfig({ [name]: value }), new RegExp(`^Error: ${name} must be`), `${name}=${value}`);
    }
  });

  test('an invalid setting stops the start with one line naming it', () => {
    for (const [name, value, line] of [
      ['INVITE_QUOTA_CAP', 'plenty', 'INVITE_QUOTA_CAP must be a whole number (0 or more), got "plenty"'],
      ['SIGNUP', 'invited', 'SIGNUP must be "open", "invite" or "closed", got "invited"'],
      ['SIGNUP_DOMAINS', 'example.com,@example.org', 'SIGNUP_DOMAINS must be email domains separated by commas (example.com,example.org), got "example.com,@example.org"'],
      ['FAST_WORKERS', '0', 'FAST_WORKERS must be a positive integer, got "0"'],
    ] as const) {
      // The timeout only keeps a server that started by mistake from holding the test for ever.
      const started = spawnSync(process.execPath, [...TYPESCRIPT_ARGS, 'src/main.ts'], { env: { ...process.env, [name]: value }, encoding: 'utf8', timeout: 120_000 });
      assert.equal(started.status, 1, `${name}=${value}`);
      const lines = started.stderr.split('\n').filter((text) => text.startsWith('drawbridge:'));
      assert.deepEqual(lines, [`drawbridge: ${line}`]);
    }
  });

  test('with DEFAULT_QUOTA=unlimited, a new account signing up keeps as many diagrams as it likes', async () => {
    const h = await startHarness({ env: { DEFAULT_QUOTA: 'unlimited' } });
    try {
      const email = uniqueEmail('free');
      const client = new FormClient(h);
      await client.post('/signup', { email, password: PASSWORD, confirm: PASSWORD });
      assert.equal((await h.store.accounts.findByEmail(email))?.quota, Infinity);
      const operatorMade = await h.admin('user', 'create', '--email', uniqueEmail('ops'));
      assert.equal(operatorMade.quota, 'unlimited');
      const token = (await h.admin('token', 'mint', '--email', operatorMade.email, '--caps', 'read,write')).token;
      for (let i = 0; i < 5; i += 1) assert.equal((await h.call('POST', '/api/v1/diagrams', { token, body: { scene: sceneOf(1) } })).statusCode, 201);
    } finally {
      await h.close();
    }
  });
});
