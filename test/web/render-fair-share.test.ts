import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, type TestUser, startHarness } from '../helpers/harness.ts';
import { unrenderedDiagram } from '../helpers/fresh-diagram.ts';
import { pngSize } from '../helpers/png.ts';
import { signIn } from '../helpers/web-session.ts';

/**
 * The web app's renders count against a fair share too (docs/rendering.md,
 * "Fair share"): a public link's against the link's, a thumbnail's against
 * the signed-in person's. A burst of either waits in a queue of its own, so
 * another user's render neither waits behind it nor falls back. One faithful
 * worker; each burst is long enough that a render queued behind all of it
 * would wait past RENDER_TIMEOUT_MS.
 */
const BURST = 40;
let h: Harness;
let busy: TestUser;
let other: TestUser;

describe('web/render-fair-share', () => {
  before(async () => {
    h = await startHarness({ env: { RENDER_WORKERS: '1', RENDER_TIMEOUT_MS: '3000' } });
    busy = await h.user();
    other = await h.user();
  });
  after(() => h.close());

  async function renderPng(user: TestUser, id: string, quality: 'faithful' | 'fast'): Promise<{ quality: unknown; note: unknown }> {
    const response = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png&quality=${quality}`, { token: user.token });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(pngSize(response.rawPayload).width, 1024);
    return { quality: response.headers['x-render-quality'], note: response.headers['x-render-note'] };
  }

  /** Runs `burst`; once one of it has finished, `probe`. How many of the burst had finished when the probe did, and every answer. */
  async function probeDuring<B, P>(burst: Array<() => Promise<B>>, probe: () => Promise<P>) {
    let finished = 0;
    const running = burst.map((start) => start().finally(() => void (finished += 1)));
    await Promise.race(running); // the burst is under way, most of it waiting
    const probed = await probe();
    const finishedBeforeProbe = finished;
    return { probed, finishedBeforeProbe, burst: await Promise.all(running) };
  }

  test(`while a public link is opened ${BURST} times at once from as many addresses, another user's render is faithful and does not wait for them`, async () => {
    await renderPng(other, await unrenderedDiagram(h, other, 'Web'), 'faithful'); // the worker is loaded
    const published = await unrenderedDiagram(h, busy, 'Web');
    const link = await h.call('PUT', `/api/v1/diagrams/${published}/public-link`, { token: busy.token, body: { enabled: true } });
    assert.equal(link.statusCode, 200, link.body);
    const { slug } = link.json();
    const otherId = await unrenderedDiagram(h, other, 'Web');

    const visits = Array.from({ length: BURST }, (_, i) => () => h.app.inject({ method: 'GET', url: `/p/${slug}`, remoteAddress: `10.7.${i >> 8}.${i & 255}` }));
    const { probed, finishedBeforeProbe, burst } = await probeDuring(visits, () => renderPng(other, otherId, 'faithful'));

    assert.deepEqual(probed, { quality: 'faithful', note: undefined });
    assert.ok(finishedBeforeProbe < BURST / 2, `the other user's render waited for ${finishedBeforeProbe} of the link's ${BURST} renders`);
    for (const page of burst) {
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<img class="diagram" src="data:image\/svg\+xml;base64,/);
    }
  });

  test(`while one person's dashboard asks for ${BURST} thumbnails at once, another user's render does not wait for them`, async () => {
    const { cookie } = await signIn(h, busy.id);
    const ids: string[] = [];
    for (let i = 0; i < BURST; i++) ids.push(await unrenderedDiagram(h, busy, 'Web'));
    const otherId = await unrenderedDiagram(h, other, 'Web');

    const thumbnails = ids.map((id) => () => h.app.inject({ method: 'GET', url: `/app/d/${id}/thumbnail.png`, headers: { cookie } }));
    const { probed, finishedBeforeProbe, burst } = await probeDuring(thumbnails, () => renderPng(other, otherId, 'fast'));

    assert.deepEqual(probed, { quality: 'fast', note: undefined });
    assert.ok(finishedBeforeProbe < BURST / 2, `the other user's render waited for ${finishedBeforeProbe} of the ${BURST} thumbnails`);
    for (const thumbnail of burst) {
      assert.equal(thumbnail.statusCode, 200, thumbnail.body);
      assert.equal(pngSize(thumbnail.rawPayload).width, 1024);
    }
  });
});
