import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { SceneElement, WriteStamp } from '../../src/domain/edit/types.ts';
import { applyDelta, type SceneDelta, sceneDelta } from '../../src/domain/history/delta.ts';
import { changeAspects, describeDelta } from '../../src/domain/history/describe.ts';
import { applyEdit } from '../../src/domain/edit/apply.ts';
import { sceneChange } from '../../src/domain/history/change.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { applyPatch } from '../../src/domain/patch/apply.ts';
import { checkAnySpec, sceneOfSpec } from '../../src/domain/spec/any-spec.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { patchAsServed } from '../helpers/content.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';

const options = { isIcon: isCatalogIcon };

/** web → api → db (the arrow labelled "writes"), api → cache → db, a note pointing at api, an icon on cache. */
const SPEC = {
  nodes: [
    { id: 'web', label: 'web' },
    { id: 'api', label: 'api' },
    { id: 'db', label: 'db', shape: 'ellipse' },
    { id: 'cache', label: 'cache', shape: 'diamond', icon: 'icon-server' },
    { id: 'note', label: 'a note', shape: 'text' },
  ],
  edges: ['web -> api', 'api -> db : writes', 'api -> cache', 'cache -> db', 'note -> api'],
};

const scene = sceneFromSpec(parseSpec(SPEC, options), { updated: 1, layout: layoutGraph });

function stamp(): WriteStamp {
  let n = 1;
  return { now: 1_750_000_000_000, nonce: () => (n = (Math.imul(n, 48271) + 11) >>> 1 || 1) };
}

function patched(ops: unknown[], before: SceneElement[] = scene): SceneElement[] {
  return patchAsServed(before, ops, stamp(), options).elements;
}

/** What the revision list would say of a patch to the product's scene. */
function describePatch(ops: unknown[], before: SceneElement[] = scene) {
  return describeDelta(before, sceneDelta(before, patched(ops, before)));
}

const summaryOf = (ops: unknown[]) => describePatch(ops).summary;

describe('describeDelta on scenes the product makes', () => {
  test('moving a shape reads as "moved <its label>"; its label and the arrows re-routed with it are not told apart', () => {
    const changes = describePatch([{ op: 'move', id: 'db', dx: 40, dy: 0 }]);
    assert.equal(changes.summary, 'moved db');
    assert.deepEqual(changes.added, []);
    assert.deepEqual(changes.removed, []);
    const aspects = Object.fromEntries(changes.changed.map((c) => [c.id, c.aspects]));
    assert.deepEqual(aspects.db, ['geometry']);
    assert.deepEqual(aspects['db-label'], ['geometry']);
    assert.ok(aspects['api-to-db']!.includes('geometry'), 'the re-routed arrow is listed as changed');
  });

  test('up to three moved shapes are named, more are counted', () => {
    const moves = ['web', 'api', 'db', 'cache'].map((id) => ({ op: 'move', id, dx: 0, dy: 30 }));
    assert.equal(summaryOf(moves.slice(0, 3)), 'moved web, api and db');
    assert.equal(summaryOf(moves), 'moved 4 shapes');
  });

  test('deleting a shape with every arrow bound to it reads as "deleted <label> and its arrows"; its label and icon go unsaid', () => {
    const changes = describePatch([{ op: 'delete', id: 'api-to-cache' }, { op: 'delete', id: 'cache-to-db' }, { op: 'delete', id: 'cache' }]);
    assert.equal(changes.summary, 'deleted cache and its arrows');
    const order = scene.map((e) => e.id);
    assert.deepEqual(changes.removed, ['cache', 'cache-label', 'cache-icon', 'api-to-cache', 'cache-to-db'].sort((a, b) => order.indexOf(a) - order.indexOf(b)), 'in before order');
  });

  test('deleting a shape alone (its arrows unbound, not deleted) reads as "deleted <label>"', () => {
    assert.equal(summaryOf([{ op: 'delete', id: 'cache' }]), 'deleted cache');
  });

  test('deleting an arrow names it by its ends', () => {
    assert.equal(summaryOf([{ op: 'delete', id: 'web-to-api' }]), 'deleted an arrow from web to api');
  });

  test('an arrow moved on its own (and so unbound) is named by the ends it had', () => {
    assert.equal(summaryOf([{ op: 'move', id: 'api-to-db', dx: 0, dy: 40 }]), 'moved an arrow from api to db');
  });

  test('an arrow bound to another shape reads as reconnected, named by its new ends', () => {
    const after = scene.map((e) => (e.id === 'api-to-cache' ? { ...e, endBinding: { ...(e.endBinding as object), elementId: 'db' } } : e));
    assert.equal(describeDelta(scene, sceneDelta(scene, after)).summary, 'reconnected an arrow from api to db');
  });

  test('a new label text reads as "relabelled <old> as <new>", and the shape growing to fit it is not a resize', () => {
    const changes = describePatch([{ op: 'update', id: 'db-label', set: { text: 'orders store' } }]);
    assert.equal(changes.summary, 'relabelled db as orders store');
    assert.deepEqual(changes.changed.find((c) => c.id === 'db-label')!.aspects, ['geometry', 'text']);
  });

  test('an arrow’s label is relabelled by its text', () => {
    assert.equal(summaryOf([{ op: 'update', id: 'api-to-db-label', set: { text: 'reads' } }]), 'relabelled writes as reads');
  });

  test('a standalone text is named by its text', () => {
    assert.equal(summaryOf([{ op: 'update', id: 'note', set: { text: 'see the runbook' } }]), 'relabelled a note as see the runbook');
    assert.equal(summaryOf([{ op: 'move', id: 'note', dx: -20, dy: 0 }]), 'moved a note');
  });

  test('restyling a shape, or its label through it, reads as "restyled <label>"', () => {
    assert.equal(summaryOf([{ op: 'restyle', id: 'db', backgroundColor: '#ffc9c9' }]), 'restyled db');
    assert.equal(summaryOf([{ op: 'restyle', id: 'db', strokeColor: '#c92a2a' }]), 'restyled db');
    assert.equal(summaryOf([{ op: 'restyle', id: 'db', fontSize: 40 }]), 'restyled db', 'the shape re-fitting its bigger label is not a resize');
  });

  test('resizing a shape reads as "resized <label>"', () => {
    assert.equal(summaryOf([{ op: 'resize', id: 'api', width: 240, height: 90 }]), 'resized api');
  });

  test('adding a labelled shape and an arrow names the shape by its label and the arrow by its ends', () => {
    const changes = describePatch([
      { op: 'add', element: { type: 'rectangle', id: 'queue', x: 900, y: 80, width: 160, height: 70 } },
      { op: 'add', element: { type: 'text', id: 'queue-label', text: 'queue', containerId: 'queue' } },
      { op: 'add', element: { type: 'arrow', id: 'api-to-queue', x: 0, y: 0, points: [[0, 0], [100, 0]], startBinding: { elementId: 'api' }, endBinding: { elementId: 'queue' } } },
    ]);
    assert.equal(changes.summary, 'added queue, added an arrow from api to queue');
    assert.deepEqual(changes.added, ['queue', 'queue-label', 'api-to-queue']);
    assert.deepEqual(changes.changed, [{ id: 'api', aspects: ['binding'] }], 'api lists the new arrow, which is not told on its own');
  });

  test('a label added to or deleted from a shape that stays reads as labelled / unlabelled', () => {
    assert.equal(summaryOf([{ op: 'add', element: { type: 'text', text: 'hits', containerId: 'api-to-cache' } }]), 'labelled an arrow from api to cache as hits');
    assert.equal(summaryOf([{ op: 'delete', id: 'db-label' }]), 'unlabelled db');
  });

  test('changes of several kinds read as their parts in a fixed order: moved, relabelled, …, added, deleted', () => {
    const summary = summaryOf([
      { op: 'delete', id: 'api-to-cache' },
      { op: 'delete', id: 'cache-to-db' },
      { op: 'delete', id: 'cache' },
      { op: 'update', id: 'api-label', set: { text: 'gateway' } },
      { op: 'move', id: 'db', dx: 40, dy: 0 },
    ]);
    assert.equal(summary, 'moved db, relabelled api as gateway, deleted cache and its arrows');
  });

  test('past four parts the summary ends in "and more" and stays within 200 characters', () => {
    const summary = summaryOf([
      { op: 'move', id: 'db', dx: 40, dy: 0 },
      { op: 'resize', id: 'api', width: 240, height: 90 },
      { op: 'restyle', id: 'web', backgroundColor: '#ffc9c9' },
      { op: 'update', id: 'note', set: { text: 'see the runbook' } },
      { op: 'delete', id: 'cache' },
    ]);
    assert.equal(summary, 'moved db, resized api, relabelled a note as see the runbook, restyled web and more');
    assert.ok(summary.length <= 200);
  });

  test('long or multi-line labels are named on one line of at most 24 characters', () => {
    const summary = summaryOf([{ op: 'update', id: 'db-label', set: { text: 'the primary\n  orders database of the shop' } }]);
    assert.equal(summary, 'relabelled db as the primary orders data…');
    const named = summary.slice('relabelled db as '.length);
    assert.ok(named.length <= 24 && !named.includes('\n'));
  });

  test('bringing a shape to front (with its label) reads as "brought <label> to front"; sending back and other reorders likewise', () => {
    const db = scene.filter((e) => e.id === 'db' || e.id === 'db-label');
    const rest = scene.filter((e) => e.id !== 'db' && e.id !== 'db-label');
    assert.equal(describeDelta(scene, sceneDelta(scene, [...rest, ...db])).summary, 'brought db to front');
    assert.equal(describeDelta(scene, sceneDelta(scene, [...db, ...rest])).summary, 'sent db to back');
    assert.equal(describeDelta(scene, sceneDelta(scene, [...scene].reverse())).summary, 'reordered elements');
    const moved = patched([{ op: 'move', id: 'web', dx: 0, dy: 30 }]);
    const movedAndRaised = [...moved.filter((e) => e.id !== 'db' && e.id !== 'db-label'), ...moved.filter((e) => e.id === 'db' || e.id === 'db-label')];
    assert.equal(describeDelta(scene, sceneDelta(scene, movedAndRaised)).summary, 'moved web, brought db to front');
  });

  test('a new element placed among the others is an addition, not a reorder', () => {
    const extra: SceneElement = { id: 'box', type: 'rectangle', x: 0, y: 0, width: 10, height: 10 };
    const changes = describeDelta(scene, sceneDelta(scene, [extra, ...scene]));
    assert.equal(changes.summary, 'added a rectangle');
  });

  test('no difference reads as "no changes to the elements"', () => {
    const changes = describeDelta(scene, sceneDelta(scene, structuredClone(scene)));
    assert.deepEqual(changes, { added: [], removed: [], changed: [], summary: 'no changes to the elements' });
  });

  test('an element whose only differences are bookkeeping is changed with no aspects, and the summary still counts it', () => {
    const after = scene.map((e) => (e.id === 'db' ? { ...e, version: 99, versionNonce: 5, updated: 2 } : e));
    const changes = describeDelta(scene, sceneDelta(scene, after));
    assert.deepEqual(changes.changed, [{ id: 'db', aspects: [] }]);
    assert.equal(changes.summary, 'changed 1 element');
  });

  test('an element the editor marks deleted is changed in aspect "other" and reads as deleted', () => {
    const after = scene.map((e) => (e.id === 'db' || e.id === 'db-label' ? { ...e, isDeleted: true } : e));
    const changes = describeDelta(scene, sceneDelta(scene, after));
    assert.deepEqual(changes.changed, [{ id: 'db', aspects: ['other'] }, { id: 'db-label', aspects: ['other'] }]);
    assert.deepEqual(changes.removed, []);
    assert.equal(changes.summary, 'deleted db');
  });
});

describe('change aspects', () => {
  const base: SceneElement = {
    id: 'x', type: 'arrow', x: 0, y: 0, width: 10, height: 10, angle: 0, points: [[0, 0], [10, 10]], strokeColor: '#000', opacity: 100,
    text: 'a', boundElements: [], startBinding: null, groupIds: [], link: null, version: 1, versionNonce: 1, updated: 1, seed: 1, index: 'a0', isDeleted: false, locked: false,
  };
  const aspectsAfter = (set: Record<string, unknown>) => changeAspects(base, { ...base, ...set });

  test('position, size, rotation and points are geometry', () => {
    for (const set of [{ x: 1 }, { y: 1 }, { width: 1 }, { height: 1 }, { angle: 1 }, { points: [[0, 0], [5, 5]] }, { lastCommittedPoint: [1, 1] }, { scale: [1, -1] }, { crop: { x: 1 } }]) {
      assert.deepEqual(aspectsAfter(set), ['geometry'], JSON.stringify(set));
    }
  });

  test('colours, strokes, fonts, alignment, arrowheads and roundness are style', () => {
    for (const field of ['strokeColor', 'backgroundColor', 'fillStyle', 'strokeWidth', 'strokeStyle', 'roughness', 'opacity', 'roundness', 'fontSize', 'fontFamily', 'textAlign', 'verticalAlign', 'startArrowhead', 'endArrowhead', 'elbowed', 'lineHeight']) {
      assert.deepEqual(aspectsAfter({ [field]: 'changed' }), ['style'], field);
    }
  });

  test('text, originalText and autoResize are text', () => {
    for (const field of ['text', 'originalText', 'autoResize']) assert.deepEqual(aspectsAfter({ [field]: 'b' }), ['text'], field);
  });

  test('bindings, containers, frames, groups and links are binding', () => {
    for (const field of ['boundElements', 'startBinding', 'endBinding', 'containerId', 'frameId', 'groupIds', 'link']) {
      assert.deepEqual(aspectsAfter({ [field]: ['changed'] }), ['binding'], field);
    }
  });

  test('bookkeeping alone is no aspect; isDeleted, locked and unknown fields are other', () => {
    assert.deepEqual(aspectsAfter({ version: 2, versionNonce: 2, updated: 2, seed: 2, index: 'a1' }), []);
    assert.deepEqual(aspectsAfter({ isDeleted: true }), ['other']);
    assert.deepEqual(aspectsAfter({ locked: true }), ['other']);
    assert.deepEqual(aspectsAfter({ customData: { a: 1 } }), ['other']);
  });

  test('several aspects come in one fixed order whatever the fields', () => {
    assert.deepEqual(aspectsAfter({ customData: 1, link: 'x', text: 'b', opacity: 50, x: 5, version: 3 }), ['geometry', 'style', 'text', 'binding', 'other']);
  });

  test('equal values in different objects (or key order) are no change', () => {
    assert.deepEqual(changeAspects(base, structuredClone(base)), []);
    assert.deepEqual(aspectsAfter({ crop: null }), ['geometry'], 'absent and null differ');
    const reordered = Object.fromEntries(Object.entries(base).reverse()) as SceneElement;
    assert.deepEqual(changeAspects(base, reordered), []);
  });
});

const jsonData = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'constructor', '__proto__'];
const FIELDS = ['x', 'strokeColor', 'text', 'containerId', 'boundElements', 'version', 'isDeleted', 'customData'];

const elementArb: fc.Arbitrary<SceneElement> = fc
  .tuple(fc.constantFrom(...IDS), fc.constantFrom('rectangle', 'text', 'arrow', 'image'), fc.dictionary(fc.constantFrom(...FIELDS), jsonData, { maxKeys: 4, noNullPrototype: true }))
  .map(([id, type, fields]) => ({ ...fields, id, type }));
const uniqueScene = fc.uniqueArray(elementArb, { selector: (e) => e.id, maxLength: IDS.length });

/** A scene, and another made from it: elements kept (some with fields changed), dropped and added, in any order. */
const scenePair: fc.Arbitrary<[SceneElement[], SceneElement[]]> = uniqueScene.chain((before) =>
  fc
    .tuple(fc.array(fc.option(fc.dictionary(fc.constantFrom(...FIELDS), jsonData, { maxKeys: 2, noNullPrototype: true })), { minLength: before.length, maxLength: before.length }), uniqueScene, fc.boolean())
    .chain(([edits, fresh, keepOrder]) => {
      const edited = before.map((e, i) => (edits[i] == null ? e : { ...e, ...edits[i] }));
      const pool = [...edited, ...fresh].filter((e, i, all) => all.findIndex((o) => o.id === e.id) === i);
      return (keepOrder ? fc.subarray(pool) : fc.shuffledSubarray(pool)).map((after): [SceneElement[], SceneElement[]] => [before, after]);
    }),
);

/** A delta made by hand rather than by sceneDelta: upserts of any ids, removals of any, no order. */
const handMadeDelta: fc.Arbitrary<[SceneElement[], SceneDelta]> = fc.tuple(uniqueScene, uniqueScene, fc.subarray(IDS)).map(([before, upsert, remove]) => [before, { upsert, remove }]);

/** The ids whose element differs between two scenes of unique ids, presence included. */
function differingIds(before: readonly SceneElement[], after: readonly SceneElement[]): Set<string> {
  const was = new Map(before.map((e) => [e.id, e]));
  const is = new Map(after.map((e) => [e.id, e]));
  return new Set([...was.keys(), ...is.keys()].filter((id) => !isDeepStrictEqual(was.get(id), is.get(id))));
}

describe('describeDelta on any scenes', () => {
  test('added, removed and changed partition exactly the ids that differ between before and the delta applied, in after / before order', () => {
    fc.assert(
      fc.property(fc.oneof(scenePair.map(([before, after]): [SceneElement[], SceneDelta] => [before, sceneDelta(before, after)]), handMadeDelta), ([before, delta]) => {
        const after = applyDelta(before, delta);
        const changes = describeDelta(before, delta);
        const listed = [...changes.added, ...changes.removed, ...changes.changed.map((c) => c.id)];
        assert.equal(new Set(listed).size, listed.length, 'no id is listed twice');
        assert.deepEqual(new Set(listed), differingIds(before, after));
        const beforeIds = new Set(before.map((e) => e.id));
        const afterIds = new Set(after.map((e) => e.id));
        assert.deepEqual(changes.added, after.map((e) => e.id).filter((id) => changes.added.includes(id)), 'added in after order');
        assert.ok(changes.added.every((id) => afterIds.has(id) && !beforeIds.has(id)));
        assert.deepEqual(changes.removed, before.map((e) => e.id).filter((id) => changes.removed.includes(id)), 'removed in before order');
        assert.ok(changes.removed.every((id) => beforeIds.has(id) && !afterIds.has(id)));
        assert.ok(changes.summary.length > 0 && changes.summary.length <= 200 && !changes.summary.includes('\n'));
        assert.equal(changes.summary === 'no changes to the elements', listed.length === 0 && delta.order === undefined);
        assert.equal(describeDelta(before, delta).summary, changes.summary, 'deterministic');
      }),
      { numRuns: 500 },
    );
  });

  test('texts naming each other as containers (a malformed scene) are still named, without looping', () => {
    const before: SceneElement[] = [
      { id: 'p', type: 'text', text: 'one', containerId: 'q' },
      { id: 'q', type: 'text', text: 'two', containerId: 'p' },
      { id: 'arrow', type: 'arrow', x: 0, startBinding: { elementId: 'p' }, endBinding: { elementId: 'q' } },
    ];
    const after = before.map((e) => (e.id === 'arrow' ? { ...e, x: 5 } : e));
    assert.equal(describeDelta(before, sceneDelta(before, after)).summary, 'moved an arrow from a text to a text');
  });

  test('describing a change of a few elements in a 5,000-element scene reads only those elements and their neighbours', () => {
    const elements: SceneElement[] = [];
    for (let i = 0; i < 1700; i++) {
      elements.push({ id: `r${i}`, type: 'rectangle', x: i * 200, y: 0, width: 100, height: 50, boundElements: [{ id: `r${i}-label`, type: 'text' }, { id: `a${i}`, type: 'arrow' }] });
      elements.push({ id: `r${i}-label`, type: 'text', text: `box ${i}`, containerId: `r${i}`, x: i * 200, y: 0 });
      elements.push({ id: `a${i}`, type: 'arrow', x: i * 200 + 100, y: 25, points: [[0, 0], [100, 0]], startBinding: { elementId: `r${i}` }, endBinding: { elementId: `r${i + 1}` } });
    }
    const after = elements.map((e) => (['r5', 'r5-label', 'a4', 'a5'].includes(e.id) ? { ...e, x: (e.x as number) + 10, version: 2 } : e));
    const delta = sceneDelta(elements, after);
    const read = new Set<string>();
    const watched = elements.map(
      (e) =>
        new Proxy(e, {
          get(target, key) {
            if (key !== 'id' && key !== 'type' && key !== 'containerId') read.add(target.id);
            return Reflect.get(target, key);
          },
        }),
    );
    const changes = describeDelta(watched, delta);
    assert.equal(changes.summary, 'moved box 5');
    assert.ok(read.size <= 8, `read ${read.size} elements beyond their id, type and containerId: ${[...read].join(', ')}`);
  });
});

describe('history that reads right', () => {
  const els = () => sceneOfSpec(checkAnySpec({ nodes: [{ id: 'bi', label: 'BI' }, { id: 'db', label: 'DB' }], edges: ['bi -> db'] }, { isIcon: () => true }).spec!, { updated: 1, layout: layoutGraph }) as unknown as SceneElement[];
  const stamp = { now: 5, nonce: () => 7 };
  test('a label change is "relabelled" even when its font shrinks to fit, a colour "restyled", a move "moved"', () => {
    const before = els();
    const relabel = (label: string) => applyEdit(before, { updateNodes: [{ id: 'bi', label }] }, stamp, { isIcon: () => true }).elements;
    assert.equal(sceneChange(before, relabel('Business intelligence')).summary, 'relabelled BI as Business intelligence');
    assert.equal(sceneChange(before, relabel('A much longer label that will not fit in the box at all so it shrinks')).summary, 'relabelled BI as A much longer label tha…');
    assert.equal(sceneChange(before, applyEdit(before, { updateNodes: [{ id: 'bi', backgroundColor: '#ffc9c9' }] }, stamp, { isIcon: () => true }).elements).summary, 'restyled BI');
    assert.equal(sceneChange(before, applyPatch(before, [{ op: 'move', id: 'bi', dx: 40, dy: 0 }], stamp, { isIcon: () => true }).elements).summary, 'moved BI');
  });
});
