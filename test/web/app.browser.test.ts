// The web app end to end, as one person's journey in headless Chromium:
// sign up, verify through the outbox (which signs in), sign out and in; mint a token (shown once),
// use it, revoke it; create a diagram over the API and find it on the
// dashboard; open it in the editor and watch an API edit arrive without a
// reload, then draw in the editor and read the drawing back over the API;
// publish it with a password and open it as a stranger.
//
// The steps are ordered tests sharing one server and one account. Each step
// has its own watched page (so a console error is blamed on the step that
// caused it); the signed-in steps carry the session cookie over from the
// sign-in. A step that finds an earlier one failed says so instead of failing
// in some unrelated way.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cookie, ElementHandle, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { screenshot, settled, useBrowser, type WatchedPage } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { linkIn, waitForMail } from './form-client.ts';

const browser = useBrowser();
let h: ListeningHarness;
before(async () => {
  h = await startHarness({ listen: true });
});
after(() => h?.close());

const PASSWORD = 'a long enough password';
const DIAGRAM_TITLE = 'Checkout journey';
const PUBLIC_PASSWORD = 'open sesame please';
/** The label an API edit adds while the diagram is open in the editor. */
const LIVE_LABEL = 'Live cache 7319';
const SPEC = {
  version: '1',
  layout: { direction: 'LR' },
  nodes: [
    { id: 'user', label: 'Shopper', shape: 'ellipse', icon: 'icon-user' },
    { id: 'api', label: 'Orders API', icon: 'icon-nodejs' },
    { id: 'db', label: 'Orders DB', icon: 'icon-postgresql', backgroundColor: '#e7f5ff' },
  ],
  edges: ['user -> api : HTTPS', { from: 'api', to: 'db', label: 'SQL', style: 'dashed' }],
};

/** What the steps hand on to the next ones. The server is this file's own, so a fixed address is free (and the screenshots stay the same from run to run). */
const journey: {
  email: string;
  userId?: string;
  /** The session cookie of the signed-in browser. */
  cookies?: Cookie[];
  /** A token minted in the browser, still active. */
  token?: string;
  diagramId?: string;
} = { email: 'ada@example.com' };

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`an earlier step failed: no ${what}`);
  return value;
}

/** A watched page in a fresh context (no cookies): a stranger's browser. */
async function freshPage(t: TestContext): Promise<WatchedPage> {
  const watched = await browser.newPage(t, h.baseUrl);
  // A missing element fails its step well inside the step's own time limit, saying what was awaited.
  watched.page.setDefaultTimeout(15_000);
  return watched;
}

/** A watched page in a fresh context, signed in as the journey's account. */
async function signedInPage(t: TestContext): Promise<WatchedPage> {
  const watched = await freshPage(t);
  await watched.context.addCookies(need(journey.cookies, 'signed-in session'));
  return watched;
}

/** A call to the API with Node's fetch, as a script holding the token would make it. */
async function api(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${h.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the assertion message.
  }
  return { status: response.status, json };
}

/** Mints a token on the settings page (all four capabilities, 30 days) and returns the text shown once. */
async function mintInBrowser(page: Page, name: string): Promise<string> {
  await page.goto(`${h.baseUrl}/app/settings/tokens`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  for (const capability of ['read', 'write', 'publish', 'delete']) await page.getByRole('checkbox', { name: new RegExp(`^${capability} —`) }).check();
  await page.getByLabel('30 days').check();
  await page.getByRole('button', { name: 'Create token' }).click();
  const field = page.locator('#new-token');
  await field.waitFor();
  assert.equal(await field.getAttribute('readonly'), '', 'the new token is in a read-only field');
  const token = await field.inputValue();
  assert.ok(token.length > 20, `a token is shown: ${token}`);
  return token;
}

/** Waits for an <img> to have loaded and decoded; its natural size. */
async function imageLoaded(page: Page, image: Locator): Promise<{ width: number; height: number }> {
  const handle = (await image.elementHandle()) as ElementHandle<HTMLImageElement>;
  await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, handle, { timeout: 20_000 });
  return handle.evaluate((img) => ({ width: img.naturalWidth, height: img.naturalHeight }));
}

function isDark(image: PNG, x: number, y: number): boolean {
  const i = (y * image.width + x) * 4;
  return image.data[i]! + image.data[i + 1]! + image.data[i + 2]! < 600;
}

/** How many pixels of a screenshot, below the editor's top bar, are clearly not white. */
function inkedPixels(png: Buffer, top = 120): number {
  const image = PNG.sync.read(png);
  let count = 0;
  for (let y = top; y < image.height; y++) for (let x = 0; x < image.width; x++) if (isDark(image, x, y)) count++;
  return count;
}

const sceneOf = async (id: string, token: string) => {
  const read = await api('GET', `/diagrams/${id}`, token);
  assert.equal(read.status, 200, JSON.stringify(read.json));
  return read.json as { docUpdatedAt: string; scene: { elements: Array<Record<string, any>> } };
};

test('1. sign up at /signup, verify through the link in the outbox, sign in, land on the dashboard', { timeout: 60_000 }, async (t) => {
  const { page, context } = await freshPage(t);

  await page.goto(`${h.baseUrl}/signup`);
  await page.getByLabel('Email').fill(journey.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await screenshot(page, 'signup');
  await page.getByRole('button', { name: 'Create account' }).click();

  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  assert.ok((await page.locator('main').textContent())?.includes(journey.email), 'the page names the address the link went to');
  assert.equal((await context.cookies()).filter((c) => c.name === 'drawbridge_session').length, 0, 'signing up does not sign in');
  await screenshot(page, 'check-inbox');

  const mail = await waitForMail(h, journey.email);
  const link = linkIn(h, mail, '/verify?token=');
  await page.goto(`${h.baseUrl}${link}`);
  await page.waitForURL(`${h.baseUrl}/app`);
  assert.ok(await page.getByRole('heading', { name: 'All diagrams', level: 1 }).isVisible(), 'following the link in this browser signed it in');

  // Sign out from the account menu, and back in.
  await page.locator('details.account-menu summary').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(`${h.baseUrl}/login`);
  await page.getByLabel('Email').fill(journey.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await screenshot(page, 'login');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.waitForURL(`${h.baseUrl}/app`);
  await page.getByRole('heading', { name: 'All diagrams', level: 1 }).waitFor();
  assert.ok(await page.locator('.account-email').getByText(journey.email).isVisible(), 'the navigation names the signed-in account');
  assert.equal(await page.locator('.unverified').count(), 0, 'no unverified banner after following the link');
  assert.equal(await page.getByText(/verify your email|not verified/i).count(), 0);
  assert.ok(await page.getByText('No diagrams yet').isVisible());

  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'drawbridge_session');
  assert.ok(session, `a session cookie: ${JSON.stringify(cookies)}`);
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  journey.cookies = cookies;
});

test('2. settings → API tokens: mint a token, shown once; it works on the API; revoked in the browser, the next call is 401', { timeout: 60_000 }, async (t) => {
  const { page } = await signedInPage(t);

  const token = await mintInBrowser(page, 'Journey laptop');
  await screenshot(page, 'tokens-new');

  // Reloading the page that showed it loads the list (the page script replaced the form's answer in history),
  // so nothing is minted again; the token is gone for good and the list keeps its last four characters.
  await page.reload();
  assert.equal(page.url(), `${h.baseUrl}/app/settings/tokens`);
  const html = await page.content();
  assert.ok(!html.includes(token), 'the token text is nowhere in the page anymore');
  assert.equal(await page.locator('#new-token').count(), 0);
  const row = page.locator('table.tokens tbody tr').filter({ hasText: 'Journey laptop' });
  assert.equal(await row.count(), 1);
  const cells = (await row.locator('td').allTextContents()).map((text) => text.trim());
  assert.equal(cells[1], 'read, write, publish, delete');
  assert.equal(cells[2], `…${token.slice(-4)}`, 'the list shows the last four characters');
  assert.equal(cells[6], 'active');
  assert.equal(cells[5], 'never', 'not used yet');

  const me = await api('GET', '/me', token);
  assert.equal(me.status, 200, JSON.stringify(me.json));
  assert.equal(me.json.email, journey.email);
  assert.deepEqual([...me.json.capabilities].sort(), ['delete', 'publish', 'read', 'write']);
  journey.userId = me.json.id;
  // Verified before minting: the token works beyond GET /me.
  const list = await api('GET', '/diagrams', token);
  assert.equal(list.status, 200, JSON.stringify(list.json));
  assert.deepEqual(list.json.items, []);

  // Last use is recorded in the background: look again until it shows.
  for (let attempt = 0; ; attempt++) {
    await page.reload();
    if ((await row.locator('td').nth(5).textContent())?.trim() !== 'never') break;
    assert.ok(attempt < 10, 'the list shows the token was used');
    await sleep(100);
  }

  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.waitForURL(`${h.baseUrl}/app/settings/tokens`);
  await row.locator('.status-revoked').waitFor();
  assert.equal(await row.getByRole('button', { name: 'Revoke' }).count(), 0, 'a revoked token has no Revoke button');

  const refused = await api('GET', '/me', token);
  assert.equal(refused.status, 401, 'the next API call after revoking is refused');
  assert.equal((await api('GET', '/diagrams', token)).status, 401);
});

test('3. a second token minted in the browser (the list: one revoked, one active) creates a diagram over the API; the dashboard shows it with its thumbnail', { timeout: 60_000 }, async (t) => {
  const { page } = await signedInPage(t);
  const token = await mintInBrowser(page, 'Journey agent');
  journey.token = token;

  // The list now: the revoked token and the new one, each by its last four characters only.
  await page.goto(`${h.baseUrl}/app/settings/tokens`);
  assert.ok(!(await page.content()).includes(token));
  const listed = await page
    .locator('table.tokens tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent!.trim())).map((cells) => [cells[0], cells[2], cells[6]]));
  assert.deepEqual(listed.find((cells) => cells[0] === 'Journey agent'), ['Journey agent', `…${token.slice(-4)}`, 'active']);
  assert.equal(listed.find((cells) => cells[0] === 'Journey laptop')?.[2], 'revoked');
  assert.equal(listed.length, 2);
  await page.getByRole('heading', { name: 'Your tokens' }).evaluate((heading) => heading.scrollIntoView());
  await screenshot(page, 'tokens-list');

  const created = await api('POST', '/diagrams', token, { title: DIAGRAM_TITLE, spec: SPEC });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  journey.diagramId = created.json.id as string;

  await page.goto(`${h.baseUrl}/app`);
  const card = page.locator('li.card').filter({ has: page.getByRole('link', { name: DIAGRAM_TITLE }) });
  await card.waitFor();
  assert.equal(await page.locator('li.card').count(), 1);
  assert.match((await card.locator('.meta').textContent()) ?? '', /Updated just now · \d+ elements/);
  const thumbnail = card.locator('.thumb img');
  assert.match((await thumbnail.getAttribute('src')) ?? '', new RegExp(`^/app/d/${journey.diagramId}/thumbnail\\.png\\?v=`));
  const size = await imageLoaded(page, thumbnail);
  assert.ok(size.width > 0 && size.height > 0, `the thumbnail decoded: ${JSON.stringify(size)}`);
  await screenshot(page, 'dashboard');
});

test('4. the editor shows the diagram, an API edit appears without a reload, and a rectangle drawn with the mouse is saved', { timeout: 90_000 }, async (t) => {
  const id = need(journey.diagramId, 'diagram');
  const token = need(journey.token, 'active token');
  const { page } = await signedInPage(t);
  // What the editor sends over its live socket.
  const framesSent: string[] = [];
  page.on('websocket', (socket) => socket.on('framesent', (frame) => framesSent.push(String(frame.payload))));

  await page.goto(`${h.baseUrl}/app`);
  await page.getByRole('link', { name: DIAGRAM_TITLE }).click();
  await page.waitForURL(`${h.baseUrl}/app/d/${id}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  const status = page.locator('.db-topbar [role=status]');
  await status.filter({ hasText: /^Saved$/ }).waitFor();
  assert.equal(await page.locator('.db-topbar h1').textContent(), DIAGRAM_TITLE);
  const opened = await settled(page);
  const inkBefore = inkedPixels(opened);
  assert.ok(inkBefore > 2000, `the canvas shows the diagram (${inkBefore} inked pixels)`);
  await screenshot(page, 'editor');

  // The edit arrives over the live socket and joins the scene, without a reload and without fetching the diagram again.
  await page.evaluate(() => ((window as any).__marker = 1));
  let navigations = 0;
  page.on('framenavigated', (frame) => void (frame === page.mainFrame() && navigations++));
  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));

  const edit = await api('POST', `/diagrams/${id}/edit`, token, { addNodes: [{ id: 'cache', label: LIVE_LABEL }], addEdges: ['api -> cache : reads'] });
  assert.equal(edit.status, 200, JSON.stringify(edit.json));
  assert.deepEqual(edit.json.added, ['cache', 'api-to-cache']);

  for (let attempt = 0; inkedPixels(await page.screenshot()) <= inkBefore + 300; attempt++) {
    assert.ok(attempt < 150, 'the new node is drawn on the canvas');
    await sleep(100);
  }
  assert.equal(await page.evaluate(() => (window as any).__marker), 1, 'the page was not reloaded');
  assert.equal(navigations, 0, 'the page did not navigate');
  assert.equal(page.url(), `${h.baseUrl}/app/d/${id}`);
  assert.ok(!requests.some((r) => r.startsWith('GET /app/api/diagrams/')), `the page fetched nothing again: ${requests.join(', ')}`);
  assert.ok(!framesSent.some((frame) => frame.includes('"type":"elements"')), "the editor did not send the API's change back");
  const updated = await settled(page);
  const inkAfter = inkedPixels(updated);
  assert.ok(inkAfter > inkBefore + 300, `the new node is drawn on the canvas (${inkBefore} → ${inkAfter} inked pixels)`);
  await screenshot(page, 'editor-live-update');

  // Draw a rectangle in an empty part of the canvas: it goes out over the live socket, and the server stores it a moment later.
  const before = await sceneOf(id, token);
  const rectangles = before.scene.elements.filter((e) => e.type === 'rectangle' && !e.isDeleted).length;
  await page.mouse.click(1000, 660);
  await page.keyboard.press('r');
  await page.mouse.move(950, 600);
  await page.mouse.down();
  await page.mouse.move(1050, 650, { steps: 5 });
  await page.mouse.move(1110, 690, { steps: 5 });
  await page.mouse.up();
  await status.filter({ hasText: /^Saved$/ }).waitFor();
  assert.ok(framesSent.some((frame) => frame.includes('"type":"elements"')), 'the rectangle went out over the live socket');

  const after = await sceneOf(id, token);
  assert.notEqual(after.docUpdatedAt, before.docUpdatedAt, 'the save moved the revision');
  const drawn = after.scene.elements.filter((e) => e.type === 'rectangle' && !e.isDeleted && !before.scene.elements.some((b) => b.id === e.id));
  assert.equal(drawn.length, 1, `one new rectangle over the API (had ${rectangles})`);
  assert.ok(Math.abs(drawn[0]!.width - 160) <= 2 && Math.abs(drawn[0]!.height - 90) <= 2, `the rectangle is the size dragged: ${drawn[0]!.width}×${drawn[0]!.height}`);
  assert.ok(after.scene.elements.some((e) => e.type === 'text' && e.text === LIVE_LABEL), "the API's node survived the editor's save");
  assert.equal(await page.evaluate(() => (window as any).__marker), 1);
});

test('5. published with a password, the diagram opens for a stranger after the password, with nothing of the account', { timeout: 120_000 }, async (t) => {
  const id = need(journey.diagramId, 'diagram');
  const token = need(journey.token, 'active token');
  const link = await api('PUT', `/diagrams/${id}/public-link`, token, { enabled: true, password: PUBLIC_PASSWORD });
  assert.equal(link.status, 200, JSON.stringify(link.json));
  assert.equal(link.json.hasPassword, true);
  const url = link.json.url as string;
  assert.ok(url.startsWith(`${h.baseUrl}/p/`), url);

  // A stranger: a fresh context, no cookies.
  const { page, context } = await freshPage(t);
  await page.goto(url);
  await page.getByRole('heading', { name: 'This diagram is protected' }).waitFor();
  assert.equal(await page.locator('img.diagram').count(), 0, 'no diagram before the password');
  await page.getByLabel('Password').fill(PUBLIC_PASSWORD);
  await screenshot(page, 'public-password');
  // The answer to the password carries the diagram rendered on the server (the renderer's first run, in a fresh worker):
  // on a loaded machine that outlasts the page's default 15 s.
  await page.getByRole('button', { name: 'View' }).click({ timeout: 45_000 });

  const diagram = page.locator('img.diagram');
  await diagram.waitFor({ state: 'visible', timeout: 45_000 });
  const size = await imageLoaded(page, diagram);
  assert.ok(size.width > 0 && size.height > 0, `the diagram decoded: ${JSON.stringify(size)}`);
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), DIAGRAM_TITLE);
  assert.ok(await page.getByRole('listitem').filter({ hasText: LIVE_LABEL }).count(), 'it is the diagram as edited, API node included');

  const html = await page.content();
  assert.ok(!html.includes(journey.email), 'the email of the account is not on the page');
  assert.ok(!html.includes(need(journey.userId, 'user id')), 'the id of the account is not on the page');
  assert.ok(!html.includes(token) && !html.includes(PUBLIC_PASSWORD));
  assert.deepEqual(await context.cookies(), [], 'the stranger got no cookie');
});
