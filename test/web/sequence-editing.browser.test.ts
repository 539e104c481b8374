// A sequence diagram in the editor, in headless Chromium: a person drags a
// participant's box to the right, and its lifeline comes with it (one group)
// and the messages bound to the lifeline follow it, as the editor moves
// arrows bound to a shape that moves.
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { settled, useBrowser } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { signIn } from '../helpers/web-session.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: { id: string; email: string; token: string };

before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user({ email: 'ada@example.com', quota: 10 });
});
after(() => h?.close());

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${h.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${owner.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

/** The bounding box, in window pixels, of the pixels of one colour in a screenshot. */
function boxOfColour(png: Buffer, [r, g, b]: [number, number, number]): { x: number; y: number; width: number; height: number } | null {
  const image = PNG.sync.read(png);
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      if (Math.abs(image.data[i]! - r) + Math.abs(image.data[i + 1]! - g) + Math.abs(image.data[i + 2]! - b) > 30) continue;
      [x1, y1, x2, y2] = [Math.min(x1, x), Math.min(y1, y), Math.max(x2, x), Math.max(y2, y)];
    }
  }
  return x2 < 0 ? null : { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

type El = { id: string; x: number; y: number; width: number; points?: number[][]; backgroundColor?: string };

test('a participant dragged in the editor takes its lifeline along, and the messages bound to it follow', { timeout: 120_000 }, async (t) => {
  const created = await api('POST', '/diagrams', { title: 'Login', spec: { kind: 'sequence', participants: ['a', 'b', 'c'], steps: ['a ->> b : hello', 'b -->> a : hi', 'c ->> b : ping'] } });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.id as string;
  const elements = async () => (await api('GET', `/diagrams/${id}`)).json.scene.elements as El[];
  // Paint b's box magenta, to find it on screen.
  const patched = await api('POST', `/diagrams/${id}/patch`, { ops: [{ op: 'restyle', id: 'b', backgroundColor: '#ff00ff', fillStyle: 'solid' }] });
  assert.equal(patched.status, 200, JSON.stringify(patched.json));
  const before = await elements();
  const of = (els: El[], elementId: string) => els.find((e) => e.id === elementId)!;
  const end = (arrow: El) => arrow.x + arrow.points!.at(-1)![0]!;

  const { page, context } = await browser.newPage(t, h.baseUrl);
  page.setDefaultTimeout(15_000);
  const session = await signIn(h, owner.id);
  const [name, value] = session.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: h.baseUrl }]);
  await page.goto(`${h.baseUrl}/app/d/${id}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  await page.locator('.db-topbar [role=status]').filter({ hasText: /^Saved$/ }).waitFor();

  const box = boxOfColour(await settled(page), [255, 0, 255]);
  assert.ok(box && box.width > 20, `b's box is on screen: ${JSON.stringify(box)}`);
  const from: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(from[0] + 60, from[1], { steps: 5 });
  await page.mouse.move(from[0] + 120, from[1], { steps: 5 });
  await page.mouse.up();

  // Wait for the server to hold the moved box, and for it to stay put (the editor writes as the drag goes).
  let now = await elements();
  for (let attempt = 0, still = 0; still < 8 && attempt < 150; attempt++) {
    await delay(100);
    const next = await elements();
    still = of(next, 'b').x !== of(before, 'b').x && of(next, 'b').x === of(now, 'b').x ? still + 1 : 0;
    now = next;
  }
  const moved = of(now, 'b').x - of(before, 'b').x;
  assert.ok(moved > 40, `b moved right: ${moved}`);
  assert.ok(Math.abs(of(now, 'b-lifeline').x - of(before, 'b-lifeline').x - moved) < 1, 'the lifeline moved with its box');
  assert.ok(Math.abs(of(now, 'b-foot').x - of(before, 'b-foot').x - moved) < 1, 'and the box at its foot');
  // a ->> b ends at b's lifeline; c ->> b (from the right) too: both ends followed it.
  assert.ok(Math.abs(end(of(now, 'msg-1')) - end(of(before, 'msg-1')) - moved) < 6, `msg-1 follows: ${end(of(before, 'msg-1'))} → ${end(of(now, 'msg-1'))}`);
  assert.ok(Math.abs(end(of(now, 'msg-3')) - end(of(before, 'msg-3')) - moved) < 6, `msg-3 follows: ${end(of(before, 'msg-3'))} → ${end(of(now, 'msg-3'))}`);
  assert.equal(of(now, 'a-lifeline').x, of(before, 'a-lifeline').x, 'a stays');
});
