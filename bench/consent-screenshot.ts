/**
 * `node --import tsx bench/consent-screenshot.ts [OUT.png]`: the consent page an
 * MCP host sends a person to, as docs/mcp.md shows it (default OUT:
 * docs/images/mcp-consent.png). Starts the real server (src/main.ts) on a
 * throwaway SQLite database with PUBLIC_URL its own address, lets the MCP SDK's
 * own client discover and register as a host would ("Sketching Assistant"),
 * opens the authorization URL in headless Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium), signs in through the web form and screenshots the consent
 * page. Nothing is approved. Exits 1 when the flow does not reach the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { chromium } from 'playwright-core';
import { freePort, runBenchmark, startChild, waitForHttp } from './processes.ts';

const out = path.resolve(process.argv[2] ?? 'docs/images/mcp-consent.png');
const EMAIL = 'ada@example.com';
const PASSWORD = 'a long enough password';
const REDIRECT = 'http://127.0.0.1:33418/callback';

/** Just enough of a host's OAuthClientProvider to be sent to the authorization page. */
class Host implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return { client_name: 'Sketching Assistant', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

await runBenchmark('consent-screenshot', async (dataDir) => {
  // The account, made with the admin commands before the server starts.
  const { openStore } = await import('../src/store/open.ts');
  const { runAdminCommand } = await import('../src/admin/commands.ts');
  const { hashPassword } = await import('../src/auth/passwords.ts');
  const store = await openStore({ dataDir });
  try {
    const created = (await runAdminCommand(['user', 'create', '--email', EMAIL], store)) as { id: string };
    await store.accounts.setPasswordHash(created.id, await hashPassword(PASSWORD));
  } finally {
    await store.close();
  }

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startChild('server', ['--import', 'tsx', 'src/main.ts'], { ...process.env, DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn', DATABASE_URL: '' });
  await waitForHttp(server, `${base}/healthz`);

  // The host is given only the URL of /mcp: the SDK discovers, registers and asks to open the authorization page.
  const host = new Host();
  const client = new Client({ name: 'consent-screenshot', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: host })).catch(() => undefined);
  if (!host.authorizationUrl) throw new Error('the SDK did not ask to open an authorization page');

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    page.setDefaultTimeout(20_000);
    await page.goto(host.authorizationUrl.href);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#consent-form').waitFor();
    // As a person would leave it: the capabilities an assistant that draws needs.
    for (const capability of ['read', 'write', 'publish', 'delete']) await page.locator(`#consent-${capability}`).setChecked(capability === 'read' || capability === 'write');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out, animations: 'disabled', caret: 'hide' });
    console.log(`wrote ${path.relative(process.cwd(), out)}`);
  } finally {
    await browser.close();
  }
});
