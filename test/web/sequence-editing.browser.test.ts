// A sequence diagram in the editor, in headless Chromium: a person drags a
// participant's box to the right, and its lifeline comes with it (one group)
// and the messages bound to the lifeline follow it, as the editor moves
// arrows bound to a shape that moves.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { settled, useBrowser } from '../helpers/browser.ts';
import { boxOfColour, settledAfterDrag } from '../helpers/drag.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { apiAs, openEditor } from '../helpers/editor-page.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: { id: string; email: string; token: string };

before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user({ email: 'ada@example.com', quota: 10 });
});
after(() => h?.close());

const api = (method: string, path: string, body?: unknown) => apiAs(h, owner.token)(method, path, body);


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

  const { page } = await openEditor(browser, t, h, owner.id, id);

  const box = boxOfColour(await settled(page), [255, 0, 255]);
  assert.ok(box && box.width > 20, `b's box is on screen: ${JSON.stringify(box)}`);
  const from: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(from[0] + 60, from[1], { steps: 5 });
  await page.mouse.move(from[0] + 120, from[1], { steps: 5 });
  await page.mouse.up();

  const now = await settledAfterDrag(elements, (els) => String(of(els, 'b').x), String(of(before, 'b').x));
  const moved = of(now, 'b').x - of(before, 'b').x;
  assert.ok(moved > 40, `b moved right: ${moved}`);
  assert.ok(Math.abs(of(now, 'b-lifeline').x - of(before, 'b-lifeline').x - moved) < 1, 'the lifeline moved with its box');
  assert.ok(Math.abs(of(now, 'b-foot').x - of(before, 'b-foot').x - moved) < 1, 'and the box at its foot');
  // a ->> b ends at b's lifeline; c ->> b (from the right) too: both ends followed it.
  assert.ok(Math.abs(end(of(now, 'msg-1')) - end(of(before, 'msg-1')) - moved) < 6, `msg-1 follows: ${end(of(before, 'msg-1'))} → ${end(of(now, 'msg-1'))}`);
  assert.ok(Math.abs(end(of(now, 'msg-3')) - end(of(before, 'msg-3')) - moved) < 6, `msg-3 follows: ${end(of(before, 'msg-3'))} → ${end(of(now, 'msg-3'))}`);
  assert.equal(of(now, 'a-lifeline').x, of(before, 'a-lifeline').x, 'a stays');
});
