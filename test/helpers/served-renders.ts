import assert from 'node:assert/strict';
import { pngSize } from './png.ts';

/**
 * A running server renders the diagram fast and faithful, as SVG and PNG, each
 * by the renderer asked for and without a note; the SVG holds `label`.
 * `context` (the server's output, say) is added to every failure message.
 */
export async function assertRendersEveryWay(baseUrl: string, headers: Record<string, string>, diagramId: string, label: string, context: string): Promise<void> {
  for (const quality of ['fast', 'faithful']) {
    for (const format of ['svg', 'png']) {
      const res = await fetch(`${baseUrl}/api/v1/diagrams/${diagramId}/render?format=${format}&quality=${quality}`, { headers });
      const body = Buffer.from(await res.arrayBuffer());
      assert.equal(res.status, 200, `${quality} ${format}: ${body.toString().slice(0, 300)}\n${context}`);
      assert.equal(res.headers.get('x-render-quality'), quality, `${quality} ${format} is drawn by its renderer (note: ${res.headers.get('x-render-note')})\n${context}`);
      assert.equal(res.headers.get('x-render-note'), null, `${quality} ${format} carries no note\n${context}`);
      if (format === 'png') pngSize(body);
      else {
        const svg = body.toString();
        assert.match(svg, /^<svg[\s\S]*<\/svg>\s*$/, `${quality} ${format} is one SVG document`);
        assert.ok(svg.includes(label), `${quality} ${format} holds the label ${label}`);
      }
    }
  }
}
