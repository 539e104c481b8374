import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contrastRatio, parseColor } from '../../src/domain/lint/color.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';

const rect = (id: string, x: number, y: number, extra: object = {}) => ({ id, type: 'rectangle', x, y, width: 100, height: 50, boundElements: [], ...extra });

test('WCAG contrast: black on white is 21, equal colours are 1', () => {
  assert.equal(Math.round(contrastRatio(parseColor('#000')!, parseColor('#fff')!)), 21);
  assert.equal(contrastRatio(parseColor('#777777')!, parseColor('#777777')!), 1);
  assert.equal(parseColor('transparent'), null);
  assert.deepEqual(parseColor('#336699cc'), [0x33, 0x66, 0x99]);
});

test('nested shapes are containers, not overlaps; grouped ones are one node', () => {
  assert.deepEqual(lintScene([rect('outer', 0, 0, { width: 500, height: 500 }), rect('inner', 10, 10)]), []);
  assert.deepEqual(lintScene([rect('a', 0, 0, { groupIds: ['g'] }), { id: 'i', type: 'image', x: 50, y: 25, width: 100, height: 100, groupIds: ['g'] }]), []);
  assert.deepEqual(lintScene([rect('a', 0, 0), rect('b', 99, 0)]).map((i) => i.kind), ['overlap']);
  assert.deepEqual(lintScene([rect('a', 0, 0), rect('b', 100, 0)]), [], 'touching is not overlapping');
});

test('deleted elements are ignored', () => {
  assert.deepEqual(lintScene([rect('a', 0, 0), rect('b', 10, 10, { isDeleted: true })]), []);
});

test('a one-sided binding is reported', () => {
  const issues = lintScene([
    rect('a', 0, 0),
    rect('b', 300, 0, { boundElements: [{ id: 'arr', type: 'arrow' }] }),
    { id: 'arr', type: 'arrow', x: 104, y: 25, width: 192, height: 0, points: [[0, 0], [192, 0]], startBinding: { elementId: 'a', focus: 0, gap: 4 }, endBinding: { elementId: 'b', focus: 0, gap: 4 } },
  ]);
  assert.deepEqual(issues.map((i) => [i.kind, i.elementIds]), [['dangling_binding', ['arr', 'a']]]);
});

test('text on a dark fill needs a light colour', () => {
  const box = rect('box', 0, 0, { backgroundColor: '#1e1e1e', boundElements: [{ id: 't', type: 'text' }] });
  const text = (strokeColor: string) => ({ id: 't', type: 'text', x: 30, y: 12, width: 20, height: 25, text: 'hi', fontSize: 20, fontFamily: 5, containerId: 'box', strokeColor });
  assert.deepEqual(lintScene([box, text('#1e1e1e')]).map((i) => i.kind), ['low_contrast']);
  assert.deepEqual(lintScene([box, text('#ffffff')]), []);
});

test('a stray far from a large drawing is an outlier; a long chain is not', () => {
  const chain = Array.from({ length: 60 }, (_, i) => rect(`n${i}`, 0, i * 150));
  assert.deepEqual(lintScene(chain), []);
  assert.deepEqual(lintScene([...chain, rect('stray', 60_000, 0)]).map((i) => i.elementIds), [['stray']]);
});
