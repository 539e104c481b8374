// The editor's history panel in headless Chromium: a diagram made over the API
// and changed by an agent's token; in the editor, the panel lists both
// revisions with who wrote them and how, previews the older one read-only
// (the live scene comes back untouched), restores it, and follows new
// revisions as they land. A viewer sees the history but cannot restore.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { screenshot, settled, useBrowser } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { signIn } from '../helpers/web-session.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: { id: string; email: string };
/** The token a deploy script creates diagrams with, and the one an agent edits them with. */
let deployToken: string;
let agentToken: string;

before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user({ email: 'ada@example.com' });
  const mint = async (name: string) =>
    ((await h.admin('token', 'mint', '--email', owner.email, '--caps', 'read,write', '--name', name)) as { token: string }).token;
  deployToken = await mint('deploy-script');
  agentToken = await mint('agent-bot');
});
after(() => h?.close());

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

/** The agent's change: a solid cache box under the API, labelled. */
const AGENT_PATCH = {
  ops: [
    { op: 'add', element: { type: 'rectangle', id: 'cache', x: 300, y: 260, width: 220, height: 110, backgroundColor: '#1971c2', fillStyle: 'solid' } },
    { op: 'add', element: { type: 'text', text: 'Cache', containerId: 'cache' } },
  ],
};

type Element = Record<string, unknown> & { id: string };

/** An element's content: what it is and looks like, without the version stamps a write gives it. */
const content = (elements: Element[]) => elements.map((e) => ({ ...e, version: undefined, versionNonce: undefined, updated: undefined }));

async function api(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${h.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

async function elementsOf(id: string): Promise<Element[]> {
  const read = await api('GET', `/diagrams/${id}`, deployToken);
  assert.equal(read.status, 200, JSON.stringify(read.json));
  return read.json.scene.elements;
}

/** A diagram made by the deploy script and changed by the agent; its elements before the change. */
async function diagramWithTwoRevisions(title: string): Promise<{ id: string; original: Element[] }> {
  const created = await api('POST', '/diagrams', deployToken, { title, spec: SPEC });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.id as string;
  const original = await elementsOf(id);
  const patched = await api('POST', `/diagrams/${id}/patch`, agentToken, AGENT_PATCH);
  assert.equal(patched.status, 200, JSON.stringify(patched.json));
  return { id, original };
}

/** The editor open on a diagram, signed in as `userId`, with the save state settled. */
async function openEditor(t: TestContext, userId: string, diagramId: string): Promise<Page> {
  const { page, context } = await browser.newPage(t, h.baseUrl);
  page.setDefaultTimeout(15_000);
  const session = await signIn(h, userId);
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: h.baseUrl }]);
  await page.goto(`${h.baseUrl}/app/d/${diagramId}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  return page;
}

/** The panel's entries, newest first, as their visible text. */
const entries = (page: Page) => page.locator('.db-history .db-revisions > li');

/** How many pixels of the canvas area (below the top bar, left of the panel) are clearly not white. */
function inkedPixels(png: Buffer, right: number): number {
  const image = PNG.sync.read(png);
  let count = 0;
  for (let y = 100; y < image.height; y++) {
    for (let x = 0; x < right; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i]! + image.data[i + 1]! + image.data[i + 2]! < 600) count++;
    }
  }
  return count;
}

/** The canvas's ink, left of the history panel (the preview's frame is inside the canvas, so measure within it). */
async function canvasInk(page: Page): Promise<number> {
  const png = await settled(page);
  const panel = await page.locator('.db-history').boundingBox();
  return inkedPixels(png, Math.floor(panel?.x ?? 1280) - 8);
}

test('the history panel lists who changed the diagram and how, previews the older revision without touching the live scene, and restores it', { timeout: 120_000 }, async (t) => {
  const { id, original } = await diagramWithTwoRevisions('Checkout journey');
  const listed = await api('GET', `/diagrams/${id}/revisions`, deployToken);
  assert.equal(listed.status, 200, JSON.stringify(listed.json));
  const [patchRevision, createRevision] = listed.json.items as Array<{ rev: string; kind: string; summary: string }>;
  assert.equal(patchRevision?.kind, 'patch');
  assert.equal(createRevision?.kind, 'create');

  const page = await openEditor(t, owner.id, id);
  const status = page.locator('.db-topbar [role=status]');
  await status.filter({ hasText: /^Saved$/ }).waitFor();
  await page.getByRole('button', { name: 'History' }).click();
  await entries(page).nth(1).waitFor();
  assert.equal(await entries(page).count(), 2);

  const newest = entries(page).nth(0);
  assert.equal(await newest.getAttribute('data-kind'), 'patch');
  const newestText = (await newest.textContent()) ?? '';
  assert.ok(newestText.includes("API token 'agent-bot'"), newestText);
  assert.ok(newestText.includes(owner.email), newestText);
  assert.ok(newestText.includes(patchRevision!.summary), `the patch's summary "${patchRevision!.summary}" in: ${newestText}`);
  assert.ok(newestText.includes('Current'), newestText);
  const oldest = entries(page).nth(1);
  assert.equal(await oldest.getAttribute('data-kind'), 'create');
  assert.ok(((await oldest.textContent()) ?? '').includes("API token 'deploy-script'"));
  const exact = await oldest.locator('time').getAttribute('title');
  assert.ok(exact && /\d{4}/.test(exact), `the exact time on hover: ${exact}`);

  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
  const currentInk = await canvasInk(page);
  const docBefore = (await api('GET', `/diagrams/${id}`, deployToken)).json.docUpdatedAt;

  // Preview the older revision: the canvas shows it read-only, framed and labelled.
  const fetched = page.waitForResponse((r) => new URL(r.url()).pathname === `/app/api/diagrams/${id}/revisions/${createRevision!.rev}`);
  await oldest.getByRole('button').click();
  const revision = (await (await fetched).json()) as { scene: { elements: Element[] } };
  assert.deepEqual(revision.scene.elements, original, 'the preview is the scene as created');
  const bar = page.getByRole('region', { name: 'Preview' });
  await bar.waitFor();
  assert.match((await bar.textContent()) ?? '', /^Previewing /);
  assert.equal(await oldest.getByRole('button').getAttribute('aria-pressed'), 'true');
  const previewInk = await canvasInk(page);
  assert.ok(previewInk < currentInk - 5000, `the canvas shows the older scene, without the solid cache box (${currentInk} → ${previewInk} inked pixels)`);
  await screenshot(page, 'editor-history');

  // Back to current: the live scene as it was, and nothing written.
  await bar.getByRole('button', { name: 'Back to current' }).click();
  await bar.waitFor({ state: 'detached' });
  const backInk = await canvasInk(page);
  assert.ok(Math.abs(backInk - currentInk) < 500, `the live scene is back (${currentInk} → ${backInk} inked pixels)`);
  assert.ok(!requests.some((r) => r.startsWith('PUT ') || r.startsWith('POST ')), `nothing was written: ${requests.join(', ')}`);
  assert.equal((await api('GET', `/diagrams/${id}`, deployToken)).json.docUpdatedAt, docBefore);

  // Restore it: the diagram's content is the original again, and the restore is the newest revision.
  await oldest.getByRole('button').click();
  await bar.waitFor();
  const restored = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/app/api/diagrams/${id}/revisions/${createRevision!.rev}/restore`);
  await bar.getByRole('button', { name: 'Restore' }).click();
  assert.equal((await restored).status(), 200);
  await bar.waitFor({ state: 'detached' });
  await status.filter({ hasText: 'Restored an earlier version' }).waitFor();
  assert.deepEqual(content(await elementsOf(id)), content(original), 'the content is the original again');
  await entries(page).nth(2).waitFor();
  assert.equal(await entries(page).nth(0).getAttribute('data-kind'), 'restore');
  assert.ok(((await entries(page).nth(0).textContent()) ?? '').includes('web editor'));
  const afterRestore = await api('GET', `/diagrams/${id}/revisions`, deployToken);
  assert.equal(afterRestore.json.items[0].kind, 'restore');
  assert.equal(afterRestore.json.items[0].restoredFrom, createRevision!.rev);
  const restoredInk = await canvasInk(page);
  assert.ok(restoredInk > 2000 && restoredInk < currentInk - 5000, `the live scene is the restored one, without the cache box (${currentInk} → ${restoredInk} inked pixels)`);
  assert.equal(await page.locator('.db-canvas-previewing').count(), 0, 'no longer a preview');

  // Live: a revision written elsewhere appears at the top of the open panel, without a reload.
  await page.evaluate(() => ((window as any).__marker = 1));
  const again = await api('POST', `/diagrams/${id}/patch`, agentToken, AGENT_PATCH);
  assert.equal(again.status, 200, JSON.stringify(again.json));
  await entries(page).nth(3).waitFor();
  // And the open editor writes nothing back. It did once: the patch's new label took the fractional index of the
  // old label's tombstone, which the editor still held, and the editor re-indexed one of the two and saved that
  // (80 ms after it heard the patch, stored 200 ms later): a save the person never made.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const stored = (await api('GET', `/diagrams/${id}/revisions`, deployToken)).json.items as Array<{ kind: string }>;
  assert.deepEqual(stored.slice(0, 2).map((r) => r.kind), ['patch', 'restore'], `the revisions, newest first: ${JSON.stringify(stored)}`);
  assert.equal(await entries(page).nth(0).getAttribute('data-kind'), 'patch');
  assert.equal(await page.evaluate(() => (window as any).__marker), 1, 'the page was not reloaded');
});

test('someone the diagram is shared with as a viewer sees its history and previews, but has no Restore', { timeout: 90_000 }, async (t) => {
  const { id } = await diagramWithTwoRevisions('Shared for reading');
  const viewer = await h.user();
  await h.store.sharing.shareDiagram(id, viewer.id, 'viewer');

  const page = await openEditor(t, viewer.id, id);
  await page.getByRole('button', { name: 'History' }).click();
  await entries(page).nth(1).waitFor();
  assert.equal(await entries(page).count(), 2);
  assert.ok(((await entries(page).nth(0).textContent()) ?? '').includes("API token 'agent-bot'"));

  await entries(page).nth(1).getByRole('button').click();
  const bar = page.getByRole('region', { name: 'Preview' });
  await bar.waitFor();
  assert.equal(await bar.getByRole('button', { name: 'Back to current' }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Restore' }).count(), 0, 'no Restore for a viewer');
});
