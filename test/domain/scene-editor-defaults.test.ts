// The editor's defaults for stored elements that lack fields (what both
// renderers draw from), checked against the editor's own restoreElements.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MAX_DRAWABLE_MAGNITUDE, sceneWithEditorDefaults, withEditorDefaults } from '../../src/domain/scene/editor-defaults.ts';
import { measureText } from '../../src/domain/text/metrics.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';
import { restoreElements } from '../helpers/excalidraw.ts';

const TYPES = ['rectangle', 'diamond', 'ellipse', 'line', 'arrow', 'freedraw', 'text', 'image', 'frame', 'magicframe', 'embeddable', 'iframe'];

/** Only what no element can do without: an id, a type, a size (the editor drops a zero-size element), text for a text. */
function bare(type: string): Record<string, unknown> {
  const element: Record<string, unknown> = { id: `bare-${type}`, type, x: 10, y: 20, width: 120, height: 60 };
  if (type === 'text') element.text = 'Hello';
  if (type === 'freedraw') element.points = [[0, 0], [60, 30], [120, 60]];
  return element;
}

test('a text without fontSize, fontFamily or lineHeight gets a new text\'s: 20 px Excalifont, the line height restore detects from its height', () => {
  const filled = withEditorDefaults({ id: 't', type: 'text', text: 'one\ntwo', height: 50 });
  assert.equal(filled.fontSize, 20);
  assert.equal(filled.fontFamily, 5);
  assert.equal(filled.lineHeight, 1.25);
  assert.equal(withEditorDefaults({ id: 't', type: 'text', text: 'one', height: 40, fontSize: 16 }).lineHeight, 2.5);
  // No height: the family's own line height, as restore gives programmatic text.
  assert.equal(withEditorDefaults({ id: 't', type: 'text', text: 'one', fontFamily: 3 }).lineHeight, 1.2);
  // No box: the size the editor measures (left at 0 × 0, restore would drop the text as invisibly small).
  const unboxed = withEditorDefaults({ id: 't', type: 'text', text: 'one\ntwo' });
  assert.deepEqual([unboxed.width, unboxed.height], [measureText('one\ntwo', 20, 5).width, 20 * 1.25 * 2]);
  assert.equal(withEditorDefaults({ id: 't', type: 'text', text: 'one', width: 80 }).width, 80);
  assert.deepEqual(
    [filled.textAlign, filled.verticalAlign, filled.originalText, filled.containerId, filled.autoResize],
    ['left', 'top', 'one\ntwo', null, true],
  );
});

test('a field of the wrong kind is treated as missing', () => {
  const filled = withEditorDefaults({ id: 'r', type: 'rectangle', x: '10', width: null, strokeWidth: 'thick', roughness: {}, opacity: null, strokeColor: 7, seed: 'x' });
  assert.deepEqual([filled.x, filled.width, filled.strokeWidth, filled.roughness, filled.opacity, filled.strokeColor, filled.seed], [0, 0, 2, 1, 100, '#1e1e1e', 1]);
  const text = withEditorDefaults({ id: 't', type: 'text', text: 'a', fontSize: '12px', fontFamily: 'Virgil', lineHeight: -1 });
  assert.deepEqual([text.fontSize, text.fontFamily, text.lineHeight], [20, 5, 1.25]);
  const line = withEditorDefaults({ id: 'l', type: 'line', width: 30, height: 40, points: [[0, 0], ['a', 1]] });
  assert.deepEqual(line.points, [[0, 0], [30, 40]]);
});

test('numbers past any drawing\'s size count as missing: the exporters\' arithmetic would overflow them to Infinity', () => {
  const filled = withEditorDefaults({ id: 'r', type: 'rectangle', x: 1e300, y: -1e12, width: 5e8, height: 10, seed: 1e300 });
  assert.deepEqual([filled.x, filled.y, filled.width, filled.seed], [0, 0, 5e8, 1]);
});

test('a malformed fractional index, an unusable crop and repeated points are left out: the editor\'s restore and exporter break on them', () => {
  assert.equal(withEditorDefaults({ id: 'a', type: 'rectangle', index: 'a0' }).index, 'a0');
  for (const index of ['x', 'a', 'a00', 5, '!a0']) assert.equal(withEditorDefaults({ id: 'a', type: 'rectangle', index }).index, null, String(index));
  assert.equal(withEditorDefaults({ id: 'i', type: 'image', crop: { x: 0, y: 0 } }).crop, null);
  const crop = { x: 0, y: 0, width: 10, height: 10, naturalWidth: 20, naturalHeight: 20 };
  assert.deepEqual(withEditorDefaults({ id: 'i', type: 'image', crop }).crop, crop);
  const arrow = withEditorDefaults({ id: 'a', type: 'arrow', points: [[0, 0], [0, 0], [50, 0], [50, 0]], endArrowhead: 'arrow' });
  assert.deepEqual([arrow.points, arrow.endArrowhead], [[[0, 0], [50, 0]], 'arrow']);
  // A single point left: nothing for a head to point along.
  const dot = withEditorDefaults({ id: 'a', type: 'arrow', points: [[3, 4], [3, 4]], startArrowhead: 'dot', endArrowhead: 'arrow' });
  assert.deepEqual([dot.points, dot.startArrowhead, dot.endArrowhead], [[[3, 4], [3, 4]], null, null]);
});

test('a well-formed element keeps every field it has', () => {
  for (const [name, scene] of Object.entries(GOLDEN_SCENES)) {
    for (const element of scene()) {
      const filled = withEditorDefaults(element);
      for (const [field, value] of Object.entries(element)) assert.deepEqual(filled[field], value, `${name}: ${element.id}.${field}`);
    }
  }
});

test('the defaults are the editor\'s: restore changes none of them, and gives the same values where it defaults a field itself', async () => {
  for (const type of TYPES) {
    const filled = withEditorDefaults(bare(type));
    const [restoredFilled] = await restoreElements([filled]);
    // restore itself throws on a line or arrow without points (it reads points.length): nothing to compare there.
    const [restoredBare] = type === 'line' || type === 'arrow' ? [{}] : await restoreElements([bare(type)]);
    assert.ok(restoredFilled && restoredBare, type);
    for (const [field, value] of Object.entries(filled)) {
      // A missing fractional index is restore's to derive from the order.
      if (field === 'index') continue;
      assert.deepEqual(restoredFilled[field], value, `${type}.${field}: restore keeps the default`);
      // restore leaves a text's font size and family as they came: those are a new text's, which it has no rule for.
      if (type === 'text' && (field === 'fontSize' || field === 'fontFamily' || field === 'lineHeight')) continue;
      if (restoredBare[field] !== undefined) assert.deepEqual(restoredBare[field], value, `${type}.${field}: the same default as restore's`);
    }
  }
});

test('the stored elements are not changed, and anything that is not an element object is left out', () => {
  const stored = [{ id: 't', type: 'text', text: 'x' }, null, 'junk', [1]];
  const copy = structuredClone(stored);
  const filled = sceneWithEditorDefaults(stored);
  assert.deepEqual(stored, copy);
  assert.equal(filled.length, 1);
  assert.equal(filled[0]!.fontSize, 20);
});

test('docs/rendering.md states the defaults and the limit the code applies', () => {
  const doc = fs.readFileSync(path.join(import.meta.dirname, '../../docs/rendering.md'), 'utf8').replace(/\s+/g, ' ');
  const rule = /\*\*Missing fields\*\*.*?(?=- \*\*Images)/.exec(doc)?.[0] ?? '';
  assert.match(rule, /20 px Excalifont/);
  assert.match(rule, /past a billion in magnitude/);
  assert.equal(MAX_DRAWABLE_MAGNITUDE, 1e9);
  const bare = withEditorDefaults({ id: 'r', type: 'rectangle' });
  const stated = { strokeColor: '`#1e1e1e`', backgroundColor: '`transparent`', strokeWidth: '2', roughness: '1', opacity: '100' };
  for (const [field, value] of Object.entries(stated)) {
    assert.ok(rule.includes(`\`${field}\` ${value}`), `the doc states ${field} ${value}`);
    assert.equal(String(bare[field]), value.replaceAll('`', ''));
  }
  assert.deepEqual([bare.fillStyle, bare.strokeStyle, bare.x, bare.y, bare.angle], ['solid', 'solid', 0, 0, 0]);
});
