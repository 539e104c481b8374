// Every page a person meets, on a 390 px phone and a 1280 px screen, in headless Chromium, with real data in
// it (long titles, an unbroken long email, tokens, folders, a workspace, shares): the page never scrolls
// sideways, and every control it shows lies within the screen's width and is not covered by anything else
// once scrolled to (scrolling down is fine). One browser; at each size one page per person (a stranger, the
// owner, a colleague, an unverified account), reused from page to page; each page a subtest, so one run
// names every page that fails, and how.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, settled, useBrowser } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { showEditor, signedInPage } from '../helpers/editor-page.ts';
import { MemoryOAuthProvider, oauthClient, openAuthorization } from '../helpers/oauth-client.ts';
import { linkIn, waitForMail } from './form-client.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: TestUser;
let colleague: TestUser;
let unverified: TestUser;
/** What the pages below show: made once, over the API, before the first page. */
const data = { diagram: '', published: '', locked: '', workspace: '', resetLink: '' };

const LONG_TITLE = 'Kubernetes production cluster overview with ingress, service mesh and observability';
const PASSWORD = 'a long enough password';
const SPEC = {
  nodes: [
    { id: 'user', label: 'Shopper', shape: 'ellipse', icon: 'icon-user' },
    { id: 'api', label: 'Orders API', icon: 'icon-nodejs' },
    { id: 'db', label: 'Orders DB', icon: 'icon-postgresql' },
  ],
  edges: ['user -> api : HTTPS', 'api -> db : SQL'],
};

async function ok(response: Promise<{ statusCode: number; body: string; json(): any }>, status: number): Promise<any> {
  const answer = await response;
  assert.equal(answer.statusCode, status, answer.body);
  return answer.body ? answer.json() : undefined;
}

before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user({ email: 'margaret.hamilton.flight-software-lead@apollo-guidance-computer.example.com' });
  colleague = await h.user({ email: 'katherine.johnson@langley-research-center.example.com' });
  unverified = await h.user({ email: 'dorothy.vaughan.west-area-computing@langley-research-center.example.com', unverified: true });
  const create = (token: string, title: string, extra: Record<string, unknown> = {}) =>
    ok(h.call('POST', '/api/v1/diagrams', { token, body: { title, spec: SPEC, ...extra } }), 201).then((made) => made.id as string);

  const platform = await ok(h.call('POST', '/api/v1/folders', { token: owner.token, body: { name: 'Platform engineering and site reliability' } }), 201);
  await ok(h.call('POST', '/api/v1/folders', { token: owner.token, body: { name: 'Incident reviews from the last quarter', parentId: platform.id } }), 201);
  data.diagram = await create(owner.token, LONG_TITLE, { folderId: platform.id });
  await create(owner.token, 'Checkout');
  await create(owner.token, 'Authentication_flow_between_the_mobile_app_and_the_identity_provider');
  const trashed = await create(owner.token, 'An old draft nobody needs any more');
  await ok(h.call('DELETE', `/api/v1/diagrams/${trashed}`, { token: owner.token }), 204);

  const workspace = await ok(h.call('POST', '/api/v1/workspaces', { token: owner.token, body: { name: 'Platform team of the payments and checkout division' } }), 201);
  data.workspace = workspace.id;
  await ok(h.call('POST', `/api/v1/workspaces/${workspace.id}/members`, { token: owner.token, body: { email: colleague.email, role: 'editor' } }), 200);
  await ok(h.call('POST', `/api/v1/diagrams/${data.diagram}/shares`, { token: owner.token, body: { email: colleague.email, role: 'viewer' } }), 200);
  const theirs = await create(colleague.token, 'Trajectory calculations for the re-entry of the command module');
  await ok(h.call('POST', `/api/v1/diagrams/${theirs}/shares`, { token: colleague.token, body: { email: owner.email, role: 'editor' } }), 200);

  for (const name of ['laptop', 'CI pipeline of the mobile app (release builds)', 'MCP agent']) {
    await h.admin('token', 'mint', '--email', owner.email, '--caps', 'read,write', '--name', name);
  }

  const open = await create(owner.token, 'Public roadmap for the next two quarters');
  data.published = (await ok(h.call('PUT', `/api/v1/diagrams/${open}/public-link`, { token: owner.token, body: { enabled: true } }), 200)).url;
  const locked = await create(owner.token, 'Password protected architecture');
  data.locked = (await ok(h.call('PUT', `/api/v1/diagrams/${locked}/public-link`, { token: owner.token, body: { enabled: true, password: 'correct horse' } }), 200)).url;

  // The public page's first drawing starts a render worker, which on a loaded machine takes long: not in a page's wait.
  assert.equal((await fetch(data.published)).status, 200);

  // A password-reset link, for the page that sets a new password.
  const reset = await fetch(`${h.baseUrl}/reset`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.baseUrl }, body: new URLSearchParams({ email: colleague.email }) });
  assert.equal(reset.status, 200);
  data.resetLink = linkIn(h, await waitForMail(h, colleague.email), '/reset/');
});
after(() => h?.close());

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** Who looks at a page: signed out, or signed in as one of the people above. */
type Who = 'stranger' | 'owner' | 'colleague' | 'unverified';

interface PageUnderTest {
  name: string;
  who: Who;
  /** Goes there and waits until it shows what it shows (no sleeps); may open a dialog or a menu. */
  open(page: Page): Promise<void>;
  /** The name of its screenshot at 390 px, in docs/web/. */
  screenshot?: string;
  /** What the screenshot shows at its top, when not the top of the page. */
  screenshotFrom?: string;
  /** Console errors that page causes on purpose (a 401 document, say). */
  expectedConsoleErrors?: RegExp;
}

const openEditor = (page: Page, id: string) => showEditor(page, h.baseUrl, id);

async function openDashboard(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${h.baseUrl}${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  // The dialogs open once the page's script runs: a click before it would be lost.
  await page.locator('#dashboard-dialogs[data-ready]').waitFor({ state: 'attached' });
  // The thumbnails on screen, drawn on the server when first asked for.
  await page.waitForFunction(
    () => [...document.querySelectorAll<HTMLImageElement>('.thumb img')].every((img) => img.getBoundingClientRect().top > window.innerHeight || (img.complete && img.naturalWidth > 0)),
    undefined,
    { timeout: 30_000 },
  );
}

/**
 * The consent page an MCP host added by URL sends the person to: the host registers and asks for an
 * authorization URL, which the signed-in browser opens. Each opening is a request of its own.
 */
async function openConsent(page: Page): Promise<void> {
  const provider = new MemoryOAuthProvider('http://127.0.0.1:9/callback', 'Sketching Assistant for the design team');
  const { client, transport } = oauthClient(`${h.baseUrl}/mcp`, provider);
  await assert.rejects(client.connect(transport), /Unauthorized/);
  await openAuthorization(page, provider.latestAuthorizationUrl());
}

const PAGES: PageUnderTest[] = [
  {
    name: 'the landing page',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/`);
      await page.locator('figure.example img').evaluate((img: HTMLImageElement) => img.decode());
    },
    screenshot: 'landing-390',
  },
  {
    name: 'the API reference',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/docs/api`);
      await page.locator('h2:has-text("Create a diagram")').first().waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'MCP setup',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/docs/mcp`);
      await page.getByRole('heading', { name: 'Connect an AI agent over MCP' }).waitFor();
    },
    screenshot: 'mcp-setup-390',
    screenshotFrom: 'h2:has-text("Add it by URL")',
  },
  {
    name: 'sign in',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    },
  },
  {
    name: 'sign up',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/signup`);
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    },
  },
  {
    name: 'check your inbox, after signing up',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/signup`);
      await page.getByLabel('Email').fill(`grace.hopper.${page.viewportSize()!.width}@navy-computing-laboratory.example.com`);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Repeat the password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    },
  },
  {
    name: 'password reset',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/reset`);
      await page.locator('main h1').waitFor();
    },
  },
  {
    name: 'a new password, from the reset link',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}${data.resetLink}`);
      await page.locator('main h1').waitFor();
    },
  },
  {
    name: 'a public page',
    who: 'stranger',
    async open(page) {
      await page.goto(data.published);
      await page.locator('img.diagram').evaluate((img: HTMLImageElement) => img.decode());
    },
    screenshot: 'public-page-390',
  },
  {
    name: "a public page's password form",
    who: 'stranger',
    async open(page) {
      await page.goto(data.locked);
      await page.getByLabel('Password').waitFor();
    },
  },
  {
    name: 'a public page behind a password, opened',
    who: 'stranger',
    async open(page) {
      await page.goto(data.locked);
      await page.getByLabel('Password').fill('correct horse');
      await page.getByRole('button', { name: 'View' }).click();
      await page.locator('img.diagram').evaluate((img: HTMLImageElement) => img.decode());
    },
  },
  {
    name: 'a public page that does not exist',
    who: 'stranger',
    async open(page) {
      await page.goto(`${h.baseUrl}/p/nothing-published-here`);
      await page.locator('h1').waitFor();
    },
    expectedConsoleErrors: /status of 404/,
  },
  {
    name: 'the dashboard',
    who: 'owner',
    open: (page) => openDashboard(page, '/app', 'All diagrams'),
    screenshot: 'dashboard-390',
  },
  {
    name: "the dashboard, a card's actions open",
    who: 'owner',
    async open(page) {
      await openDashboard(page, '/app', 'All diagrams');
      await page.locator('li.card').filter({ hasText: LONG_TITLE }).locator('details.actions summary').click();
    },
  },
  {
    name: "the dashboard's share dialog",
    who: 'owner',
    async open(page) {
      await openDashboard(page, '/app', 'All diagrams');
      const card = page.locator('li.card').filter({ hasText: LONG_TITLE });
      await card.locator('details.actions summary').click();
      await card.getByRole('link', { name: 'Share…' }).click();
      await page.getByRole('dialog').getByText(colleague.email).first().waitFor();
    },
  },
  {
    name: 'a folder',
    who: 'owner',
    async open(page) {
      await openDashboard(page, '/app', 'All diagrams');
      await page.getByRole('link', { name: /Platform engineering/ }).click();
      await page.getByRole('heading', { name: 'Platform engineering and site reliability', level: 1 }).waitFor();
    },
  },
  {
    name: 'the trash',
    who: 'owner',
    open: (page) => openDashboard(page, '/app?view=trash', 'Trash'),
  },
  {
    name: 'Shared with me',
    who: 'colleague',
    open: (page) => openDashboard(page, '/app?view=shared', 'Shared with me'),
  },
  {
    name: 'a workspace',
    who: 'owner',
    open: (page) => openDashboard(page, `/app?workspace=${data.workspace}`, 'Platform team of the payments and checkout division'),
  },
  {
    name: 'the members dialog',
    who: 'owner',
    async open(page) {
      await openDashboard(page, `/app?workspace=${data.workspace}`, 'Platform team of the payments and checkout division');
      await page.getByRole('button', { name: 'Members' }).click();
      await page.getByRole('dialog').getByLabel(`Role of ${colleague.email}`).waitFor();
    },
  },
  {
    name: 'the dashboard of an unverified account',
    who: 'unverified',
    open: (page) => openDashboard(page, '/app', 'All diagrams'),
  },
  {
    name: 'New diagram',
    who: 'owner',
    async open(page) {
      await page.goto(`${h.baseUrl}/app/new`);
      await page.locator('.preview-box img').waitFor({ timeout: 30_000 });
    },
    screenshot: 'new-diagram-390',
  },
  {
    name: 'the spec grammar',
    who: 'owner',
    async open(page) {
      await page.goto(`${h.baseUrl}/app/help/spec`);
      await page.locator('main h1').waitFor();
    },
  },
  {
    name: 'the editor',
    who: 'owner',
    open: (page) => openEditor(page, data.diagram),
  },
  {
    name: "the editor's main menu",
    who: 'owner',
    async open(page) {
      await openEditor(page, data.diagram);
      await page.locator('[data-testid="main-menu-trigger"]').click();
      await page.locator('.dropdown-menu').getByText('History').waitFor();
    },
  },
  {
    name: "the editor's history panel",
    who: 'owner',
    async open(page) {
      await openEditor(page, data.diagram);
      await page.locator('.db-history-toggle').click();
      await page.locator('.db-history-toggle[aria-pressed=true]').waitFor();
      await page.locator('.db-history li').first().waitFor();
    },
    screenshot: 'history-390',
  },
  {
    name: "the editor's share dialog",
    who: 'owner',
    async open(page) {
      await openEditor(page, data.diagram);
      await page.locator('.db-topbar').getByRole('button', { name: 'Share' }).click();
      await page.getByRole('dialog').getByLabel(`Role of ${colleague.email}`).waitFor();
    },
    screenshot: 'share-dialog-390',
  },
  {
    name: 'API tokens',
    who: 'owner',
    async open(page) {
      await page.goto(`${h.baseUrl}/app/settings/tokens`);
      await page.locator('table.tokens tr[data-token-id]').first().waitFor();
    },
  },
  {
    name: 'API tokens, one just minted',
    who: 'owner',
    async open(page) {
      await page.goto(`${h.baseUrl}/app/settings/tokens`);
      await page.locator('#token-name').fill(`phone ${page.viewportSize()!.width}`);
      await page.getByRole('button', { name: /^Create token/ }).click();
      await page.getByRole('button', { name: 'Copy' }).waitFor();
    },
  },
  {
    name: 'the consent page of an application connecting over OAuth',
    who: 'owner',
    open: openConsent,
    screenshot: 'consent-390',
  },
  {
    name: 'the error page',
    who: 'owner',
    async open(page) {
      await page.goto(`${h.baseUrl}/app/d/00000000-0000-4000-8000-000000000000`);
      await page.getByRole('heading', { name: 'That did not work' }).waitFor();
    },
    expectedConsoleErrors: /status of 404/,
  },
];

/**
 * What is wrong with the page as it is on screen: it scrolls sideways, or a control is off the screen's
 * sides or covered by something else at its centre once scrolled to. Run in the page.
 */
function layoutProblems(): string[] {
  const width = window.innerWidth;
  const problems: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > width) {
    // What sticks out: the outermost elements past the right edge whose parent lets them show.
    const wide = [...document.body.querySelectorAll('*')].filter((element) => {
      const parent = element.parentElement!;
      return (
        element.getBoundingClientRect().right > width + 0.5 &&
        parent.getBoundingClientRect().right <= width + 0.5 &&
        getComputedStyle(parent).overflowX === 'visible'
      );
    });
    problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in a ${width} px window, past the edge: ${wide.slice(0, 3).map((element) => describe(element)).join(', ')}`);
  }

  function describe(element: Element): string {
    const label =
      element.getAttribute('aria-label') ??
      (element as HTMLInputElement).labels?.[0]?.textContent ??
      element.getAttribute('title') ??
      element.getAttribute('placeholder') ??
      element.textContent ??
      element.getAttribute('name') ??
      '';
    const classes = element.getAttribute('class') ? `.${element.getAttribute('class')!.trim().split(/\s+/).join('.')}` : '';
    return `<${element.tagName.toLowerCase()}${classes}> "${label.replace(/\s+/g, ' ').trim().slice(0, 60)}"`;
  }
  // Behind a modal dialog the page is inert: what counts is the dialog's own controls.
  const scope = document.querySelector('dialog:modal') ?? document;
  const controls = [...scope.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]')].filter((element) => {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const box = element.getBoundingClientRect();
    // Visually hidden (a screen reader's text, a file input behind its button) is not a control on screen.
    return box.width > 1 && box.height > 1;
  });

  // Sideways first, before scrolling anything to a control moves it.
  for (const element of controls) {
    const box = element.getBoundingClientRect();
    if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${describe(element)} is off the screen's side: from ${Math.round(box.left)} to ${Math.round(box.right)} px of ${width}`);
  }
  for (const element of controls) {
    element.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    // A link that wraps onto a second line is two boxes, with its paragraph between them: aim at the first.
    const box = [...element.getClientRects()].find((rect) => rect.width > 1 && rect.height > 1) ?? element.getBoundingClientRect();
    const x = Math.min(Math.max(box.left + box.width / 2, 0), width - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    if (!hit || hit === element || element.contains(hit)) continue;
    // A label in front of its own input (a styled checkbox) leads to it.
    if (hit instanceof HTMLLabelElement && hit.control === element) continue;
    if (hit.closest('label')?.control === element) continue;
    problems.push(`${describe(element)} is covered by ${describe(hit)} at (${Math.round(x)}, ${Math.round(y)})`);
  }
  window.scrollTo({ left: 0, top: 0, behavior: 'instant' });
  return problems;
}

for (const viewport of VIEWPORTS) {
  test(`every page at ${viewport.width} px: nothing scrolls sideways, every control on screen and uncovered`, { timeout: 900_000 }, async (t) => {
    const pages = new Map<Who, Awaited<ReturnType<typeof browser.newPage>>>();
    const pageFor = async (who: Who) => {
      let watched = pages.get(who);
      if (!watched) {
        const user = { stranger: null, owner, colleague, unverified }[who];
        watched = await signedInPage(browser, t, h, user?.id ?? null, viewport);
        pages.set(who, watched);
      }
      return watched;
    };

    for (const under of PAGES) {
      await t.test(under.name, { timeout: 120_000 }, async () => {
        const { page, allowConsoleError } = await pageFor(under.who);
        if (under.expectedConsoleErrors) allowConsoleError(under.expectedConsoleErrors);
        await under.open(page);
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        if (under.screenshot && viewport.width === 390) {
          if (under.screenshotFrom) await page.locator(under.screenshotFrom).evaluate((element) => element.scrollIntoView({ block: 'start', behavior: 'instant' }));
          await settled(page);
          await screenshot(page, under.screenshot);
        }
        const problems = await page.evaluate(layoutProblems);
        assert.deepEqual(problems, [], `${under.name} at ${viewport.width}×${viewport.height} px (${page.url()}):\n${problems.join('\n')}`);
      });
    }
  });
}
