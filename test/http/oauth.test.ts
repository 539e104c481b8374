// The OAuth authorization server and the resource server over a real server,
// driven with plain HTTP: registration, sign-in through the web form, consent,
// code + PKCE, tokens at the API and /mcp, refresh, revocation, and the ways
// each of those must fail. Both engines.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { StoreAdapter } from '../../src/app/oauth/adapter.ts';
import { authorizationServerOnFirstUse } from '../../src/app/oauth/authorization-server.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { type ListeningHarness, startHarness, uniqueEmail } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

const PASSWORD = 'correct horse battery staple';
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const REGISTRATIONS_PER_HOUR = 8;

/** A browser's cookies and redirects, by hand: every response is returned as it is (redirect: manual). */
class Browser {
  private readonly cookies = new Map<string, string>();
  readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, this.base), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now());
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  form(url: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

async function register(base: string, metadata: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test <Agent>', redirect_uris: [REDIRECT_URI], scope: 'read write publish delete', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...metadata }),
  });
}

async function token(base: string, fields: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json() };
}

interface Person {
  id: string;
  email: string;
  browser: Browser;
}

interface AuthorizeOptions {
  scope?: string;
  resource?: string | null;
  challenge?: string;
  method?: string;
  /** Which boxes to tick (default: the page's defaults); `deny` to refuse. */
  decide?: { tick?: string[] } | 'deny';
}

/**
 * Runs an authorization request in `person`'s browser up to the redirect back
 * to the client: the authorization endpoint, the sign-in form if needed, the
 * consent form. Returns the final redirect's query.
 */
async function authorize(person: Person, clientId: string, options: AuthorizeOptions = {}): Promise<URLSearchParams> {
  const { browser } = person;
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: options.scope ?? 'read write',
    state: 'state-1',
    code_challenge: options.challenge ?? pkce().challenge,
    code_challenge_method: options.method ?? 'S256',
  });
  if (options.resource !== null) params.set('resource', options.resource ?? `${browser.base}/mcp`);
  let res = await browser.fetch(`/oauth/authorize?${params}`);
  let location = res.headers.get('location') ?? '';
  if (location.startsWith(REDIRECT_URI)) return new URL(location).searchParams;
  assert.equal(res.status, 303, await res.clone().text());
  assert.match(location, /\/oauth\/interaction\/[\w-]+$/);
  const consentPath = new URL(location, browser.base).pathname;

  res = await browser.fetch(consentPath);
  if (res.status === 303) {
    assert.equal(res.headers.get('location'), `/login?next=${encodeURIComponent(consentPath)}`);
    res = await browser.form('/login', { email: person.email, password: PASSWORD, next: consentPath });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), consentPath);
    res = await browser.fetch(consentPath);
  }
  assert.equal(res.status, 200);
  const page = await res.text();
  const csrf = csrfOf(page);
  const decide = options.decide ?? {};
  const fields: Record<string, string> = { _csrf: csrf };
  if (decide === 'deny') fields.decision = 'deny';
  else {
    fields.decision = 'approve';
    const ticked = decide.tick ?? [...page.matchAll(/name="(cap-\w+)" value="1" checked/g)].map((m) => m[1]!.slice(4));
    for (const capability of ticked) fields[`cap-${capability}`] = '1';
  }
  res = await browser.form(consentPath, fields);
  assert.equal(res.status, 303, await res.clone().text());
  // Through the authorization server's resume step to the client.
  for (let hop = 0; hop < 3; hop++) {
    location = res.headers.get('location') ?? '';
    if (location.startsWith(REDIRECT_URI)) return new URL(location).searchParams;
    res = await browser.fetch(location);
  }
  assert.fail(`never redirected to the client; last at ${location}`);
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`OAuth (${engine})`, { skip: engine === 'postgres' && skipWithoutPostgres }, () => {
    let h: ListeningHarness;
    let base: string;

    async function person(options: { unverified?: boolean } = {}): Promise<Person> {
      const email = uniqueEmail('oauth');
      const created = await h.admin('user', 'create', '--email', email, ...(options.unverified ? ['--unverified'] : []));
      await h.store.accounts.setPasswordHash(created.id, await hashPassword(PASSWORD));
      return { id: created.id, email, browser: new Browser(base) };
    }

    async function client(): Promise<string> {
      const res = await register(base);
      assert.equal(res.status, 201);
      return (await res.json()).client_id;
    }

    /** A whole code flow: the tokens for `person`, with what the consent ticked. */
    async function connect(who: Person, options: AuthorizeOptions = {}) {
      const clientId = await client();
      const { verifier, challenge } = pkce();
      const query = await authorize(who, clientId, { ...options, challenge });
      const code = query.get('code');
      assert.ok(code, `no code: ${query}`);
      const exchanged = await token(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier, resource: options.resource ?? `${base}/mcp` });
      assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
      return { clientId, code, verifier, ...exchanged.body } as { clientId: string; code: string; verifier: string; access_token: string; refresh_token: string; scope: string; expires_in: number };
    }

    const api = (path: string, accessToken: string, init: RequestInit = {}) =>
      fetch(`${base}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });

    const mcp = (accessToken: string, method: string, params: unknown = {}) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });

    before(async () => {
      h = await startHarness({ engine, listen: true, env: { OAUTH_REGISTRATIONS_PER_HOUR: '1000' } });
      base = h.baseUrl;
    });
    after(() => h.close());

    describe('metadata', () => {
      // First in the file: nothing has asked for OAuth yet.
      test('the authorization server is built on its first use, once: no signing key before, one key for concurrent first requests', async () => {
        const keyMade = () => h.store.oauth.secret('keys', () => { throw new Error('no key yet'); }).then(() => true, () => false);
        assert.equal((await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).status, 200);
        assert.equal((await fetch(`${base}/login`)).status, 200);
        assert.equal(await keyMade(), false, 'no signing key made by the start or by requests elsewhere');
        const answers = await Promise.all([1, 2, 3].map(() => fetch(`${base}/oauth/jwks`)));
        assert.deepEqual(answers.map((res) => res.status), [200, 200, 200]);
        const kids = await Promise.all(answers.map(async (res) => (await res.json()).keys.map((key: { kid: string }) => key.kid).join()));
        assert.equal(new Set(kids).size, 1, `one key: ${kids}`);
        assert.equal(await keyMade(), true);
      });

      test('a build that failed (the database unreachable) is tried again on the next use', async () => {
        let failures = 1;
        const oauth = new Proxy(h.store.oauth, {
          get: (target, key) => {
            if (key === 'secret' && failures > 0) {
              failures -= 1;
              return async () => { throw new Error('the database is unreachable'); };
            }
            const value = Reflect.get(target, key, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
        const store = new Proxy(h.store, { get: (target, key) => (key === 'oauth' ? oauth : Reflect.get(target, key, target)) });
        const server = authorizationServerOnFirstUse({ config: h.config, store, now: () => new Date() });
        await assert.rejects(server(), /unreachable/);
        const provider = await server();
        assert.equal(provider.issuer, base);
        assert.equal(await server(), provider, 'built once, then kept');
      });

      test('the authorization server metadata names the endpoints, S256 only and the capability scopes', async () => {
        const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
        assert.equal(res.status, 200);
        const doc = await res.json();
        assert.equal(doc.issuer, base);
        assert.equal(doc.authorization_endpoint, `${base}/oauth/authorize`);
        assert.equal(doc.token_endpoint, `${base}/oauth/token`);
        assert.equal(doc.registration_endpoint, `${base}/oauth/register`);
        assert.equal(doc.revocation_endpoint, `${base}/oauth/revoke`);
        assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
        assert.deepEqual(doc.response_types_supported, ['code']);
        for (const scope of ['read', 'write', 'publish', 'delete']) assert.ok(doc.scopes_supported.includes(scope), scope);
      });

      test('the protected-resource metadata of the service and of /mcp name this authorization server', async () => {
        for (const [path, resource] of [['', base], ['/mcp', `${base}/mcp`], ['/api/v1', `${base}/api/v1`]] as const) {
          const res = await fetch(`${base}/.well-known/oauth-protected-resource${path}`);
          assert.equal(res.status, 200);
          assert.equal(res.headers.get('access-control-allow-origin'), '*');
          const doc = await res.json();
          assert.equal(doc.resource, resource);
          assert.deepEqual(doc.authorization_servers, [base]);
          assert.deepEqual(doc.scopes_supported, ['read', 'write', 'publish', 'delete']);
        }
      });

      test('/mcp without a token answers 401 naming its resource metadata', async () => {
        const res = await mcp('', 'tools/list');
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('www-authenticate'), `Bearer realm="drawbridge", error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
      });
    });

    describe('the code flow', () => {
      test('sign-in, consent with the defaults, code + PKCE: the token works at the API and /mcp as the person, with read and write', async () => {
        const alice = await person();
        const tokens = await connect(alice, { scope: 'read write' });
        assert.equal(tokens.scope.split(' ').sort().join(' '), 'read write');
        assert.ok(tokens.refresh_token);

        const me = await api('/me', tokens.access_token);
        assert.equal(me.status, 200);
        assert.equal((await me.json()).email, alice.email);
        const created = await api('/folders', tokens.access_token, { method: 'POST', body: JSON.stringify({ name: 'From OAuth' }) });
        assert.equal(created.status, 201);

        const listed = await mcp(tokens.access_token, 'tools/list');
        assert.equal(listed.status, 200);
        assert.ok((await listed.json()).result.tools.some((t: { name: string }) => t.name === 'create_folder'));
        const tool = await mcp(tokens.access_token, 'tools/call', { name: 'create_folder', arguments: { name: 'Via MCP' } });
        const result = (await tool.json()).result;
        assert.notEqual(result.isError, true, JSON.stringify(result));
      });

      test('the consent page shows the client name escaped, its redirect host and the defaults: read and write, publish and delete only when asked', async () => {
        const bob = await person();
        const clientId = await client();
        const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'read publish', code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${base}/mcp` });
        let res = await bob.browser.fetch(`/oauth/authorize?${params}`);
        const consentPath = new URL(res.headers.get('location')!, base).pathname;
        await bob.browser.form('/login', { email: bob.email, password: PASSWORD, next: consentPath });
        res = await bob.browser.fetch(consentPath);
        const page = await res.text();
        assert.match(page, /<span id="consent-client">Test &#60;Agent&#62;<\/span>/);
        assert.match(page, /id="consent-redirect-host">127\.0\.0\.1:9</);
        assert.match(page, /id="consent-read" name="cap-read" value="1" checked/);
        assert.match(page, /id="consent-write" name="cap-write" value="1" checked/);
        assert.match(page, /id="consent-publish" name="cap-publish" value="1" checked/);
        assert.match(page, /id="consent-delete" name="cap-delete" value="1">/);
        assert.match(res.headers.get('content-security-policy')!, /form-action 'self' http:\/\/127\.0\.0\.1:9;/);
      });

      test('refresh rotates: the new refresh token works, the old one no longer does', async () => {
        const carol = await person();
        const first = await connect(carol);
        const refreshed = await token(base, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: first.clientId });
        assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
        assert.notEqual(refreshed.body.refresh_token, first.refresh_token);
        assert.equal((await api('/me', refreshed.body.access_token)).status, 200);
        const again = await token(base, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: first.clientId });
        assert.equal(again.status, 400);
        assert.equal(again.body.error, 'invalid_grant');
      });

      test('the tokens page lists the connected application with its capabilities and last use; revoking it ends its access and refresh tokens', async () => {
        const dave = await person();
        const tokens = await connect(dave, { decide: { tick: ['read'] } });
        assert.equal((await api('/me', tokens.access_token)).status, 200);
        // A token's use is recorded in the background, after the request it served: the page shows it a moment later.
        const rowOf = (text: string) => /<tr data-grant-id="([^"]+)">\s*<td[^>]*>Test &#60;Agent&#62;<\/td>\s*<td[^>]*>read<\/td>[\s\S]*?<\/tr>/.exec(text);
        let page = await (await dave.browser.fetch('/app/settings/tokens')).text();
        for (const deadline = Date.now() + 5000; Date.now() < deadline && /never/.test(rowOf(page)?.[0] ?? ''); ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          page = await (await dave.browser.fetch('/app/settings/tokens')).text();
        }
        const row = rowOf(page);
        assert.ok(row, page);
        assert.doesNotMatch(row[0], /never/, 'the use is recorded');
        const res = await dave.browser.form(`/app/settings/tokens/grants/${row[1]}/revoke`, { _csrf: csrfOf(page) });
        assert.equal(res.status, 303);
        page = await (await dave.browser.fetch('/app/settings/tokens')).text();
        assert.match(page, /id="no-connected-apps"/);
        assert.equal((await api('/me', tokens.access_token)).status, 401);
        assert.equal((await mcp(tokens.access_token, 'tools/list')).status, 401);
        const refreshed = await token(base, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.clientId });
        assert.equal(refreshed.body.error, 'invalid_grant');
      });

      test('someone else\'s grant cannot be revoked: 404, and it keeps working', async () => {
        const owner = await person();
        const tokens = await connect(owner);
        const [grant] = await h.store.oauth.listGrants(owner.id, new Date().toISOString());
        const other = await person();
        await authorize(other, await client());
        const page = await (await other.browser.fetch('/app/settings/tokens')).text();
        const res = await other.browser.form(`/app/settings/tokens/grants/${grant!.grantId}/revoke`, { _csrf: csrfOf(page) });
        assert.equal(res.status, 404);
        assert.equal((await api('/me', tokens.access_token)).status, 200);
      });

      test('the revocation endpoint revokes a refresh token and its grant', async () => {
        const erin = await person();
        const tokens = await connect(erin);
        const res = await fetch(`${base}/oauth/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: tokens.refresh_token, client_id: tokens.clientId }).toString(),
        });
        assert.equal(res.status, 200);
        assert.equal((await api('/me', tokens.access_token)).status, 401);
      });
    });

    describe('refusals', () => {
      test('a wrong PKCE verifier gets invalid_grant', async () => {
        const who = await person();
        const clientId = await client();
        const { challenge } = pkce();
        const code = (await authorize(who, clientId, { challenge })).get('code')!;
        const res = await token(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: pkce().verifier });
        assert.equal(res.status, 400);
        assert.equal(res.body.error, 'invalid_grant');
      });

      test('a code works once: reusing it gets invalid_grant and revokes what it gave', async () => {
        const who = await person();
        const tokens = await connect(who);
        const res = await token(base, { grant_type: 'authorization_code', code: tokens.code, redirect_uri: REDIRECT_URI, client_id: tokens.clientId, code_verifier: tokens.verifier });
        assert.equal(res.status, 400);
        assert.equal(res.body.error, 'invalid_grant');
        assert.equal((await api('/me', tokens.access_token)).status, 401);
      });

      test('a code dies at a failed redemption: after a wrong PKCE verifier, the right one gets invalid_grant too', async () => {
        const who = await person();
        const clientId = await client();
        const { verifier, challenge } = pkce();
        const code = (await authorize(who, clientId, { challenge })).get('code')!;
        const wrong = await token(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: pkce().verifier });
        assert.equal(wrong.body.error, 'invalid_grant');
        const right = await token(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier });
        assert.equal(right.status, 400, JSON.stringify(right.body));
        assert.equal(right.body.error, 'invalid_grant');
        assert.equal(right.body.access_token, undefined);
      });

      test('a code dies at another client\'s attempt: its own client then gets invalid_grant', async () => {
        const who = await person();
        const clientId = await client();
        const thief = await client();
        const { verifier, challenge } = pkce();
        const code = (await authorize(who, clientId, { challenge })).get('code')!;
        const stolen = await token(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: thief, code_verifier: verifier });
        assert.equal(stolen.status, 400);
        assert.equal(stolen.body.error, 'invalid_grant');
        const own = await token(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier });
        assert.equal(own.status, 400, JSON.stringify(own.body));
        assert.equal(own.body.error, 'invalid_grant');
      });

      test('a failed attempt on a code already redeemed revokes what it gave, like a valid replay', async () => {
        const who = await person();
        const tokens = await connect(who);
        assert.equal((await api('/me', tokens.access_token)).status, 200);
        const replay = await token(base, { grant_type: 'authorization_code', code: tokens.code, redirect_uri: REDIRECT_URI, client_id: tokens.clientId, code_verifier: pkce().verifier });
        assert.equal(replay.body.error, 'invalid_grant');
        assert.equal((await api('/me', tokens.access_token)).status, 401);
        const refreshed = await token(base, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.clientId });
        assert.equal(refreshed.body.error, 'invalid_grant');
      });

      test('a failed attempt with a code that does not exist changes nothing: a real code still redeems', async () => {
        const who = await person();
        const clientId = await client();
        const { verifier, challenge } = pkce();
        const code = (await authorize(who, clientId, { challenge })).get('code')!;
        const made = await token(base, { grant_type: 'authorization_code', code: `${code}x`, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier });
        assert.equal(made.body.error, 'invalid_grant');
        const real = await token(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier });
        assert.equal(real.status, 200, JSON.stringify(real.body));
      });

      test('plain PKCE and a missing challenge are refused', async () => {
        const who = await person();
        const clientId = await client();
        const verifier = pkce().verifier;
        let query = await authorize(who, clientId, { challenge: verifier, method: 'plain' });
        assert.equal(query.get('error'), 'invalid_request');
        assert.equal(query.get('code'), null);
        const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'read' });
        const res = await who.browser.fetch(`/oauth/authorize?${params}`);
        query = new URL(res.headers.get('location')!).searchParams;
        assert.equal(query.get('error'), 'invalid_request');
      });

      test('a resource that is not this service\'s is refused at authorization', async () => {
        const who = await person();
        const query = await authorize(who, await client(), { resource: 'https://elsewhere.example/mcp' });
        assert.equal(query.get('error'), 'invalid_target');
      });

      test('a token bound to another resource gets the same 401 as no token, at the API and /mcp', async () => {
        const who = await person();
        const tokens = await connect(who);
        // The same token re-bound to another audience, as another service's authorization server on this database would issue it.
        const adapter = new StoreAdapter('AccessToken', { store: h.store, now: () => new Date() });
        const stored = (await adapter.find(tokens.access_token))!;
        const foreign = randomBytes(32).toString('base64url');
        await adapter.upsert(foreign, { ...stored, jti: foreign, aud: 'https://elsewhere.example/mcp' }, 600);

        const refusedApi = await api('/me', foreign);
        const noneApi = await fetch(`${base}/api/v1/me`);
        assert.equal(refusedApi.status, 401);
        assert.equal(refusedApi.headers.get('www-authenticate'), noneApi.headers.get('www-authenticate'));
        assert.equal(await refusedApi.text(), await noneApi.text());
        const refusedMcp = await mcp(foreign, 'tools/list');
        const noneMcp = await mcp('', 'tools/list');
        assert.equal(refusedMcp.status, 401);
        assert.equal(refusedMcp.headers.get('www-authenticate'), noneMcp.headers.get('www-authenticate'));
        assert.equal(await refusedMcp.text(), await noneMcp.text());
      });

      test('a refresh token is never a bearer token', async () => {
        const who = await person();
        const tokens = await connect(who);
        assert.equal((await api('/me', tokens.refresh_token)).status, 401);
        assert.equal((await mcp(tokens.refresh_token, 'tools/list')).status, 401);
      });

      test('a denied consent sends access_denied back to the client', async () => {
        const who = await person();
        const query = await authorize(who, await client(), { decide: 'deny' });
        assert.equal(query.get('error'), 'access_denied');
        assert.equal(query.get('state'), 'state-1');
        assert.equal(query.get('code'), null);
      });

      test('a capability the person unticked is missing: a write gets insufficient_scope at the API and in the MCP tool', async () => {
        const who = await person();
        const tokens = await connect(who, { scope: 'read write', decide: { tick: ['read'] } });
        assert.equal(tokens.scope, 'read');
        assert.equal((await api('/diagrams', tokens.access_token)).status, 200);
        const write = await api('/folders', tokens.access_token, { method: 'POST', body: JSON.stringify({ name: 'nope' }) });
        assert.equal(write.status, 403);
        assert.equal((await write.json()).error, 'insufficient_scope');
        const tool = await mcp(tokens.access_token, 'tools/call', { name: 'create_folder', arguments: { name: 'nope' } });
        const result = (await tool.json()).result;
        assert.equal(result.isError, true);
        assert.equal(JSON.parse(result.content[0].text).error, 'insufficient_scope');
      });

      test('an unverified account sees why it cannot grant, and its approval is refused', async () => {
        const who = await person({ unverified: true });
        const clientId = await client();
        const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'read', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
        let res = await who.browser.fetch(`/oauth/authorize?${params}`);
        const consentPath = new URL(res.headers.get('location')!, base).pathname;
        await who.browser.form('/login', { email: who.email, password: PASSWORD, next: consentPath });
        const page = await (await who.browser.fetch(consentPath)).text();
        assert.match(page, /id="consent-unverified"/);
        assert.doesNotMatch(page, /id="consent-approve"/);
        res = await who.browser.form(consentPath, { _csrf: csrfOf(page), decision: 'approve', 'cap-read': '1' });
        assert.equal(res.status, 403);
        assert.deepEqual(await h.store.oauth.listGrants(who.id, new Date().toISOString()), []);
      });

      test('the consent form needs the session\'s CSRF token', async () => {
        const who = await person();
        const clientId = await client();
        const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'read', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
        const res = await who.browser.fetch(`/oauth/authorize?${params}`);
        const consentPath = new URL(res.headers.get('location')!, base).pathname;
        await who.browser.form('/login', { email: who.email, password: PASSWORD, next: consentPath });
        const refused = await who.browser.form(consentPath, { _csrf: 'forged', decision: 'approve', 'cap-read': '1' });
        assert.equal(refused.status, 403);
      });
    });

    describe('redirect URIs', () => {
      const refused = [
        'http://evil.test/cb',
        'http://127.0.0.1.evil.test/cb',
        'http://localhost.evil.test/cb',
        'http://10.0.0.1/cb',
        'http://user:secret@127.0.0.1:8080/cb',
        'https://user:secret@client.example/cb',
        'https://user@client.example/cb',
        'https://@client.example/cb',
      ];
      for (const uri of refused) {
        test(`${uri} is refused at registration with invalid_redirect_uri`, async () => {
          const res = await register(base, { redirect_uris: [uri] });
          assert.equal(res.status, 400);
          const body = await res.json();
          assert.equal(body.error, 'invalid_redirect_uri', JSON.stringify(body));
          assert.match(body.error_description, /^redirect_uris /);
        });
      }

      test('one bad redirect URI among good ones refuses the whole registration', async () => {
        const res = await register(base, { redirect_uris: ['https://client.example/cb', 'http://evil.test/cb'] });
        assert.equal(res.status, 400);
        assert.equal((await res.json()).error, 'invalid_redirect_uri');
      });

      const accepted = [
        'http://127.0.0.1/callback',
        'http://127.0.0.1:1/callback',
        'http://127.0.0.1:65535/oauth/callback',
        'http://[::1]/callback',
        'http://[::1]:33418/',
        'http://localhost:6274/oauth/callback',
        'https://client.example/cb',
      ];
      test('loopback http (127.0.0.1, [::1], localhost; any port) and https are accepted', async () => {
        for (const uri of accepted) {
          const res = await register(base, { redirect_uris: [uri] });
          assert.equal(res.status, 201, `${uri}: ${await res.clone().text()}`);
          assert.deepEqual((await res.json()).redirect_uris, [uri]);
        }
      });

      test('a client stored with a bad redirect URI (registered before the rule) cannot start an authorization', async () => {
        const clientId = await client();
        const adapter = new StoreAdapter('Client', { store: h.store, now: () => new Date() });
        const stored = (await adapter.find(clientId))!;
        await adapter.upsert(clientId, { ...stored, redirect_uris: ['http://evil.test/cb'] });
        const who = await person();
        const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'http://evil.test/cb', scope: 'read', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
        const res = await who.browser.fetch(`/oauth/authorize?${params}`);
        assert.equal(res.status, 400, await res.clone().text());
        assert.equal(res.headers.get('location'), null);
      });

      test('a native client may come back on another loopback port than it registered; a web client only on the one it registered', async () => {
        const who = await person();
        const authorizeAt = async (clientId: string, redirectUri: string) => {
          const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'read', code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${base}/mcp` });
          return who.browser.fetch(`/oauth/authorize?${params}`);
        };
        const native = await register(base, { application_type: 'native', redirect_uris: ['http://127.0.0.1:4000/cb'] });
        assert.equal(native.status, 201);
        const moved = await authorizeAt((await native.json()).client_id, 'http://127.0.0.1:5000/cb');
        assert.equal(moved.status, 303);
        assert.match(moved.headers.get('location')!, /\/oauth\/interaction\//);
        const web = await register(base, { redirect_uris: ['http://127.0.0.1:4000/cb'] });
        const refusedWeb = await authorizeAt((await web.json()).client_id, 'http://127.0.0.1:5000/cb');
        assert.equal(refusedWeb.status, 400);
        assert.equal(refusedWeb.headers.get('location'), null);
      });
    });

    describe('registration', () => {
      let limited: ListeningHarness;
      before(async () => {
        limited = await startHarness({ engine, listen: true, env: { OAUTH_REGISTRATIONS_PER_HOUR: String(REGISTRATIONS_PER_HOUR) } });
      });
      after(() => limited.close());

      test('registration is open but limited per address: past the budget, 429 rate_limited with Retry-After', async () => {
        for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) assert.equal((await register(limited.baseUrl)).status, 201);
        const refused = await register(limited.baseUrl);
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.headers.get('retry-after')) > 0);
        assert.equal((await refused.json()).error, 'rate_limited');
      });
    });

    describe('expiry', () => {
      let short: ListeningHarness;
      before(async () => {
        short = await startHarness({ engine, listen: true, env: { OAUTH_ACCESS_TOKEN_TTL_SECONDS: '3' } });
      });
      after(() => short.close());

      test('an expired access token gets the ordinary 401; refreshing gives a working one', async () => {
        const saved = { h, base };
        h = short;
        base = short.baseUrl;
        try {
          const who = await person();
          const tokens = await connect(who);
          assert.equal(tokens.expires_in, 3);
          // Three seconds, not one: the refreshed token lives as long, and on a loaded machine a
          // refresh and a call have taken over a second, so a one-second token expired before use.
          await new Promise((resolve) => setTimeout(resolve, 3100));
          const expired = await api('/me', tokens.access_token);
          assert.equal(expired.status, 401);
          assert.equal((await expired.json()).error, 'unauthorized');
          assert.equal((await mcp(tokens.access_token, 'tools/list')).status, 401);
          const refreshed = await token(base, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.clientId });
          assert.equal(refreshed.status, 200);
          assert.equal((await api('/me', refreshed.body.access_token)).status, 200);
        } finally {
          h = saved.h;
          base = saved.base;
        }
      });
    });
  });
}
