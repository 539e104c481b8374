// A diagram's text and a person's arrangement, in headless Chromium. The
// editor's Copy as Mermaid puts the diagram on the clipboard as a Mermaid
// flowchart that the API reads back as the same nodes, edges and container.
// A node a person drags in the editor stays where they left it when an agent
// regenerates the diagram with a node more. A PNG or SVG rendered with its
// scene, dropped on the editor, opens (the editor's own loader) as the drawing.
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { settled, useBrowser } from '../helpers/browser.ts';
import { boxOfColour, settledAfterDrag } from '../helpers/drag.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { apiAs, openEditor, signedInPage } from '../helpers/editor-page.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: { id: string; email: string; token: string };

before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user({ email: 'grace@example.com', quota: 10 });
});
after(() => h?.close());

const MERMAID = 'flowchart LR\n  subgraph shop [Shop]\n    web[Web app] -->|HTTPS| api(Orders API)\n  end\n  api --> db[(Orders DB)]\n';

const api = (method: string, path: string, body?: unknown) => apiAs(h, owner.token)(method, path, body);

test('Copy as Mermaid puts the diagram on the clipboard as a flowchart the API reads back as the same graph', { timeout: 120_000 }, async (t) => {
  const created = await api('POST', '/diagrams', { title: 'Checkout', source: { language: 'mermaid', text: MERMAID } });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const { page, context } = await signedInPage(browser, t, h, owner.id);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
  await page.goto(`${h.baseUrl}/app/d/${created.json.id}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });

  await page.locator('.main-menu-trigger').click();
  await page.getByText('Copy as Mermaid').click();
  await page.locator('.db-notice').filter({ hasText: /^Copied as Mermaid$/ }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^flowchart LR\n {2}subgraph shop \["Shop"\]\n/);

  const again = await api('POST', '/diagrams', { source: { language: 'mermaid', text: copied } });
  assert.equal(again.status, 201, JSON.stringify(again.json));
  const graph = async (id: string) => {
    const spec = JSON.parse((await api('GET', `/diagrams/${id}/source`)).json.text);
    return { nodes: spec.nodes.map((n: { id: string; label?: string; parent?: string }) => `${n.id} ${n.label ?? n.id} ${n.parent ?? ''}`).sort(), edges: spec.edges };
  };
  assert.deepEqual(await graph(again.json.id), await graph(created.json.id));
});


test('a node a person drags in the editor stays where they left it when an agent regenerates the diagram with a node more', { timeout: 120_000 }, async (t) => {
  const spec = {
    nodes: [{ id: 'web', label: 'Web' }, { id: 'api', label: 'API' }, { id: 'db', label: 'DB', backgroundColor: '#ff00ff', fillStyle: 'solid' }],
    edges: ['web -> api', 'api -> db'],
  };
  const created = await api('POST', '/diagrams', { title: 'Arranged', spec });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.id as string;
  const dbOf = async () => ((await api('GET', `/diagrams/${id}`)).json.scene.elements as Array<{ id: string; x: number; y: number }>).find((e) => e.id === 'db')!;
  const drawn = await dbOf();

  const { page } = await openEditor(browser, t, h, owner.id, id);

  // The magenta box is the node to drag: grab it by its middle and take it 160 px to the right.
  const box = boxOfColour(await settled(page), [255, 0, 255]);
  assert.ok(box && box.width > 20, `the magenta node is on screen: ${JSON.stringify(box)}`);
  const from: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(from[0] + 80, from[1], { steps: 5 });
  await page.mouse.move(from[0] + 160, from[1], { steps: 5 });
  await page.mouse.up();
  const moved = await settledAfterDrag(dbOf, (db) => `${db.x},${db.y}`, `${drawn.x},${drawn.y}`);
  assert.ok(moved.x > drawn.x + 40, `the drag reached the server: ${drawn.x} → ${moved.x}`);

  const regenerated = await api('POST', `/diagrams/${id}/regenerate`, { spec: { ...spec, nodes: [...spec.nodes, { id: 'cache', label: 'Cache' }], edges: [...spec.edges, 'api -> cache'] } });
  assert.equal(regenerated.status, 200, JSON.stringify(regenerated.json));
  assert.deepEqual([regenerated.json.layout, regenerated.json.placed], ['keep', ['cache']]);
  const after = await dbOf();
  assert.deepEqual([after.x, after.y], [moved.x, moved.y], 'the dragged node is where the person left it');
});

test('a PNG and an SVG rendered with their scene, dropped on an empty diagram in the editor, are opened by the editor\'s own loader as that drawing', { timeout: 120_000 }, async (t) => {
  const source = await api('POST', '/diagrams', { title: 'Carried', spec: { nodes: [{ id: 'web', label: 'Web' }, { id: 'db', label: 'DB', shape: 'cylinder' }], edges: ['web -> db : SQL'] } });
  assert.equal(source.status, 201, JSON.stringify(source.json));
  const wanted = ((await api('GET', `/diagrams/${source.json.id}`)).json.scene.elements as Array<{ id: string }>).map((e) => e.id).sort();
  const { page } = await signedInPage(browser, t, h, owner.id);

  for (const [format, type] of [['png', 'image/png'], ['svg', 'image/svg+xml']] as const) {
    const rendered = await fetch(`${h.baseUrl}/api/v1/diagrams/${source.json.id}/render?format=${format}&quality=fast&embed=scene`, { headers: { authorization: `Bearer ${owner.token}` } });
    const file = Buffer.from(await rendered.arrayBuffer());
    const empty = await api('POST', '/diagrams', { title: `Empty ${format}`, scene: { elements: [] } });
    assert.equal(empty.status, 201, JSON.stringify(empty.json));
    await page.goto(`${h.baseUrl}/app/d/${empty.json.id}`);
    await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
    await page.locator('.db-topbar [role=status]').filter({ hasText: /^Saved$/ }).waitFor();

    // Drop the file on the canvas, as a person drags it from their desktop: the editor reads it with loadFromBlob.
    const transfer = await page.evaluateHandle(
      ([base64, mediaType, fileName]) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], fileName, { type: mediaType }));
        return data;
      },
      [file.toString('base64'), type, `carried.${format}`] as const,
    );
    await page.locator('.excalidraw .excalidraw__canvas.interactive').dispatchEvent('drop', { dataTransfer: transfer });
    let ids: string[] = [];
    for (let attempt = 0; attempt < 100 && ids.length < wanted.length; attempt++) {
      await delay(100);
      ids = ((await api('GET', `/diagrams/${empty.json.id}`)).json.scene.elements as Array<{ id: string; isDeleted?: boolean }>).filter((e) => !e.isDeleted).map((e) => e.id).sort();
    }
    assert.deepEqual(ids, wanted, `the dropped ${format} opened as the drawing it carries, and the editor saved it`);
  }
});
