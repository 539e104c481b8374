import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { screenshot, settled, useBrowser } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';

const browser = useBrowser();
let h: ListeningHarness;
before(async () => {
  h = await startHarness({ listen: true });
});
after(() => h?.close());

/** Each link of the landing page, and what the page it leads to shows once it has rendered. */
const DESTINATIONS = [
  { name: 'Sign in', path: '/login', shows: 'h1:has-text("Sign in")' },
  { name: 'Sign up', path: '/signup', shows: 'h1:has-text("Create your account")' },
  { name: 'API docs', path: '/docs/api', shows: 'h2:has-text("Create a diagram")' },
  { name: 'MCP setup', path: '/docs/mcp', shows: 'h1:has-text("Connect an AI agent over MCP")' },
];

test(
  'a visitor opens /, sees what Drawbridge is and a picture it drew, and follows every link to a page that renders, with nothing asked of another host',
  { timeout: 120_000 },
  async (t) => {
    const { page, context } = await browser.newPage(t, h.baseUrl);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));

    const landing = await page.goto(`${h.baseUrl}/`);
    assert.equal(landing?.status(), 200);
    assert.equal(await page.locator('h1').textContent(), 'Diagrams that people and AI agents make together, over plain HTTP');
    const example = page.locator('figure.example img');
    await example.waitFor();
    const drawn = await example.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
    assert.ok(drawn > 0, 'the example picture loaded');
    await settled(page);
    await screenshot(page, 'landing');

    for (const destination of DESTINATIONS) {
      await page.goto(`${h.baseUrl}/`);
      const link = page.getByRole('link', { name: destination.name, exact: true }).first();
      assert.equal(await link.getAttribute('href'), destination.path);
      const [answer] = await Promise.all([page.waitForResponse((response) => new URL(response.url()).pathname === destination.path), link.click()]);
      assert.equal(answer.status(), 200, destination.path);
      await page.waitForURL(`${h.baseUrl}${destination.path}`);
      await page.locator(destination.shows).first().waitFor({ timeout: 30_000 });
    }

    // The reference is Redoc's, over the API's own document: an operation of each kind, and its search (run in a worker).
    await page.goto(`${h.baseUrl}/docs/api`);
    for (const summary of ['Create a diagram', 'Get a diagram with its scene', 'Check a diagram for layout and binding problems (extension)']) {
      await page.locator(`h2:has-text(${JSON.stringify(summary)})`).first().waitFor({ timeout: 30_000 });
    }
    await page.getByPlaceholder('Search...').fill('render');
    await page.locator('[data-role="search:results"] :text("Render a diagram to SVG, PNG or PDF")').first().waitFor({ timeout: 30_000 });
    await page.getByPlaceholder('Search...').fill('');
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled(page);
    await screenshot(page, 'api-docs');

    // The MCP page's snippets name this server, and Copy puts one on the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
    await page.goto(`${h.baseUrl}/docs/mcp`);
    const snippet = page.locator('#snippet-url-claude');
    assert.equal(await snippet.textContent(), `claude mcp add --transport http drawbridge ${h.baseUrl}/mcp`);
    await page.locator('button[data-copy="snippet-url-claude"]').click();
    await page.locator('button[data-copy="snippet-url-claude"]:has-text("Copied")').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `claude mcp add --transport http drawbridge ${h.baseUrl}/mcp`);
    await screenshot(page, 'mcp-setup');

    const origin = new URL(h.baseUrl).origin;
    const foreign = requested.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin);
    assert.deepEqual(foreign, [], 'every request went to this server');
    assert.ok(requested.some((url) => url.includes('/docs/api/assets/')), "Redoc's script came from this server");
    assert.ok(requested.some((url) => url.endsWith('/api/v1/openapi.json')), 'the reference read the published OpenAPI document');
  },
);
