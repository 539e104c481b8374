/**
 * PDFs from both renderers, parsed with pdfjs-dist: one page the size of the
 * drawing (1 scene pixel = 1 point), its labels extractable as text, and
 * drawn as vectors (no image but the scene's own icons).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { renderFaithfulJob } from '../../src/render/faithful-job.ts';
import { renderFastPdf } from '../../src/render/fast-pdf.ts';
import { renderFastSvg } from '../../src/render/fast-svg.ts';
import type { RenderOptions } from '../../src/render/types.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';

// pdfjs-dist 6 uses two things Node 22 has and Node 20 lacks.
(Promise as unknown as { withResolvers?: unknown }).withResolvers ??= () => {
  let resolve: unknown;
  let reject: unknown;
  const promise = new Promise((res, rej) => ([resolve, reject] = [res, rej]));
  return { promise, resolve, reject };
};
(ArrayBuffer.prototype as unknown as { transferToFixedLength?: unknown }).transferToFixedLength ??= function (this: ArrayBuffer, length = this.byteLength) {
  const copy = new ArrayBuffer(length);
  new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
  return copy;
};
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');

const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-pdf-fonts-'));

interface ParsedPdf {
  pages: number;
  width: number;
  height: number;
  text: string[];
  images: number;
}

async function parsePdf(bytes: Uint8Array): Promise<ParsedPdf> {
  const document = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const page = await document.getPage(1);
  const { width, height } = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const operators = await page.getOperatorList();
  const imageOperators = new Set([pdfjs.OPS.paintImageXObject, pdfjs.OPS.paintInlineImageXObject, pdfjs.OPS.paintImageMaskXObject]);
  const parsed = {
    pages: document.numPages,
    width,
    height,
    text: content.items.flatMap((item) => ('str' in item && item.str.trim() !== '' ? [item.str] : [])),
    images: operators.fnArray.filter((operator) => imageOperators.has(operator)).length,
  };
  await document.cleanup();
  return parsed;
}

/** The drawing's size: the SVG's viewBox (the editor's exportToSvg or the fast writer: the same size the PDF page must have). */
function viewBoxSize(svg: string): [number, number] {
  const [, , width, height] = /viewBox="([^"]+)"/.exec(svg)![1]!.trim().split(/[\s,]+/).map(Number);
  return [width!, height!];
}

const renderers = {
  faithful: async (elements: unknown[], options?: RenderOptions) => {
    const output = await renderFaithfulJob(await loadExcalidraw(), { elementsJson: JSON.stringify(elements), svg: true, png: false, pdf: true, options, fontsDirectory });
    return { pdf: output.pdf!, svg: output.svg! };
  },
  fast: async (elements: unknown[]) => {
    const svg = renderFastSvg(elements as Record<string, unknown>[]);
    return { pdf: await renderFastPdf(svg, fontsDirectory), svg };
  },
};

for (const [quality, render] of Object.entries(renderers)) {
  describe(`${quality} PDF`, () => {
    test('a PDF is one page the size of the drawing, in points', async () => {
      const { pdf, svg } = await render(GOLDEN_SCENES.flowchart!());
      const parsed = await parsePdf(pdf);
      const [width, height] = viewBoxSize(svg);
      assert.equal(parsed.pages, 1);
      assert.ok(Math.abs(parsed.width - width) < 0.5 && Math.abs(parsed.height - height) < 0.5, `page ${parsed.width} × ${parsed.height}, drawing ${width} × ${height}`);
    });

    test("a PDF's labels are text that can be extracted", async () => {
      const { pdf } = await render(GOLDEN_SCENES.flowchart!());
      const text = (await parsePdf(pdf)).text.join(' ');
      for (const label of ['User', 'API gateway', 'Auth service', 'Postgres', '(primary)', 'Redis cache', 'HTTPS', 'SQL']) {
        assert.ok(text.includes(label), `${JSON.stringify(label)} is not in the PDF's text: ${JSON.stringify(text)}`);
      }
    });

    test('CJK labels come back from the PDF as the same characters', async () => {
      const { pdf } = await render(GOLDEN_SCENES.fonts!());
      const text = (await parsePdf(pdf)).text.join('');
      for (const characters of ['数据', '库', 'café', 'Ωμέγα']) assert.ok(text.includes(characters), `${characters} is not in ${JSON.stringify(text)}`);
    });

    test('a scene without images makes a PDF without images: shapes, labelled arrows and hatch fills are vectors', async () => {
      for (const scene of ['shapes', 'arrowheads', 'dark-fills'] as const) {
        const { pdf } = await render(GOLDEN_SCENES[scene]!());
        assert.equal((await parsePdf(pdf)).images, 0, `${scene}: the PDF holds images`);
      }
    });
  });
}

test('a faithful PDF in the dark theme stays vector, its labels text', async () => {
  const { pdf } = await renderers.faithful(GOLDEN_SCENES['dark-fills']!(), { theme: 'dark' });
  const parsed = await parsePdf(pdf);
  assert.equal(parsed.images, 0);
  assert.ok(parsed.text.join(' ').includes('Light on dark'));
});

test('a faithful PDF of a flowchart with a labelled arrow holds only its icons as images', async () => {
  const elements = GOLDEN_SCENES.flowchart!();
  const icons = elements.filter((element) => element.type === 'image').length;
  const { pdf } = await renderers.faithful(elements);
  assert.equal((await parsePdf(pdf)).images, icons);
});
