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

const GOLDEN_ELEMENTS = Object.values(GOLDEN_SCENES).flatMap((scene) => scene());
const KEEP = Symbol('keep');
const DELETE = Symbol('delete');
/** What the scene validator requires of every element: never changed. */
const REQUIRED = new Set(['id', 'type', 'link']);

/** Scenes of one to six golden elements, each field (but the required ones) kept, deleted or replaced as `change` says. */
function goldenScenesWith(change: fc.Arbitrary<unknown>): fc.Arbitrary<Raw[]> {
  const element = fc.tuple(fc.constantFrom(...GOLDEN_ELEMENTS), fc.infiniteStream(change)).map(([golden, changes]) => {
    const changed: Raw = {};
    for (const [key, value] of Object.entries(golden)) {
      const next = REQUIRED.has(key) ? KEEP : changes.next().value;
      if (next !== DELETE) changed[key] = next === KEEP ? value : next;
    }
    return changed;
  });
  return fc.array(element, { minLength: 1, maxLength: 6 }).map((scene) => scene.map((e, i) => ({ ...e, id: `${String(e.id)}-${i}` })));
}

/** Every scene renders to an SVG with nothing broken in it (or to nothing at all). */
async function neverBroken(render: (elements: Raw[], formats: Formats) => Promise<RenderOutput>, scenes: fc.Arbitrary<Raw[]>): Promise<void> {
  const faithful = render === QUALITIES.faithful;
  await fc.assert(
    fc.asyncProperty(scenes, async (scene) => {
      const output = await render(scene, { svg: true, png: false });
      if (!output.empty) assertDrawable(output, JSON.stringify(scene).slice(0, 800));
    }),
    // RUNS: more cases, for a deeper search by hand (with FC_SEED=random).
    { numRuns: Number(process.env.RUNS ?? (faithful ? 40 : 150)) },
  );
}

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

    test('a text with nothing but an id, a type and its text is drawn, at the size the editor measures for it', async () => {
      const output = await render([{ id: 'only', type: 'text', text: 'Only text <b>' }], { svg: true, png: true });
      const svg = assertDrawable(output, 'a text with no box');
      assert.match(svg, /Only text &lt;b&gt;/);
      assert.ok(ink(output.png!) > 100, 'the PNG shows the text');
    });

    test('property: any optional fields deleted from the golden elements, the SVG has no NaN, undefined or Infinity', async () => {
      await neverBroken(render, goldenScenesWith(fc.constantFrom(KEEP, DELETE)));
    });

    test('property: fields of the wrong kind (null, a string, a boolean, an object, an array, zero, a negative or huge number) render with nothing broken', async () => {
      await neverBroken(render, goldenScenesWith(fc.oneof({ arbitrary: fc.constant(KEEP), weight: 3 }, fc.constantFrom<unknown>(null, 'x', true, {}, [], 0, -5, 1e300))));
    });
  });
}
