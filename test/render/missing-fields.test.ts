/**
 * Stored elements that lack fields the editor defaults (scenes are stored as
 * supplied) render with the editor's defaults in both renderers, in every
 * format: no `NaN`, `undefined` or `Infinity` reaches an SVG. Property: any
 * optional field deleted from any golden element.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { renderFaithfulJob } from '../../src/render/faithful-job.ts';
import { renderFastJob } from '../../src/render/fast-job.ts';
import type { RenderJob, RenderOutput } from '../../src/render/types.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';

const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-missing-fields-fonts-'));
const editor = await loadExcalidraw();

type Raw = Record<string, unknown>;
type Formats = Pick<RenderJob, 'svg' | 'png' | 'pdf'>;

const QUALITIES = {
  faithful: (elements: Raw[], formats: Formats) => renderFaithfulJob(editor, { elementsJson: JSON.stringify(elements), ...formats, fontsDirectory }),
  fast: (elements: Raw[], formats: Formats) => renderFastJob({ elementsJson: JSON.stringify(elements), ...formats, fontsDirectory }),
} as const;

/** The SVG's own markup: embedded fonts and images are base64, where any letters may occur. */
const markup = (svg: string) => svg.replace(/data:[^)"']*/g, 'data:');
const BROKEN = /NaN|undefined|Infinity/;

function assertDrawable(output: RenderOutput, what: string): string {
  assert.equal(output.empty, undefined, `${what}: nothing drawn`);
  assert.ok(output.svg, `${what}: no SVG: ${JSON.stringify(output).slice(0, 300)}`);
  const svg = markup(output.svg);
  assert.doesNotMatch(svg, BROKEN, `${what}: ${BROKEN.exec(svg) ? svg.slice(Math.max(0, BROKEN.exec(svg)!.index - 200), BROKEN.exec(svg)!.index + 50) : ''}`);
  return svg;
}

/** Pixels darker than mid-grey: the ink of what was drawn. */
function ink(png: Uint8Array): number {
  const image = PNG.sync.read(Buffer.from(png));
  let dark = 0;
  for (let at = 0; at < image.data.length; at += 4) if (image.data[at + 3]! > 128 && image.data[at]! < 128) dark += 1;
  return dark;
}

const HELLO = { id: 'hello', type: 'text', x: 10, y: 10, width: 150, height: 25, text: 'Hello defaults' };
const HELLO_WITH_DEFAULTS = { ...HELLO, fontSize: 20, fontFamily: 5, lineHeight: 1.25 };

/** Every element type with nothing but an id, a type, a box, and its text or points. */
const BARE: Raw[] = [
  { id: 'r', type: 'rectangle', x: 0, y: 0, width: 100, height: 60 },
  { id: 'd', type: 'diamond', x: 120, y: 0, width: 100, height: 60 },
  { id: 'e', type: 'ellipse', x: 240, y: 0, width: 100, height: 60 },
  { id: 't', type: 'text', x: 0, y: 80, width: 120, height: 25, text: 'Bare text' },
  { id: 'l', type: 'line', x: 0, y: 120, width: 100, height: 40 },
  { id: 'a', type: 'arrow', x: 120, y: 120, width: 100, height: 40 },
  { id: 'f', type: 'freedraw', x: 240, y: 120, width: 60, height: 30, points: [[0, 0], [30, 20], [60, 30]] },
  { id: 'i', type: 'image', x: 0, y: 180, width: 60, height: 60 },
  { id: 'fr', type: 'frame', x: 100, y: 180, width: 120, height: 80 },
  { id: 'm', type: 'magicframe', x: 240, y: 180, width: 120, height: 80 },
  { id: 'em', type: 'embeddable', x: 380, y: 180, width: 120, height: 80 },
  { id: 'if', type: 'iframe', x: 520, y: 180, width: 120, height: 80 },
];

for (const [quality, render] of Object.entries(QUALITIES)) {
  describe(`${quality} renderer`, () => {
    test('a text without fontSize, fontFamily or lineHeight is drawn exactly as with the editor\'s defaults (20 px Excalifont), in SVG, PNG and PDF', async () => {
      const bare = await render([HELLO], { svg: true, png: true, pdf: true });
      const explicit = await render([HELLO_WITH_DEFAULTS], { svg: true, png: true });
      const svg = assertDrawable(bare, 'bare text');
      assert.match(svg, /<text [^>]*font-size="20px"/);
      assert.equal(bare.svg, explicit.svg);
      assert.ok(bare.png && Buffer.from(bare.png).equals(Buffer.from(explicit.png!)), 'the PNG is the one of the text with the defaults spelled out');
      assert.ok(ink(bare.png) > 200, 'the PNG shows the text');
      assert.equal(Buffer.from(bare.pdf!).subarray(0, 5).toString('latin1'), '%PDF-');
    });

    test('every element type with only an id, a type and a box renders in SVG, PNG and PDF with nothing broken', async () => {
      const output = await render(BARE, { svg: true, png: true, pdf: true });
      const svg = assertDrawable(output, 'bare elements');
      assert.match(svg, /Bare text/);
      assert.ok(ink(output.png!) > 500);
      assert.equal(Buffer.from(output.pdf!).subarray(0, 5).toString('latin1'), '%PDF-');
    });

    test('property: any optional fields deleted from the golden elements, the SVG has no NaN, undefined or Infinity', async () => {
      const elements = Object.values(GOLDEN_SCENES).flatMap((scene) => scene());
      // A scene of a few golden elements, each with a random set of its fields deleted (never id or type).
      const stripped = fc
        .array(
          fc.tuple(fc.constantFrom(...elements), fc.infiniteStream(fc.boolean())).map(([element, drops]) =>
            Object.fromEntries(Object.entries(element).filter(([key]) => key === 'id' || key === 'type' || !drops.next().value)),
          ),
          { minLength: 1, maxLength: 6 },
        )
        .map((scene) => scene.map((element, i) => ({ ...element, id: `${element.id}-${i}` })));
      await fc.assert(
        fc.asyncProperty(stripped, async (scene) => {
          const output = await render(scene, { svg: true, png: false });
          if (output.empty) return;
          assertDrawable(output, JSON.stringify(scene).slice(0, 500));
        }),
        { numRuns: Number(process.env.RUNS ?? (quality === 'faithful' ? 40 : 150)) },
      );
    });

    test('property: fields of the wrong kind (null, a string, a boolean, an object, an array, zero, a negative or huge number) render with nothing broken', async () => {
      const elements = Object.values(GOLDEN_SCENES).flatMap((scene) => scene());
      const wrong = fc.constantFrom<unknown>(null, 'x', true, {}, [], 0, -5, 1e300);
      const spoiled = fc
        .array(
          fc.tuple(fc.constantFrom(...elements), fc.infiniteStream(fc.option(wrong, { freq: 3 }))).map(([element, values]) =>
            Object.fromEntries(
              Object.entries(element).map(([key, value]) => {
                const replacement = values.next().value;
                return key === 'id' || key === 'type' || key === 'link' || replacement === null ? [key, value] : [key, replacement];
              }),
            ),
          ),
          { minLength: 1, maxLength: 6 },
        )
        .map((scene) => scene.map((element, i) => ({ ...element, id: `${element.id}-${i}` })));
      await fc.assert(
        fc.asyncProperty(spoiled, async (scene) => {
          const output = await render(scene, { svg: true, png: false });
          if (output.empty) return;
          assertDrawable(output, JSON.stringify(scene).slice(0, 800));
        }),
        { numRuns: Number(process.env.RUNS ?? (quality === 'faithful' ? 40 : 150)) },
      );
    });
  });
}
