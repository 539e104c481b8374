// Adding Drawbridge to an MCP host by URL, end to end: the MCP SDK's own
// client-side OAuth (its OAuthClientProvider contract and auth() flow, driven
// by StreamableHTTPClientTransport) against a real server, with the person's
// part — signing in and consenting — played in a real headless Chromium, and
// the host's redirect URI a local HTTP server that catches the code.
//
// discovery → registration → sign-in and consent → code → token → tools/list
// and a write tool → refresh → revoke on the tokens page → the next call is
// 401; a denied consent; capabilities the person unticked; an account that
// cannot grant; two servers on one PostgreSQL sharing clients and grants.
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { auth, discoverAuthorizationServerMetadata, refreshAuthorization, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness, uniqueEmail } from '../helpers/harness.ts';
import {
  accountWithPassword,
  allowRedirectTo,
  answerConsent,
  api,
  type Callback,
  type Capability,
  MemoryOAuthProvider,
  oauthClient,
  openAuthorization,
  type RedirectCatcher,
  rawMcp,
  type Seen,
  startRedirectCatcher,
  tickedCapabilities,
  toolJson,
} from '../helpers/oauth-client.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

const browser = useBrowser();
const PASSWORD = 'a long enough password';
const TOKENS_PAGE = '/app/settings/tokens';
const SPEC = { nodes: [{ id: 'web', label: 'Web app' }, { id: 'db', label: 'Orders DB' }], edges: ['web -> db : SQL'] };

/** For assert.rejects: the SDK's UnauthorizedError (the host has to send the person to authorize). */
function isUnauthorized(error: unknown): true {
  assert.ok(error instanceof UnauthorizedError, `UnauthorizedError, got ${(error as Error)?.constructor?.name}: ${(error as Error)?.message ?? String(error)}`);
  return true;
}

/** A watched Chromium page for `baseUrl` that may also reach the host's redirect URI. */
async function personsPage(t: TestContext, baseUrl: string, catcher: RedirectCatcher): Promise<Page> {
  const watched = await browser.newPage(t, baseUrl);
  watched.page.setDefaultTimeout(20_000);
  await allowRedirectTo(watched, catcher);
  return watched.page;
}

/**
 * The host's first connection: the server answers 401, the SDK discovers,
 * registers and asks for the browser to be sent to the authorization URL;
 * connect rejects with UnauthorizedError (the host waits for the redirect).
 */
async function firstConnect(mcpUrl: string, provider: MemoryOAuthProvider, seen: Seen[] = []) {
  const { client, transport } = oauthClient(mcpUrl, provider, seen);
  await assert.rejects(client.connect(transport), isUnauthorized);
  return { transport, url: provider.latestAuthorizationUrl() };
}

/** Signs in (if asked) and answers the consent page; the callback the host's redirect URI received. */
async function authorizeInBrowser(
  page: Page,
  url: URL,
  catcher: RedirectCatcher,
  account: { email: string; password: string },
  answer: { grant: Capability[] } | 'deny',
): Promise<Callback> {
  await openAuthorization(page, url, account);
  const arrived = catcher.next();
  await answerConsent(page, answer);
  const callback = await arrived;
  await page.waitForURL((u) => u.href.startsWith(catcher.url));
  return callback;
}

/** The whole flow up to a connected client: first connect, browser, finishAuth, connect again. */
async function connectThroughBrowser(
  t: TestContext,
  h: ListeningHarness,
  catcher: RedirectCatcher,
  options: { clientName: string; grant: Capability[]; email?: string },
): Promise<{ client: Client; provider: MemoryOAuthProvider; page: Page; userId: string; email: string }> {
  const email = options.email ?? uniqueEmail('oauth');
  const userId = await accountWithPassword(h, email, PASSWORD);
  const provider = new MemoryOAuthProvider(catcher.url, options.clientName);
  const { transport, url } = await firstConnect(`${h.baseUrl}/mcp`, provider);
  const page = await personsPage(t, h.baseUrl, catcher);
  const callback = await authorizeInBrowser(page, url, catcher, { email, password: PASSWORD }, { grant: options.grant });
  assert.ok(callback.code, `a code at the redirect URI: ${callback.query}`);
  await transport.finishAuth(callback.code);
  const { client, transport: connected } = oauthClient(`${h.baseUrl}/mcp`, provider);
  await client.connect(connected);
  t.after(() => client.close());
  return { client, provider, page, userId, email };
}

function accessToken(provider: MemoryOAuthProvider): string {
  const token = provider.tokens()?.access_token;
  if (!token) throw new Error('the provider holds no access token');
  return token;
}

/** The cells of the tokens page's row for a connected application, trimmed. */
async function grantRow(page: Page, clientName: string): Promise<string[]> {
  const row = page.locator('table.oauth-grants tr', { hasText: clientName });
  assert.equal(await row.count(), 1, `one row for ${clientName}`);
  return (await row.locator('td').allTextContents()).map((text) => text.trim());
}

/** The resource_metadata the 401 of /mcp points at. */
const resourceMetadataOf = (baseUrl: string) => `resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/mcp"`;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`an MCP host added by URL, on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    let h: ListeningHarness;
    let catcher: RedirectCatcher;
    before(async () => {
      h = await startHarness({ engine, listen: true });
      catcher = await startRedirectCatcher();
    });
    after(async () => {
      await catcher?.close();
      await h?.close();
    });

    test('discovery → registration → sign-in and consent in Chromium → token → tools/list and a write tool → refresh → revoke on the tokens page → the next call is 401', { timeout: 180_000 }, async (t) => {
      const mcpUrl = `${h.baseUrl}/mcp`;
      const email = uniqueEmail('host');
      const userId = await accountWithPassword(h, email, PASSWORD);
      const provider = new MemoryOAuthProvider(catcher.url, 'Sketching Assistant');
      const seen: Seen[] = [];

      // The host knows only the URL: its first request is refused, and the SDK finds its way from the 401.
      const { transport, url } = await firstConnect(mcpUrl, provider, seen);
      const steps = seen.map((s) => `${s.method} ${s.url.replace(h.baseUrl, '')} ${s.status}`);
      assert.equal(steps[0], 'POST /mcp 401', steps.join('\n'));
      assert.ok(steps.includes('GET /.well-known/oauth-protected-resource/mcp 200'), `protected-resource metadata, from the 401's resource_metadata:\n${steps.join('\n')}`);
      assert.ok(steps.includes('GET /.well-known/oauth-authorization-server 200'), `authorization-server metadata:\n${steps.join('\n')}`);
      assert.ok(steps.includes('POST /oauth/register 201'), `dynamic registration:\n${steps.join('\n')}`);
      assert.equal(provider.discovery?.resourceMetadata?.resource, mcpUrl);
      assert.deepEqual(provider.discovery?.resourceMetadata?.authorization_servers, [h.baseUrl]);
      assert.ok(provider.client?.client_id, 'the SDK saved the registered client');
      assert.equal(url.origin + url.pathname, `${h.baseUrl}/oauth/authorize`);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(url.searchParams.get('resource'), mcpUrl);
      assert.equal(url.searchParams.get('client_id'), provider.client.client_id);

      // The person: signed out, so the server asks to sign in, then shows who asks and for what.
      const page = await personsPage(t, h.baseUrl, catcher);
      await openAuthorization(page, url, { email, password: PASSWORD });
      assert.match((await page.locator('#consent-client').textContent()) ?? '', /Sketching Assistant/);
      assert.match((await page.locator('#consent-redirect-host').textContent()) ?? '', new RegExp(new URL(catcher.url).host.replace(/\./g, '\\.')));
      assert.deepEqual(await tickedCapabilities(page), ['read', 'write', 'publish', 'delete'], 'the SDK asks for every scope the server lists, so all four start ticked');
      const arrived = catcher.next();
      await answerConsent(page, { grant: ['read', 'write'] });
      const callback = await arrived;
      await page.waitForURL((u) => u.href.startsWith(catcher.url));
      assert.ok(callback.code, `a code at the redirect URI: ${callback.query}`);
      assert.equal(callback.state, provider.lastState, 'the state comes back');

      // The host exchanges the code (with its PKCE verifier) and connects again with the token.
      await transport.finishAuth(callback.code);
      const issued = provider.tokens();
      assert.ok(issued?.access_token && issued.refresh_token, `an access and a refresh token: ${JSON.stringify(issued)}`);
      assert.equal(issued.token_type.toLowerCase(), 'bearer');
      if (issued.scope !== undefined) assert.deepEqual(issued.scope.split(' ').sort(), ['read', 'write']);

      const { client, transport: connected } = oauthClient(mcpUrl, provider);
      await client.connect(connected);
      t.after(() => client.close());
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of ['generate_diagram', 'read_diagram', 'list_diagrams', 'trash_diagram']) assert.ok(tools.includes(name), `tools/list has ${name}`);
      const created = toolJson(await client.callTool({ name: 'generate_diagram', arguments: { title: 'Through OAuth', spec: SPEC } }));
      assert.equal(created.ownerId, userId, 'the tool acted as the person who consented');
      const trash = await client.callTool({ name: 'trash_diagram', arguments: { id: created.id } });
      assert.equal(trash.isError, true, 'delete was not granted');
      assert.equal(toolJson(trash).error, 'insufficient_scope');

      // The same token on the REST API: the person, with exactly the granted capabilities.
      const me = await api(h.baseUrl, 'GET', '/me', accessToken(provider));
      assert.equal(me.status, 200, JSON.stringify(me.json));
      assert.equal(me.json.id, userId);
      assert.deepEqual([...me.json.capabilities].sort(), ['read', 'write']);
      const read = await api(h.baseUrl, 'GET', `/diagrams/${created.id}`, accessToken(provider));
      assert.equal(read.status, 200);
      assert.equal(read.json.title, 'Through OAuth');
      assert.equal(read.json.deletedAt, null);

      // The tokens page lists the connected application beside the personal tokens; its use shows.
      for (let attempt = 0; ; attempt++) {
        await page.goto(`${h.baseUrl}${TOKENS_PAGE}`);
        const cells = await grantRow(page, 'Sketching Assistant');
        assert.equal(cells[1], 'read, write');
        if (cells[3] !== 'never') break;
        assert.ok(attempt < 50, 'the tokens page shows the application was used');
        await sleep(100);
      }

      // Refresh, through the SDK's own path: a new access token and a rotated refresh token.
      const before = provider.tokens()!;
      assert.equal(await auth(provider, { serverUrl: mcpUrl }), 'AUTHORIZED');
      const refreshed = provider.tokens()!;
      assert.notEqual(refreshed.access_token, before.access_token, 'a new access token');
      assert.ok(refreshed.refresh_token && refreshed.refresh_token !== before.refresh_token, 'the refresh token was rotated');
      assert.equal((await rawMcp(mcpUrl, refreshed.access_token)).status, 200);
      const listed = toolJson(await client.callTool({ name: 'list_diagrams', arguments: {} }));
      assert.deepEqual(listed.items.map((d: { id: string }) => d.id), [created.id], 'the client carries on with the refreshed token');

      // An access token the server refuses sends the SDK's transport through its refresh path, and the call goes through.
      provider.saved = { ...provider.tokens()!, access_token: 'not-a-token-the-server-issued' };
      const afterRefusal = toolJson(await client.callTool({ name: 'list_diagrams', arguments: {} }));
      assert.deepEqual(afterRefusal.items.map((d: { id: string }) => d.id), [created.id]);
      assert.notEqual(accessToken(provider), 'not-a-token-the-server-issued', 'the transport refreshed the token');
      const current = provider.tokens()!;
      assert.equal((await rawMcp(mcpUrl, current.access_token)).status, 200);
      const authorizationsSoFar = provider.authorizationUrls.length;

      // The person revokes the application on the tokens page.
      await page.goto(`${h.baseUrl}${TOKENS_PAGE}`);
      await page.locator('table.oauth-grants tr', { hasText: 'Sketching Assistant' }).getByRole('button', { name: 'Revoke' }).click();
      await page.waitForURL(`${h.baseUrl}${TOKENS_PAGE}`);
      await page.locator('#connected-apps').waitFor();
      assert.equal(await page.locator('table.oauth-grants tr', { hasText: 'Sketching Assistant' }).count(), 0, 'the application is gone from the list');

      // The next call with its token is 401 (pointing the host at the metadata again), on /mcp and on the API.
      const refused = await rawMcp(mcpUrl, current.access_token);
      assert.equal(refused.status, 401);
      assert.ok(refused.wwwAuthenticate?.includes(resourceMetadataOf(h.baseUrl)), `WWW-Authenticate: ${refused.wwwAuthenticate}`);
      assert.equal((await api(h.baseUrl, 'GET', '/me', current.access_token)).status, 401);
      // The SDK client's next call: the 401 sends it to refresh, the refresh token is refused too,
      // so the host is back to asking the person (a new authorization URL) and the call fails.
      await assert.rejects(client.callTool({ name: 'list_diagrams', arguments: {} }), isUnauthorized);
      assert.equal(provider.authorizationUrls.length, authorizationsSoFar + 1, 'the host is sent back to the authorization page');
      assert.equal(provider.tokens(), undefined, 'the SDK dropped the refused tokens');
      assert.ok(provider.invalidated.includes('tokens'));

      // What the application wrote stays, the person's own, as a personal token of theirs shows.
      const personal = (await h.admin('token', 'mint', '--email', email, '--caps', 'read')) as { token: string };
      const kept = await api(h.baseUrl, 'GET', `/diagrams/${created.id}`, personal.token);
      assert.equal(kept.status, 200);
      assert.equal(kept.json.ownerId, userId);
    });
  });
}

describe('consent answers, through the SDK and the browser', () => {
  let h: ListeningHarness;
  let catcher: RedirectCatcher;
  before(async () => {
    h = await startHarness({ listen: true });
    catcher = await startRedirectCatcher();
  });
  after(async () => {
    await catcher?.close();
    await h?.close();
  });

  test('a denied consent: the redirect URI gets access_denied with the state, no code; nothing is granted', { timeout: 90_000 }, async (t) => {
    const email = uniqueEmail('deny');
    await accountWithPassword(h, email, PASSWORD);
    const provider = new MemoryOAuthProvider(catcher.url, 'Declined Assistant');
    const { url } = await firstConnect(`${h.baseUrl}/mcp`, provider);
    const page = await personsPage(t, h.baseUrl, catcher);
    const callback = await authorizeInBrowser(page, url, catcher, { email, password: PASSWORD }, 'deny');
    assert.equal(callback.error, 'access_denied', callback.query);
    assert.equal(callback.code, undefined, 'no code');
    assert.equal(callback.state, provider.lastState);
    assert.equal(provider.tokens(), undefined, 'the host holds no token');

    await page.goto(`${h.baseUrl}${TOKENS_PAGE}`);
    assert.equal(await page.locator('table.oauth-grants tr', { hasText: 'Declined Assistant' }).count(), 0);
    await page.locator('#no-connected-apps').waitFor();
  });

  test('consent with read only: reading works, a write tool gets insufficient_scope and writes nothing', { timeout: 90_000 }, async (t) => {
    const { client, provider } = await connectThroughBrowser(t, h, catcher, { clientName: 'Reader Assistant', grant: ['read'] });
    const token = accessToken(provider);
    assert.deepEqual((await api(h.baseUrl, 'GET', '/me', token)).json.capabilities, ['read']);

    const list = toolJson(await client.callTool({ name: 'list_diagrams', arguments: {} }));
    assert.deepEqual(list.items, []);
    const icons = await client.callTool({ name: 'search_icons', arguments: { q: 'postgres' } });
    assert.notEqual(icons.isError, true, JSON.stringify(icons));

    for (const [name, args] of [
      ['generate_diagram', { title: 'Not allowed', spec: SPEC }],
      ['create_folder', { name: 'Not allowed' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, `${name}: ${JSON.stringify(result)}`);
      assert.equal(toolJson(result).error, 'insufficient_scope', name);
      assert.match(toolJson(result).message, /"write" capability/);
    }
    const folder = await api(h.baseUrl, 'POST', '/folders', token, { name: 'Not allowed either' });
    assert.equal(folder.status, 403, 'the REST API refuses the write too');
    assert.equal(folder.json.error, 'insufficient_scope');
    assert.deepEqual((await api(h.baseUrl, 'GET', '/diagrams', token)).json.items, [], 'nothing was written');
    assert.deepEqual((await api(h.baseUrl, 'GET', '/folders', token)).json.items, []);
  });

  test('an unverified account cannot grant: the consent page says so and offers only Deny', { timeout: 90_000 }, async (t) => {
    const email = uniqueEmail('unverified');
    await accountWithPassword(h, email, PASSWORD, { unverified: true });
    const provider = new MemoryOAuthProvider(catcher.url, 'Early Assistant');
    const { url } = await firstConnect(`${h.baseUrl}/mcp`, provider);
    const page = await personsPage(t, h.baseUrl, catcher);
    await openAuthorization(page, url, { email, password: PASSWORD });
    await page.locator('#consent-unverified').waitFor();
    assert.equal(await page.locator('#consent-approve').count(), 0, 'no Allow button');
    const arrived = catcher.next();
    await page.locator('#consent-deny').click();
    assert.equal((await arrived).error, 'access_denied');
  });
});

describe('an access token that expires', () => {
  let h: ListeningHarness;
  let catcher: RedirectCatcher;
  before(async () => {
    // Short enough to wait out, long enough that the refreshed token outlives the call it is refreshed for: the
    // tool's request to the API is checked against it too, and on a loaded machine that can come over a second
    // after the refresh (with a 1-second life the refreshed token itself had expired by then, now and again).
    h = await startHarness({ listen: true, env: { OAUTH_ACCESS_TOKEN_TTL_SECONDS: '5' } });
    catcher = await startRedirectCatcher();
  });
  after(async () => {
    await catcher?.close();
    await h?.close();
  });

  test('once the access token has expired, the SDK client refreshes it on the 401 and the call goes through', { timeout: 90_000 }, async (t) => {
    const { client, provider } = await connectThroughBrowser(t, h, catcher, { clientName: 'Patient Assistant', grant: ['read', 'write'] });
    const expiring = provider.tokens()!;
    // Wait for the server to stop accepting it: no duration is assumed, the server says when.
    while ((await rawMcp(`${h.baseUrl}/mcp`, expiring.access_token)).status === 200) await sleep(200);
    assert.equal((await rawMcp(`${h.baseUrl}/mcp`, expiring.access_token)).status, 401);

    const created = toolJson(await client.callTool({ name: 'generate_diagram', arguments: { title: 'After expiry', spec: SPEC } }));
    assert.equal(created.title, 'After expiry', JSON.stringify(created));
    const now = provider.tokens()!;
    assert.notEqual(now.access_token, expiring.access_token, 'a new access token');
    assert.notEqual(now.refresh_token, expiring.refresh_token, 'and a rotated refresh token');
    assert.equal(provider.authorizationUrls.length, 1, 'the person was not asked again');
  });
});

describe('two servers on one PostgreSQL', { skip: skipWithoutPostgres }, () => {
  let a: ListeningHarness;
  let b: Awaited<ReturnType<typeof startHarness>>;
  let bUrl: string;
  let catcher: RedirectCatcher;
  before(async () => {
    a = await startHarness({ engine: 'postgres', listen: true });
    // A second instance of the same service (same database, same public URL), reached at its own address as a load balancer would.
    b = await startHarness({ engine: 'postgres', databaseUrl: a.config.databaseUrl!, env: { PUBLIC_URL: a.baseUrl } });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const address = b.app.server.address();
    if (!address || typeof address === 'string') throw new Error('server B is not listening on a port');
    bUrl = `http://127.0.0.1:${address.port}`;
    catcher = await startRedirectCatcher();
  });
  after(async () => {
    await catcher?.close();
    await b?.close();
    await a?.close();
  });

  test('a client registered and a token issued through A works on B\'s /mcp and API, refreshes at B, and revocation on A stops it on B', { timeout: 120_000 }, async (t) => {
    const { provider, page, userId } = await connectThroughBrowser(t, a, catcher, { clientName: 'Balanced Assistant', grant: ['read', 'write'] });

    // The same provider (client, tokens) against B's /mcp: no new authorization, the tools work.
    const { client, transport } = oauthClient(`${bUrl}/mcp`, provider);
    await client.connect(transport);
    t.after(() => client.close());
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'generate_diagram'));
    const created = toolJson(await client.callTool({ name: 'generate_diagram', arguments: { title: 'Written through B', spec: SPEC } }));
    assert.equal(created.ownerId, userId);
    assert.equal(provider.authorizationUrls.length, 1, 'B never sent the host to authorize again');
    const onB = await api(bUrl, 'GET', '/me', accessToken(provider));
    assert.equal(onB.status, 200, JSON.stringify(onB.json));
    assert.equal(onB.json.id, userId);
    assert.deepEqual([...onB.json.capabilities].sort(), ['read', 'write']);

    // The refresh token issued by A is accepted at B's token endpoint (both are the one public URL behind a balancer).
    const metadata = await discoverAuthorizationServerMetadata(bUrl);
    assert.ok(metadata, 'B serves the authorization-server metadata');
    assert.equal(metadata.issuer, a.baseUrl, 'one issuer for both instances');
    const issuedByA = provider.tokens()!;
    const rotated = await refreshAuthorization(bUrl, {
      metadata: { ...metadata, token_endpoint: `${bUrl}/oauth/token` },
      clientInformation: provider.clientInformation()!,
      refreshToken: issuedByA.refresh_token!,
      resource: new URL(`${a.baseUrl}/mcp`),
    });
    assert.notEqual(rotated.refresh_token, issuedByA.refresh_token, 'B rotated the refresh token A issued');
    provider.saveTokens({ ...rotated, issuer: issuedByA.issuer });
    assert.equal((await rawMcp(`${a.baseUrl}/mcp`, rotated.access_token)).status, 200, 'the token refreshed at B works on A');
    assert.equal((await rawMcp(`${bUrl}/mcp`, rotated.access_token)).status, 200);

    // Revoked on A's tokens page: B refuses the token on its next call, on /mcp and on the API.
    await page.goto(`${a.baseUrl}${TOKENS_PAGE}`);
    await page.locator('table.oauth-grants tr', { hasText: 'Balanced Assistant' }).getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${a.baseUrl}${TOKENS_PAGE}`);
    await page.locator('#connected-apps').waitFor();
    const refused = await rawMcp(`${bUrl}/mcp`, rotated.access_token);
    assert.equal(refused.status, 401);
    assert.ok(refused.wwwAuthenticate?.includes(resourceMetadataOf(a.baseUrl)), `WWW-Authenticate: ${refused.wwwAuthenticate}`);
    assert.equal((await api(bUrl, 'GET', '/me', rotated.access_token)).status, 401);
    // And B's token endpoint refuses the grant's refresh token.
    await assert.rejects(
      refreshAuthorization(bUrl, {
        metadata: { ...metadata, token_endpoint: `${bUrl}/oauth/token` },
        clientInformation: provider.clientInformation()!,
        refreshToken: rotated.refresh_token!,
        resource: new URL(`${a.baseUrl}/mcp`),
      }),
      (error: unknown) => {
        assert.ok(error instanceof InvalidGrantError, `invalid_grant, got ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`);
        return true;
      },
    );
  });
});
