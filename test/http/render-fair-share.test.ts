import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, type TestUser, startHarness } from '../helpers/harness.ts';
import { unrenderedDiagram } from '../helpers/fresh-diagram.ts';
import { pngSize } from '../helpers/png.ts';

/**
 * One user's burst of renders waits in a queue of its own: it neither delays
 * another user's render nor pushes it onto the fast fallback, and none of the
 * burst falls back for having waited. One faithful worker; the burst is long
 * enough that a render queued behind all of it would wait past
 * RENDER_TIMEOUT_MS and fall back.
 */
const BURST = 80;
let h: Harness;
let busy: TestUser;
let other: TestUser;

describe('http/render-fair-share', () => {
  before(async () => {
    h = await startHarness({ env: { RENDER_WORKERS: '1', RENDER_TIMEOUT_MS: '3000' } });
    busy = await h.user();
    other = await h.user();
  });
  after(() => h.close());

  async function renderPng(user: TestUser, id: string): Promise<{ quality: unknown; note: unknown }> {
    const response = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png`, { token: user.token });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(pngSize(response.rawPayload).width, 1024);
    return { quality: response.headers['x-render-quality'], note: response.headers['x-render-note'] };
  }

  test(`while one user has ${BURST} renders in flight, another user's render is faithful and does not wait for them, and every one of them completes faithfully`, async () => {
    await renderPng(other, await unrenderedDiagram(h, other, 'Burst')); // the worker is loaded
    const burstIds: string[] = [];
    for (let i = 0; i < BURST; i++) burstIds.push(await unrenderedDiagram(h, busy, 'Burst'));
    const otherId = await unrenderedDiagram(h, other, 'Burst');

    let burstDone = 0;
    const burst = burstIds.map((id) => renderPng(busy, id).finally(() => void (burstDone += 1)));
    await Promise.race(burst); // the burst is under way, most of it waiting
    assert.deepEqual(await renderPng(other, otherId), { quality: 'faithful', note: undefined });
    const doneBeforeOther = burstDone;
    const results = await Promise.all(burst);

    assert.ok(doneBeforeOther < BURST / 2, `the other user's render waited for ${doneBeforeOther} of the burst's ${BURST} renders`);
    assert.deepEqual(results, burstIds.map(() => ({ quality: 'faithful', note: undefined })));
  });
});
