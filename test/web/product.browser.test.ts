// The web app as a new person meets it, in headless Chromium: the top bar on a
// 390 px phone, "New diagram" (a working example, a live preview, an icon
// picker), the editor opening framed on the whole diagram, and the editor's
// main menu holding this app's items and none of the stock ones that make no
// sense here.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { PNG } from 'pngjs';
import { screenshot, settled, useBrowser, type WatchedPage } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { signIn } from '../helpers/web-session.ts';

const browser = useBrowser();
let h: ListeningHarness;
let person: { id: string; email: string; token: string };

before(async () => {
  h = await startHarness({ listen: true });
  person = await h.user({ email: 'margaret.hamilton@apollo-guidance.example.com' });
});
after(() => h?.close());

async function signedInPage(t: TestContext, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  const watched = await browser.newPage(t, h.baseUrl);
  watched.page.setDefaultTimeout(15_000);
  if (viewport) await watched.page.setViewportSize(viewport);
  const session = await signIn(h, person.id);
  await watched.context.addCookies([{ name: 'drawbridge_session', value: session.cookie.split('=')[1]!, url: h.baseUrl }]);
  return watched;
}

async function createDiagram(title: string, spec: unknown, scene?: unknown): Promise<string> {
  const created = await h.call('POST', '/api/v1/diagrams', { token: person.token, body: { title, ...(scene ? { scene } : { spec }) } });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const inside = (box: Box, x: number, y: number) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;

/** The box around the clearly dark pixels of a screenshot below `top`, outside the `skip` areas (the editor's own buttons); null when there are none. */
function inkBox(png: Buffer, top: number, skip: Box[]): Box | null {
  const image = PNG.sync.read(png);
  let box: Box | null = null;
  for (let y = top; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (skip.some((area) => inside(area, x, y))) continue;
      const i = (y * image.width + x) * 4;
      if (image.data[i]! + image.data[i + 1]! + image.data[i + 2]! >= 300) continue;
      box = box ? { left: Math.min(box.left, x), right: Math.max(box.right, x), top: Math.min(box.top, y), bottom: Math.max(box.bottom, y) } : { left: x, right: x, top: y, bottom: y };
    }
  }
  return box;
}

test('at 390 px the top bar shows the account as a badge, and its menu names the account and reaches API tokens and Sign out', { timeout: 60_000 }, async (t) => {
  const { page } = await signedInPage(t, { width: 390, height: 844 });
  await page.goto(`${h.baseUrl}/app`);
  const bar = page.locator('nav.top');
  const barBox = (await bar.boundingBox())!;
  assert.ok(barBox.width <= 390 && barBox.height < 70, `the bar fits on one line: ${JSON.stringify(barBox)}`);
  const badge = page.locator('details.account-menu summary');
  const badgeBox = (await badge.boundingBox())!;
  assert.ok(badgeBox.x + badgeBox.width <= 390, `the account badge is on screen: ${JSON.stringify(badgeBox)}`);
  assert.equal(await page.locator('.account-email').isVisible(), false, 'the email is not squeezed into the bar');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing makes the page scroll sideways');

  await badge.click();
  const menu = page.locator('details.account-menu .menu');
  await menu.getByText(person.email).waitFor();
  const menuBox = (await menu.boundingBox())!;
  assert.ok(menuBox.x >= 0 && menuBox.x + menuBox.width <= 390, `the menu is on screen: ${JSON.stringify(menuBox)}`);
  assert.ok(await menu.getByRole('menuitem', { name: 'API tokens' }).isVisible());
  await screenshot(page, 'topbar-390');

  // A click elsewhere closes the menu; Sign out works from it.
  await page.mouse.click(40, 700);
  assert.equal(await menu.isVisible(), false);
  await badge.click();
  await menu.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(`${h.baseUrl}/login`);
});

test('New diagram opens with an example that previews and creates; the icon picker puts an icon on a node and the preview follows', { timeout: 90_000 }, async (t) => {
  const { page, allowConsoleError } = await signedInPage(t);
  // The refused spec's preview answer, below.
  allowConsoleError(/status of 422/);
  await page.goto(`${h.baseUrl}/app`);
  await page.getByRole('link', { name: 'New diagram' }).click();
  await page.getByRole('heading', { name: 'New diagram' }).waitFor();
  const spec = page.getByLabel('Spec', { exact: true });
  assert.match(await spec.inputValue(), /"icon": "icon-postgresql"/, 'a working example is filled in');
  assert.equal(await page.getByRole('link', { name: 'The spec grammar' }).getAttribute('href'), '/app/help/spec');

  const preview = page.locator('.preview-box img');
  await preview.waitFor({ timeout: 30_000 });
  const first = await preview.getAttribute('src');
  assert.match(first ?? '', /^data:image\/svg\+xml/);
  assert.match(decodeURIComponent(first!), /Orders DB/);

  // An icon for the API node: picked from the catalogue by search.
  await page.getByLabel('Put the icon on').selectOption('api');
  await page.getByLabel('Search icons').fill('kafka');
  await page.locator('ul.icon-grid button').first().click();
  assert.match(await spec.inputValue(), /"id": "api",\s*"label": "Orders API",\s*"icon": "icon-(apache)?kafka"/);
  await page.waitForFunction((before) => document.querySelector('.preview-box img')?.getAttribute('src') !== before, first, { timeout: 20_000 });
  await page.locator('.preview-box img').waitFor();

  // A mistake shows why, as create would refuse it.
  await spec.fill('{ "nodes": [{ "id": "a" }], "edges": ["a -> nowhere"] }');
  await page.locator('.preview-box [role=alert]').filter({ hasText: 'DANGLING_EDGE' }).waitFor({ timeout: 20_000 });

  await page.getByLabel('Title').fill('Order flow');
  await page.reload();
  await page.locator('.preview-box img').waitFor({ timeout: 30_000 });
  await page.getByLabel('Title').fill('Order flow');
  await settled(page);
  await screenshot(page, 'new-diagram');
  await page.getByRole('button', { name: 'Create diagram', exact: true }).click();
  await page.waitForURL(/\/app\/d\/[0-9a-f-]{36}$/);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('.db-topbar h1').textContent(), 'Order flow');
});

test('New diagram in Mermaid: choosing the language swaps the example, the preview draws it and lists what it leaves out, and it creates', { timeout: 90_000 }, async (t) => {
  const { page } = await signedInPage(t);
  await page.goto(`${h.baseUrl}/app/new`);
  await page.locator('.preview-box img').waitFor({ timeout: 30_000 });
  await page.getByLabel('Mermaid').check();
  const text = page.getByLabel('Mermaid', { exact: true }).and(page.locator('textarea'));
  assert.match(await text.inputValue(), /^flowchart LR/, 'the Mermaid example replaces the untouched spec example');
  assert.equal(await page.locator('.icon-picker').isHidden(), true, 'icons belong to a spec');
  await text.fill('flowchart LR\n  web[Web app] -->|HTTPS| api[Orders API]\n  click web "https://example.com"');
  await page.locator('.preview-warnings li').filter({ hasText: 'Line 3: click handlers' }).waitFor({ timeout: 30_000 });
  assert.match(decodeURIComponent((await page.locator('.preview-box img').getAttribute('src')) ?? ''), /Orders API/);
  await page.getByLabel('Title').fill('From Mermaid');
  await page.getByRole('button', { name: 'Create diagram', exact: true }).click();
  await page.waitForURL(/\/app\/d\/[0-9a-f-]{36}$/);
  assert.equal(await page.locator('.db-topbar h1').textContent(), 'From Mermaid');
});

test('the editor opens framed on the whole diagram: a large one zoomed out and centred, a small one at 100 %', { timeout: 90_000 }, async (t) => {
  // Two solid boxes far apart: at 100 % the second would be some 2000 px off-screen.
  const box = (id: string, x: number, y: number) => ({ id, type: 'rectangle', x, y, width: 300, height: 200, backgroundColor: '#1e1e1e', fillStyle: 'solid' });
  const large = await createDiagram('Far apart', undefined, { elements: [box('first', 0, 0), box('last', 3200, 1900)] });
  const small = await createDiagram('Tiny', { nodes: [{ id: 'a', label: 'Just one' }] });
  const { page } = await signedInPage(t);

  await page.goto(`${h.baseUrl}/app/d/${large}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  const zoom = Number.parseInt((await page.getByTitle(/reset the zoom/i).or(page.locator('.zoom-actions .reset-zoom-button')).first().textContent()) ?? '', 10);
  assert.ok(zoom < 100, `zoomed out to fit: ${zoom} %`);
  const shot = await settled(page);
  const { width, height } = page.viewportSize()!;
  const footer = [
    { left: 0, right: 240, top: height - 70, bottom: height },
    { left: width - 70, right: width, top: height - 70, bottom: height },
  ];
  const ink = inkBox(shot, 130, footer);
  assert.ok(ink, 'the diagram is drawn');
  assert.ok(ink.right - ink.left > width / 2, `both boxes are on screen, far apart: ${JSON.stringify(ink)}`);
  assert.ok(ink.bottom < height - 60, `the last box is above the editor's footer: ink ends at ${ink.bottom} of ${height}`);
  const centre = (ink.left + ink.right) / 2;
  assert.ok(Math.abs(centre - width / 2) < 80, `centred: ${centre}`);

  await page.goto(`${h.baseUrl}/app/d/${small}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  const smallZoom = (await page.getByTitle(/reset the zoom/i).or(page.locator('.zoom-actions .reset-zoom-button')).first().textContent())?.trim();
  assert.equal(smallZoom, '100%', 'a small diagram is not blown up');
});

test("the editor's main menu has Share, History and Export image, and none of Open, Save to, Reset the canvas or the social links", { timeout: 60_000 }, async (t) => {
  const id = await createDiagram('Menu check', { nodes: [{ id: 'a' }] });
  const { page } = await signedInPage(t);
  await page.goto(`${h.baseUrl}/app/d/${id}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="main-menu-trigger"]').click();
  const menu = page.locator('.main-menu .dropdown-menu-container, .dropdown-menu').first();
  await menu.waitFor();
  const items = (await menu.locator('.dropdown-menu-item, a.dropdown-menu-item').allTextContents()).map((text) => text.trim());
  for (const wanted of ['Share…', 'History', 'Copy as Mermaid', 'Export image...', 'Find on canvas', 'Help', 'Back to diagrams']) {
    assert.ok(items.some((item) => item.startsWith(wanted)), `${wanted} in ${JSON.stringify(items)}`);
  }
  for (const unwanted of ['Open', 'Save to...', 'Reset the canvas', 'GitHub', 'Follow us', 'Discord chat', 'Live collaboration...', 'Dark mode']) {
    assert.ok(!items.some((item) => item.startsWith(unwanted)), `${unwanted} is not in ${JSON.stringify(items)}`);
  }
  assert.equal(await menu.getByText('Excalidraw links').count(), 0);

  await menu.getByText('History').click();
  await page.locator('.db-history-toggle[aria-pressed=true]').waitFor();
  await page.locator('[data-testid="main-menu-trigger"]').click();
  await page.locator('.dropdown-menu').getByText('Share…').click();
  await page.getByRole('dialog').getByRole('heading', { name: 'Share “Menu check”' }).waitFor();
});

test('at 390 px API tokens are cards: every field named on its own line, Revoke on screen, nothing scrolls sideways', { timeout: 60_000 }, async (t) => {
  const { page } = await signedInPage(t, { width: 390, height: 844 });
  await page.goto(`${h.baseUrl}/app/settings/tokens`);
  const card = page.locator('table.tokens tr[data-token-id]').first();
  await card.waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing makes the page scroll sideways');
  const cardBox = (await card.boundingBox())!;
  assert.ok(cardBox.x >= 0 && cardBox.x + cardBox.width <= 390, `a card fits the screen: ${JSON.stringify(cardBox)}`);
  const revoke = card.getByRole('button', { name: 'Revoke' });
  const revokeBox = (await revoke.boundingBox())!;
  assert.ok(revokeBox.x >= 0 && revokeBox.x + revokeBox.width <= 390, `Revoke is on screen: ${JSON.stringify(revokeBox)}`);
  const label = await card.locator('td[data-label="Capabilities"]').evaluate((td) => getComputedStyle(td, '::before').content);
  assert.equal(label, '"Capabilities: "', 'each field is named');
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'tokens-390');
});

test('at 390 px the editor\'s bar keeps the title readable and "Saved" whole', { timeout: 90_000 }, async (t) => {
  const id = await createDiagram('Kubernetes cluster overview', { nodes: [{ id: 'api', label: 'API server' }, { id: 'etcd' }], edges: ['api -> etcd'] });
  const { page } = await signedInPage(t, { width: 390, height: 844 });
  await page.goto(`${h.baseUrl}/app/d/${id}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  const status = page.locator('.db-topbar [role=status]');
  await status.filter({ hasText: /^Saved$/ }).waitFor();
  const cut = (selector: string) => page.locator(selector).evaluate((element) => ({ shown: element.clientWidth, needs: element.scrollWidth }));
  const saved = await cut('.db-topbar [role=status]');
  assert.ok(saved.needs <= saved.shown, `"Saved" is whole: ${JSON.stringify(saved)}`);
  const title = await cut('.db-title');
  assert.ok(title.shown >= 120, `the title has room to be read: ${JSON.stringify(title)}`);
  assert.ok(await page.getByRole('link', { name: 'Diagrams' }).isVisible(), 'the way back is there, named');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing makes the page scroll sideways');
  await screenshot(page, 'editor-390');
});
