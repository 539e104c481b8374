import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';
import { BASELINE_REVISION } from '../../src/app/history/recording.ts';

const SPEC = {
  nodes: [
    { id: 'api', label: 'API gateway', icon: 'icon-server' },
    { id: 'db', label: 'Postgres', shape: 'ellipse' },
  ],
  edges: [{ from: 'api', to: 'db', label: 'SQL' }],
};

async function createDiagram(h: Harness, token: string, body: Record<string, unknown>): Promise<string> {
  const created = await h.call('POST', '/api/v1/diagrams', { token, body: { title: 'render me', ...body } });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}

function viewBoxSize(svg: string): { width: number; height: number } {
  const match = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  assert.ok(match, 'the SVG has a viewBox');
  return { width: Number(match[1]), height: Number(match[2]) };
}

for (const faithful of [true, false]) {
  describe(`render with RENDER_FAITHFUL=${faithful ? 'on' : 'off'}`, () => {
    let h: Harness;
    let token: string;
    let diagramId: string;
    let emptyId: string;
    const delivered = faithful ? 'faithful' : 'fast';

    before(async () => {
      h = await startHarness({ env: { RENDER_FAITHFUL: faithful ? 'on' : 'off' } });
      ({ token } = await h.user());
      diagramId = await createDiagram(h, token, { spec: SPEC });
      emptyId = await createDiagram(h, token, { scene: { elements: [] } });
    });
    after(() => h.close());

    test('the default answer is the JSON envelope with an SVG and a base64 PNG', async () => {
      const response = await h.call('GET', `/api/v1/diagrams/${diagramId}/render`, { token });
      assert.equal(response.statusCode, 200, response.body);
      const envelope = response.json();
      assert.equal(envelope.isEmpty, false);
      assert.equal(envelope.elementCount, (await h.call('GET', `/api/v1/diagrams/${diagramId}`, { token })).json().scene.elements.length);
      assert.match(envelope.svg, /^<svg[\s>]/);
      assert.doesNotMatch(envelope.png, /^data:/);
      assert.equal(pngSize(Buffer.from(envelope.png, 'base64')).width, 1024);
      assert.equal(envelope.quality, delivered);
      if (faithful) assert.equal(envelope.note, undefined);
      else assert.equal(envelope.note, 'faithful_unavailable');
    });

    test('format=png answers PNG bytes exactly 1024 px wide, with the height following the aspect ratio', async () => {
      const response = await h.call('GET', `/api/v1/diagrams/${diagramId}/render?format=png`, { token });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'image/png');
      assert.equal(response.headers['x-render-quality'], delivered);
      assert.equal(response.headers['x-render-note'], faithful ? undefined : 'faithful_unavailable');
      const svg = (await h.call('GET', `/api/v1/diagrams/${diagramId}/render?format=svg`, { token })).body;
      const { width, height } = pngSize(response.rawPayload);
      const box = viewBoxSize(svg);
      assert.equal(width, 1024);
      assert.ok(Math.abs(height - (1024 * box.height) / box.width) <= 1, `height ${height} for a ${box.width}×${box.height} scene`);
    });

    test('format=svg answers an SVG document that cannot run anything', async () => {
      const response = await h.call('GET', `/api/v1/diagrams/${diagramId}/render?format=svg`, { token });
      assert.equal(response.statusCode, 200);
      assert.match(response.headers['content-type'] as string, /^image\/svg\+xml/);
      assert.equal(response.headers['x-render-quality'], delivered);
      assert.match(response.headers['content-security-policy'] as string, /default-src 'none'/);
      assert.match(response.body, /API gateway/);
      if (faithful) assert.match(response.body, /@font-face \{ font-family: "Excalifont"; src: url\(data:font\/ttf;base64,/);
    });

    test('quality=fast forces the fast preview, without a note', async () => {
      for (const format of ['png', 'svg']) {
        const response = await h.call('GET', `/api/v1/diagrams/${diagramId}/render?format=${format}&quality=fast`, { token });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['x-render-quality'], 'fast');
        assert.equal(response.headers['x-render-note'], undefined);
      }
      const envelope = (await h.call('GET', `/api/v1/diagrams/${diagramId}/render?quality=fast`, { token })).json();
      assert.equal(envelope.quality, 'fast');
      assert.equal('note' in envelope, false);
    });

    test('an unknown quality is 400 invalid_quality, an unknown format 400 bad_request', async () => {
      const quality = await h.call('GET', `/api/v1/diagrams/${diagramId}/render?quality=best`, { token });
      assert.equal(quality.statusCode, 400);
      assert.equal(quality.json().error, 'invalid_quality');
      const repeated = await h.call('GET', `/api/v1/diagrams/${diagramId}/render?quality=fast&quality=fast`, { token });
      assert.equal(repeated.statusCode, 400);
      assert.equal(repeated.json().error, 'invalid_quality');
      const format = await h.call('GET', `/api/v1/diagrams/${diagramId}/render?format=gif`, { token });
      assert.equal(format.statusCode, 400);
      assert.equal(format.json().error, 'bad_request');
    });

    test('an empty scene gives the empty envelope, and 204 with no body for png and svg', async () => {
      const envelope = (await h.call('GET', `/api/v1/diagrams/${emptyId}/render`, { token })).json();
      assert.deepEqual(envelope, { isEmpty: true, elementCount: 0, svg: null, png: null, quality: 'fast' });
      for (const format of ['png', 'svg']) {
        const response = await h.call('GET', `/api/v1/diagrams/${emptyId}/render?format=${format}`, { token });
        assert.equal(response.statusCode, 204);
        assert.equal(response.body, '');
      }
    });

    test('a text stored without fontSize, fontFamily or lineHeight stays so, and renders with the editor\'s defaults in every format, nothing broken', async () => {
      const text = { id: 'bare-text', type: 'text', x: 0, y: 0, width: 120, height: 25, text: 'No font size' };
      const id = await createDiagram(h, token, { scene: { elements: [text] } });
      assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${id}`, { token })).json().scene.elements, [text]);
      for (const quality of faithful ? ['faithful', 'fast'] : ['fast']) {
        const svg = await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg&quality=${quality}`, { token });
        assert.equal(svg.statusCode, 200);
        assert.equal(svg.headers['x-render-quality'], quality);
        const markup = svg.body.replace(/data:[^)"']*/g, 'data:');
        assert.doesNotMatch(markup, /NaN|undefined|Infinity/);
        assert.match(markup, /<text [^>]*font-size="20px"[^>]*>No font size</);
        const png = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png&quality=${quality}`, { token });
        assert.equal(png.statusCode, 200);
        assert.ok(pngSize(png.rawPayload).width > 0);
        const pdf = await h.call('GET', `/api/v1/diagrams/${id}/render?format=pdf&quality=${quality}`, { token });
        assert.equal(pdf.statusCode, 200);
        assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
      }
    });

    test('a diagram of someone else is 404, as if it did not exist', async () => {
      const stranger = await h.user();
      const response = await h.call('GET', `/api/v1/diagrams/${diagramId}/render?format=png`, { token: stranger.token });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().error, 'not_found');
    });

    test('a scene over 5000 elements renders the placeholder image', async () => {
      const id = await createDiagram(h, token, { scene: sceneOf(3) });
      const elements = sceneOf(5001).elements;
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
      const envelope = (await h.call('GET', `/api/v1/diagrams/${id}/render`, { token })).json();
      assert.equal(envelope.note, 'large_diagram_placeholder');
      assert.match(envelope.svg, /5,001 elements/);
      assert.equal(pngSize(Buffer.from(envelope.png, 'base64')).width, 1024);
      const png = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png`, { token });
      assert.equal(png.headers['x-render-note'], 'large_diagram_placeholder');
    });
  });
}
