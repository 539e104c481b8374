import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { contrastRatio, parseColor } from '../../src/domain/lint/color.ts';
import { LINT_KINDS, lintReport, lintScene } from '../../src/domain/lint/lint.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';

const rect = (id: string, x: number, y: number, extra: object = {}) => ({ id, type: 'rectangle', x, y, width: 100, height: 50, boundElements: [], ...extra });

test('WCAG contrast: black on white is 21, equal colours are 1', () => {
  assert.equal(Math.round(contrastRatio(parseColor('#000')!, parseColor('#fff')!)), 21);
  assert.equal(contrastRatio(parseColor('#777777')!, parseColor('#777777')!), 1);
  assert.equal(parseColor('transparent'), null);
  assert.deepEqual(parseColor('#336699cc'), [0x33, 0x66, 0x99]);
});

test('nested shapes are containers, not overlaps; grouped ones are one node', () => {
  assert.deepEqual(lintScene([rect('outer', 0, 0, { width: 140, height: 90 }), rect('inner', 20, 20)]), []);
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

test('a label is measured against the fill drawn behind it: a cylinder\'s body (its outline, the shape under the label being clear), and fills given by CSS colour name', () => {
  const scene = (nodes: object[]) => sceneFromSpec(parseSpec({ nodes }, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph });
  const contrast = (nodes: object[]) => lintScene(scene(nodes)).filter((issue) => issue.kind === 'low_contrast').map((issue) => issue.elementIds);
  assert.deepEqual(contrast([{ id: 'db', shape: 'cylinder', backgroundColor: '#1e1e1e', textColor: '#ffffff' }]), [], 'white on the dark body');
  assert.deepEqual(contrast([{ id: 'db', shape: 'cylinder', backgroundColor: '#1e1e1e', textColor: '#333333' }]), [['db-label', 'db']], 'dark on the dark body');
  assert.deepEqual(contrast([{ id: 'box', backgroundColor: 'firebrick', textColor: '#ffffff' }]), []);
  assert.deepEqual(contrast([{ id: 'box', backgroundColor: 'lightyellow', textColor: '#ffffff' }]), [['box-label', 'box']]);
  assert.deepEqual(parseColor('FireBrick'), [178, 34, 34]);
});

test('a stray far from a large drawing is an outlier; a long chain is not', () => {
  const chain = Array.from({ length: 60 }, (_, i) => rect(`n${i}`, 0, i * 150));
  assert.deepEqual(lintScene(chain), []);
  assert.deepEqual(lintScene([...chain, rect('stray', 60_000, 0)]).map((i) => i.elementIds), [['stray']]);
});

test('a pile of thousands of shapes is linted with bounded work: the first issues listed, all counted, flagged incomplete', () => {
  // 5,000 rectangles on one spot: 12.5 M overlapping pairs. Listing (or even building) them all once took 45 s and 4 GB.
  const pile = Array.from({ length: 5000 }, (_, i) => ({ id: `r${i}`, type: 'rectangle', x: i % 50, y: Math.floor(i / 50), width: 100, height: 100 }));
  const report = lintReport(pile);
  assert.equal(report.issues.length, 100);
  assert.ok(report.issues.every((issue) => issue.kind === 'overlap'));
  assert.ok(report.counts.overlap! > 100, `counted ${report.counts.overlap}`);
  assert.equal(report.complete, false);
});

test('arrows across many shapes: at most 100 issues of a kind are listed, every one counted', () => {
  const shapes = Array.from({ length: 400 }, (_, i) => ({ id: `s${i}`, type: 'rectangle', x: (i % 20) * 120, y: Math.floor(i / 20) * 120, width: 100, height: 100 }));
  const arrows = Array.from({ length: 20 }, (_, i) => ({ id: `a${i}`, type: 'arrow', x: -50, y: i * 120 + 50, points: [[0, 0], [2600, 0]] }));
  const report = lintReport([...shapes, ...arrows]);
  assert.equal(report.counts.edge_through_shape, 400);
  assert.equal(report.issues.filter((issue) => issue.kind === 'edge_through_shape').length, 100);
  assert.equal(report.counts.unbound_arrow, 40);
  assert.equal(report.complete, true);
});

test('a clean scene has no issues, no counts, and is complete', () => {
  assert.deepEqual(lintReport([{ id: 'a', type: 'rectangle', x: 0, y: 0, width: 100, height: 50 }]), { issues: [], counts: {}, complete: true });
});

test('docs/api.md describes every lint kind, in the order issues are listed', () => {
  const api = fs.readFileSync(path.join(import.meta.dirname, '../../docs/api.md'), 'utf8');
  const section = api.slice(api.indexOf('### GET /diagrams/:id/lint'), api.indexOf('### GET /diagrams/:id/render'));
  const described = [...section.matchAll(/^(?:- |\| )`([a-z_]+)`/gm)].map((m) => m[1]);
  assert.deepEqual(described, [...LINT_KINDS]);
});
