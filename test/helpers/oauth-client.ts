// The client's side of the MCP authorization flow, as an MCP host plays it:
// the SDK's own OAuthClientProvider contract kept in memory, a redirect URI
// served by a small local HTTP server (the host's callback), and the person's
// part (sign in, consent) played by a real Chromium page.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';
import { hashPassword } from '../../src/auth/passwords.ts';
import type { WatchedPage } from './browser.ts';
import type { Harness } from './harness.ts';

const CAPABILITIES = ['read', 'write', 'publish', 'delete'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** What arrived at the redirect URI: the query of the browser's request. */
export interface Callback {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
  /** The whole query, for assertion messages. */
  query: string;
}

/**
 * The host's redirect URI: `http://127.0.0.1:<port>/callback`, answering the
 * browser with a short page and handing the query to the test.
 */
export interface RedirectCatcher {
  url: string;
  origin: string;
  /** The next callback to arrive (or the one that already did and was not taken yet). */
  next(): Promise<Callback>;
  close(): Promise<void>;
}

export async function startRedirectCatcher(): Promise<RedirectCatcher> {
  const arrived: Callback[] = [];
  const waiting: Array<(callback: Callback) => void> = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(204).end();
      return;
    }
    const q = url.searchParams;
    const callback: Callback = {
      ...(q.has('code') ? { code: q.get('code')! } : {}),
      ...(q.has('state') ? { state: q.get('state')! } : {}),
      ...(q.has('error') ? { error: q.get('error')! } : {}),
      ...(q.has('error_description') ? { errorDescription: q.get('error_description')! } : {}),
      query: url.search,
    };
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><html><head><link rel="icon" href="data:,"><title>Back in the host</title></head><body><h1>You can close this window</h1></body></html>');
    const waiter = waiting.shift();
    if (waiter) waiter(callback);
    else arrived.push(callback);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/callback`,
    origin,
    next: () => {
      const first = arrived.shift();
      return first ? Promise.resolve(first) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * An OAuthClientProvider as an MCP host keeps one, in memory: the registered
 * client, the tokens, the PKCE verifier, the discovery state. The authorization
 * URL the SDK asks to open is kept for the test to open in the browser.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  /** Every token set the SDK saved, oldest first. */
  readonly tokenHistory: OAuthTokens[] = [];
  verifier?: string;
  discovery?: OAuthDiscoveryState;
  /** Every authorization URL the SDK asked the person's browser to open, oldest first. */
  readonly authorizationUrls: URL[] = [];
  /** The state sent with the latest authorization request. */
  lastState?: string;
  readonly invalidated: string[] = [];

  private readonly redirect: string;
  private readonly name: string;
  constructor(redirect: string, name: string) {
    this.redirect = redirect;
    this.name = name;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
    this.tokenHistory.push(tokens);
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier was saved');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    this.invalidated.push(scope);
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  /** The latest authorization URL; fails if the SDK never asked for one. */
  latestAuthorizationUrl(): URL {
    const url = this.authorizationUrls.at(-1);
    if (!url) throw new Error('the SDK did not ask to open an authorization URL');
    return url;
  }
}

/** One request the SDK made, as the recording fetch saw it. */
export interface Seen {
  method: string;
  url: string;
  status: number;
}

/** A fetch that records what the SDK asked for (method, URL, status) and passes everything through. */
function recordingFetch(seen: Seen[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    seen.push({ method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(), url, status: response.status });
    return response;
  }) as typeof fetch;
}

/** An MCP client for `mcpUrl` that authenticates through `provider` (and records its requests in `seen`, if given). */
export function oauthClient(mcpUrl: string, provider: MemoryOAuthProvider, seen?: Seen[]): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, ...(seen ? { fetch: recordingFetch(seen) } : {}) });
  return { client: new Client({ name: 'oauth-e2e-host', version: '0.0.0' }), transport };
}

/** A verified (or not) account with a password, made through the admin CLI, for the browser to sign in with. */
export async function accountWithPassword(h: Harness, email: string, password: string, options: { unverified?: boolean } = {}): Promise<string> {
  const created = (await h.admin('user', 'create', '--email', email, ...(options.unverified ? ['--unverified'] : []))) as { id: string };
  await h.store.accounts.setPasswordHash(created.id, await hashPassword(password));
  return created.id;
}

/** Lets the watched page reach the host's redirect URI (another origin, which the page watch otherwise refuses). */
export async function allowRedirectTo(watched: WatchedPage, catcher: RedirectCatcher): Promise<void> {
  // Playwright tries the routes added last first: this one answers before the watch's catch-all.
  await watched.context.route(`${catcher.origin}/**`, (route) => route.continue());
}

/**
 * Opens the authorization URL in the page; signs in through the web form if
 * the server asks (the page is then the consent page).
 */
export async function openAuthorization(page: Page, url: URL, account?: { email: string; password: string }): Promise<void> {
  await page.goto(url.href);
  await page.waitForURL((u) => u.pathname === '/login' || u.pathname.startsWith('/oauth/interaction/'));
  if (new URL(page.url()).pathname === '/login') {
    if (!account) throw new Error('the server asked to sign in, and no account was given');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.locator('#consent-form').waitFor();
}

/** On the consent page: ticks exactly `grant`, and answers Allow (or Deny). */
export async function answerConsent(page: Page, answer: { grant: Capability[] } | 'deny'): Promise<void> {
  if (answer === 'deny') {
    await page.locator('#consent-deny').click();
    return;
  }
  for (const capability of CAPABILITIES) await page.locator(`#consent-${capability}`).setChecked(answer.grant.includes(capability));
  await page.locator('#consent-approve').click();
}

/** Which capability boxes are ticked on the consent page. */
export async function tickedCapabilities(page: Page): Promise<Capability[]> {
  const ticked: Capability[] = [];
  for (const capability of CAPABILITIES) if (await page.locator(`#consent-${capability}`).isChecked()) ticked.push(capability);
  return ticked;
}

/** A JSON-RPC tools/list POSTed to /mcp with a bearer token, below the SDK: the status and the WWW-Authenticate header. */
export async function rawMcp(mcpUrl: string, token: string): Promise<{ status: number; wwwAuthenticate: string | null }> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await response.arrayBuffer();
  return { status: response.status, wwwAuthenticate: response.headers.get('www-authenticate') };
}

/** A REST API call with a bearer token, as a script holding the token would make it. */
export async function api(baseUrl: string, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  try {
    return { status: response.status, json: JSON.parse(text) };
  } catch {
    return { status: response.status, json: text };
  }
}

/** The JSON of a tool result's first text block. */
export function toolJson(result: unknown): any {
  const content = (result as { content: Array<{ type: string; text: string }> }).content;
  assert.equal(content[0]?.type, 'text', JSON.stringify(result));
  return JSON.parse(content[0]!.text);
}
