// The AWS, Azure, Google Cloud and Kubernetes icons in the editor, in headless
// Chromium: a diagram with one icon of each set opens with every icon drawn on
// the canvas, in its own colour, in the order of its node.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { screenshot, settled, useBrowser } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { CLOUD_ICON_SPEC, type Rgb, signatureColour } from '../helpers/icon-colours.ts';
import { pixelsNear } from '../helpers/png.ts';
import { apiAs, openEditor, signedInPage } from '../helpers/editor-page.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: { id: string; email: string; token: string };

before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user({ email: 'ada@example.com', quota: 10 });
});
after(() => h?.close());

/** How many pixels of the screenshot have the colour (within 30), and the median of their x. */
function colourOnScreen(png: Buffer, colour: Rgb): { count: number; medianX: number } {
  const xs = pixelsNear(png, colour).map(([x]) => x).sort((a, c) => a - c);
  return { count: xs.length, medianX: xs[Math.floor(xs.length / 2)] ?? -1 };
}

test("the editor draws each set's icon on the canvas, in its own colour, in its node's place", { timeout: 120_000 }, async (t) => {
  const created = await apiAs(h, owner.token)('POST', '/diagrams', { title: 'Clouds', spec: CLOUD_ICON_SPEC });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.id as string;

  const { page } = await openEditor(browser, t, h, owner.id, id);

  const screen = await settled(page);
  const seen = CLOUD_ICON_SPEC.nodes.map((node) => ({ icon: node.icon, ...colourOnScreen(screen, signatureColour(node.icon)) }));
  for (const { icon, count } of seen) assert.ok(count > 60, `${icon} is drawn on the canvas (${count} pixels of its colour)`);
  const order = [...seen].sort((a, b) => a.medianX - b.medianX).map((s) => s.icon);
  assert.deepEqual(order, CLOUD_ICON_SPEC.nodes.map((node) => node.icon), 'left to right, as their nodes');
});

test('the icon picker narrows to one set and finds an icon by its abbreviation, best match first', { timeout: 120_000 }, async (t) => {
  const { page } = await signedInPage(browser, t, h, owner.id);
  await page.goto(`${h.baseUrl}/app/new`);
  await page.getByRole('heading', { name: 'New diagram' }).waitFor();
  const spec = page.getByLabel('Spec', { exact: true });
  const buttons = page.locator('ul.icon-grid button');

  await page.getByLabel('Icon set').selectOption('aws');
  await buttons.first().waitFor();
  const titles = await buttons.evaluateAll((all) => all.map((b) => b.getAttribute('title') ?? ''));
  assert.ok(titles.length > 0 && titles.every((title) => /; AWS, /.test(title)), `only AWS icons: ${titles.slice(0, 3).join(' | ')}`);

  await page.getByLabel('Put the icon on').selectOption('');
  await page.getByLabel('Search icons').fill('s3');
  await page.waitForFunction(() => document.querySelector('ul.icon-grid button')?.getAttribute('title')?.startsWith('Amazon Simple Storage Service (icon-aws-simple-storage-service;'));
  await page.getByLabel('Icon set').selectOption('');
  await page.getByLabel('Search icons').fill('pvc');
  await page.waitForFunction(() => document.querySelector('ul.icon-grid button')?.getAttribute('title')?.includes('(icon-k8s-persistentvolumeclaim;'));
  await page.getByLabel('Search icons').fill('gke');
  await page.waitForFunction(() => document.querySelector('ul.icon-grid button')?.getAttribute('title')?.includes('(icon-gcp-google-kubernetes-engine;'));
  await buttons.first().click();
  assert.match(await spec.inputValue(), /"icon": "icon-gcp-google-kubernetes-engine"/, 'a new node with the icon');
  await page.getByLabel('Search icons').fill('aks');
  await page.waitForFunction(() => document.querySelector('ul.icon-grid button')?.getAttribute('title')?.includes('(icon-azure-kubernetes-services;'));
  await page.locator('.preview-box img').waitFor({ timeout: 30_000 });
  await settled(page);
  await screenshot(page, 'icon-picker-clouds');
});
