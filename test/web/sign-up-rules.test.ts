import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Engine, type Harness, sceneOf, startHarness, type TestUser, uniqueEmail } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { FormClient, linkIn, mailsTo, waitForMail } from './form-client.ts';

/**
 * Who may make an account on the sign-up page: SIGNUP (open, invite, closed)
 * and SIGNUP_DOMAINS, through the real form routes. A refused sign-up writes
 * nothing and mails nobody; an invitation admits its address.
 */
const PASSWORD = 'correct horse battery';

const signUp = (h: Harness, email: string) => new FormClient(h).post('/signup', { email, password: PASSWORD, confirm: PASSWORD });
const accountOf = (h: Harness, email: string) => h.store.accounts.findByEmail(email);
const newDiagram = async (h: Harness, owner: TestUser) =>
  (await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Plan', scene: sceneOf(1) } })).json().id as string;

/** Invites the address to a new diagram of a new owner, through the API; the invitation's id. */
async function invite(h: Harness, email: string): Promise<string> {
  const owner = await h.user();
  const invited = await h.call('POST', `/api/v1/diagrams/${await newDiagram(h, owner)}/shares`, { token: owner.token, body: { email, role: 'viewer' } });
  assert.equal(invited.statusCode, 200, invited.body);
  await waitForMail(h, email);
  return invited.json().invitation.id;
}

/** A refused sign-up: 403, the page says why, no account, no mail beyond what was there. */
async function assertRefused(h: Harness, email: string, reason: RegExp) {
  const mailsBefore = mailsTo(h, email).length;
  const answered = await signUp(h, email);
  assert.equal(answered.statusCode, 403, answered.body);
  assert.match(answered.body, reason);
  assert.equal(await accountOf(h, email), null, 'no account is made');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(mailsTo(h, email).length, mailsBefore, 'nothing is mailed');
}

async function assertSignedUp(h: Harness, email: string) {
  const answered = await signUp(h, email);
  assert.equal(answered.statusCode, 200, answered.body);
  assert.match(answered.body, /Check your inbox/);
  assert.equal((await accountOf(h, email))?.emailVerified, false);
}

for (const { engine, skip } of [
  { engine: 'sqlite' as Engine, skip: false as const },
  { engine: 'postgres' as Engine, skip: skipWithoutPostgres },
]) {
  describe(`sign-up rules on ${engine}`, { skip }, () => {
    describe('SIGNUP=open (the default)', () => {
      let h: Harness;
      before(async () => {
        h = await startHarness({ engine });
      });
      after(() => h.close());

      test('anyone signs up, at any domain, and the page says nothing about who may', async () => {
        const page = await new FormClient(h).get('/signup');
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /action="\/signup"/);
        assert.doesNotMatch(page.body, /invitation|Sign-up here/);
        assert.match((await new FormClient(h).get('/login')).body, /<a href="\/signup">Create an account<\/a>/);
        await assertSignedUp(h, `anyone-${Date.now()}@elsewhere.test`);
      });
    });

    describe('SIGNUP=closed', () => {
      let h: Harness;
      before(async () => {
        h = await startHarness({ engine, env: { SIGNUP: 'closed' } });
      });
      after(() => h.close());

      test('the sign-up page says sign-up is closed and shows no form; a POST is refused and makes nothing, even for an invited address', async () => {
        const page = await new FormClient(h).get('/signup');
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /Sign-up is closed/);
        assert.doesNotMatch(page.body, /<form/);
        const signIn = await new FormClient(h).get('/login');
        assert.match(signIn.body, /action="\/login"/);
        assert.doesNotMatch(signIn.body, /href="\/signup"/, 'the sign-in page offers no sign-up');
        await assertRefused(h, uniqueEmail('closed'), /Sign-up is closed/);
        const invited = uniqueEmail('invited');
        await invite(h, invited);
        await assertRefused(h, invited, /Sign-up is closed/);
      });

      test('the admin CLI still makes accounts', async () => {
        const email = uniqueEmail('operator');
        const made = await h.admin('user', 'create', '--email', email);
        assert.equal(made.email, email);
        assert.ok(await accountOf(h, email));
      });
    });

    describe('SIGNUP=invite', () => {
      let h: Harness;
      before(async () => {
        h = await startHarness({ engine, env: { SIGNUP: 'invite', SIGNUP_DOMAINS: 'example.com' } });
      });
      after(() => h.close());

      test('the page says sign-up is by invitation; an address without one is refused with that message and nothing is written', async () => {
        const page = await new FormClient(h).get('/signup');
        assert.match(page.body, /Sign-up here is by invitation/);
        assert.match((await new FormClient(h).get('/login')).body, /<a href="\/signup">Create an account \(by invitation\)<\/a>/);
        // SIGNUP_DOMAINS admits nobody without an invitation in this mode.
        await assertRefused(h, uniqueEmail('uninvited'), /by invitation only, and this address has no pending invitation/);
      });

      test('an invited address signs up, verifies, and its invitation is accepted', async () => {
        const email = `guest-${Date.now()}@partner.test`;
        await invite(h, email);
        const client = new FormClient(h);
        assert.equal((await client.post('/signup', { email, password: PASSWORD, confirm: PASSWORD })).statusCode, 200);
        const verified = await client.get(linkIn(h, await waitForMail(h, email, 2), '/verify?token='));
        assert.equal(verified.statusCode, 303);
        const account = await accountOf(h, email);
        assert.equal(account?.emailVerified, true);
        assert.equal((await h.store.sharing.hasPendingInvitation(email, new Date().toISOString())), false, 'the invitation was accepted');
      });

      test('an expired or cancelled invitation admits nobody', async () => {
        const late = uniqueEmail('late');
        const withdrawn = uniqueEmail('withdrawn');
        const expiring = await invite(h, late);
        await h.store.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expiring).execute();
        const cancelled = await invite(h, withdrawn);
        assert.equal(await h.store.sharing.cancelInvitation(cancelled), true);
        await assertRefused(h, late, /no pending invitation/);
        await assertRefused(h, withdrawn, /no pending invitation/);
      });
    });

    describe('SIGNUP_DOMAINS', () => {
      let h: Harness;
      before(async () => {
        h = await startHarness({ engine, env: { SIGNUP_DOMAINS: ' Example.com,example.org ' } });
      });
      after(() => h.close());

      test('the page names the domains; an address at one of them signs up, in any case', async () => {
        const page = await new FormClient(h).get('/signup');
        assert.match(page.body, /Sign-up here is for addresses at example.com or example.org, and for invited addresses/);
        await assertSignedUp(h, uniqueEmail('member'));
        await assertSignedUp(h, `someone-${Date.now()}@example.org`);
        const upper = `Upper-${Date.now()}@EXAMPLE.ORG`;
        assert.equal((await signUp(h, upper)).statusCode, 200);
        assert.ok(await accountOf(h, upper.toLowerCase()));
      });

      test('an address outside the list, a subdomain included, is refused with a message naming the domains', async () => {
        await assertRefused(h, `outsider-${Date.now()}@elsewhere.test`, /Sign-up here is for addresses at example.com or example.org\. Use one of those/);
        await assertRefused(h, `sub-${Date.now()}@eng.example.com`, /for addresses at example.com or example.org/);
        await assertRefused(h, `tricky-${Date.now()}@example.com.evil.test`, /for addresses at example.com or example.org/);
      });

      test('an invited address outside the list signs up: a member chose to invite it', async () => {
        const email = `partner-${Date.now()}@partner.test`;
        await invite(h, email);
        await assertSignedUp(h, email);
      });

      test('a form mistake is still answered first, with the page and its notice', async () => {
        const answered = await new FormClient(h).post('/signup', { email: `x-${Date.now()}@elsewhere.test`, password: 'short', confirm: 'short' });
        assert.equal(answered.statusCode, 400);
        assert.match(answered.body, /at least 10 characters/);
      });
    });
  });
}
