import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_QUOTA } from '../../src/auth/accounts.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { outboxDirectory } from '../../src/mail/mailer.ts';
import { SIGN_UP_COOKIE } from '../../src/web/accounts/sign-up-browser.ts';
import { SESSION_COOKIE } from '../../src/web/session.ts';
import { type Harness, startHarness, uniqueEmail } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn } from '../helpers/web-session.ts';
import { csrfOf, FormClient, linkIn, mailsTo, signedInClient, waitForMail } from './form-client.ts';

const PASSWORD = 'correct horse battery';
const TOKENS_PAGE = '/app/settings/tokens';

let h: Harness;
describe('web/accounts', () => {
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  async function signUp(client: FormClient, email: string, password = PASSWORD) {
    return client.post('/signup', { email, password, confirm: password });
  }

  /** Signs up and follows the verification link; returns the account. */
  async function verifiedAccount(email: string, password = PASSWORD) {
    const client = new FormClient(h);
    assert.equal((await signUp(client, email, password)).statusCode, 200);
    const verified = await client.get(linkIn(h, await waitForMail(h, email), '/verify?token='));
    assert.equal(verified.statusCode, 303);
    const user = await h.store.accounts.findByEmail(email);
    assert.ok(user?.emailVerified);
    return user;
  }

  /** True when the client's session is signed in (the tokens page answers instead of sending it to the login page). */
  async function isSignedIn(client: FormClient): Promise<boolean> {
    const page = await client.get(TOKENS_PAGE);
    if (page.statusCode === 200) return true;
    assert.equal(page.statusCode, 303);
    assert.match(String(page.headers.location), /^\/login\?next=/);
    return false;
  }

  describe('sign-up, verification and sign-in', () => {
    test('sign up, follow the emailed link, sign in: a session cookie that is HttpOnly, SameSite=Lax, Path=/ and not Secure on http', async () => {
      const email = uniqueEmail('signup');
      const client = new FormClient(h);
      const form = await client.get('/signup');
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /name="confirm"/);
      assert.match(String(form.headers['content-security-policy']), /script-src 'self'/);

      const answered = await signUp(client, `  ${email.toUpperCase()} `);
      assert.equal(answered.statusCode, 200);
      assert.match(answered.body, /Check your inbox/);
      assert.equal(client.cookies.has(SESSION_COOKIE), false, 'signing up does not sign in');

      const user = await h.store.accounts.findByEmail(email);
      assert.ok(user, 'the address is stored trimmed and lower-cased, as the admin CLI stores it');
      assert.equal(user.emailVerified, false);
      assert.equal(user.quota, DEFAULT_QUOTA);

      const mail = await waitForMail(h, email);
      assert.match(mail.headers.subject!, /Verify/);
      assert.ok(mail.headers.from && mail.headers.date && mail.headers['message-id'], 'an RFC 822 message with From, Date and Message-ID');
      assert.equal(Number.isNaN(Date.parse(mail.headers.date!)), false);
      const link = linkIn(h, mail, '/verify?token=');

      // Opened in another browser (a phone, say), the link verifies but does not sign in there.
      const verified = await new FormClient(h).get(link);
      assert.equal(verified.statusCode, 303);
      assert.equal(verified.headers.location, '/login?verified=1', 'verifying elsewhere does not sign in');
      assert.equal((await h.store.accounts.findByEmail(email))?.emailVerified, true);
      assert.match((await client.get('/login?verified=1')).body, /Your email address is verified/);

      const signedIn = await client.post('/login', { email, password: PASSWORD, next: '' });
      assert.equal(signedIn.statusCode, 303);
      assert.equal(signedIn.headers.location, '/app');
      const cookie = String(signedIn.headers['set-cookie']);
      assert.match(cookie, new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
      assert.match(cookie, /; HttpOnly/i);
      assert.match(cookie, /; SameSite=Lax/i);
      assert.match(cookie, /; Path=\//i);
      assert.doesNotMatch(cookie, /Secure/i);
      assert.ok(await isSignedIn(client));
    });

    test('following the verification link in the browser that signed up signs it in; the sign-up cookie is used up', async () => {
      const email = uniqueEmail('verify-signs-in');
      const client = new FormClient(h);
      await signUp(client, email);
      assert.equal(client.cookies.has(SESSION_COOKIE), false);
      assert.ok(client.cookies.has(SIGN_UP_COOKIE), 'sign-up marks the browser');
      const verified = await client.get(linkIn(h, await waitForMail(h, email), '/verify?token='));
      assert.equal(verified.statusCode, 303);
      assert.equal(verified.headers.location, '/app');
      const cookies = ([] as string[]).concat(verified.headers['set-cookie'] as string | string[]);
      const session = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      assert.ok(session, `a session cookie: ${cookies.join(' | ')}`);
      assert.match(session, /; HttpOnly/i);
      assert.match(session, /; SameSite=Lax/i);
      assert.equal(client.cookies.has(SIGN_UP_COOKIE), false, 'the sign-up cookie is cleared');
      assert.ok(await isSignedIn(client));
      const banner = await client.get(TOKENS_PAGE);
      assert.doesNotMatch(banner.body, /Verify your email address/);
    });

    test("the sign-up cookie of a taken address signs nobody in, and another account's link does not use it", async () => {
      const taken = uniqueEmail('taken-cookie');
      await verifiedAccount(taken);
      const client = new FormClient(h);
      await signUp(client, taken, 'attacker password');
      assert.ok(client.cookies.has(SIGN_UP_COOKIE), 'the same cookie as for a new address');
      // Someone else's verification link followed in this browser only verifies.
      const other = uniqueEmail('other-account');
      await signUp(new FormClient(h), other);
      const verified = await client.get(linkIn(h, await waitForMail(h, other), '/verify?token='));
      assert.equal(verified.headers.location, '/login?verified=1');
      assert.equal(await isSignedIn(client), false);
    });

    test('behind https the session cookie is Secure', async () => {
      const secure = await startHarness({ env: { PUBLIC_URL: 'https://drawbridge.example' } });
      try {
        const email = uniqueEmail('secure');
        const created = await secure.admin('user', 'create', '--email', email);
        await secure.store.accounts.setPasswordHash(created.id, await hashPassword(PASSWORD));
        const response = await new FormClient(secure).post('/login', { email, password: PASSWORD });
        assert.equal(response.statusCode, 303);
        const cookie = String(response.headers['set-cookie']);
        assert.match(cookie, /; Secure/i);
        assert.match(cookie, /; HttpOnly/i);
        assert.match(cookie, /; SameSite=Lax/i);
      } finally {
        await secure.close();
      }
    });

    test('signing up with a taken address answers the same page, changes nothing, and mails the owner a notice instead of a link', async () => {
      const email = uniqueEmail('taken');
      await verifiedAccount(email);
      const stranger = new FormClient(h);
      const freshEmail = uniqueEmail('fresh');
      const fresh = await signUp(stranger, freshEmail, 'another password!');
      const taken = await signUp(stranger, email, 'attacker password');
      assert.equal(taken.statusCode, fresh.statusCode);
      assert.equal(taken.body.replaceAll(email, 'X'), fresh.body.replaceAll(freshEmail, 'X'));

      const notice = await waitForMail(h, email, 2);
      assert.match(notice.headers.subject!, /already|tried/i);
      assert.doesNotMatch(notice.body, /verify\?token=/);
      assert.match(notice.body, new RegExp(`${h.config.publicUrl}/reset`));

      assert.equal((await new FormClient(h).post('/login', { email, password: 'attacker password' })).statusCode, 401);
      assert.equal((await new FormClient(h).post('/login', { email, password: PASSWORD })).statusCode, 303);
    });

    test('sign-up refuses a bad address, a short password and a mismatched confirmation, and creates nothing', async () => {
      const client = new FormClient(h);
      const email = uniqueEmail('refused');
      const cases = [
        { email: 'not-an-address', password: PASSWORD, confirm: PASSWORD, message: /valid email/ },
        { email, password: 'short', confirm: 'short', message: /at least 10 characters/ },
        { email, password: PASSWORD, confirm: `${PASSWORD}!`, message: /differ/ },
      ];
      for (const { message, ...fields } of cases) {
        const response = await client.post('/signup', fields);
        assert.equal(response.statusCode, 400);
        assert.match(response.body, message);
        assert.doesNotMatch(response.body, new RegExp(PASSWORD), 'a password is never echoed');
      }
      assert.equal(await h.store.accounts.findByEmail(email), null);
      assert.deepEqual(mailsTo(h, email), []);
    });

    test('a verification link works once, and a HEAD request does not use it', async () => {
      const email = uniqueEmail('once');
      const client = new FormClient(h);
      await signUp(client, email);
      const link = linkIn(h, await waitForMail(h, email), '/verify?token=');
      assert.notEqual((await h.call('HEAD', link)).statusCode, 303, 'a link checker\'s HEAD request does not use it up');
      assert.equal((await client.get(link)).statusCode, 303);
      const again = await client.get(link);
      assert.equal(again.statusCode, 400);
      assert.match(again.body, /used already|expired/);
    });

    test('an expired verification link fails and leaves the address unverified', async () => {
      const email = uniqueEmail('expired');
      await signUp(new FormClient(h), email);
      const link = linkIn(h, await waitForMail(h, email), '/verify?token=');
      const user = await h.store.accounts.findByEmail(email);
      await h.store.db.updateTable('email_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', user!.id).execute();
      assert.equal((await new FormClient(h).get(link)).statusCode, 400);
      assert.equal((await h.store.accounts.findByEmail(email))?.emailVerified, false);
      assert.equal((await new FormClient(h).get('/verify?token=nonsense')).statusCode, 400);
    });

    test('verifying ends the sessions someone opened with the address before its owner verified it', async () => {
      const email = uniqueEmail('prehijack');
      const squatter = new FormClient(h);
      await signUp(squatter, email, 'squatter password');
      assert.equal((await squatter.post('/login', { email, password: 'squatter password' })).statusCode, 303, 'an unverified account can sign in');
      assert.ok(await isSignedIn(squatter));

      const owner = new FormClient(h);
      assert.equal((await owner.get(linkIn(h, await waitForMail(h, email), '/verify?token='))).headers.location, '/login?verified=1');
      assert.equal(await isSignedIn(squatter), false);
    });

    test('following the link while signed in to that account keeps the session and goes to the dashboard', async () => {
      const email = uniqueEmail('keep');
      const client = new FormClient(h);
      await signUp(client, email);
      await client.post('/login', { email, password: PASSWORD });
      const banner = await client.get(TOKENS_PAGE);
      assert.match(banner.body, /Verify your email address/);
      const verified = await client.get(linkIn(h, await waitForMail(h, email), '/verify?token='));
      assert.equal(verified.headers.location, '/app');
      const after = await client.get(TOKENS_PAGE);
      assert.equal(after.statusCode, 200);
      assert.doesNotMatch(after.body, /Verify your email address/);
    });

    test('a signed-in unverified account can ask for a new verification link (with its CSRF token)', async () => {
      const email = uniqueEmail('resend');
      const { client } = await signedInClient(h, { email, unverified: true });
      assert.equal((await client.post('/verify/resend', {})).statusCode, 403);
      const sent = await client.submit(TOKENS_PAGE, '/verify/resend', {});
      assert.equal(sent.statusCode, 200);
      assert.equal((await client.get(linkIn(h, await waitForMail(h, email), '/verify?token='))).headers.location, '/app');
    });
  });

  describe('sign-in', () => {
    test('a wrong password, an unknown address and an account without a password get one generic answer', async () => {
      const email = uniqueEmail('generic');
      await verifiedAccount(email);
      const passwordless = uniqueEmail('nopassword');
      await h.admin('user', 'create', '--email', passwordless);
      const answers = await Promise.all([
        new FormClient(h).post('/login', { email, password: 'wrong password!' }),
        new FormClient(h).post('/login', { email: uniqueEmail('unknown'), password: PASSWORD }),
        new FormClient(h).post('/login', { email: passwordless, password: PASSWORD }),
      ]);
      for (const answer of answers) {
        assert.equal(answer.statusCode, 401);
        assert.match(answer.body, /The email or password is wrong\./);
        assert.equal(answer.headers['set-cookie'], undefined);
      }
    });

    test('after sign-in, next leads only to a path on this site', async () => {
      const email = uniqueEmail('next');
      await verifiedAccount(email);
      const cases: Array<[string, string]> = [
        ['/app/settings/tokens?x=1', '/app/settings/tokens?x=1'],
        ['//evil.example/', '/app'],
        ['/\\evil.example/', '/app'],
        ['https://evil.example/', '/app'],
        ['/\t/evil.example/', '/app'],
        ['javascript:alert(1)', '/app'],
        ['', '/app'],
      ];
      for (const [next, expected] of cases) {
        const response = await new FormClient(h).post('/login', { email, password: PASSWORD, next });
        assert.equal(response.headers.location, expected, JSON.stringify(next));
      }
      const signedIn = new FormClient(h);
      await signedIn.post('/login', { email, password: PASSWORD });
      assert.equal((await signedIn.get('/login?next=//evil.example')).headers.location, '/app');
      assert.equal((await signedIn.get(`/login?next=${encodeURIComponent('/app/settings/tokens')}`)).headers.location, '/app/settings/tokens');
    });

    test('a signed-out visit to a page goes to the login page, which carries the way back', async () => {
      const response = await new FormClient(h).get(TOKENS_PAGE);
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, `/login?next=${encodeURIComponent(TOKENS_PAGE)}`);
      const login = await new FormClient(h).get(String(response.headers.location));
      assert.ok(login.body.includes(`name="next" value="${TOKENS_PAGE}"`));
    });

    test('sign-in attempts are limited to 10 a minute per address and client, and 50 per client: then 429 with Retry-After', async () => {
      const limited = await startHarness();
      try {
        const attempt = (ip: string, email: string, password = 'wrong password!') =>
          limited.app.inject({ method: 'POST', url: '/login', remoteAddress: ip, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ email, password }).toString() });
        const email = uniqueEmail('limited');
        await signedInClient(limited, { email }); // one success from 127.0.0.1 does not count against 10.0.0.1

        for (let i = 0; i < 10; i++) assert.equal((await attempt('10.0.0.1', email)).statusCode, 401, `attempt ${i + 1}`);
        const blocked = await attempt('10.0.0.1', email, PASSWORD);
        assert.equal(blocked.statusCode, 429, 'even the right password waits');
        assert.ok(Number(blocked.headers['retry-after']) >= 1 && Number(blocked.headers['retry-after']) <= 60);
        assert.match(blocked.body, /Too many sign-in attempts/);
        assert.equal(blocked.headers['set-cookie'], undefined);
        assert.equal((await attempt('10.0.0.2', email, PASSWORD)).statusCode, 303, 'another client is not blocked');

        for (let i = 0; i < 40; i++) assert.equal((await attempt('10.0.0.3', uniqueEmail(`spray${i}`))).statusCode, 401);
        for (let i = 0; i < 10; i++) assert.equal((await attempt('10.0.0.3', email)).statusCode, 401);
        const sprayed = await attempt('10.0.0.3', uniqueEmail('spray-last'));
        assert.equal(sprayed.statusCode, 429, 'the 51st attempt from one client');
        assert.ok(Number(sprayed.headers['retry-after']) >= 1);
      } finally {
        await limited.close();
      }
    });

    test('the sign-in limit holds on PostgreSQL too', { skip: skipWithoutPostgres }, async () => {
      const pgHarness = await startHarness({ engine: 'postgres' });
      try {
        const email = uniqueEmail('pg-limit');
        const statuses = [];
        for (let i = 0; i < 11; i++) statuses.push((await new FormClient(pgHarness).post('/login', { email, password: 'wrong password!' })).statusCode);
        assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
      } finally {
        await pgHarness.close();
      }
    });
  });

  describe('CSRF', () => {
    test('sign-out without the CSRF token, with a wrong one, or from another origin (null included) is refused and the session lives on', async () => {
      const { client } = await signedInClient(h, { email: uniqueEmail('csrf') });
      const page = await client.get(TOKENS_PAGE);
      const csrf = csrfOf(page.body);
      for (const [fields, headers] of [
        [{}, {}],
        [{ _csrf: 'wrong' }, {}],
        // One character changed (never to itself: a token may end in x).
        [{ _csrf: `${csrf.slice(0, -1)}${csrf.endsWith('x') ? 'y' : 'x'}` }, {}],
        [{ _csrf: csrf }, { origin: 'https://evil.example' }],
        [{ _csrf: csrf }, { origin: 'null' }],
      ] as Array<[Record<string, string>, Record<string, string>]>) {
        const response = await client.post('/logout', fields, headers);
        assert.equal(response.statusCode, 403, JSON.stringify([fields, headers]));
        assert.match(response.body, /That did not work/);
        assert.ok(await isSignedIn(client));
      }
      const out = await client.post('/logout', { _csrf: csrf }, { origin: h.config.publicUrl });
      assert.equal(out.statusCode, 303);
      assert.equal(out.headers.location, '/login');
      assert.equal(await isSignedIn(client), false);
    });

    test('a signed-out session cookie no longer works, even if it was copied', async () => {
      const { client } = await signedInClient(h, { email: uniqueEmail('copied') });
      const copy = new FormClient(h);
      for (const [name, value] of client.cookies) copy.cookies.set(name, value);
      await client.submit(TOKENS_PAGE, '/logout', {});
      assert.equal(await isSignedIn(copy), false);
    });

    test('the forms sent before there is a session refuse posts from other sites', async () => {
      const email = uniqueEmail('cross');
      await verifiedAccount(email);
      const foreign: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }];
      for (const headers of foreign) {
        const stranger = new FormClient(h, headers);
        const login = await stranger.post('/login', { email, password: PASSWORD });
        assert.equal(login.statusCode, 403, JSON.stringify(headers));
        assert.equal(login.headers['set-cookie'], undefined);
        const signup = await signUp(stranger, uniqueEmail('cross-signup'));
        assert.equal(signup.statusCode, 403);
        assert.equal((await stranger.post('/reset', { email })).statusCode, 403);
      }
      const sameSite = new FormClient(h, { origin: h.config.publicUrl, 'sec-fetch-site': 'same-origin' });
      assert.equal((await sameSite.post('/login', { email, password: PASSWORD })).statusCode, 303);
    });
  });

  describe('password reset', () => {
    test('asking for a link answers the same whether or not the address has an account; only an account gets mail', async () => {
      const email = uniqueEmail('reset-known');
      await verifiedAccount(email);
      const unknown = uniqueEmail('reset-unknown');
      const known = await new FormClient(h).post('/reset', { email });
      const missing = await new FormClient(h).post('/reset', { email: unknown });
      assert.equal(known.statusCode, 200);
      assert.equal(missing.statusCode, 200);
      assert.equal(known.body.replace(email, 'X'), missing.body.replace(unknown, 'X'));
      assert.match((await waitForMail(h, email, 2)).headers.subject!, /Reset/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(mailsTo(h, unknown), []);
    });

    test('a reset sets the new password, ends every other session, signs in, and works once', async () => {
      const email = uniqueEmail('reset');
      await verifiedAccount(email);
      const elsewhere = new FormClient(h);
      await elsewhere.post('/login', { email, password: PASSWORD });
      assert.ok(await isSignedIn(elsewhere));

      const client = new FormClient(h);
      await client.post('/reset', { email });
      const link = linkIn(h, await waitForMail(h, email, 2), '/reset/');
      const form = await client.get(link);
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /Choose a new password/);

      const typo = await client.post(link, { password: 'new password 1', confirm: 'new password 2' });
      assert.equal(typo.statusCode, 400, 'a mismatch does not spend the link');
      const done = await client.post(link, { password: 'new password 1', confirm: 'new password 1' });
      assert.equal(done.statusCode, 303);
      assert.equal(done.headers.location, '/app');
      assert.ok(await isSignedIn(client), 'the reset signs in');
      assert.equal(await isSignedIn(elsewhere), false, 'every other session ended');

      assert.equal((await new FormClient(h).post('/login', { email, password: PASSWORD })).statusCode, 401);
      assert.equal((await new FormClient(h).post('/login', { email, password: 'new password 1' })).statusCode, 303);
      const reused = await new FormClient(h).post(link, { password: 'third password', confirm: 'third password' });
      assert.equal(reused.statusCode, 400);
      assert.equal(reused.headers['set-cookie'], undefined);
    });

    test('setting a new password through one reset link cancels the other links still in the mailbox', async () => {
      const email = uniqueEmail('two-links');
      await verifiedAccount(email);
      const client = new FormClient(h);
      await client.post('/reset', { email });
      const first = linkIn(h, await waitForMail(h, email, 2), '/reset/');
      await client.post('/reset', { email });
      const second = linkIn(h, await waitForMail(h, email, 3), '/reset/');
      assert.notEqual(first, second);
      assert.equal((await client.post(second, { password: 'new password 1', confirm: 'new password 1' })).statusCode, 303);
      const older = await new FormClient(h).post(first, { password: 'attacker pass', confirm: 'attacker pass' });
      assert.equal(older.statusCode, 400, 'the older link no longer works');
      assert.equal((await new FormClient(h).post('/login', { email, password: 'new password 1' })).statusCode, 303);
    });

    test('an account made by the admin CLI has no password until it sets one through reset', async () => {
      const email = uniqueEmail('admin-made');
      await h.admin('user', 'create', '--email', email);
      assert.equal((await new FormClient(h).post('/login', { email, password: PASSWORD })).statusCode, 401);
      const client = new FormClient(h);
      await client.post('/reset', { email });
      const link = linkIn(h, await waitForMail(h, email), '/reset/');
      assert.equal((await client.post(link, { password: PASSWORD, confirm: PASSWORD })).statusCode, 303);
      assert.equal((await new FormClient(h).post('/login', { email, password: PASSWORD })).statusCode, 303);
    });

    test('an expired reset link fails and the password stays', async () => {
      const email = uniqueEmail('reset-expired');
      await verifiedAccount(email);
      await new FormClient(h).post('/reset', { email });
      const link = linkIn(h, await waitForMail(h, email, 2), '/reset/');
      const user = await h.store.accounts.findByEmail(email);
      await h.store.db
        .updateTable('email_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', user!.id)
        .where('purpose', '=', 'reset_password')
        .execute();
      assert.equal((await new FormClient(h).post(link, { password: 'new password 1', confirm: 'new password 1' })).statusCode, 400);
      assert.equal((await new FormClient(h).post('/login', { email, password: PASSWORD })).statusCode, 303);
      assert.equal((await new FormClient(h).get('/reset/not-a-token')).statusCode, 400);
    });
  });

  describe('pages and logs', () => {
    test('every account page escapes what the user typed', async () => {
      const hostile = '<svg/onload=alert(1)>@evil.example';
      const client = new FormClient(h);
      const pages = [
        await client.post('/signup', { email: hostile, password: PASSWORD, confirm: PASSWORD }),
        await client.post('/signup', { email: '"><script>alert(1)</script>', password: PASSWORD, confirm: PASSWORD }),
        await client.post('/login', { email: hostile, password: PASSWORD, next: '"><script>alert(1)</script>' }),
        await client.get(`/login?next=${encodeURIComponent('/"><script>alert(1)</script>')}`),
        await client.post('/reset', { email: hostile }),
        await client.post('/reset', { email: '"><script>alert(1)</script>' }),
      ];
      for (const page of pages) {
        assert.doesNotMatch(page.body, /<svg\/onload|<script>alert/, page.body);
      }
      // The address is valid, so the account exists: its pages escape it too.
      const user = await h.store.accounts.findByEmail(hostile);
      assert.ok(user);
      const session = await signIn(h, user.id);
      const tokens = await h.call('GET', TOKENS_PAGE, { headers: { cookie: session.cookie } });
      assert.equal(tokens.statusCode, 200);
      assert.doesNotMatch(tokens.body, /<svg\/onload/);
      assert.match(tokens.body, /&#60;svg\/onload=alert\(1\)&#62;@evil\.example/);
    });

    test('mail goes to the outbox as files only the service can read, logged by file name; no password, link or token reaches the logs', async () => {
      const email = uniqueEmail('logs');
      const password = 'a very distinctive password';
      const client = new FormClient(h);
      await signUp(client, email, password);
      const mail = await waitForMail(h, email);
      const verify = linkIn(h, mail, '/verify?token=');
      await client.get(verify);
      await client.post('/login', { email, password });
      await client.post('/reset', { email });
      const reset = linkIn(h, await waitForMail(h, email, 2), '/reset/');
      await client.get(reset);
      await client.post(reset, { password: 'another distinctive password', confirm: 'another distinctive password' });

      assert.equal(fs.statSync(mail.file).mode & 0o077, 0, 'the outbox files are private');
      assert.equal(fs.statSync(outboxDirectory(h.config.dataDir)).mode & 0o077, 0);
      const logs = h.logs();
      assert.ok(logs.includes(mail.file), 'the log names the file');
      for (const secret of [password, 'another distinctive password', verify.split('=')[1]!, reset.split('/').pop()!]) {
        assert.equal(logs.includes(secret), false, `the logs hold ${secret}`);
      }
      assert.match(logs, /\/verify\?token=\[redacted\]/);
      assert.match(logs, /\/reset\/\[redacted\]/);
    });

    test('with SMTP_URL set, mail goes to the relay and nothing to the outbox', async () => {
      const relay = await fakeSmtpRelay();
      const smtp = await startHarness({ env: { SMTP_URL: `smtp://127.0.0.1:${relay.port}`, MAIL_FROM: 'Drawbridge <accounts@drawbridge.test>' } });
      try {
        const email = uniqueEmail('smtp');
        assert.equal((await signUp(new FormClient(smtp), email)).statusCode, 200);
        const message = await relay.nextMessage();
        assert.equal(message.from, 'accounts@drawbridge.test');
        assert.deepEqual(message.to, [email]);
        assert.match(message.data, /Subject: Verify your Drawbridge email address/);
        assert.match(message.data.replace(/=\r\n/g, ''), /http:\/\/drawbridge\.test\/verify\?token=/);
        assert.equal(fs.existsSync(outboxDirectory(smtp.config.dataDir)), false);
        // The relay holds the message before the mailer has read its acknowledgement, and only then logs the sending.
        await smtp.logged(/"msg":"mail sent"/);
      } finally {
        await smtp.close();
        await relay.close();
      }
    });
  });

  /** Just enough of an SMTP server (no TLS, no auth) to receive what the mailer sends. */
  async function fakeSmtpRelay() {
    type Message = { from: string; to: string[]; data: string };
    const received: Message[] = [];
    const waiting: Array<(message: Message) => void> = [];
    const deliver = (message: Message) => {
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else received.push(message);
    };
    const server = net.createServer((socket) => {
      let buffer = '';
      let envelope = { from: '', to: [] as string[] };
      let data: string | null = null;
      socket.write('220 fake ESMTP\r\n');
      socket.on('data', (chunk) => {
        buffer += chunk.toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\r\n')) !== -1) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (data !== null) {
            if (line === '.') {
              deliver({ ...envelope, data });
              envelope = { from: '', to: [] };
              data = null;
              socket.write('250 queued\r\n');
            } else data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`;
            continue;
          }
          const address = /<([^>]*)>/.exec(line)?.[1] ?? '';
          switch (line.slice(0, 4).toUpperCase()) {
            case 'MAIL':
              envelope.from = address;
              break;
            case 'RCPT':
              envelope.to.push(address);
              break;
            case 'DATA':
              data = '';
              socket.write('354 go on\r\n');
              continue;
            case 'QUIT':
              socket.end('221 bye\r\n');
              continue;
          }
          socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      /** The next message the relay receives (or has received), as soon as its data has ended. */
      nextMessage(timeoutMs = 5000): Promise<Message> {
        const message = received.shift();
        if (message) return Promise.resolve(message);
        return new Promise((resolve, reject) => {
          const waiter = (arrived: Message) => {
            clearTimeout(timer);
            resolve(arrived);
          };
          const timer = setTimeout(() => {
            waiting.splice(waiting.indexOf(waiter), 1);
            reject(new Error(`the relay received nothing within ${timeoutMs} ms`));
          }, timeoutMs);
          waiting.push(waiter);
        });
      },
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
});
