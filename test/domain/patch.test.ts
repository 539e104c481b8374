import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { SceneElement, WriteStamp } from '../../src/domain/edit/types.ts';
import { ApiError } from '../../src/errors.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { type applyPatch, MAX_PATCH_OPS } from '../../src/domain/patch/apply.ts';
import { patchAsServed } from '../helpers/content.ts';
import { Draft, MAX_ROUTED_POINTS, RoutingExhausted } from '../../src/domain/patch/draft.ts';
import { BINDING_GAP, isIndexKey } from '../../src/domain/scene/elements.ts';
import { ICON_GAP } from '../../src/domain/scene/node-plan.ts';
import { boundTextArea } from '../../src/domain/scene/factory.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { rayHitsOutline } from '../../src/domain/scene/geometry.ts';
import { MAX_SCENE_ELEMENTS } from '../../src/domain/scene/validate.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { getBoundTextMaxWidth, wrapText } from '../../src/domain/text/metrics.ts';
import { assertLabelAsTheEditorDrawsIt, assertSurvivesRestore, loadExcalidraw } from '../helpers/excalidraw.ts';

type El = SceneElement & Record<string, any>;
type Point = [number, number];

const options = { isIcon: isCatalogIcon };

function build(spec: unknown): El[] {
  return sceneFromSpec(parseSpec(spec, options), { updated: 1, layout: layoutGraph }) as El[];
}

function stampFrom(seed = 1): WriteStamp {
  let n = seed;
  return { now: 1_750_000_000_000, nonce: () => (n = (Math.imul(n, 48271) + 11) >>> 1 || 1) };
}

/** api → db (labelled "writes"), api → cache, a self-loop on cache, an ellipse db, an icon on cache. */
const SPEC = {
  nodes: [
    { id: 'api', label: 'API server' },
    { id: 'db', label: 'Orders DB', shape: 'ellipse' },
    { id: 'cache', label: 'Cache', shape: 'diamond', icon: 'icon-server' },
    { id: 'note', label: 'a note', shape: 'text' },
  ],
  edges: ['api -> db : writes', 'api -> cache', 'cache -> cache', 'note -> api'],
};

const patch = (elements: El[], ops: unknown[]) => {
  const result = patchAsServed(elements, ops, stampFrom(), options);
  return { ...result, elements: result.elements as El[], byId: (id: string) => result.elements.find((e) => e.id === id) as El | undefined };
};

function find(elements: El[], id: string): El {
  const element = elements.find((e) => e.id === id);
  assert.ok(element, `element ${id} exists`);
  return element;
}

function absolute(arrow: El): Point[] {
  return arrow.points.map((p: Point) => [arrow.x + p[0], arrow.y + p[1]]);
}

function assertThrowsCode(run: () => unknown, code: string, message?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError, `an ApiError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

/** Distance from a bound arrow end to its shape's outline, along the end segment. */
function gapAlongEnd(arrow: El, end: 'start' | 'end', shape: El): number {
  const pts = absolute(arrow);
  const tip = end === 'start' ? pts[0]! : pts[pts.length - 1]!;
  const neighbour = end === 'start' ? pts[1]! : pts[pts.length - 2]!;
  const hit = rayHitsOutline(neighbour, tip, { type: shape.type, x: shape.x, y: shape.y, width: shape.width, height: shape.height, rounded: shape.roundness != null });
  assert.ok(hit, `${arrow.id} ${end} points at ${shape.id}`);
  return Math.hypot(hit[0] - tip[0], hit[1] - tip[1]);
}

const boxOf = (e: El) => ({ x: e.x, y: e.y, width: e.width, height: e.height });

function isOrthogonal(arrow: El): boolean {
  const pts: Point[] = arrow.points;
  return pts.slice(1).every((p, i) => Math.abs(p[0] - pts[i]![0]) < 1e-6 || Math.abs(p[1] - pts[i]![1]) < 1e-6);
}

/**
 * Every rule a patched scene keeps: unique ids; bindings naming live elements
 * and mirrored in boundElements both ways; labels whose containers list them;
 * linear elements normalised as the editor's restore expects.
 */
function assertConsistent(elements: El[]): void {
  const byId = new Map<string, El>();
  for (const e of elements) {
    assert.ok(!byId.has(e.id), `id ${e.id} is unique`);
    byId.set(e.id, e);
  }
  for (const e of elements) {
    const refs: Array<{ id: string; type: string }> = e.boundElements ?? [];
    assert.equal(new Set(refs.map((r) => r.id)).size, refs.length, `${e.id}.boundElements has no repeats`);
    for (const ref of refs) {
      const other = byId.get(ref.id);
      assert.ok(other, `${e.id}.boundElements names ${ref.id}, which exists`);
      if (ref.type === 'arrow') assert.ok(other.startBinding?.elementId === e.id || other.endBinding?.elementId === e.id, `${ref.id} binds to ${e.id}, which lists it`);
      else assert.equal(other.containerId, e.id, `${ref.id} is the label of ${e.id}, which lists it`);
    }
    if (e.type === 'text' && e.containerId !== null) {
      const container = byId.get(e.containerId);
      assert.ok(container, `${e.id}'s container ${e.containerId} exists`);
      assert.ok(container.boundElements.some((r: any) => r.id === e.id && r.type === 'text'), `${e.containerId} lists its label ${e.id}`);
    }
    if (e.type === 'arrow' || e.type === 'line') {
      assert.deepEqual(e.points[0], [0, 0], `${e.id} starts at [0, 0]`);
      const xs = e.points.map((p: Point) => p[0]);
      const ys = e.points.map((p: Point) => p[1]);
      assert.equal(e.width, Math.max(...xs) - Math.min(...xs), `${e.id}.width is its points' extent`);
      assert.equal(e.height, Math.max(...ys) - Math.min(...ys), `${e.id}.height is its points' extent`);
      for (const end of ['start', 'end'] as const) {
        const binding = e[`${end}Binding`];
        if (!binding) continue;
        const target = byId.get(binding.elementId);
        assert.ok(target, `${e.id}.${end}Binding names ${binding.elementId}, which exists`);
        assert.ok(target.boundElements.some((r: any) => r.id === e.id && r.type === 'arrow'), `${binding.elementId} lists the arrow ${e.id} bound to it`);
        assert.ok(binding.focus >= -1 && binding.focus <= 1, `${e.id}.${end}Binding.focus in [-1, 1]`);
      }
    }
  }
}

describe('add', () => {
  test('a terse rectangle gets the editor’s defaults, a fresh id, version 1 and an index after every other', () => {
    const scene = build(SPEC);
    const { elements } = patch(scene, [{ op: 'add', element: { type: 'rectangle', x: 900, y: 40 } }]);
    const added = elements[elements.length - 1]!;
    assert.equal(elements.length, scene.length + 1);
    assert.match(added.id, /^[\w-]{21}$/);
    assert.ok(!scene.some((e) => e.id === added.id));
    assert.deepEqual(
      { x: added.x, y: added.y, width: added.width, height: added.height, strokeColor: added.strokeColor, backgroundColor: added.backgroundColor, roundness: added.roundness, version: added.version, isDeleted: added.isDeleted, boundElements: added.boundElements },
      { x: 900, y: 40, width: 160, height: 70, strokeColor: '#1e1e1e', backgroundColor: 'transparent', roundness: { type: 3 }, version: 1, isDeleted: false, boundElements: [] },
    );
    assert.ok(scene.every((e) => (e.index as string) < added.index), 'the new index sorts after every existing one');
    assert.equal(added.updated, 1_750_000_000_000);
  });

  test('an element added where one was just deleted gets an index apart from the one the deleted element had', () => {
    const scene = build(SPEC);
    const added = (ids: string[], from: SceneElement[]) => patch(from, ids.map((id) => ({ op: 'add' as const, element: { type: 'rectangle' as const, id, x: 900, y: 40 } }))).elements;
    const withOld = added(['old'], scene);
    const old = withOld.at(-1)!;
    // The store keeps no tombstone of it; an open editor does, at old.index.
    const withoutOld = patch(withOld, [{ op: 'delete', id: 'old' }]).elements;
    assert.ok(!withoutOld.some((e) => e.id === 'old'));
    const [fresh, next] = added(['fresh', 'next'], withoutOld).slice(-2);
    assert.notEqual(fresh!.index, old.index, 'the next element does not take the deleted one\'s index');
    for (const element of [old, fresh!, next!]) assert.ok(isIndexKey(element.index), `${element.index} is a key the editor accepts`);
    assert.ok(withoutOld.every((e) => (e.index as string) < fresh!.index && fresh!.index < next!.index), 'appended elements still sort last, in order');
    // The same id comes back at the same index.
    assert.equal(added(['old'], withoutOld).at(-1)!.index, old.index);
  });

  test('a terse text is measured; a text with a containerId becomes that shape’s centred, wrapped label', async () => {
    const scene = build(SPEC);
    const { elements, byId } = patch(scene, [
      { op: 'add', element: { type: 'rectangle', id: 'box', x: 900, y: 0, width: 120, height: 60 } },
      { op: 'add', element: { type: 'text', id: 'box-label', containerId: 'box', text: 'a label long enough to wrap twice over' } },
      { op: 'add', element: { type: 'text', id: 'free', text: 'hello', x: 5, y: 6 } },
    ]);
    const free = byId('free')!;
    assert.deepEqual([free.fontSize, free.fontFamily, free.lineHeight, free.textAlign, free.verticalAlign, free.containerId, free.originalText, free.autoResize], [20, 5, 1.25, 'left', 'top', null, 'hello', true]);
    assert.ok(free.width > 0 && free.height === 25);
    const box = byId('box')!;
    const label = byId('box-label')!;
    assert.deepEqual(box.boundElements, [{ id: 'box-label', type: 'text' }]);
    assert.equal(label.text, wrapText(label.originalText, 20, getBoundTextMaxWidth('rectangle', box.width)));
    assert.ok(label.text.includes('\n'), 'the label wrapped');
    assert.ok(box.height >= label.height + 10, 'the box grew to hold the label, as the editor grows it');
    assert.equal(label.x + label.width / 2, box.x + box.width / 2);
    assert.equal([label.textAlign, label.verticalAlign].join(), 'center,middle');
    assertConsistent(elements);
    await assertSurvivesRestore(elements);
  });

  test('an arrow bound at both ends without points runs between the shapes, ends on their outlines, and both list it', async () => {
    const scene = build(SPEC);
    const { elements, byId } = patch(scene, [
      { op: 'add', element: { type: 'rectangle', id: 'far', x: 900, y: 400 } },
      { op: 'add', element: { type: 'arrow', id: 'api-to-far', startBinding: { elementId: 'api' }, endBinding: { elementId: 'far' } } },
      { op: 'add', element: { type: 'text', id: 'api-to-far-label', containerId: 'api-to-far', text: 'syncs' } },
    ]);
    const arrow = byId('api-to-far')!;
    assert.deepEqual([arrow.startArrowhead, arrow.endArrowhead, arrow.elbowed], [null, 'arrow', false]);
    assert.ok(byId('api')!.boundElements.some((r: any) => r.id === 'api-to-far'));
    assert.deepEqual(byId('far')!.boundElements, [{ id: 'api-to-far', type: 'arrow' }]);
    assert.ok(Math.abs(gapAlongEnd(arrow, 'start', byId('api')!) - BINDING_GAP) < 0.05);
    assert.ok(Math.abs(gapAlongEnd(arrow, 'end', byId('far')!) - BINDING_GAP) < 0.05);
    const label = byId('api-to-far-label')!;
    const [a, b] = absolute(arrow);
    assert.ok(Math.abs(label.x + label.width / 2 - (a![0] + b![0]) / 2) < 1e-9, 'the label sits on the middle of the arrow');
    assertConsistent(elements);
    await assertSurvivesRestore(elements);
  });

  test('an existing id, an unknown type, a field the type lacks or a missing container are refused, naming the op', () => {
    const scene = build(SPEC);
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'rectangle', id: 'api' } }]), 'INVALID_SPEC', /^ops\[0\]: .*"api" already exists/);
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'hexagon' } }]), 'INVALID_SPEC', /^ops\[0\]: element\.type must be one of/);
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'rectangle', label: 'x' } }]), 'INVALID_SPEC', /label is a text element of its own/);
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'text', text: 'x', containerId: 'nope' } }]), 'INVALID_SPEC', /names no element/);
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'text', text: 'x', containerId: 'api' } }]), 'INVALID_SPEC', /already has a label/);
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'text', text: '' } }]), 'INVALID_SPEC', /element\.text must be a non-empty string/);
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'arrow', startBinding: { elementId: 'api' } } }]), 'INVALID_SPEC', /needs "points"/);
  });
});

describe('update', () => {
  test('sets plain fields; a label’s new text is re-wrapped and re-centred in its container', async () => {
    const scene = build(SPEC);
    const { elements, byId } = patch(scene, [
      { op: 'update', id: 'db', set: { strokeColor: '#c92a2a', link: 'https://example.com/db', customData: { owner: 'ops' } } },
      { op: 'update', id: 'api-label', set: { text: 'API server, now with a much longer name' } },
    ]);
    assert.deepEqual([byId('db')!.strokeColor, byId('db')!.link, byId('db')!.customData], ['#c92a2a', 'https://example.com/db', { owner: 'ops' }]);
    const api = byId('api')!;
    const label = byId('api-label')!;
    assert.equal(label.originalText, 'API server, now with a much longer name');
    assert.equal(label.text, wrapText(label.originalText, 20, getBoundTextMaxWidth('rectangle', api.width)));
    assert.equal(label.x + label.width / 2, api.x + api.width / 2);
    assertConsistent(elements);
    await assertSurvivesRestore(elements);
  });

  test('a label’s new text grows its shape as the editor grows it', async () => {
    const scene = build(SPEC);
    const text = 'API server\nwith\nfour lines';
    const { elements, byId } = patch(scene, [{ op: 'update', id: 'api-label', set: { text } }]);
    const [api, label, old] = [byId('api')!, byId('api-label')!, find(scene, 'api')];
    assert.ok(api.height > old.height, 'the shape grew');
    // The editor, given the shape as it was and the new text, grows it to the same size and draws the same label.
    const excalidraw = await loadExcalidraw();
    const [drawnShape, drawn] = excalidraw.convertToExcalidrawElements([{ id: 'api', type: 'rectangle', x: old.x, y: old.y, width: old.width, height: old.height, label: { text } }], { regenerateIds: false });
    assert.deepEqual([api.width, api.height], [drawnShape.width, drawnShape.height]);
    assert.deepEqual([label.text, label.x, label.y, label.width, label.height], [drawn.text, drawn.x, drawn.y, drawn.width, drawn.height]);
    assertConsistent(elements);
    await assertSurvivesRestore(elements, { refreshDimensions: true });
  });

  for (const shape of ['rectangle', 'ellipse', 'diamond'] as const) {
    test(`a label’s new text never covers its shape’s icon: the ${shape} grows until both fit and the icon sits above the label`, async () => {
      const scene = build({ nodes: [{ id: 'user', label: 'User', shape, icon: 'icon-user' }, { id: 'api' }], edges: ['user -> api'] });
      const { elements, byId } = patch(scene, [{ op: 'update', id: 'user-label', set: { text: 'Administrators and operators of the platform' } }]);
      const [node, label, icon] = [byId('user')!, byId('user-label')!, byId('user-icon')!];
      assert.ok(node.height > find(scene, 'user').height, 'the shape grew');
      assert.ok(label.y >= icon.y + icon.height + ICON_GAP - 1e-9, `the label (top ${label.y}) is below the icon (bottom ${icon.y + icon.height}), ${ICON_GAP} px clear`);
      const area = boundTextArea(shape, boxOf(node));
      assert.ok(icon.y >= area.y - 1e-9 && label.y + label.height <= area.y + area.height + 1e-9, 'icon and label are inside the text area');
      assert.equal(icon.x + icon.width / 2, node.x + node.width / 2, 'the icon stays centred');
      await assertLabelAsTheEditorDrawsIt(node, label);
      assert.ok(Math.abs(gapAlongEnd(byId('user-to-api')!, 'start', node) - BINDING_GAP) < 0.05, 'the arrow is re-attached to the grown outline');
      assertConsistent(elements);
      await assertSurvivesRestore(elements, { refreshDimensions: true });
    });
  }

  test('a label’s new text that stays clear of the icon moves neither the icon nor the shape', () => {
    const scene = build(SPEC);
    const { byId } = patch(scene, [{ op: 'update', id: 'cache-label', set: { text: 'Redis' } }]);
    assert.equal(byId('cache-icon'), find(scene, 'cache-icon'));
    assert.deepEqual([byId('cache')!.width, byId('cache')!.height], [find(scene, 'cache').width, find(scene, 'cache').height]);
  });

  test('id, type, the binding fields and the server’s fields are refused with the field named', () => {
    const scene = build(SPEC);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: { id: 'x' } }]), 'INVALID_SPEC', /^ops\[0\]: set\.id cannot be changed/);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: { type: 'ellipse' } }]), 'INVALID_SPEC', /^ops\[0\]: set\.type cannot be changed/);
    for (const field of ['startBinding', 'endBinding']) assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api-to-db', set: { [field]: null } }]), 'INVALID_SPEC', new RegExp(`set\\.${field} cannot be changed by update`));
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api-label', set: { containerId: null } }]), 'INVALID_SPEC', /set\.containerId cannot be changed by update/);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: { boundElements: [] } }]), 'INVALID_SPEC', /set\.boundElements cannot be changed by update/);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: { version: 9 } }]), 'INVALID_SPEC', /set\.version is kept by the server/);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: { opacity: 'half' } }]), 'INVALID_SPEC', /set\.opacity must be a number from 0 to 100/);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: { fontSize: 30 } }]), 'INVALID_SPEC', /set\.fontSize is not a field of a rectangle/);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: {} }]), 'INVALID_SPEC', /"set" must be an object with at least one field/);
  });

  test('x and y of a shape move it as a move op does, label and arrows included', () => {
    const scene = build(SPEC);
    const viaUpdate = patch(scene, [{ op: 'update', id: 'db', set: { x: find(scene, 'db').x + 25 } }]).elements;
    const viaMove = patch(scene, [{ op: 'move', id: 'db', dx: 25, dy: 0 }]).elements;
    assert.deepEqual(viaUpdate, viaMove);
  });
});

describe('move', () => {
  test('a shape carries its label by the same delta and its arrows stay bound, re-attached to its outline', async () => {
    const scene = build(SPEC);
    const { elements, byId } = patch(scene, [{ op: 'move', id: 'db', dx: 40, dy: 30 }]);
    const db = byId('db')!;
    assert.deepEqual([db.x, db.y], [find(scene, 'db').x + 40, find(scene, 'db').y + 30]);
    const label = byId('db-label')!;
    assert.deepEqual([label.x, label.y], [find(scene, 'db-label').x + 40, find(scene, 'db-label').y + 30]);
    const arrow = byId('api-to-db')!;
    assert.equal(arrow.endBinding.elementId, 'db');
    assert.equal(arrow.startBinding.elementId, 'api');
    assert.ok(Math.abs(gapAlongEnd(arrow, 'end', db) - BINDING_GAP) < 0.05, 'the moved end sits the binding gap off the new outline');
    assert.ok(Math.abs(gapAlongEnd(arrow, 'start', byId('api')!) - BINDING_GAP) < 0.05, 'the other end stays on its shape');
    assert.ok(isOrthogonal(arrow), 'an orthogonal route stays orthogonal');
    const arrowLabel = byId('api-to-db-label')!;
    const pts = absolute(arrow);
    const middle = pts.length % 2 ? pts[(pts.length - 1) / 2]! : pts.slice(pts.length / 2 - 1, pts.length / 2 + 1).reduce((a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    assert.ok(Math.abs(arrowLabel.x + arrowLabel.width / 2 - middle[0]) < 1e-9 && Math.abs(arrowLabel.y + arrowLabel.height / 2 - middle[1]) < 1e-9, 'the arrow label is centred on the middle point');
    assertConsistent(elements);
    await assertSurvivesRestore(elements);
  });

  test('a straight arrow whose shape moves out of its line is re-routed as an orthogonal Z, still bound', async () => {
    const scene = build({ layout: { direction: 'LR' }, nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] });
    assert.equal(find(scene, 'a-to-b').points.length, 2, 'the layout draws a straight arrow');
    const { elements, byId } = patch(scene, [{ op: 'move', id: 'b', dx: 40, dy: 240 }]);
    const arrow = byId('a-to-b')!;
    assert.equal(arrow.points.length, 4);
    assert.ok(isOrthogonal(arrow));
    assert.deepEqual([arrow.startBinding.focus, arrow.endBinding.focus], [find(scene, 'a-to-b').startBinding.focus, 0]);
    assert.ok(Math.abs(gapAlongEnd(arrow, 'start', byId('a')!) - BINDING_GAP) < 0.05);
    assert.ok(Math.abs(gapAlongEnd(arrow, 'end', byId('b')!) - BINDING_GAP) < 0.05);
    assertConsistent(elements);
    await assertSurvivesRestore(elements);
  });

  test('x/y is absolute, dx/dy relative, and exactly one form is accepted', () => {
    const scene = build(SPEC);
    const api = find(scene, 'api');
    const absoluteMove = patch(scene, [{ op: 'move', id: 'api', x: api.x - 10, y: api.y + 5 }]).elements;
    const relativeMove = patch(scene, [{ op: 'move', id: 'api', dx: -10, dy: 5 }]).elements;
    assert.deepEqual(absoluteMove, relativeMove);
    assertThrowsCode(() => patch(scene, [{ op: 'move', id: 'api', x: 1, y: 2, dx: 3, dy: 4 }]), 'INVALID_SPEC', /either "x" and "y" or "dx" and "dy"/);
    assertThrowsCode(() => patch(scene, [{ op: 'move', id: 'api', dx: 3 }]), 'INVALID_SPEC', /"dy" must be a finite number/);
  });

  test('a run of moves of one shape lands where one move of their sum does, and re-routes its arrows once', () => {
    const scene = build(SPEC);
    const nudges = Array.from({ length: 400 }, (_, i) => ({ op: 'move', id: 'api', dx: i % 2 ? 3 : -1, dy: 1 }));
    const many = patch(scene, nudges);
    const once = patch(scene, [{ op: 'move', id: 'api', dx: 400, dy: 400 }]);
    assert.equal(many.applied, 400);
    assert.deepEqual(many.elements, once.elements);
  });

  test('a move that would take a coordinate past the largest number is refused, naming the op, and nothing changes', () => {
    const scene = build(SPEC);
    const before = JSON.stringify(scene);
    assertThrowsCode(
      () => patch(scene, [{ op: 'move', id: 'api', dx: 1e308, dy: 0 }, { op: 'restyle', id: 'db', strokeColor: '#ff0000' }, { op: 'move', id: 'api', dx: 1e308, dy: 0 }]),
      'INVALID_SPEC',
      /^ops\[\d\]: this would put "[^"]+" out of range/,
    );
    assertThrowsCode(() => patch(scene, [{ op: 'resize', id: 'db', width: 1e308, height: 50 }, { op: 'resize', id: 'db', width: 1.7e308, height: 50 }, { op: 'move', id: 'db', dx: 1.7e308, dy: 0 }]), 'INVALID_SPEC', /out of range/);
    assert.equal(JSON.stringify(scene), before);
  });

  test('a patch that would re-route more arrow points than the allowance is refused, naming the op where it ran out', () => {
    const draft = new Draft([]);
    draft.spendRouting(MAX_ROUTED_POINTS);
    assert.throws(() => draft.spendRouting(1), RoutingExhausted);
  });

  test('a shape with an icon carries the icon; a self-loop moves whole', () => {
    const scene = build(SPEC);
    const { byId } = patch(scene, [{ op: 'move', id: 'cache', dx: -15, dy: 60 }]);
    assert.deepEqual([byId('cache-icon')!.x, byId('cache-icon')!.y], [find(scene, 'cache-icon').x - 15, find(scene, 'cache-icon').y + 60]);
    const loop = byId('cache-to-cache')!;
    assert.deepEqual([loop.x, loop.y, loop.points], [find(scene, 'cache-to-cache').x - 15, find(scene, 'cache-to-cache').y + 60, find(scene, 'cache-to-cache').points]);
  });

  test('a cylinder, a double circle or an end marker moves, resizes and goes with the lines and the dot drawn as part of it', () => {
    const scene = build({ nodes: [{ id: 'db', shape: 'cylinder' }, { id: 'done', shape: 'doublecircle' }, { id: 'stop', shape: 'end' }], edges: ['db -> done', 'done -> stop'] });
    const extent = (e: El) => {
      const xs = e.points.map((p: number[]) => e.x + p[0]);
      const ys = e.points.map((p: number[]) => e.y + p[1]);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map((v) => Math.round(v));
    };
    const moved = patch(scene, [{ op: 'move', id: 'db', dx: 40, dy: 25 }, { op: 'move', id: 'stop', dx: -30, dy: 0 }]);
    for (const part of ['db-outline', 'db-top']) {
      assert.deepEqual([moved.byId(part)!.x, moved.byId(part)!.y], [find(scene, part).x + 40, find(scene, part).y + 25], part);
    }
    assert.equal(moved.byId('stop-dot')!.x, find(scene, 'stop-dot').x - 30);
    const db = find(scene, 'db');
    const resized = patch(scene, [{ op: 'resize', id: 'db', width: db.width * 2, height: db.height }, { op: 'resize', id: 'done', width: 200, height: 200 }]);
    const body = resized.byId('db')!;
    assert.deepEqual(extent(resized.byId('db-outline')!), [body.x, body.y, body.x + body.width, body.y + body.height].map((v) => Math.round(v)), 'the body stretches with the box');
    const ring = extent(resized.byId('done-ring')!);
    const done = resized.byId('done')!;
    assert.ok(ring[2]! - ring[0]! > 180 && ring[0]! > done.x && ring[2]! < done.x + done.width, `the ring stretches inside the circle: ${ring}`);
    const gone = patch(scene, [{ op: 'delete', id: 'db' }, { op: 'delete', id: 'stop' }]);
    for (const part of ['db-outline', 'db-top', 'stop-dot']) assert.equal(gone.byId(part), undefined, `${part} goes with its shape`);
    assertConsistent(gone.elements);
  });

  test('moving a label is refused; moving an arrow unbinds it from both shapes', () => {
    const scene = build(SPEC);
    assertThrowsCode(() => patch(scene, [{ op: 'move', id: 'api-label', dx: 1, dy: 1 }]), 'INVALID_SPEC', /label of "api": move the container instead/);
    const { elements, byId } = patch(scene, [{ op: 'move', id: 'api-to-db', dx: 0, dy: 300 }]);
    const arrow = byId('api-to-db')!;
    assert.deepEqual([arrow.startBinding, arrow.endBinding], [null, null]);
    assert.equal(arrow.y, find(scene, 'api-to-db').y + 300);
    assert.equal(byId('api-to-db-label')!.y, find(scene, 'api-to-db-label').y + 300);
    assert.ok(!byId('api')!.boundElements.some((r: any) => r.id === 'api-to-db'));
    assert.ok(!byId('db')!.boundElements.some((r: any) => r.id === 'api-to-db'));
    assertConsistent(elements);
  });
});

describe('resize', () => {
  test('the label is re-wrapped at the new text width and re-centred; arrows are re-attached to the new outline', async () => {
    const scene = build({ nodes: [{ id: 'a', label: 'Authentication and session service' }, { id: 'b' }], edges: ['a -> b'] });
    const { elements, byId } = patch(scene, [{ op: 'resize', id: 'a', width: 120, height: 140 }]);
    const a = byId('a')!;
    assert.deepEqual([a.x, a.y, a.width, a.height], [find(scene, 'a').x, find(scene, 'a').y, 120, 140]);
    const label = byId('a-label')!;
    assert.equal(label.text, wrapText('Authentication and session service', 20, getBoundTextMaxWidth('rectangle', 120)));
    assert.notEqual(label.text, find(scene, 'a-label').text);
    assert.equal(label.x + label.width / 2, a.x + 60);
    assert.equal(label.y + label.height / 2, a.y + 70);
    const arrow = byId('a-to-b')!;
    assert.ok(Math.abs(gapAlongEnd(arrow, 'start', a) - BINDING_GAP) < 0.05);
    assertConsistent(elements);
    await assertSurvivesRestore(elements);
  });

  test('a shape too small for its label grows, as the editor grows it', () => {
    const scene = build({ nodes: [{ id: 'a', label: 'Three\nline\nlabel' }], edges: [] });
    const { byId } = patch(scene, [{ op: 'resize', id: 'a', width: 200, height: 20 }]);
    assert.ok(byId('a')!.height >= byId('a-label')!.height + 10);
  });

  test('a shape resized too small for its label and its icon grows until both fit, the icon above the label', () => {
    const scene = build(SPEC);
    const { byId } = patch(scene, [{ op: 'resize', id: 'cache', width: 200, height: 60 }]);
    const [cache, label, icon] = [byId('cache')!, byId('cache-label')!, byId('cache-icon')!];
    assert.ok(cache.height > 60);
    assert.ok(label.y >= icon.y + icon.height + ICON_GAP - 1e-9, 'the label is below the icon, clear of it');
    assert.ok(icon.y >= boundTextArea('diamond', boxOf(cache)).y - 1e-9, 'the icon is inside the text area');
  });

  test('non-positive sizes, texts and arrows are refused', () => {
    const scene = build(SPEC);
    assertThrowsCode(() => patch(scene, [{ op: 'resize', id: 'api', width: 0, height: 10 }]), 'INVALID_SPEC', /"width" must be a number above 0/);
    assertThrowsCode(() => patch(scene, [{ op: 'resize', id: 'note', width: 10, height: 10 }]), 'INVALID_SPEC', /is a text/);
    assertThrowsCode(() => patch(scene, [{ op: 'resize', id: 'api-to-db', width: 10, height: 10 }]), 'INVALID_SPEC', /its size follows its points/);
  });
});

describe('restyle', () => {
  test('styles apply to the element; stroke colour and opacity follow to its label; fontSize re-measures the label', () => {
    const scene = build(SPEC);
    const { byId } = patch(scene, [{ op: 'restyle', id: 'api', strokeColor: '#1971c2', backgroundColor: 'rgb(200, 220, 255)', fillStyle: 'hachure', strokeWidth: 4, strokeStyle: 'dashed', roughness: 0, opacity: 80, fontSize: 28, fontFamily: 6 }]);
    const api = byId('api')!;
    const label = byId('api-label')!;
    assert.deepEqual([api.strokeColor, api.backgroundColor, api.fillStyle, api.strokeWidth, api.strokeStyle, api.roughness, api.opacity], ['#1971c2', 'rgb(200, 220, 255)', 'hachure', 4, 'dashed', 0, 80]);
    assert.deepEqual([label.strokeColor, label.opacity, label.fontSize, label.fontFamily, label.lineHeight], ['#1971c2', 80, 28, 6, 1.35]);
    assert.equal(label.height, 28 * 1.35 * label.text.split('\n').length);
    assert.ok(!('fontSize' in api), 'the shape itself takes no font');
  });

  test('each value is validated; at least one is required; a font needs a text', () => {
    const scene = build(SPEC);
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ strokeColor: 'not a colour!' }, /"strokeColor" must be a CSS colour/],
      [{ backgroundColor: 12 }, /"backgroundColor" must be a CSS colour/],
      [{ fillStyle: 'dots' }, /"fillStyle" must be one of "hachure", "cross-hatch", "solid", "zigzag"/],
      [{ strokeStyle: 'wavy' }, /"strokeStyle" must be one of/],
      [{ strokeWidth: 0 }, /"strokeWidth" must be a number above 0/],
      [{ roughness: 9 }, /"roughness" must be a number from 0 to 5/],
      [{ opacity: 101 }, /"opacity" must be a number from 0 to 100/],
      [{ fontSize: 0 }, /"fontSize" must be a number from 1 to 500/],
      [{ fontFamily: 4 }, /"fontFamily" must be a known font family/],
      [{}, /needs at least one of/],
      [{ angle: 1 }, /a restyle op has no field "angle"/],
    ];
    for (const [fields, message] of bad) assertThrowsCode(() => patch(scene, [{ op: 'restyle', id: 'api', ...fields }]), 'INVALID_SPEC', message);
    const bare = patch(scene, [{ op: 'add', element: { type: 'rectangle', id: 'bare' } }]).elements;
    assertThrowsCode(() => patch(bare, [{ op: 'restyle', id: 'bare', fontSize: 30 }]), 'INVALID_SPEC', /fontSize apply to text, and rectangle "bare" has no label/);
  });

  test('a standalone text re-measured for a new font keeps its aligned edge', () => {
    const scene = build(SPEC);
    const note = find(scene, 'note');
    const { byId } = patch(scene, [{ op: 'restyle', id: 'note', fontSize: 40 }]);
    const after = byId('note')!;
    assert.equal(note.textAlign, 'center');
    assert.ok(Math.abs(after.x + after.width / 2 - (note.x + note.width / 2)) < 1e-9);
    assert.equal(after.height, 50);
  });
});

describe('delete', () => {
  test('a shape takes its label (counted) and leaves its arrows in place, unbound', async () => {
    const scene = build(SPEC);
    const { elements, deleted, byId } = patch(scene, [{ op: 'delete', id: 'db' }]);
    assert.equal(deleted, 2);
    assert.equal(elements.length, scene.length - 2);
    assert.equal(byId('db-label'), undefined);
    const arrow = byId('api-to-db')!;
    assert.equal(arrow.endBinding, null);
    assert.equal(arrow.startBinding.elementId, 'api');
    assert.deepEqual(arrow.points, find(scene, 'api-to-db').points);
    assertConsistent(elements);
    await assertSurvivesRestore(elements);
  });

  test('an arrow takes its label and leaves its shapes’ boundElements clean; a label leaves its container’s', () => {
    const scene = build(SPEC);
    const { elements, deleted, byId } = patch(scene, [{ op: 'delete', id: 'api-to-db' }, { op: 'delete', id: 'api-label' }]);
    assert.equal(deleted, 3);
    assert.equal(byId('api-to-db-label'), undefined);
    assert.ok(!byId('db')!.boundElements.some((r: any) => r.id === 'api-to-db'));
    assert.ok(!byId('api')!.boundElements.some((r: any) => r.id === 'api-to-db' || r.id === 'api-label'));
    assertConsistent(elements);
  });

  test('a shape with an icon takes the icon too', () => {
    const scene = build(SPEC);
    const { deleted, byId } = patch(scene, [{ op: 'delete', id: 'cache' }]);
    assert.equal(deleted, 3, 'the diamond, its label and its icon');
    assert.equal(byId('cache-icon'), undefined);
    assert.deepEqual([byId('cache-to-cache')!.startBinding, byId('cache-to-cache')!.endBinding], [null, null]);
  });
});

describe('the patch as a whole', () => {
  test('each touched element gets version + 1 once however many ops touch it; untouched ones stay identical', () => {
    const scene = build(SPEC);
    const { elements } = patch(scene, [
      { op: 'move', id: 'db', dx: 10, dy: 0 },
      { op: 'move', id: 'db', dx: 10, dy: 0 },
      { op: 'restyle', id: 'db', strokeColor: '#2f9e44' },
    ]);
    const before = new Map(scene.map((e) => [e.id, e]));
    assert.equal(find(elements, 'db').version, find(scene, 'db').version + 1);
    assert.equal(find(elements, 'db-label').version, find(scene, 'db-label').version + 1);
    for (const e of elements) {
      const old = before.get(e.id)!;
      if (e.version === old.version) assert.equal(e, old, `${e.id} untouched is the very same object`);
      else {
        assert.equal(e.version, old.version + 1, `${e.id} bumped once`);
        assert.equal(e.updated, 1_750_000_000_000);
        assert.notEqual(e.versionNonce, old.versionNonce);
      }
    }
    assert.ok(find(elements, 'note') === before.get('note'), 'an element no op reached is untouched');
  });

  test('a failing op at the end of a list throws and leaves the input as it was', () => {
    const scene = build(SPEC);
    const snapshot = structuredClone(scene);
    const ops = [
      { op: 'move', id: 'db', dx: 40, dy: 30 },
      { op: 'resize', id: 'api', width: 300, height: 100 },
      { op: 'restyle', id: 'cache', fontSize: 30 },
      { op: 'delete', id: 'api-to-db' },
      { op: 'add', element: { type: 'rectangle', id: 'new' } },
      { op: 'move', id: 'missing', dx: 1, dy: 1 },
    ];
    assertThrowsCode(() => patch(scene, ops), 'INVALID_SPEC', /^ops\[5\]: no element has id "missing"/);
    assert.deepEqual(scene, snapshot);
  });

  test('an unknown id names the op index', () => {
    const scene = build(SPEC);
    for (const [i, op] of [{ op: 'update', id: 'ghost', set: { opacity: 1 } }, { op: 'resize', id: 'ghost', width: 1, height: 1 }, { op: 'restyle', id: 'ghost', opacity: 1 }, { op: 'delete', id: 'ghost' }].entries()) {
      const ops = [...Array.from({ length: i }, () => ({ op: 'restyle', id: 'api', opacity: 90 })), op];
      assertThrowsCode(() => patch(scene, ops), 'INVALID_SPEC', new RegExp(`^ops\\[${i}\\]: no element has id "ghost"$`));
    }
  });

  test('ops must be a non-empty array of at most 500 known ops', () => {
    const scene = build(SPEC);
    assertThrowsCode(() => patch(scene, {} as unknown as unknown[]), 'INVALID_SPEC', /ops must be an array/);
    assertThrowsCode(() => patch(scene, []), 'INVALID_SPEC', /at least one op/);
    assertThrowsCode(() => patch(scene, Array.from({ length: MAX_PATCH_OPS + 1 }, () => ({ op: 'restyle', id: 'api', opacity: 50 }))), 'INVALID_SPEC', /501 ops; the limit is 500/);
    assert.equal(patch(scene, Array.from({ length: MAX_PATCH_OPS }, () => ({ op: 'restyle', id: 'api', opacity: 50 }))).applied, MAX_PATCH_OPS);
    assertThrowsCode(() => patch(scene, [{ op: 'rotate', id: 'api' }]), 'INVALID_SPEC', /^ops\[0\]: "op" must be one of add, update, move, resize, restyle, delete/);
    assertThrowsCode(() => patch(scene, ['move']), 'INVALID_SPEC', /^ops\[0\]: each op must be an object/);
  });

  test('the result is validated as a scene: bad links, unknown icons and too many elements keep their own codes', () => {
    const scene = build(SPEC);
    assertThrowsCode(() => patch(scene, [{ op: 'update', id: 'api', set: { link: 'javascript:alert(1)' } }]), 'BAD_LINK_SCHEME');
    assertThrowsCode(() => patch(scene, [{ op: 'add', element: { type: 'image', fileId: 'icon-no-such-icon' } }]), 'UNKNOWN_ICON');
    const big = Array.from({ length: MAX_SCENE_ELEMENTS }, (_, i) => ({ ...find(scene, 'api'), id: `r${i}`, boundElements: [], index: `a${i}` }) as El);
    assertThrowsCode(() => patch(big, [{ op: 'add', element: { type: 'rectangle' } }]), 'SCENE_TOO_LARGE');
  });
});

// ---------------------------------------------------------------------------
// Fuzz: random op sequences against random generated scenes

const SHAPES = ['rectangle', 'ellipse', 'diamond', 'text'] as const;
const ICONS = ['icon-server', 'icon-user', 'icon-database'].filter((id) => isCatalogIcon(id));

const specArb = fc
  .record({
    nodes: fc.array(
      fc.record({
        shape: fc.constantFrom(...SHAPES),
        label: fc.constantFrom('', 'svc', 'Payments gateway', 'a label that is long enough to wrap inside its shape', 'two\nlines'),
        icon: fc.option(fc.constantFrom(...ICONS), { freq: 4 }),
      }),
      { minLength: 2, maxLength: 6 },
    ),
    edges: fc.array(fc.record({ from: fc.nat(), to: fc.nat(), label: fc.option(fc.constantFrom('uses', 'reads from'), { freq: 2 }) }), { maxLength: 7 }),
    direction: fc.constantFrom('TB', 'LR'),
  })
  .map(({ nodes, edges, direction }) => ({
    layout: { direction },
    nodes: nodes.map((n, i) => ({ id: `n${i}`, shape: n.shape, label: n.shape === 'text' && n.label === '' ? `t${i}` : n.label, ...(n.icon ? { icon: n.icon } : {}) })),
    edges: edges.map((e) => ({ from: `n${e.from % nodes.length}`, to: `n${e.to % nodes.length}`, ...(e.label ? { label: e.label } : {}) })),
  }));

/** An op in the abstract: which kind, which element (an index into the scene), and numbers to use. */
const intentArb = fc.record({
  kind: fc.constantFrom('add-shape', 'add-label', 'add-arrow', 'add-other', 'update', 'update-geometry', 'move', 'resize', 'restyle', 'delete', 'invalid'),
  pick: fc.nat(),
  other: fc.nat(),
  a: fc.integer({ min: -300, max: 300 }),
  b: fc.integer({ min: -300, max: 300 }),
});
type Intent = typeof intentArb extends fc.Arbitrary<infer T> ? T : never;

type Op = Record<string, unknown>;

/** The patch an intent makes against the current scene, and whether it is a valid one. */
function patchFor(intent: Intent, elements: El[], serial: number): { ops: Op[]; valid: boolean } {
  const shapes = elements.filter((e) => ['rectangle', 'ellipse', 'diamond'].includes(e.type));
  const bindable = elements.filter((e) => ['rectangle', 'ellipse', 'diamond', 'image'].includes(e.type) || (e.type === 'text' && !e.containerId));
  const movable = elements.filter((e) => !(e.type === 'text' && e.containerId));
  const any = elements[intent.pick % Math.max(1, elements.length)];
  const pickFrom = (list: El[], n = intent.pick) => list[n % list.length];
  const style = [{ strokeColor: '#e03131' }, { backgroundColor: '#ffec99', fillStyle: 'cross-hatch' }, { opacity: 40, strokeStyle: 'dotted' }, { fontSize: 16 + (intent.pick % 30) }, { fontFamily: [1, 2, 3, 5, 6, 7, 8][intent.pick % 7] }][intent.other % 5]!;
  switch (intent.kind) {
    case 'add-shape':
      return { ops: [{ op: 'add', element: { type: ['rectangle', 'ellipse', 'diamond'][intent.other % 3], x: intent.a * 3, y: intent.b * 3, ...(intent.pick % 2 ? { width: 60 + (intent.pick % 200), height: 40 + (intent.other % 120) } : {}) } }], valid: true };
    case 'add-label': {
      const bare = elements.filter((e) => ['rectangle', 'ellipse', 'diamond', 'arrow'].includes(e.type) && !elements.some((t) => t.containerId === e.id));
      const container = pickFrom(bare);
      if (!container) break;
      return { ops: [{ op: 'add', element: { type: 'text', containerId: container.id, text: ['added label', 'a much longer added label that will need wrapping', 'x'][intent.other % 3] } }], valid: true };
    }
    case 'add-arrow': {
      const from = pickFrom(bindable);
      const to = pickFrom(bindable, intent.other);
      if (!from || !to || from === to) break;
      const label = intent.a % 3 === 0;
      const id = `fz${serial}`;
      const arrow = { op: 'add', element: { type: 'arrow', id, startBinding: { elementId: from.id }, endBinding: { elementId: to.id } } };
      return { ops: label ? [arrow, { op: 'add', element: { type: 'text', containerId: id, text: 'new edge' } }] : [arrow], valid: true };
    }
    case 'add-other': {
      const x = intent.a;
      const y = intent.b;
      const others = [
        { type: 'text', text: `note ${intent.pick}`, x, y },
        { type: 'text', text: 'a fixed-width note that wraps over several lines', autoResize: false, width: 120, x, y },
        { type: 'line', x, y, points: [[0, 0], [80, 0], [80, 40]] },
        { type: 'arrow', x, y, width: 120, height: 0 },
        { type: 'image', x, y, fileId: ICONS[intent.pick % ICONS.length] },
        { type: 'freedraw', x, y, points: [[0, 0], [3, 4], [9, 2], [14, 10]] },
        { type: 'frame', x, y, width: 300, height: 200, name: 'zone' },
      ];
      const from = pickFrom(bindable);
      if (from && intent.other % 8 === 7) return { ops: [{ op: 'add', element: { type: 'arrow', points: [[0, 0], [0, 90]], x: from.x + from.width / 2, y: from.y + from.height + 30, startBinding: { elementId: from.id } } }], valid: true };
      return { ops: [{ op: 'add', element: others[intent.other % others.length] }], valid: true };
    }
    case 'update-geometry': {
      const target = pickFrom(movable);
      if (!target) break;
      if (target.type === 'arrow' || target.type === 'line') return { ops: [{ op: 'update', id: target.id, set: { points: [[0, 0], [intent.a, 0], [intent.a, intent.b || 1]] } }], valid: true };
      if (target.type === 'text' || target.type === 'freedraw') return { ops: [{ op: 'update', id: target.id, set: { x: target.x + intent.a, y: target.y + intent.b } }], valid: true };
      return { ops: [{ op: 'update', id: target.id, set: { x: target.x + intent.a, width: Math.max(20, target.width + intent.b / 2), opacity: 70 } }], valid: true };
    }
    case 'update': {
      if (!any) break;
      if (any.type === 'text') return { ops: [{ op: 'update', id: any.id, set: { text: `renamed ${intent.a}` } }], valid: true };
      return { ops: [{ op: 'update', id: any.id, set: intent.other % 2 ? { strokeColor: '#1971c2', locked: false } : { angle: 0, roughness: 2 } }], valid: true };
    }
    case 'move': {
      const target = pickFrom(movable);
      if (!target) break;
      return { ops: [intent.other % 2 ? { op: 'move', id: target.id, dx: intent.a, dy: intent.b } : { op: 'move', id: target.id, x: target.x + intent.a, y: target.y + intent.b }], valid: true };
    }
    case 'resize': {
      const target = pickFrom(shapes);
      if (!target) break;
      return { ops: [{ op: 'resize', id: target.id, width: Math.max(10, target.width + intent.a / 2), height: Math.max(10, target.height + intent.b / 3) }], valid: true };
    }
    case 'restyle': {
      const target = 'fontSize' in style || 'fontFamily' in style ? pickFrom(elements.filter((e) => e.type === 'text' || elements.some((t) => t.containerId === e.id))) : any;
      if (!target) break;
      return { ops: [{ op: 'restyle', id: target.id, ...style }], valid: true };
    }
    case 'delete':
      if (!any) break;
      return { ops: [{ op: 'delete', id: any.id }], valid: true };
    case 'invalid': {
      const invalid = [
        { op: 'move', id: `missing-${serial}`, dx: 1, dy: 1 },
        { op: 'restyle', id: any?.id ?? 'x', opacity: 250 },
        { op: 'update', id: any?.id ?? 'x', set: { id: 'renamed' } },
        { op: 'resize', id: any?.id ?? 'x', width: -5, height: 10 },
        { op: 'add', element: { type: 'rectangle', id: any?.id ?? 'x' } },
        { op: 'teleport', id: any?.id ?? 'x' },
      ];
      return { ops: [invalid[intent.other % invalid.length]!], valid: false };
    }
  }
  return { ops: [{ op: 'restyle', id: any?.id ?? 'x', opacity: 90 }], valid: any !== undefined };
}

/** The shapes whose label the ops lay out again: resized, relabelled, given a new label or a new font. */
function relaidShapes(ops: Op[], before: El[]): string[] {
  const containerOf = (id: unknown) => before.find((e) => e.id === id)?.containerId ?? id;
  return ops.flatMap((o) => {
    const set = (o.set ?? {}) as Record<string, unknown>;
    if (o.op === 'resize' || (o.op === 'update' && (set.width !== undefined || set.height !== undefined))) return [o.id];
    if ((o.op === 'update' && set.text !== undefined) || (o.op === 'restyle' && (o.fontSize !== undefined || o.fontFamily !== undefined))) return [containerOf(o.id)];
    const element = o.element as El | undefined;
    return o.op === 'add' && element?.type === 'text' && element.containerId ? [element.containerId] : [];
  }) as string[];
}

/** A shape's label keeps ICON_GAP (give or take rounding) from each of the shape's icons: images grouped with it, centred inside it. */
function assertLabelClearOfIcons(elements: El[], shapeId: string): void {
  const shape = elements.find((e) => e.id === shapeId);
  const label = elements.find((e) => e.type === 'text' && e.containerId === shapeId);
  if (!shape || !label || !['rectangle', 'ellipse', 'diamond'].includes(shape.type)) return;
  const icons = elements.filter((e) => {
    if (e.type !== 'image' || !e.groupIds.some((g: string) => shape.groupIds.includes(g))) return false;
    const [cx, cy] = [e.x + e.width / 2, e.y + e.height / 2];
    return cx >= shape.x && cx <= shape.x + shape.width && cy >= shape.y && cy <= shape.y + shape.height;
  });
  for (const icon of icons) {
    const apart = Math.max(icon.x - (label.x + label.width), label.x - (icon.x + icon.width), icon.y - (label.y + label.height), label.y - (icon.y + icon.height));
    assert.ok(apart >= ICON_GAP - 0.5, `the label of ${shapeId} is ${apart} px from its icon ${icon.id}`);
  }
}

/** Runs one scenario: each intent becomes a one- or two-op patch, checked after every step. */
async function runScenario(spec: unknown, intents: Intent[], restoreEvery: number): Promise<void> {
  let elements = build(spec);
  let nonce = 7;
  for (const [step, intent] of intents.entries()) {
    const { ops, valid } = patchFor(intent, elements, step);
    const stamp: WriteStamp = { now: 2_000_000_000_000 + step, nonce: () => (nonce = (Math.imul(nonce, 48271) + step) >>> 1 || 1) };
    const snapshot = structuredClone(elements);
    let result: ReturnType<typeof applyPatch>;
    try {
      result = patchAsServed(elements, ops, stamp, options);
    } catch (error) {
      assert.ok(error instanceof ApiError, `step ${step}: ${JSON.stringify(ops)} threw ${String((error as Error)?.stack ?? error)}`);
      assert.ok(!valid, `step ${step}: the valid ops ${JSON.stringify(ops)} were refused: ${error.message}`);
      assert.equal(error.code, 'INVALID_SPEC');
      assert.deepEqual(elements, snapshot, `step ${step}: a refused patch changed nothing`);
      continue;
    }
    assert.ok(valid, `step ${step}: the invalid ops ${JSON.stringify(ops)} were accepted`);
    assert.deepEqual(elements, snapshot, `step ${step}: the input was not mutated`);
    const added = ops.filter((o) => o.op === 'add').length;
    assert.equal(result.elements.length, elements.length + added - result.deleted, `step ${step}: element count = before + added − deleted`);
    const next = result.elements as El[];
    const previous = new Map(elements.map((e) => [e.id, e]));
    for (const e of next) {
      const old = previous.get(e.id);
      if (!old) assert.equal(e.version, 1, `step ${step}: new element ${e.id} has version 1`);
      else if (e !== old) assert.equal(e.version, old.version + 1, `step ${step}: changed element ${e.id} bumped once`);
    }
    for (let i = 1; i < next.length; i++) assert.ok(next[i - 1]!.index < next[i]!.index, `step ${step}: fractional indices increase`);
    for (const o of ops.filter((o) => o.op === 'delete')) {
      const gone = [o.id, ...elements.filter((e) => e.containerId === o.id).map((e) => e.id)];
      for (const id of gone) assert.ok(!next.some((e) => e.id === id), `step ${step}: ${id} went with the deleted ${String(o.id)}`);
    }
    try {
      assertConsistent(next);
      for (const shapeId of relaidShapes(ops, elements)) assertLabelClearOfIcons(next, shapeId);
      if (step % restoreEvery === restoreEvery - 1) await assertSurvivesRestore(next);
    } catch (error) {
      throw new Error(`step ${step} after ${JSON.stringify(ops)}: ${(error as Error).message}`);
    }
    elements = next;
  }
  await assertSurvivesRestore(elements);
}

describe('fuzz', () => {
  /** Pinned, so every run replays the same sequences; add the seed of any failure found exploring with others. */
  const PINNED_SEEDS = [1, 42, 977, 31337, 20240611];

  for (const seed of PINNED_SEEDS) {
    test(`random op sequences on random scenes keep every invariant (seed ${seed})`, async () => {
      await fc.assert(
        fc.asyncProperty(specArb, fc.array(intentArb, { minLength: 4, maxLength: 24 }), (spec, intents) => runScenario(spec, intents, 5)),
        { seed, numRuns: 100, endOnFailure: true },
      );
    });
  }
});
