import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TEXT_LIMITS } from '../../src/render/text-limits.ts';
import { MAX_SVG_BYTES } from '../../src/render/types.ts';
import { type Harness, type TestUser, startHarness } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';
import { BASELINE_REVISION } from '../../src/app/history/recording.ts';

let h: Harness;
let owner: TestUser;
let other: TestUser;

before(async () => {
  // What is checked here is how much is drawn, not how fast: a render timeout far past any
  // machine's pace keeps a loaded machine from turning a slow faithful render into the fast fallback.
  h = await startHarness({ env: { RATE_LIMIT_READ_PER_MIN: '1000000', RENDER_TIMEOUT_MS: '300000' } });
  owner = await h.user();
  other = await h.user();
});
after(() => h.close());

/** A rectangle labelled with `text`, as a raw scene. */
function labelledBox(text: string) {
  const lines = text.split('\n').length;
  return {
    elements: [
      { id: 'box', type: 'rectangle', x: 0, y: 0, width: 240, height: 40 + lines * 25, boundElements: [{ id: 'label', type: 'text' }] },
      { id: 'label', type: 'text', x: 20, y: 20, width: 200, height: lines * 25, text, fontSize: 20, fontFamily: 5, lineHeight: 1.25, containerId: 'box', textAlign: 'center', verticalAlign: 'middle' },
    ],
  };
}

async function createScene(scene: unknown): Promise<string> {
  const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'limits', scene } });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}

/** The text of each `<text>` of an SVG, in order. */
function svgLines(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*?(?:\/>|>([^<]*)<\/text>)/g)].map((match) => match[1] ?? '');
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test(`a label of 150,000 lines renders its first ${TEXT_LIMITS.linesPerText} with note text_truncated, while another user's requests are answered`, async () => {
  const id = await createScene(labelledBox(Array.from({ length: 150_001 }, (_, i) => `${i % 10}`).join('\n')));

  let settled = false;
  const render = h.call('GET', `/api/v1/diagrams/${id}/render`, { token: owner.token }).finally(() => void (settled = true));
  const meStatuses: number[] = [];
  while (!settled) {
    meStatuses.push((await h.call('GET', '/api/v1/me', { token: other.token })).statusCode);
    await nextTurn();
  }
  assert.ok(meStatuses.includes(200), `GET /me answered ${JSON.stringify([...new Set(meStatuses)])} while the render ran`);

  const response = await render;
  assert.equal(response.statusCode, 200, response.body);
  const envelope = response.json();
  assert.equal(envelope.quality, 'faithful');
  assert.equal(envelope.note, 'text_truncated');
  const lines = svgLines(envelope.svg);
  assert.equal(lines.length, TEXT_LIMITS.linesPerText);
  assert.deepEqual(lines.slice(0, 3), ['0', '1', '2']);
  assert.equal(lines.at(-1), '…');
  assert.equal(pngSize(Buffer.from(envelope.png, 'base64')).width, 1024);

  for (const [format, quality] of [['png', 'faithful'], ['svg', 'faithful'], ['png', 'fast'], ['svg', 'fast']]) {
    const raw = await h.call('GET', `/api/v1/diagrams/${id}/render?format=${format}&quality=${quality}`, { token: owner.token });
    assert.equal(raw.statusCode, 200, `${format} ${quality}: ${raw.body.slice(0, 200)}`);
    assert.equal(raw.headers['x-render-quality'], quality);
    assert.equal(raw.headers['x-render-note'], 'text_truncated', `${format} ${quality}`);
  }
});

test('a label of a few lines renders every line, without a note', async () => {
  const label = ['Order service', 'handles checkout', 'and refunds', '', 'owner: payments'];
  const id = await createScene(labelledBox(label.join('\n')));
  for (const quality of ['faithful', 'fast']) {
    const envelope = (await h.call('GET', `/api/v1/diagrams/${id}/render?quality=${quality}`, { token: owner.token })).json();
    assert.equal(envelope.quality, quality);
    assert.equal('note' in envelope, false, `${quality}: note ${envelope.note}`);
    assert.deepEqual(svgLines(envelope.svg), label, quality);
  }
});

test(`a scene whose SVG would pass ${MAX_SVG_BYTES / 2 ** 20} MB answers the placeholder image with note large_diagram_placeholder`, async () => {
  // A freedraw of 1.3 million points (some 19 MB of path), written around the API's body limit as a long-lived scene could grow.
  const id = await createScene(labelledBox('small'));
  const points = Array.from({ length: 1_300_000 }, (_, i) => [((i * 13) % 1000) + 0.125, ((i * 7) % 1000) + 0.5]);
  const elements = [{ id: 'scribble', type: 'freedraw', x: 0, y: 0, width: 1000, height: 1000, points, pressures: [], simulatePressure: false }];
  const written = await h.store.diagrams.writeContent({
    revision: { kind: 'patch', userId: null, via: null, summary: 'written by a test', delta: null, baseline: BASELINE_REVISION },
    id,
    elementsJson: JSON.stringify(elements),
    elementCount: elements.length,
    elementIds: new Set(elements.map((element) => element.id)),
    expectedDocUpdatedAt: null,
    now: new Date(),
  });
  assert.equal(written.status, 'written');

  const envelope = (await h.call('GET', `/api/v1/diagrams/${id}/render?quality=fast`, { token: owner.token })).json();
  assert.equal(envelope.note, 'large_diagram_placeholder');
  assert.match(envelope.svg, /This diagram is too large to render/);
  assert.ok(Buffer.byteLength(envelope.svg) < MAX_SVG_BYTES);
  assert.equal(pngSize(Buffer.from(envelope.png, 'base64')).width, 1024);
  const png = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png&quality=fast`, { token: owner.token });
  assert.equal(png.statusCode, 200);
  assert.equal(png.headers['x-render-note'], 'large_diagram_placeholder');
});
