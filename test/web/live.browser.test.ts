// Live collaboration in headless Chromium: two people (two browser contexts) in one diagram, drawing
// with the mouse at the same time while an agent edits and patches the diagram over the API. At the
// end both browsers and the stored scene hold the same elements: every rectangle and line either
// person drew and every API change, none lost, none twice. Each sees the other (an avatar in the top
// bar, a pointer on the canvas), and someone the diagram is shared with as a viewer sees the changes
// live but cannot make any. A regenerate with a scene replaces what open editors show, and they do
// not write it back.
//
// What a browser holds is read as a person would get it out: select all, copy, and read the
// clipboard (the editor copies its elements as JSON).
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { screenshot, settled, useBrowser } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { signIn } from '../helpers/web-session.ts';

const browser = useBrowser();
let h: ListeningHarness;
let ada: TestUser;
let bob: TestUser;
let vic: TestUser;

before(async () => {
  h = await startHarness({ listen: true });
  ada = await h.user({ email: 'ada@example.com' });
  bob = await h.user({ email: 'bob@example.com' });
  vic = await h.user({ email: 'vic@example.com' });
});
after(() => h?.close());

const SPEC = {
  version: '1',
  layout: { direction: 'LR' },
  nodes: [
    { id: 'web', label: 'Web app' },
    { id: 'db', label: 'Orders DB', backgroundColor: '#e7f5ff' },
    { id: 'legacy', label: 'Legacy batch' },
  ],
  edges: ['web -> db : SQL'],
};

type Element = Record<string, any> & { id: string; type: string };

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${h.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ada.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const stored = async (id: string): Promise<Element[]> => (await api('GET', `/diagrams/${id}`)).scene.elements;

/** Polls `read` until `test` holds; the test's own time limit bounds the wait. */
async function eventually<T>(what: string, read: () => Promise<T>, test: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (test(value)) return value;
    if (attempt === 300) assert.fail(`still waiting for ${what}: ${JSON.stringify(value)?.slice(0, 500)}`);
    await delay(100);
  }
}

async function sharedDiagram(title: string): Promise<string> {
  const created = await api('POST', '/diagrams', { title, spec: SPEC });
  await h.store.sharing.shareDiagram(created.id, bob.id, 'editor');
  await h.store.sharing.shareDiagram(created.id, vic.id, 'viewer');
  return created.id;
}

/** The editor open on a diagram as `user`, connected to the room ("Saved", or "View only"). */
async function openEditor(t: TestContext, user: TestUser, diagramId: string): Promise<Page> {
  const { page, context } = await browser.newPage(t, h.baseUrl);
  page.setDefaultTimeout(20_000);
  const session = await signIn(h, user.id);
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: h.baseUrl }]);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
  await page.goto(`${h.baseUrl}/app/d/${diagramId}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  await status(page).filter({ hasText: /^(Saved|View only)$/ }).waitFor();
  return page;
}

const status = (page: Page) => page.locator('.db-topbar [role=status]');
const avatar = (page: Page, name: string) => page.locator(`.db-topbar .db-peers li[title^="${name}"]`);

/**
 * Drags with a shape tool ('r' rectangle, 'l' line) from one point of the window to another. Points
 * left of x = 240 are under the editor's shape properties, which show while a shape tool is active.
 */
async function drag(page: Page, tool: 'r' | 'l', from: [number, number], to: [number, number]): Promise<void> {
  await page.keyboard.press(tool);
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move((from[0] + to[0]) / 2, (from[1] + to[1]) / 2, { steps: 4 });
  await page.mouse.move(...to, { steps: 4 });
  await page.mouse.up();
}

/** An empty spot of the canvas to click on, for the keyboard to reach the editor. */
const QUIET_SPOT: [number, number] = [1220, 300];

/** The zoom the editor shows at its bottom left ("100%" is 1). */
async function zoomOf(page: Page): Promise<number> {
  const shown = (await page.locator('.excalidraw .reset-zoom-button').first().textContent()) ?? '';
  const percent = /^(\d+)%$/.exec(shown.trim());
  assert.ok(percent, `the zoom shown: ${shown}`);
  return Number(percent[1]) / 100;
}

/** What the editor holds, as its own copy puts it on the clipboard: every element, deleted ones excepted. */
async function copiedScene(page: Page): Promise<Element[]> {
  await page.keyboard.press('Escape');
  await page.mouse.click(...QUIET_SPOT);
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Control+c');
  const text = await page.evaluate(() => navigator.clipboard.readText());
  const copied = JSON.parse(text) as { type: string; elements: Element[] };
  assert.equal(copied.type, 'excalidraw/clipboard');
  await page.keyboard.press('Escape');
  return copied.elements;
}

function isDark(image: PNG, x: number, y: number): boolean {
  const i = (y * image.width + x) * 4;
  return image.data[i]! + image.data[i + 1]! + image.data[i + 2]! < 600;
}

/** Pixels of a screenshot, in a box or below the editor's toolbar, that are clearly not white. */
function ink(png: Buffer, box: { x: number; y: number; width: number; height: number } = { x: 0, y: 110, width: 1280, height: 690 }): number {
  const image = PNG.sync.read(png);
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) if (isDark(image, x, y)) count++;
  return count;
}

/** Pixels in a box of a screenshot that are not white: the light colours of a pointer and its name tag count too. */
function tint(png: Buffer, box: { x: number; y: number; width: number; height: number }): number {
  const image = PNG.sync.read(png);
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i]! + image.data[i + 1]! + image.data[i + 2]! < 750) count++;
    }
  }
  return count;
}

/** The fields that say where an element is and what it looks like, to compare copies of it. */
const shape = (e: Element) => ({ id: e.id, type: e.type, version: e.version, x: Math.round(e.x), y: Math.round(e.y), width: Math.round(e.width), height: Math.round(e.height), backgroundColor: e.backgroundColor });
const byId = (elements: Element[]) => [...elements].sort((a, b) => (a.id < b.id ? -1 : 1)).map(shape);

test('two people draw at once while the API edits and patches: both browsers and the stored scene end with every change, none lost or doubled', { timeout: 240_000 }, async (t) => {
  const id = await sharedDiagram('Two people at once');
  const original = await stored(id);
  const legacy = original.find((e) => e.id === 'legacy' || (e.type === 'text' && e.text === 'Legacy batch' && e.containerId))!;
  const legacyId = legacy.type === 'text' ? legacy.containerId : legacy.id;
  const dbNode = original.find((e) => e.type === 'text' && e.text === 'Orders DB')!.containerId as string;

  const [adaPage, bobPage] = await Promise.all([openEditor(t, ada, id), openEditor(t, bob, id)]);
  await Promise.all([avatar(adaPage, 'bob').waitFor(), avatar(bobPage, 'ada').waitFor()]);
  for (const page of [adaPage, bobPage]) await page.mouse.click(...QUIET_SPOT);

  // Ada draws rectangles along one row while Bob draws lines and rectangles along another; the agent
  // edits and patches in the middle of it.
  const adaDraws = (async () => {
    for (let i = 0; i < 5; i++) await drag(adaPage, 'r', [260 + i * 100, 560], [330 + i * 100, 610]);
  })();
  const bobDraws = (async () => {
    for (let i = 0; i < 4; i++) await drag(bobPage, 'l', [260 + i * 130, 660], [360 + i * 130, 700]);
    await drag(bobPage, 'r', [900, 650], [990, 700]);
  })();
  const agent = (async () => {
    await api('POST', `/diagrams/${id}/edit`, { addNodes: [{ id: 'cache', label: 'Cache 7319' }], addEdges: ['web -> cache : reads'] });
    await api('POST', `/diagrams/${id}/patch`, { ops: [{ op: 'restyle', id: dbNode, backgroundColor: '#ffec99' }, { op: 'delete', id: legacyId }] });
  })();
  await Promise.all([adaDraws, bobDraws, agent]);

  // Ada holds a stroke while the agent adds a solid box: it appears without a reload, and her stroke
  // goes on to the size she drags it to.
  await adaPage.evaluate(() => ((window as any).__notReloaded = true));
  const top = Math.min(...(await stored(id)).map((e) => e.y));
  const left = Math.min(...(await stored(id)).map((e) => e.x));
  await adaPage.keyboard.press('r');
  await adaPage.mouse.move(950, 540);
  await adaPage.mouse.down();
  await adaPage.mouse.move(1000, 560, { steps: 3 });
  const inkBefore = ink(await adaPage.screenshot());
  await api('POST', `/diagrams/${id}/patch`, {
    ops: [{ op: 'add', element: { type: 'rectangle', id: 'agent-box', x: left, y: top - 150, width: 200, height: 90, backgroundColor: '#1971c2', fillStyle: 'solid' } }],
  });
  await eventually('the agent’s box on Ada’s canvas', async () => ink(await adaPage.screenshot()), (now) => now > inkBefore + 8000);
  await adaPage.mouse.move(1090, 600, { steps: 3 });
  await adaPage.mouse.up();
  assert.equal(await adaPage.evaluate(() => (window as any).__notReloaded), true, 'the page was not reloaded');

  // Everyone settles on one scene.
  await Promise.all([status(adaPage).filter({ hasText: /^Saved$/ }).waitFor(), status(bobPage).filter({ hasText: /^Saved$/ }).waitFor()]);
  const scene = await eventually(
    'the stored scene to hold every drawing',
    () => stored(id),
    (elements) => elements.filter((e) => !original.some((o) => o.id === e.id) && (e.type === 'rectangle' || e.type === 'line')).length >= 12,
  );
  const adaHolds = await eventually('Ada to hold the stored scene', () => copiedScene(adaPage), (elements) => elements.length === scene.length);
  const bobHolds = await eventually('Bob to hold the stored scene', () => copiedScene(bobPage), (elements) => elements.length === scene.length);
  const storedNow = await stored(id);

  for (const [who, elements] of [['Ada', adaHolds], ['Bob', bobHolds], ['the store', storedNow]] as const) {
    assert.equal(new Set(elements.map((e) => e.id)).size, elements.length, `${who} holds no element twice`);
  }
  assert.deepEqual(byId(adaHolds), byId(storedNow), 'Ada holds the stored scene');
  assert.deepEqual(byId(bobHolds), byId(storedNow), 'Bob holds the stored scene');

  const drawn = storedNow.filter((e) => !original.some((o) => o.id === e.id) && e.id !== 'agent-box');
  const rectangles = drawn.filter((e) => e.type === 'rectangle' && !e.boundElements?.length);
  const lines = drawn.filter((e) => e.type === 'line');
  assert.equal(lines.length, 4, `Bob's four lines: ${JSON.stringify(lines.map(shape))}`);
  // Sizes in the window, over the zoom the editor shows, are sizes in the scene.
  const zoom = await zoomOf(adaPage);
  const sizes = rectangles.map((e) => `${Math.round(e.width * zoom)}×${Math.round(e.height * zoom)}`).sort();
  assert.deepEqual(sizes, ['140×60', '70×50', '70×50', '70×50', '70×50', '70×50', '90×50'], 'Ada’s five rectangles and her held stroke, and Bob’s rectangle, at the sizes dragged');

  const texts = storedNow.filter((e) => e.type === 'text').map((e) => e.text);
  assert.ok(texts.includes('Cache 7319'), `the API edit's node: ${texts.join(', ')}`);
  assert.ok(!texts.includes('Legacy batch') && !storedNow.some((e) => e.id === legacyId), 'the patch deleted the legacy node');
  assert.equal(storedNow.find((e) => e.id === dbNode)?.backgroundColor, '#ffec99', 'the patch restyled the database');
  assert.ok(storedNow.some((e) => e.id === 'agent-box'), 'the box the agent added while Ada drew');
});

test('each sees the other: an avatar in the top bar and a pointer on the canvas, gone when they leave', { timeout: 120_000 }, async (t) => {
  const id = await sharedDiagram('Checkout service');
  const [adaPage, bobPage] = await Promise.all([openEditor(t, ada, id), openEditor(t, bob, id)]);
  await avatar(adaPage, 'bob').waitFor();
  await avatar(bobPage, 'ada').waitFor();
  assert.equal(await avatar(adaPage, 'bob').textContent(), 'B');
  assert.equal(await avatar(bobPage, 'ada').textContent(), 'A');
  assert.equal(await adaPage.locator('.db-peers li').count(), 1, 'Ada sees Bob only, not herself');

  // Bob's pointer shows on Ada's canvas where Bob has it: both opened the diagram at the same view.
  const spot = { x: 960, y: 170, width: 160, height: 80 };
  await adaPage.mouse.move(300, 200);
  const quiet = tint(await settled(adaPage), spot);
  await bobPage.mouse.move(980, 185, { steps: 3 });
  await eventually('Bob’s pointer on Ada’s canvas', async () => tint(await adaPage.screenshot(), spot), (now) => now > quiet + 100);

  // Bob draws a box and keeps it selected: Ada sees it, outlined in his colour, his pointer at its corner.
  await bobPage.mouse.click(...QUIET_SPOT);
  await drag(bobPage, 'r', [560, 540], [760, 620]);
  await status(bobPage).filter({ hasText: /^Saved$/ }).waitFor();
  await adaPage.mouse.click(...QUIET_SPOT);
  await eventually('Bob’s box on Ada’s canvas', async () => ink(await adaPage.screenshot(), { x: 540, y: 520, width: 240, height: 120 }), (now) => now > 300);
  await settled(adaPage);
  await screenshot(adaPage, 'editor-two-people');

  // Bob leaves: his avatar and his pointer go from Ada's page.
  await bobPage.context().close();
  await avatar(adaPage, 'bob').waitFor({ state: 'detached' });
  await eventually('Bob’s pointer gone from Ada’s canvas', async () => tint(await adaPage.screenshot(), spot), (now) => now <= quiet);
});

test('a viewer sees changes live, in view mode, and sends none', { timeout: 120_000 }, async (t) => {
  const id = await sharedDiagram('Shared for reading');
  const [adaPage, vicPage] = await Promise.all([openEditor(t, ada, id), openEditor(t, vic, id)]);
  assert.equal(await status(vicPage).textContent(), 'View only');
  const framesFromVic: string[] = [];
  vicPage.on('websocket', (socket) => socket.on('framesent', (frame) => framesFromVic.push(String(frame.payload))));
  const before = ink(await settled(vicPage));
  const elementsBefore = (await stored(id)).length;

  await adaPage.mouse.click(...QUIET_SPOT);
  await drag(adaPage, 'r', [300, 560], [520, 700]);
  await status(adaPage).filter({ hasText: /^Saved$/ }).waitFor();
  await eventually('Ada’s rectangle on Vic’s canvas', async () => ink(await vicPage.screenshot()), (now) => now > before + 300);

  // Vic tries to draw: the editor is in view mode, so the drag moves the view and makes nothing.
  await vicPage.mouse.click(...QUIET_SPOT);
  await drag(vicPage, 'r', [600, 560], [800, 700]);
  assert.equal(await vicPage.locator('.App-toolbar').count(), 0, 'no drawing tools in view mode');
  // Ada draws once more; once it reached Vic, anything Vic had sent would have reached the room.
  await adaPage.mouse.click(...QUIET_SPOT);
  await drag(adaPage, 'r', [900, 560], [1000, 640]);
  await status(adaPage).filter({ hasText: /^Saved$/ }).waitFor();
  const afterDrag = ink(await settled(vicPage));
  assert.ok(afterDrag > 0);
  assert.equal((await stored(id)).length, elementsBefore + 2, 'the store holds Ada’s two rectangles and nothing of Vic’s');
  assert.deepEqual(
    framesFromVic.filter((frame) => frame.includes('"type":"elements"')),
    [],
    'Vic sent no elements',
  );
});

test('a regenerate with a scene replaces what open editors show: nothing of the old scene is left, the scene stays stored exactly as sent, and a stroke drawn on it is stored', { timeout: 120_000 }, async (t) => {
  const id = await sharedDiagram('Replaced while open');
  const [adaPage, bobPage] = await Promise.all([openEditor(t, ada, id), openEditor(t, bob, id)]);
  // Complete elements, as the editor itself would make them, so that opening them changes nothing.
  const common = { angle: 0, strokeColor: '#1e1e1e', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, seed: 7, groupIds: [], frameId: null, roundness: null, boundElements: [], link: null, locked: false, isDeleted: false };
  const sent = [
    { ...common, id: 'new-a', type: 'rectangle', x: 300, y: 200, width: 200, height: 120, backgroundColor: '#ffc9c9', index: 'a0', version: 3, versionNonce: 11, updated: 1700000000000 },
    { ...common, id: 'new-b', type: 'ellipse', x: 600, y: 200, width: 160, height: 120, backgroundColor: 'transparent', index: 'a1', version: 5, versionNonce: 22, updated: 1700000000001 },
  ];
  await api('POST', `/diagrams/${id}/regenerate`, { scene: { elements: sent } });
  assert.deepEqual(await stored(id), sent);
  for (const [who, page] of [['Ada', adaPage], ['Bob', bobPage]] as const) {
    const holds = await eventually(`${who} to show only the new scene`, () => copiedScene(page), (elements) => elements.map((e) => e.id).sort().join() === 'new-a,new-b');
    assert.deepEqual(byId(holds), byId(sent as Element[]), `${who} holds the new scene as sent`);
  }

  await adaPage.mouse.click(...QUIET_SPOT);
  await drag(adaPage, 'r', [900, 560], [1000, 640]);
  await status(adaPage).filter({ hasText: /^Saved$/ }).waitFor();
  const after = await eventually('Ada’s stroke in the store', () => stored(id), (elements) => elements.length === 3);
  assert.deepEqual(
    after.filter((e) => e.id.startsWith('new-')),
    sent,
    'the elements no one changed are still stored exactly as sent: the editors did not write them back',
  );
  await eventually('Ada’s stroke on Bob’s canvas', () => copiedScene(bobPage), (elements) => elements.length === 3);
});
