// The AWS, Azure, Google Cloud and Kubernetes icons drawn in a diagram by both
// renderers: each icon's own colour is in the PNG, where its image element is.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { CLOUD_ICON_SPEC, pixelsOfColour, signatureColour } from '../helpers/icon-colours.ts';
import { pngSize } from '../helpers/png.ts';

type El = { id: string; type: string; x: number; y: number; width: number; height: number; isDeleted?: boolean };

let h: Harness;
let owner: TestUser;
let id: string;
let elements: El[];

describe('cloud and platform icons in a diagram', () => {
  before(async () => {
    h = await startHarness();
    owner = await h.user({ caps: 'read,write' });
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Clouds', spec: CLOUD_ICON_SPEC } });
    assert.equal(created.statusCode, 201, created.body);
    id = created.json().id;
    elements = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token })).json().scene.elements;
  });
  after(() => h.close());

  for (const quality of ['fast', 'faithful'] as const) {
    test(`the ${quality} PNG draws each set's icon in its own colour, inside its image element`, async () => {
      const res = await h.call('GET', `/api/v1/diagrams/${id}/render?format=png&quality=${quality}`, { token: owner.token });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['x-render-quality'], quality);
      const png = res.rawPayload;
      // The scene's bounds, padded by the export's 10 px, fill the image.
      const drawn = elements.filter((e) => !e.isDeleted);
      const [minX, minY] = [Math.min(...drawn.map((e) => e.x)), Math.min(...drawn.map((e) => e.y))];
      const maxX = Math.max(...drawn.map((e) => e.x + e.width));
      const scale = pngSize(png).width / (maxX - minX + 20);
      for (const node of CLOUD_ICON_SPEC.nodes) {
        const icon = elements.find((e) => e.id === `${node.id}-icon`)!;
        assert.equal(icon.type, 'image', node.icon);
        // The image element in the PNG's pixels, a little larger for anti-aliasing.
        const place = { x: (icon.x - minX + 10) * scale - 3, y: (icon.y - minY + 10) * scale - 3, width: icon.width * scale + 6, height: icon.height * scale + 6 };
        const { total, inside } = pixelsOfColour(png, signatureColour(node.icon), place);
        assert.ok(inside > 40 * scale * scale, `${node.icon}: its colour is drawn on its image (${inside} pixels)`);
        assert.ok(inside >= 0.9 * total, `${node.icon}: its colour is where its image is (${inside} of ${total} pixels)`);
      }
    });
  }
});
