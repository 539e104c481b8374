import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { ARROWHEADS } from '../../src/render/fast/arrowheads.ts';
import { MONOSPACE_STACK, SANS_STACK } from '../../src/render/fast/text.ts';
import { renderFastSvg, sceneBounds } from '../../src/render/fast-svg.ts';
import { loadExcalidraw } from '../helpers/excalidraw.ts';

// jsdom ships no type declarations; only its DOMParser is used, typed by the DOM lib.
const { JSDOM } = (await import('jsdom' as string)) as { JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } } };
const xmlParser = new new JSDOM('').window.DOMParser();

type Raw = Record<string, unknown>;

let elementCount = 0;

/** An element as the editor would store it, with roughness 0 so the editor's own bounds are exact. */
function element(type: string, fields: Raw = {}): Raw {
  const base: Raw = {
    id: `${type}-${++elementCount}`,
    type,
    x: 0,
    y: 0,
    width: 100,
    height: 50,
    angle: 0,
    strokeColor: '#1e1e1e',
    backgroundColor: 'transparent',
    fillStyle: 'solid',
    strokeWidth: 2,
    strokeStyle: 'solid',
    roughness: 0,
    opacity: 100,
    roundness: null,
    seed: 1,
    version: 1,
    versionNonce: 1,
    index: null,
    isDeleted: false,
    groupIds: [],
    frameId: null,
    boundElements: null,
    updated: 1,
    link: null,
    locked: false,
  };
  if (type === 'line' || type === 'arrow') {
    Object.assign(base, { points: [[0, 0], [100, 0]], height: 0, lastCommittedPoint: null, startBinding: null, endBinding: null, startArrowhead: null, endArrowhead: type === 'arrow' ? 'arrow' : null, elbowed: false });
  }
  if (type === 'text') {
    Object.assign(base, { text: 'text', originalText: 'text', fontSize: 20, fontFamily: 5, lineHeight: 1.25, textAlign: 'left', verticalAlign: 'top', containerId: null, autoResize: true, height: 25 });
  }
  return { ...base, ...fields };
}

function parse(svg: string): Document {
  const document = xmlParser.parseFromString(svg, 'image/svg+xml');
  assert.equal(document.getElementsByTagName('parsererror').length, 0, `not well-formed:\n${svg}`);
  assert.equal(document.documentElement.localName, 'svg');
  return document;
}

const render = (elements: Raw[], options?: Parameters<typeof renderFastSvg>[1]) => parse(renderFastSvg(elements, options));
const all = (document: Document, selector: string) => Array.from(document.querySelectorAll(selector));
/** The drawn nodes: the document's children after its defs and background. */
const drawn = (document: Document) => Array.from(document.documentElement.children).filter((node) => node.localName !== 'defs' && !(node.localName === 'rect' && node.getAttribute('x') === '0' && node.getAttribute('y') === '0'));
const numbers = (value: string | null) => (value ?? '').split(/[\s,]+/).filter(Boolean).map(Number);

const ALLOWED_ELEMENTS = new Set(['svg', 'defs', 'pattern', 'clipPath', 'mask', 'g', 'rect', 'path', 'ellipse', 'circle', 'line', 'text']);

/** Everything in an SVG that could run script, reach outside the document, or break out of text. */
function forbiddenMarkup(svg: string): string[] {
  const problems: string[] = [];
  if (/<script|<foreignObject|<!--|<!\[CDATA|<\?|<!DOCTYPE|<!ENTITY/i.test(svg)) problems.push('script, foreignObject, comment, CDATA, processing instruction or DTD');
  const document = xmlParser.parseFromString(svg, 'image/svg+xml');
  if (document.getElementsByTagName('parsererror').length > 0) return [...problems, 'not well-formed'];
  const ids = new Set(all(document, '[id]').map((node) => node.getAttribute('id')));
  for (const node of [document.documentElement, ...all(document, '*')]) {
    if (!ALLOWED_ELEMENTS.has(node.localName)) problems.push(`<${node.localName}>`);
    for (const attribute of Array.from(node.attributes)) {
      if (/^on/i.test(attribute.localName) || /href$/i.test(attribute.name)) problems.push(`attribute ${attribute.name}`);
      if (/javascript:|expression\(/i.test(attribute.value)) problems.push(`${attribute.name}="${attribute.value}"`);
      for (const [, reference] of attribute.value.matchAll(/url\(([^)]*)\)/gi)) {
        if (!/^#fast-[a-z]+-\d+$/.test(reference!) || !ids.has(reference!.slice(1))) problems.push(`${attribute.name}="${attribute.value}"`);
      }
    }
  }
  return problems;
}

describe('the document', () => {
  test('is the scene bounds plus the export padding on each side, with the background first', () => {
    const document = render([element('rectangle', { x: 10, y: 20, width: 100, height: 50 })]);
    const root = document.documentElement;
    assert.equal(root.getAttribute('xmlns'), 'http://www.w3.org/2000/svg');
    assert.equal(root.getAttribute('viewBox'), '0 0 120 70');
    assert.equal(root.getAttribute('width'), '120');
    assert.equal(root.getAttribute('height'), '70');
    const background = root.firstElementChild!;
    assert.equal(background.localName, 'rect');
    assert.equal(background.getAttribute('fill'), '#ffffff');
    assert.equal(background.getAttribute('width'), '120');
    assert.equal(drawn(document)[0]!.getAttribute('transform'), 'translate(10 10)');
  });

  test('a rotated element is bounded by its turned corners', () => {
    const quarterTurn = element('rectangle', { x: 0, y: 0, width: 100, height: 50, angle: Math.PI / 2 });
    const bounds = sceneBounds([quarterTurn])!;
    [25, -25, 75, 75].forEach((expected, i) => assert.ok(Math.abs(bounds[i]! - expected) < 1e-9, `${bounds}`));
    assert.equal(render([quarterTurn], { padding: 5 }).documentElement.getAttribute('viewBox'), '0 0 60 110');
  });

  test('padding and background are options; a transparent background is left out', () => {
    const document = render([element('rectangle')], { padding: 0, background: 'transparent' });
    assert.equal(document.documentElement.getAttribute('viewBox'), '0 0 100 50');
    assert.equal(document.documentElement.firstElementChild!.localName, 'rect');
    assert.notEqual(document.documentElement.firstElementChild!.getAttribute('fill'), 'transparent');
    assert.equal(all(document, 'rect').length, 1, 'only the rectangle itself');
    assert.equal(render([element('rectangle')], { background: '#123456' }).documentElement.firstElementChild!.getAttribute('fill'), '#123456');
  });

  test('a scene with nothing drawable has no bounds and renders as padding only', () => {
    const scene = [element('rectangle', { isDeleted: true }), element('selection'), element('unknown-thing')];
    assert.equal(sceneBounds(scene), null);
    assert.equal(sceneBounds([]), null);
    const document = render(scene);
    assert.equal(document.documentElement.getAttribute('viewBox'), '0 0 20 20');
    assert.equal(drawn(document).length, 0);
  });

  test('the viewBox is the one the editor\'s exportToSvg gives the same scene', async () => {
    const excalidraw = await loadExcalidraw();
    const scenes: Record<string, Raw[]> = {
      'a turned rectangle': [element('rectangle', { x: 10, y: 20, width: 100, height: 40, angle: 0.7 })],
      'a turned diamond': [element('diamond', { x: 10, y: 20, width: 100, height: 40, angle: 1.1 })],
      'a turned ellipse': [element('ellipse', { x: 10, y: 20, width: 100, height: 40, angle: 0.4 })],
      'a turned curved arrow': [element('arrow', { width: 200, height: 100, angle: 0.3, roundness: { type: 2 }, points: [[0, 0], [100, 100], [200, 0]] })],
      'a line with negative points': [element('line', { x: 50, y: 50, width: 150, height: 80, points: [[0, 0], [-50, 60], [100, -20]] })],
      'a frame, its name and a child it clips': [
        element('frame', { id: 'f', x: 0, y: 0, width: 300, height: 200, name: 'Frame one' }),
        element('rectangle', { x: 250, y: 150, width: 100, height: 100, frameId: 'f' }),
      ],
      'a turned text': [element('text', { width: 50, height: 50, angle: 0.2, text: 'ab\ncd', originalText: 'ab\ncd' })],
    };
    for (const [name, elements] of Object.entries(scenes)) {
      const svg = await excalidraw.exportToSvg({ elements, appState: { exportBackground: true, viewBackgroundColor: '#ffffff' }, files: null, skipInliningFonts: true });
      const expected = numbers(svg.getAttribute('viewBox'));
      const actual = numbers(render(elements).documentElement.getAttribute('viewBox'));
      assert.equal(actual.length, 4, name);
      actual.forEach((value, i) => assert.ok(Math.abs(value - expected[i]!) <= 0.005, `${name}: ${actual} vs the editor's ${expected}`));
    }
  });
});

describe('shapes', () => {
  test('a rectangle\'s stroke, fill, dashes and opacity follow the element', () => {
    const [rect] = drawn(render([element('rectangle', { strokeColor: '#e03131', backgroundColor: '#ffc9c9', strokeStyle: 'dashed', strokeWidth: 2, opacity: 40 })]));
    assert.equal(rect!.localName, 'rect');
    assert.equal(rect!.getAttribute('stroke'), '#e03131');
    assert.equal(rect!.getAttribute('fill'), '#ffc9c9');
    assert.equal(rect!.getAttribute('stroke-dasharray'), '8 10');
    assert.equal(rect!.getAttribute('stroke-width'), '2.5', 'dashed strokes are half a pixel wider, as in the editor');
    assert.equal(rect!.getAttribute('opacity'), '0.4');
  });

  test('a dotted stroke uses the editor\'s dot spacing', () => {
    const [rect] = drawn(render([element('rectangle', { strokeStyle: 'dotted', strokeWidth: 4 })]));
    assert.equal(rect!.getAttribute('stroke-dasharray'), '1.5 10');
  });

  test('a rounded rectangle uses the editor\'s adaptive corner radius', () => {
    const [small, large] = drawn(render([
      element('rectangle', { width: 200, height: 100, roundness: { type: 3 } }),
      element('rectangle', { y: 200, width: 400, height: 300, roundness: { type: 3 } }),
    ]));
    assert.match(small!.getAttribute('d')!, /^M 25 0 L 175 0 Q 200 0, 200 25 /, 'a quarter of the shorter side up to 128 px');
    assert.match(large!.getAttribute('d')!, /^M 32 0 L 368 0 Q 400 0, 400 32 /, '32 px beyond');
  });

  test('a diamond\'s fill follows its backgroundColor', () => {
    const [filled, hollow] = drawn(render([element('diamond', { backgroundColor: '#b2f2bb' }), element('diamond', { x: 200 })]));
    assert.equal(filled!.localName, 'path');
    assert.equal(filled!.getAttribute('fill'), '#b2f2bb');
    assert.equal(hollow!.getAttribute('fill'), 'none');
    assert.match(filled!.getAttribute('d')!, /^M 51 0 L 100 26 L 51 50 L 0 26 Z$/, 'the editor\'s diamond points');
  });

  test('a rounded diamond has curved corners', () => {
    const [diamond] = drawn(render([element('diamond', { roundness: { type: 2 } })]));
    assert.equal((diamond!.getAttribute('d')!.match(/C /g) ?? []).length, 4);
  });

  test('sketchy fills are patterns of lines in the background colour, shared and numbered in order', () => {
    const document = render([
      element('rectangle', { backgroundColor: '#a5d8ff', fillStyle: 'hachure' }),
      element('ellipse', { x: 200, backgroundColor: '#a5d8ff', fillStyle: 'hachure' }),
      element('diamond', { x: 400, backgroundColor: '#ffc9c9', fillStyle: 'cross-hatch' }),
    ]);
    const [rect, ellipse, diamond] = drawn(document);
    assert.equal(rect!.getAttribute('fill'), 'url(#fast-fill-1)');
    assert.equal(ellipse!.getAttribute('fill'), 'url(#fast-fill-1)');
    assert.equal(diamond!.getAttribute('fill'), 'url(#fast-fill-2)');
    const hachure = document.getElementById('fast-fill-1')!;
    assert.equal(hachure.localName, 'pattern');
    assert.deepEqual(all(document, '#fast-fill-1 line').map((line) => line.getAttribute('stroke')), ['#a5d8ff']);
    assert.equal(all(document, '#fast-fill-2 line').length, 2, 'cross-hatch draws both directions');
  });

  test('an ellipse turns about its centre', () => {
    const [ellipse] = drawn(render([element('ellipse', { x: 0, y: 0, width: 100, height: 50, angle: Math.PI / 2 })]));
    assert.equal(ellipse!.localName, 'ellipse');
    assert.match(ellipse!.getAttribute('transform')!, /rotate\(90 50 25\)$/);
    assert.equal(ellipse!.getAttribute('rx'), '50');
    assert.equal(ellipse!.getAttribute('ry'), '25');
  });
});

describe('lines and arrows', () => {
  /** Absolute document coordinates of the numbers in a path inside a translate(x y) group. */
  const pathPoints = (path: Element, group: Element) => {
    const [dx, dy] = numbers(group.getAttribute('transform')!.match(/translate\(([^)]*)\)/)![1]!);
    const values = numbers(path.getAttribute('d')!.replace(/[MLZ]/g, ' '));
    return Array.from({ length: values.length / 2 }, (_, i) => [values[2 * i]! + dx!, values[2 * i + 1]! + dy!] as const);
  };

  test('an arrow with a triangle end has a filled head at its last point', () => {
    const document = render([element('arrow', { x: 0, y: 0, width: 100, points: [[0, 0], [100, 0]], endArrowhead: 'triangle' })]);
    const [group] = drawn(document);
    const [line, head] = Array.from(group!.children);
    assert.equal(line!.getAttribute('d'), 'M 0 0 L 100 0');
    assert.equal(head!.getAttribute('fill'), '#1e1e1e');
    const corners = pathPoints(head!, group!);
    assert.deepEqual(corners[0], [110, 10], 'the tip is the last point');
    for (const [x, y] of corners.slice(1)) {
      assert.ok(Math.abs(x - (110 - 15 * Math.cos((25 * Math.PI) / 180))) < 0.01, 'the head is 15 px long');
      assert.ok(Math.abs(Math.abs(y - 10) - 15 * Math.sin((25 * Math.PI) / 180)) < 0.01, 'and spreads 25° each side');
    }
  });

  test('a head is no longer than half its segment, as the editor shortens it', () => {
    const [group] = drawn(render([element('arrow', { width: 20, points: [[0, 0], [20, 0]], endArrowhead: 'arrow' })]));
    const [, head] = Array.from(group!.children);
    const xs = pathPoints(head!, group!).map(([x]) => x);
    assert.ok(Math.abs(Math.min(...xs) - (30 - 10 * Math.cos((20 * Math.PI) / 180))) < 0.01);
  });

  test('every arrowhead the editor offers is drawn at both ends', () => {
    for (const kind of ARROWHEADS) {
      const [group] = drawn(render([element('arrow', { width: 200, points: [[0, 0], [200, 0]], startArrowhead: kind, endArrowhead: kind })]));
      assert.equal(group!.children.length, 3, kind);
      const [start, end] = Array.from(group!.children).slice(1);
      if (kind.endsWith('_outline')) assert.equal(end!.getAttribute('fill'), '#ffffff', `${kind} is filled with the canvas colour`);
      if (kind === 'dot' || kind === 'triangle' || kind === 'diamond') assert.equal(end!.getAttribute('fill'), '#1e1e1e', kind);
      assert.notEqual(start!.outerHTML, end!.outerHTML, `${kind} points both ways`);
    }
  });

  test('a missing endArrowhead is an arrow, an explicit null is none, and lines have no heads', () => {
    const missing = element('arrow');
    delete missing.endArrowhead;
    const [withDefault, withNull, line] = drawn(render([missing, element('arrow', { y: 100, endArrowhead: null }), element('line', { y: 200, endArrowhead: 'arrow' })]));
    assert.equal(withDefault!.children.length, 2);
    assert.equal(withNull!.children.length, 1);
    assert.equal(line!.children.length, 1);
  });

  test('a rounded line through three points is a curve, a sharp one is straight, an elbow arrow rounds its corners', () => {
    const points = [[0, 0], [100, 100], [200, 0]];
    const [curved, straight, elbow] = drawn(render([
      element('line', { points, roundness: { type: 2 } }),
      element('line', { points, y: 200 }),
      element('arrow', { points: [[0, 0], [100, 0], [100, 100]], elbowed: true, roundness: null, y: 400 }),
    ])).map((node) => node.firstElementChild!.getAttribute('d')!);
    assert.match(curved!, /^M 0 0 C /);
    assert.equal(straight, 'M 0 0 L 100 100 L 200 0');
    assert.match(elbow!, /^M 0 0 L 84 0 C .* L 100 100$/);
  });

  test('a closed line with a background is filled; an open one is not', () => {
    const triangle = [[0, 0], [100, 0], [50, 80], [0, 0]];
    const [closed, open] = drawn(render([
      element('line', { points: triangle, backgroundColor: '#ffec99' }),
      element('line', { points: triangle.slice(0, 3), backgroundColor: '#ffec99', y: 200 }),
    ]));
    assert.equal(closed!.firstElementChild!.getAttribute('fill'), '#ffec99');
    assert.match(closed!.firstElementChild!.getAttribute('d')!, / Z$/);
    assert.equal(open!.firstElementChild!.getAttribute('fill'), 'none');
  });

  test('an arrow\'s bound label is masked out of its stroke and drawn after it at its own x and y', () => {
    const arrow = element('arrow', { id: 'a', x: 0, y: 0, width: 200, points: [[0, 0], [200, 0]], boundElements: [{ id: 'label', type: 'text' }] });
    const label = element('text', { id: 'label', x: 70, y: -12.5, width: 60, height: 25, text: 'calls', containerId: 'a', textAlign: 'center' });
    const document = render([label, arrow]);
    const [masked, text] = drawn(document);
    assert.equal(masked!.getAttribute('mask'), 'url(#fast-mask-1)');
    const hole = document.querySelector('#fast-mask-1 rect[fill="#000"]')!;
    assert.deepEqual(['x', 'y', 'width', 'height'].map((name) => hole.getAttribute(name)), ['80', '10', '60', '25']);
    assert.equal(text!.getAttribute('transform'), 'translate(80 10)');
    assert.equal(text!.textContent, 'calls');
  });

  test('freedraw is a round polyline through its points', () => {
    const [group] = drawn(render([element('freedraw', { points: [[0, 0], [10, 5], [20, 0]], strokeWidth: 1 })]));
    const stroke = group!.lastElementChild!;
    assert.equal(stroke.getAttribute('d'), 'M 0 0 L 10 5 L 20 0');
    assert.equal(stroke.getAttribute('stroke-linecap'), 'round');
    assert.equal(stroke.getAttribute('fill'), 'none');
  });
});

describe('text', () => {
  test('each line is a <text>, anchored by textAlign and placed as the editor places it', () => {
    const document = render([
      element('text', { x: 0, y: 0, width: 50, height: 50, text: 'ab\ncd', textAlign: 'right' }),
      element('text', { x: 0, y: 100, width: 80, height: 25, text: 'mid', textAlign: 'center' }),
      element('text', { x: 0, y: 200, width: 80, height: 25, text: 'left' }),
    ]);
    const lines = all(document, 'text');
    assert.deepEqual(lines.map((line) => line.textContent), ['ab', 'cd', 'mid', 'left']);
    assert.deepEqual(lines.map((line) => line.getAttribute('text-anchor')), ['end', 'end', 'middle', 'start']);
    assert.deepEqual(lines.map((line) => line.getAttribute('x')), ['50', '50', '40', '0']);
    // Excalifont at 20 px, line height 1.25: the editor's baselines are 17.62 and 42.62.
    assert.deepEqual(lines.slice(0, 2).map((line) => line.getAttribute('y')), ['17.62', '42.62']);
    for (const line of lines) {
      assert.equal(line.getAttribute('font-size'), '20px');
      assert.equal(line.getAttribute('fill'), '#1e1e1e');
      assert.equal(line.getAttribute('xml:space'), 'preserve');
    }
  });

  test('code fonts use the monospace stack, every other family the sans stack', () => {
    const families = [1, 2, 3, 5, 6, 7, 8, 9, 42];
    const document = render(families.map((fontFamily, i) => element('text', { y: i * 30, fontFamily, text: `f${fontFamily}` })));
    const stacks = all(document, 'text').map((line) => line.getAttribute('font-family'));
    assert.deepEqual(stacks, families.map((id) => (id === 3 || id === 8 ? MONOSPACE_STACK : SANS_STACK)));
  });

  test('a shape\'s label is drawn right after its shape, whatever the stored order', () => {
    const document = render([
      element('text', { id: 't', x: 20, y: 12, text: 'Label', containerId: 'box' }),
      element('rectangle', { id: 'other', x: 300 }),
      element('rectangle', { id: 'box', boundElements: [{ id: 't', type: 'text' }] }),
    ]);
    assert.deepEqual(drawn(document).map((node) => node.localName), ['rect', 'rect', 'g']);
    assert.equal(drawn(document)[2]!.getAttribute('transform'), 'translate(30 22)');
  });

  test('whitespace inside a line is kept', () => {
    const [line] = all(render([element('text', { text: '  two  spaces' })]), 'text');
    assert.equal(line!.textContent, '  two  spaces');
  });
});

describe('images, embeds and frames', () => {
  test('an image is a grey dashed placeholder with a picture glyph, never an <image> or a reference', () => {
    const svg = renderFastSvg([element('image', { fileId: 'https://evil.example/x.png', width: 120, height: 90, status: 'saved' })]);
    const [group] = drawn(parse(svg));
    const [box, ...glyph] = Array.from(group!.children);
    assert.equal(box!.getAttribute('fill'), '#f1f3f5');
    assert.ok(box!.getAttribute('stroke-dasharray'));
    assert.ok(glyph.length >= 2);
    assert.doesNotMatch(svg, /<image|href|evil/);
  });

  test('an embed shows its link as plain text in the placeholder', () => {
    const svg = renderFastSvg([element('embeddable', { width: 300, height: 150, link: 'https://example.com/video' })]);
    const document = parse(svg);
    assert.equal(all(document, 'text').map((line) => line.textContent).join(''), 'https://example.com/video');
    assert.equal(document.querySelector('rect[fill="#f1f3f5"]') !== null, true);
    assert.doesNotMatch(svg, /href|<a[\s>]/);
  });

  test('a frame is a rounded grey outline named above its corner, and its children are clipped to it', () => {
    const document = render([
      element('frame', { id: 'f', x: 0, y: 0, width: 300, height: 200, name: 'Checkout' }),
      element('ellipse', { x: 250, y: 150, width: 100, height: 100, frameId: 'f' }),
      element('magicframe', { x: 400, y: 0, width: 300, height: 200, name: null }),
    ]);
    const [name, outline, clipped, magicName] = drawn(document);
    assert.equal(name!.textContent, 'Checkout');
    assert.equal(name!.firstElementChild!.getAttribute('fill'), '#999999');
    assert.equal(name!.firstElementChild!.getAttribute('font-size'), '14px');
    assert.equal(outline!.getAttribute('rx'), '8');
    assert.equal(outline!.getAttribute('stroke'), '#bbb');
    assert.equal(clipped!.getAttribute('clip-path'), 'url(#fast-clip-1)');
    assert.equal(document.querySelector('#fast-clip-1 rect')!.getAttribute('width'), '300');
    assert.equal(magicName!.textContent, 'AI Frame');
    // The name sits 3 px above the frame: 14 px × 1.25 tall, so the scene starts 20.5 px above it.
    assert.deepEqual(sceneBounds([element('frame', { x: 0, y: 0, width: 300, height: 200 })]), [0, -20.5, 300, 200]);
  });
});

describe('the scene', () => {
  test('deleted elements and unknown types are skipped', () => {
    const document = render([element('rectangle', { isDeleted: true, x: 500 }), element('hexagon'), element('selection'), element('ellipse')]);
    assert.deepEqual(drawn(document).map((node) => node.localName), ['ellipse']);
    assert.equal(document.documentElement.getAttribute('viewBox'), '0 0 120 70', 'nor count towards the bounds');
  });

  test('elements are drawn in fractional index order when every element has one, else in stored order', () => {
    const [a, b, c] = [element('rectangle', { index: 'a2' }), element('ellipse', { index: 'a0' }), element('diamond', { index: 'a1' })];
    assert.deepEqual(drawn(render([a, b, c])).map((node) => node.localName), ['ellipse', 'path', 'rect']);
    assert.deepEqual(drawn(render([a, b, { ...c, index: null }])).map((node) => node.localName), ['rect', 'ellipse', 'path']);
  });

  test('the same scene always gives the same bytes', () => {
    const scene = [
      element('rectangle', { backgroundColor: '#a5d8ff', fillStyle: 'hachure', angle: 0.3 }),
      element('arrow', { y: 100, points: [[0, 0], [50, 50], [100, 0]], roundness: { type: 2 }, startArrowhead: 'diamond' }),
      element('text', { y: 200, text: 'same\nbytes' }),
      element('frame', { id: 'f', x: 300, width: 200, height: 200 }),
      element('ellipse', { x: 350, backgroundColor: '#b2f2bb', fillStyle: 'cross-hatch', frameId: 'f' }),
    ];
    assert.equal(renderFastSvg(scene), renderFastSvg(structuredClone(scene)));
  });

  test('a generated scene renders, parses, and shows every label', () => {
    const spec = parseSpec(
      {
        nodes: [
          { id: 'user', label: 'User', shape: 'ellipse', icon: 'icon-user' },
          { id: 'api', label: 'API gateway with a long name that wraps', backgroundColor: '#a5d8ff', fillStyle: 'hachure' },
          { id: 'ok', label: 'Authorised?', shape: 'diamond' },
          { id: 'db', label: 'Orders DB' },
          { id: 'note', label: 'A free-standing note', shape: 'text' },
        ],
        edges: ['user -> api : request', { from: 'api', to: 'ok', arrowhead: 'triangle', startArrowhead: 'dot', style: 'dotted' }, 'ok -> db : yes', 'db -- note'],
      },
      { isIcon: isCatalogIcon },
    );
    const scene = sceneFromSpec(spec, { updated: 1, layout: layoutGraph });
    const svg = renderFastSvg(scene);
    assert.deepEqual(forbiddenMarkup(svg), []);
    const shown = all(parse(svg), 'text').map((line) => line.textContent);
    for (const text of scene.filter((e) => e.type === 'text').map((e) => e.text as string)) {
      for (const line of text.split('\n')) assert.ok(shown.includes(line), `label line ${JSON.stringify(line)}`);
    }
  });
});

describe('safety', () => {
  const HOSTILE_TEXT = ['</text><script>alert(1)</script>', '"><svg onload=alert(1)>', "'><foreignObject><a href=\"javascript:alert(1)\">x</a></foreignObject>", '&amp; <![CDATA[ x ]]> <!-- c -->', 'a\u0000b\u0007c\uD800d'];

  test('hostile labels and frame names are inert text', () => {
    for (const hostile of HOSTILE_TEXT) {
      const svg = renderFastSvg([
        element('rectangle', { id: 'box', boundElements: [{ id: 'label', type: 'text' }] }),
        element('text', { id: 'label', text: hostile, containerId: 'box' }),
        element('frame', { x: 200, width: 5000, name: hostile }),
        element('embeddable', { x: 200, y: 300, link: hostile }),
      ]);
      assert.deepEqual(forbiddenMarkup(svg), [], hostile);
      const shown = all(parse(svg), 'text').map((line) => line.textContent);
      const printable = hostile.replace(/[\u0000-\u0008]|[\uD800-\uDFFF]/g, '\uFFFD');
      assert.ok(shown.filter((line) => line === printable).length >= 2, `the label and the frame name show ${JSON.stringify(hostile)} as written`);
    }
  });

  test('hostile colours fall back to the defaults', () => {
    const colours = ['red" onload="x', 'url(http://evil.example)', 'javascript:alert(1)', 'expression(alert(1))', 'rgb(1,2,3);x:url(http://evil.example)', '#fff" /><script>', 'red;background:url(http://evil.example)'];
    for (const colour of colours) {
      const svg = renderFastSvg(
        [
          element('rectangle', { strokeColor: colour, backgroundColor: colour, fillStyle: 'hachure' }),
          element('text', { y: 100, strokeColor: colour }),
          element('arrow', { y: 200, strokeColor: colour, endArrowhead: 'triangle_outline' }),
        ],
        { background: colour },
      );
      assert.deepEqual(forbiddenMarkup(svg), [], colour);
      assert.doesNotMatch(svg, /onload|evil|javascript:|expression|<script/i, colour);
      const document = parse(svg);
      assert.equal(document.documentElement.firstElementChild!.getAttribute('fill'), '#ffffff');
      assert.ok(all(document, '[stroke]').every((node) => ['#1e1e1e', '#adb5bd', 'none'].includes(node.getAttribute('stroke')!)), colour);
    }
  });

  test('safe colours of every form pass through', () => {
    for (const colour of ['#abc', '#a1b2c3d4', 'rgb(1, 2, 3)', 'rgba(1 2 3 / 50%)', 'hsl(120deg, 50%, 40%)', 'teal']) {
      const [rect] = drawn(render([element('rectangle', { strokeColor: colour })]));
      assert.equal(rect!.getAttribute('stroke'), colour);
    }
  });

  test('hostile ids, frame ids, container ids and links never reach the markup', () => {
    const id = '"><script>alert(1)</script><x y="';
    const svg = renderFastSvg([
      element('frame', { id, name: 'f' }),
      element('rectangle', { id: `${id}2`, frameId: id, link: 'javascript:alert(1)', boundElements: [{ id: `${id}3`, type: 'text' }] }),
      element('text', { id: `${id}3`, containerId: `${id}2`, text: 'ok' }),
      element('embeddable', { id: `${id}4`, y: 100, link: 'javascript:alert(1)' }),
      element('embeddable', { y: 300, link: ' java\tscript:alert(1)' }),
      element('image', { id: `${id}5`, y: 200, link: 'https://evil.example', fileId: id }),
    ]);
    assert.deepEqual(forbiddenMarkup(svg), []);
    assert.doesNotMatch(svg, /script|javascript:|href|evil|onload/i);
    assert.equal(svg.match(/about:blank/g)?.length, 2, 'a script link is shown as the editor\'s restore leaves it');
  });

  test('odd data never throws and always yields well-formed, inert SVG', () => {
    const hostileString = fc.constantFrom(...HOSTILE_TEXT, 'red" onload="x', 'url(#x)', '', 'transparent', '#fff', 'a0', 'f');
    const number = fc.oneof(fc.double(), fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e308, -1e308, 5e-324));
    const anyValue = fc.oneof(number, hostileString, fc.boolean(), fc.constant(null), fc.anything({ maxDepth: 2 }));
    const point = fc.oneof(fc.tuple(number, number), fc.array(anyValue, { maxLength: 3 }), anyValue);
    const arbitraryElement = fc.record(
      {
        id: fc.oneof(hostileString, anyValue),
        type: fc.oneof(fc.constantFrom('rectangle', 'diamond', 'ellipse', 'line', 'arrow', 'freedraw', 'text', 'image', 'frame', 'magicframe', 'embeddable', 'iframe', 'selection', 'toString'), anyValue),
        x: fc.oneof(number, anyValue),
        y: number,
        width: number,
        height: number,
        angle: number,
        strokeColor: fc.oneof(hostileString, anyValue),
        backgroundColor: fc.oneof(hostileString, anyValue),
        fillStyle: fc.oneof(fc.constantFrom('solid', 'hachure', 'cross-hatch', 'zigzag'), anyValue),
        strokeWidth: number,
        strokeStyle: fc.oneof(fc.constantFrom('solid', 'dashed', 'dotted'), anyValue),
        opacity: number,
        roundness: fc.oneof(fc.constant(null), fc.record({ type: fc.oneof(fc.constantFrom(1, 2, 3), anyValue), value: number }), anyValue),
        points: fc.oneof(fc.array(point, { maxLength: 6 }), fc.array(fc.tuple(number, number), { minLength: 2, maxLength: 6 }), anyValue),
        elbowed: fc.oneof(fc.boolean(), anyValue),
        startArrowhead: fc.oneof(fc.constantFrom(...ARROWHEADS), anyValue),
        endArrowhead: fc.oneof(fc.constantFrom(...ARROWHEADS), anyValue),
        text: fc.oneof(hostileString, fc.string(), anyValue),
        fontSize: number,
        fontFamily: fc.oneof(fc.constantFrom(1, 2, 3, 5, 6, 7, 8, 9), anyValue),
        lineHeight: number,
        textAlign: fc.oneof(fc.constantFrom('left', 'center', 'right'), anyValue),
        containerId: fc.oneof(hostileString, anyValue),
        frameId: fc.oneof(hostileString, anyValue),
        index: fc.oneof(fc.constantFrom('a0', 'a1', 'Zz'), anyValue),
        name: fc.oneof(hostileString, anyValue),
        link: fc.oneof(hostileString, anyValue),
        isDeleted: fc.oneof(fc.boolean(), anyValue),
      },
      { requiredKeys: [] },
    );
    const scene = fc.array(fc.oneof({ weight: 8, arbitrary: arbitraryElement }, { weight: 1, arbitrary: anyValue }), { maxLength: 8 });
    const options = fc.record({ background: fc.oneof(hostileString, anyValue), padding: number }, { requiredKeys: [] });
    fc.assert(
      fc.property(scene, options, (elements, renderOptions) => {
        const svg = renderFastSvg(elements as Raw[], renderOptions as Parameters<typeof renderFastSvg>[1]);
        assert.deepEqual(forbiddenMarkup(svg), []);
        assert.equal(svg, renderFastSvg(elements as Raw[], renderOptions as Parameters<typeof renderFastSvg>[1]), 'deterministic');
        const bounds = sceneBounds(elements as Raw[]);
        assert.ok(bounds === null || bounds.every(Number.isFinite), `${bounds}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('images', () => {
  test('an image is a placeholder unless the caller supplies its data, and then it is drawn from that data only', () => {
    const picture = element('image', { x: 0, y: 0, width: 64, height: 64, fileId: 'icon-server' });
    const unknown = element('image', { x: 100, y: 0, width: 64, height: 64, fileId: 'http://evil.example/x.png' });
    const plain = renderFastSvg([picture, unknown]);
    assert.doesNotMatch(plain, /<image/);
    const data = 'data:image/svg+xml;base64,PHN2Zy8+';
    const drawn = render([picture, unknown], { imageData: (fileId) => (fileId === 'icon-server' ? data : undefined) });
    const images = [...drawn.getElementsByTagName('image')];
    assert.equal(images.length, 1, 'only the image whose data was supplied');
    assert.equal(images[0]!.getAttribute('href'), data);
    assert.equal(images[0]!.getAttribute('width'), '64');
  });
});
