/**
 * The render options in the faithful renderer's canvas path (PNG through the
 * editor's exportToCanvas on Skia): size, scale, padding, background, dark
 * theme, a frame, a selection. (Their parsing and the API: options tests.)
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { renderFaithfulJob } from '../../src/render/faithful-job.ts';
import type { RenderOptions } from '../../src/render/types.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';

const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-canvas-fonts-'));

async function png(scene: keyof typeof GOLDEN_SCENES, options?: RenderOptions): Promise<PNG> {
  const output = await renderFaithfulJob(await loadExcalidraw(), { elementsJson: JSON.stringify(GOLDEN_SCENES[scene]!()), svg: false, png: true, options, fontsDirectory });
  assert.ok(output.png, `no PNG: ${JSON.stringify(output)}`);
  return PNG.sync.read(Buffer.from(output.png));
}

function pixel(image: PNG, x: number, y: number): [number, number, number, number] {
  const at = (y * image.width + x) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!, image.data[at + 3]!];
}

test('without options a PNG is 1024 px wide, its height following the drawing', async () => {
  const image = await png('flowchart');
  const scaled = await png('flowchart', { scale: 1 });
  assert.equal(image.width, 1024);
  assert.ok(Math.abs(image.height - Math.round((1024 * scaled.height) / scaled.width)) <= 1);
});

test('width makes the PNG exactly that wide', async () => {
  for (const width of [256, 600, 2000]) assert.equal((await png('flowchart', { width })).width, width);
});

test('scale makes the PNG the drawing’s size times the scale', async () => {
  const [one, two] = [await png('flowchart', { scale: 1 }), await png('flowchart', { scale: 2 })];
  assert.ok(Math.abs(two.width - 2 * one.width) <= 1 && Math.abs(two.height - 2 * one.height) <= 1, `${one.width}×${one.height} → ${two.width}×${two.height}`);
});

test('padding adds that many scene pixels on each side', async () => {
  const [normal, padded] = [await png('flowchart', { scale: 1 }), await png('flowchart', { scale: 1, padding: 100 })];
  // The default padding is 10.
  assert.ok(Math.abs(padded.width - normal.width - 180) <= 1 && Math.abs(padded.height - normal.height - 180) <= 1);
});

test('a transparent background leaves the corners transparent', async () => {
  assert.equal(pixel(await png('flowchart', { background: 'transparent' }), 0, 0)[3], 0);
  assert.deepEqual(pixel(await png('flowchart'), 0, 0), [255, 255, 255, 255]);
});

test('a background colour fills the PNG', async () => {
  assert.deepEqual(pixel(await png('flowchart', { background: '#ffec99' }), 2, 2), [0xff, 0xec, 0x99, 255]);
});

test('the dark theme draws on the editor’s dark background, with light strokes', async () => {
  const image = await png('dark-fills', { theme: 'dark' });
  const [r, g, b, a] = pixel(image, 1, 1);
  assert.ok(r < 30 && g < 30 && b < 30 && a === 255, `corner ${[r, g, b, a]}`);
  // A dark-themed background asked for is that colour, under the filter.
  assert.deepEqual(pixel(await png('dark-fills', { theme: 'dark', background: '#223366' }), 1, 1), [0x22, 0x33, 0x66, 255]);
});

test('a frame exports the frame alone: its size, no padding, its contents clipped', async () => {
  const frame = GOLDEN_SCENES.shapes!().find((element) => element.id === 'frame')!;
  const image = await png('shapes', { frameId: 'frame', scale: 1 });
  assert.deepEqual([image.width, image.height], [frame.width, frame.height]);
});

test('elements draws only the elements named (and their bound text)', async () => {
  const whole = await png('flowchart', { scale: 1 });
  const api = await png('flowchart', { scale: 1, elementIds: ['api'] });
  assert.ok(api.width < whole.width / 2 && api.height < whole.height / 2, `${api.width}×${api.height} of ${whole.width}×${whole.height}`);
});

test('a selection naming nothing drawn is reported, not drawn', async () => {
  const output = await renderFaithfulJob(await loadExcalidraw(), { elementsJson: JSON.stringify(GOLDEN_SCENES.flowchart!()), svg: false, png: true, options: { elementIds: ['nope'] }, fontsDirectory });
  assert.ok(output.invalidSelection);
  assert.equal(output.png, undefined);
});

test('a scene taller than 8 times its width fits 1024 × 8192, centred on a transparent margin', async () => {
  const tall = GOLDEN_SCENES.shapes!().map((element) => (element.id === 'frame' ? { ...element, height: 40000 } : element));
  const output = await renderFaithfulJob(await loadExcalidraw(), { elementsJson: JSON.stringify(tall), svg: false, png: true, fontsDirectory });
  const image = PNG.sync.read(Buffer.from(output.png!));
  assert.deepEqual([image.width, image.height], [1024, 8192]);
  assert.equal(pixel(image, 0, 100)[3], 0);
  assert.equal(pixel(image, 512, 100)[3], 255);
});

test('an arrow with a label is drawn as sharp as one without: at the PNG’s scale, not enlarged from scale 1', async () => {
  // Two straight arrows alike but for the label; at scale 3 their shafts, well above the label, hold as many solid pixels.
  const arrow = (id: string, x: number, label?: string) => ({
    id, type: 'arrow', x, y: 0, width: 0, height: 300, points: [[0, 0], [0, 300]], seed: 7, strokeWidth: 2, roughness: 1, strokeColor: '#1e1e1e', endArrowhead: 'arrow',
    ...(label ? { boundElements: [{ id: label, type: 'text' }] } : {}),
  });
  const label = { id: 'a-label', type: 'text', x: -20, y: 137.5, width: 40, height: 25, text: 'label', originalText: 'label', fontSize: 20, fontFamily: 5, containerId: 'a', textAlign: 'center', verticalAlign: 'middle', strokeColor: '#1e1e1e' };
  const output = await renderFaithfulJob(await loadExcalidraw(), { elementsJson: JSON.stringify([arrow('a', 0, 'a-label'), arrow('b', 200), label]), svg: false, png: true, options: { scale: 3 }, fontsDirectory });
  const image = PNG.sync.read(Buffer.from(output.png!));
  // The drawing spans x -20 (the label) to 200, plus the padding of 10: the shafts are at 3 × 30 and 3 × 230 px.
  const solid = (column: number) => {
    let count = 0;
    for (let y = 90; y < 330; y++) for (let dx = -30; dx <= 30; dx++) if (pixel(image, column + dx, y).slice(0, 3).every((c) => c < 80)) count += 1;
    return count;
  };
  const [labelled, plain] = [solid(90), solid(690)];
  assert.ok(plain > 500, `the plain arrow's shaft is found (${plain} solid pixels)`);
  assert.ok(Math.abs(labelled - plain) / plain < 0.05, `solid pixels: ${labelled} on the labelled arrow against ${plain}`);
});
