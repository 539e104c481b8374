import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { endOfDay, readMintForm } from '../../src/web/tokens-form.ts';
import { type Harness, startHarness, uniqueEmail } from '../helpers/harness.ts';
import { csrfOf, FormClient, signedInClient } from './form-client.ts';

const PAGE = '/app/settings/tokens';
const TOKEN_TEXT = /drw_pat_[0-9A-Za-z]+_[0-9A-Za-z]{6}/;
const DAY_MS = 24 * 60 * 60 * 1000;

let h: Harness;
describe('web/tokens', () => {
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  type MintFields = Partial<Record<'name' | 'expires' | 'expiresOn' | 'cap-read' | 'cap-write' | 'cap-publish' | 'cap-delete', string>>;

  async function mint(client: FormClient, fields: MintFields = {}) {
    return client.submit(PAGE, PAGE, { name: 'laptop', 'cap-read': '1', expires: '30', ...fields });
  }

  function mintedToken(html: string): string {
    const match = new RegExp(`id="new-token"[^>]*value="(${TOKEN_TEXT.source})"`).exec(html);
    if (!match) throw new Error('no new token on the page');
    return match[1]!;
  }

  const me = (token: string) => h.call('GET', '/api/v1/me', { token });

  describe('minting', () => {
    test('a minted token is shown once, works on the API with the chosen capabilities, and stops on its next call after revocation', async () => {
      const { client, userId } = await signedInClient(h, { email: uniqueEmail('mint') });
      const minted = await mint(client, { name: 'CI pipeline', 'cap-read': '1', 'cap-write': '1' });
      assert.equal(minted.statusCode, 200);
      assert.match(minted.body, /shown only this once/);
      assert.match(minted.body, /data-copy="new-token"/);
      const token = mintedToken(minted.body);
      assert.equal(minted.headers['cache-control'], 'no-store', 'the page with the token is not cached');

      const identity = await me(token);
      assert.equal(identity.statusCode, 200, identity.body);
      assert.deepEqual(identity.json().capabilities, ['read', 'write']);
      assert.equal(identity.json().id, userId);
      assert.equal((await h.call('GET', '/api/v1/diagrams', { token })).statusCode, 200);
      assert.equal((await h.call('POST', '/api/v1/folders', { token, body: { name: 'x' } })).statusCode, 201);
      const stranger = await h.call('PUT', '/api/v1/diagrams/00000000-0000-4000-8000-000000000000/public-link', { token, body: { enabled: true } });
      assert.equal(stranger.statusCode, 403, 'no publish capability');

      const list = await client.get(PAGE);
      assert.equal(list.statusCode, 200);
      assert.doesNotMatch(list.body, TOKEN_TEXT, 'the list never shows a token');
      assert.ok(list.body.includes(`…${token.slice(-4)}`), 'it shows the last four characters');
      assert.match(list.body, /CI pipeline/);
      assert.match(list.body, /read, write/);
      assert.match(list.body, /status-active/);

      const [stored] = await h.store.tokens.list(userId);
      const revoked = await client.post(`${PAGE}/${stored!.id}/revoke`, { _csrf: csrfOf(list.body) });
      assert.equal(revoked.statusCode, 303);
      assert.equal(revoked.headers.location, PAGE);
      const unauthorized = await me(token);
      assert.equal(unauthorized.statusCode, 401);
      assert.equal(unauthorized.json().error, 'unauthorized');
      const after = await client.get(PAGE);
      assert.match(after.body, /status-revoked/);
      assert.doesNotMatch(after.body, /Revoke<\/button>/, 'a revoked token offers no revoke button');
    });

    test('the expiry choices: 30, 60 or 90 days, through a chosen day, or never', async () => {
      const { client, userId } = await signedInClient(h, { email: uniqueEmail('expiry') });
      const before = Date.now();
      for (const days of ['30', '60', '90']) await mint(client, { name: `${days} days`, expires: days });
      const day = new Date(before + 10 * DAY_MS).toISOString().slice(0, 10);
      await mint(client, { name: 'dated', expires: 'date', expiresOn: day });
      await mint(client, { name: 'forever', expires: 'none' });

      const byName = new Map((await h.store.tokens.list(userId)).map((t) => [t.name, t]));
      for (const days of [30, 60, 90]) {
        const expiresAt = Date.parse(byName.get(`${days} days`)!.expiresAt!);
        assert.ok(Math.abs(expiresAt - (before + days * DAY_MS)) < 60_000, `${days} days`);
      }
      assert.equal(byName.get('dated')!.expiresAt, new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString(), 'works through the chosen day (UTC)');
      assert.equal(byName.get('forever')!.expiresAt, null);
      const page = await client.get(PAGE);
      assert.match(page.body, /<td[^>]*><span class="muted">never<\/span><\/td>/);
    });

    test('an expired token is listed as expired and refused by the API', async () => {
      const { client, userId } = await signedInClient(h, { email: uniqueEmail('expired') });
      const token = mintedToken((await mint(client, { name: 'short-lived' })).body);
      const [stored] = await h.store.tokens.list(userId);
      await h.store.db.updateTable('tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', stored!.id).execute();
      assert.equal((await me(token)).statusCode, 401);
      assert.match((await client.get(PAGE)).body, /status-expired/);
    });

    test('a mint without a name, without capabilities, with a past or missing date, or an unknown expiry is refused and mints nothing', async () => {
      const { client, userId } = await signedInClient(h, { email: uniqueEmail('refused') });
      const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
      const valid = { name: 'laptop', 'cap-read': '1', expires: '30' };
      const { 'cap-read': _read, ...noCapabilities } = valid;
      const cases: Array<[Record<string, string>, RegExp]> = [
        [{ ...valid, name: '  \u0007 ' }, /Give the token a name/],
        [noCapabilities, /at least one capability/],
        [{ ...valid, expires: 'date', expiresOn: yesterday }, /from today on/],
        [{ ...valid, expires: 'date', expiresOn: '2030-02-30' }, /Pick the date/],
        [{ ...valid, expires: 'date' }, /Pick the date/],
        [{ ...valid, expires: '365' }, /Choose when the token expires/],
      ];
      for (const [fields, message] of cases) {
        const response = await client.submit(PAGE, PAGE, fields);
        assert.equal(response.statusCode, 400, JSON.stringify(fields));
        assert.match(response.body, message);
        assert.doesNotMatch(response.body, TOKEN_TEXT);
      }
      assert.deepEqual(await h.store.tokens.list(userId), []);
    });

    test('the form reading is pure: capabilities are any non-empty subset, none implied', () => {
      const now = new Date('2025-03-10T12:00:00Z');
      const read = readMintForm({ name: ' deploy\tbot ', 'cap-delete': '1', expires: 'none' }, now);
      assert.deepEqual(read, { ok: true, choice: { name: 'deploy bot', capabilities: ['delete'], expiresAt: null } });
      assert.equal(endOfDay('2025-03-10')?.toISOString(), '2025-03-11T00:00:00.000Z');
      assert.equal(endOfDay('2025-13-01'), null);
      assert.equal(readMintForm({ name: 'x', 'cap-read': '1', expires: 'date', expiresOn: '2025-03-10' }, now).ok, true, 'today still counts');
      const long = readMintForm({ name: 'x'.repeat(300), 'cap-read': '1', expires: '30' }, now);
      assert.equal(long.ok && long.choice.name.length, 100, 'names are cut to 100 characters');
    });
  });

  describe('access', () => {
    test('revoking someone else\'s token is the same 404 as an unknown id, and the token keeps working', async () => {
      const owner = await h.user();
      const { client } = await signedInClient(h, { email: uniqueEmail('intruder') });
      const page = await client.get(PAGE);
      for (const id of [owner.tokenId, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
        const response = await client.post(`${PAGE}/${id}/revoke`, { _csrf: csrfOf(page.body) });
        assert.equal(response.statusCode, 404, id);
      }
      assert.equal((await h.store.tokens.find(owner.tokenId))?.revokedAt, null);
      assert.equal((await me(owner.token)).statusCode, 200);
      assert.doesNotMatch((await client.get(PAGE)).body, new RegExp(owner.tokenId), "another user's tokens are not listed");
    });

    test('minting and revoking need the CSRF token and this site as origin; refused requests change nothing', async () => {
      const { client, userId } = await signedInClient(h, { email: uniqueEmail('csrf') });
      const page = await client.get(PAGE);
      const csrf = csrfOf(page.body);
      const fields = { name: 'laptop', 'cap-read': '1', expires: '30' };
      assert.equal((await client.post(PAGE, fields)).statusCode, 403);
      assert.equal((await client.post(PAGE, { ...fields, _csrf: 'forged' })).statusCode, 403);
      assert.equal((await client.post(PAGE, { ...fields, _csrf: csrf }, { origin: 'https://evil.example' })).statusCode, 403);
      assert.deepEqual(await h.store.tokens.list(userId), []);

      const token = mintedToken((await client.post(PAGE, { ...fields, _csrf: csrf }, { 'x-csrf-token': csrf })).body);
      const [stored] = await h.store.tokens.list(userId);
      assert.equal((await client.post(`${PAGE}/${stored!.id}/revoke`, {})).statusCode, 403);
      assert.equal((await client.post(`${PAGE}/${stored!.id}/revoke`, { _csrf: csrf }, { origin: 'https://evil.example' })).statusCode, 403);
      assert.equal((await me(token)).statusCode, 200);
    });

    test('signed out, the page sends you to sign in and the forms are refused', async () => {
      const visitor = new FormClient(h);
      const page = await visitor.get(PAGE);
      assert.equal(page.statusCode, 303);
      assert.equal(page.headers.location, `/login?next=${encodeURIComponent(PAGE)}`);
      const post = await visitor.post(PAGE, { name: 'x', 'cap-read': '1', expires: '30' });
      assert.equal(post.statusCode, 303);
      assert.match(String(post.headers.location), /^\/login/);
    });

    test('an unverified account sees a banner and cannot mint a token until the address is verified', async () => {
      const { client, userId } = await signedInClient(h, { email: uniqueEmail('unverified'), unverified: true });
      const page = await client.get(PAGE);
      assert.match(page.body, /Verify your email address/);
      assert.doesNotMatch(page.body, /Create token/, 'no mint form');
      const refused = await mint(client, { 'cap-read': '1', 'cap-write': '1' });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /Verify your email address first/);
      assert.doesNotMatch(refused.body, /drw_pat_/);
      assert.deepEqual(await h.store.tokens.list(userId), [], 'nothing minted');
    });
  });

  describe('page safety', () => {
    test('token names are escaped on every page that shows them', async () => {
      const { client } = await signedInClient(h, { email: uniqueEmail('xss') });
      const hostile = '<img src=x onerror=alert(1)>"\'`';
      const minted = await mint(client, { name: hostile });
      const list = await client.get(PAGE);
      for (const body of [minted.body, list.body]) {
        assert.doesNotMatch(body, /<img src=x/);
        assert.ok(body.includes('&#60;img src=x onerror=alert(1)&#62;&#34;&#39;&#96;'));
      }
      const refused = await client.submit(PAGE, PAGE, { name: hostile, expires: '30' });
      assert.equal(refused.statusCode, 400);
      assert.doesNotMatch(refused.body, /<img src=x/);
    });

    test('the copy button comes from a script of this site (CSP script-src \'self\'), and the page works without it', async () => {
      const { client } = await signedInClient(h, { email: uniqueEmail('copy') });
      const minted = await mint(client);
      assert.match(String(minted.headers['content-security-policy']), /script-src 'self'/);
      const src = /<script src="([^"]+)" defer><\/script>/.exec(minted.body)?.[1];
      assert.equal(src, `${PAGE}/copy.js`);
      assert.match(minted.body, /<input id="new-token"[^>]*readonly/, 'without script the token is in a field to select');
      assert.match(minted.body, /data-copy="new-token" hidden/, 'the button shows only when the script runs');
      const script = await h.call('GET', src!);
      assert.equal(script.statusCode, 200);
      assert.match(String(script.headers['content-type']), /^text\/javascript/);
      assert.match(script.body, /navigator\.clipboard\.writeText/);
    });

    test('no token text reaches the logs', async () => {
      const { client } = await signedInClient(h, { email: uniqueEmail('logs') });
      const token = mintedToken((await mint(client)).body);
      await me(token);
      assert.equal(h.logs().includes(token), false);
      assert.equal(h.logs().includes(token.slice(8, 30)), false);
    });
  });
});
