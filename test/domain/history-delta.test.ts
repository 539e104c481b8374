import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { SceneElement } from '../../src/domain/edit/types.ts';
import { applyDelta, type SceneDelta, sceneDelta } from '../../src/domain/history/delta.ts';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';

/** Scenes are JSON data (the store keeps them as JSON), so their values are what JSON round-trips. */
const jsonData = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
/** Few ids, so scenes share many; two of them are the names plain objects trip on. */
const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'constructor', '__proto__'];

const elementArb: fc.Arbitrary<SceneElement> = fc
  .record(
    { id: fc.constantFrom(...IDS), type: fc.constantFrom('rectangle', 'text', 'arrow'), x: fc.integer({ min: 0, max: 3 }), data: jsonData },
    { requiredKeys: ['id', 'type'], noNullPrototype: true },
  )
  .map((e) => e as SceneElement);

const sceneArb = (unique: boolean): fc.Arbitrary<SceneElement[]> =>
  unique ? fc.uniqueArray(elementArb, { selector: (e) => e.id, maxLength: IDS.length }) : fc.array(elementArb, { maxLength: 10 });

/**
 * A scene and a later one made from it: some elements kept (some of those
 * edited), some new ones, in before's order or any order. With `unique`
 * false either may repeat ids.
 */
function scenePair(unique: boolean): fc.Arbitrary<[SceneElement[], SceneElement[]]> {
  return sceneArb(unique).chain((before) =>
    fc
      .tuple(fc.array(fc.option(fc.integer({ min: 0, max: 3 })), { minLength: before.length, maxLength: before.length }), sceneArb(unique), fc.boolean())
      .chain(([edits, fresh, keepOrder]) => {
        const edited = before.map((e, i) => (edits[i] == null ? e : { ...e, x: edits[i] }));
        let pool = [...edited, ...fresh];
        if (unique) pool = pool.filter((e, i) => pool.findIndex((o) => o.id === e.id) === i);
        return (keepOrder ? fc.subarray(pool) : fc.shuffledSubarray(pool)).map((after): [SceneElement[], SceneElement[]] => [before, after]);
      }),
  );
}

/** Two scenes drawn apart: with so few ids they share most, in any order, duplicates included. */
const independentPair = fc.tuple(sceneArb(false), sceneArb(false));

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const options = { isIcon: isCatalogIcon };
function architecture(): SceneElement[] {
  const spec = {
    nodes: [{ id: 'api', label: 'api' }, { id: 'db', label: 'db', shape: 'ellipse' }, { id: 'cache', label: 'cache', shape: 'diamond' }],
    edges: ['api -> db : writes', 'api -> cache'],
  };
  return sceneFromSpec(parseSpec(spec, options), { updated: 1, layout: layoutGraph });
}

describe('sceneDelta and applyDelta', () => {
  test('applying the delta between two scenes to the first gives the second, whatever ids, order or duplicates they hold', () => {
    fc.assert(
      fc.property(fc.oneof(scenePair(true), scenePair(false), independentPair), ([before, after]) => {
        deepFreeze(before);
        const beforeCopy = structuredClone(before);
        const delta = sceneDelta(before, after);
        assert.deepStrictEqual(applyDelta(before, structuredClone(delta)), after);
        assert.deepStrictEqual(before, beforeCopy, 'before is left as it was');
      }),
      { numRuns: 500 },
    );
  });

  test('the delta between scenes with unique ids holds exactly the new and differing elements, and the ids that went', () => {
    fc.assert(
      fc.property(scenePair(true), ([before, after]) => {
        const delta = sceneDelta(before, after);
        const previous = new Map(before.map((e) => [e.id, e]));
        const afterIds = new Set(after.map((e) => e.id));
        assert.deepStrictEqual(
          delta.upsert,
          after.filter((e) => !previous.has(e.id) || !isDeepStrictEqual(previous.get(e.id), e)),
        );
        assert.deepStrictEqual(delta.remove, before.filter((e) => !afterIds.has(e.id)).map((e) => e.id));
      }),
      { numRuns: 300 },
    );
  });

  test('the delta carries an order only when the survivors change order or a new element goes anywhere but the end', () => {
    fc.assert(
      fc.property(scenePair(true), ([before, after]) => {
        const delta = sceneDelta(before, after);
        const beforeIds = new Set(before.map((e) => e.id));
        const afterIds = new Set(after.map((e) => e.id));
        const implied = [...before.map((e) => e.id).filter((id) => afterIds.has(id)), ...after.map((e) => e.id).filter((id) => !beforeIds.has(id))];
        assert.equal(delta.order !== undefined, !isDeepStrictEqual(implied, after.map((e) => e.id)));
      }),
      { numRuns: 300 },
    );
  });

  test('one changed element of a product scene makes a delta of that element alone, without an order', () => {
    const before = architecture();
    const after = before.map((e) => (e.id === 'db' ? { ...e, backgroundColor: '#ffc9c9', version: (e.version as number) + 1 } : e));
    const delta = sceneDelta(before, after);
    assert.deepStrictEqual(delta, { upsert: [after.find((e) => e.id === 'db')], remove: [] });
  });

  test('an equal copy of a scene makes an empty delta', () => {
    const before = architecture();
    assert.deepStrictEqual(sceneDelta(before, structuredClone(before)), { upsert: [], remove: [] });
  });

  test('removing elements and appending new ones needs no order; inserting one mid-scene does', () => {
    const before = architecture();
    const extra: SceneElement = { id: 'queue', type: 'rectangle', x: 0, y: 0 };
    const removedAndAppended = sceneDelta(before, [...before.filter((e) => e.id !== 'cache'), extra]);
    assert.equal(removedAndAppended.order, undefined);
    assert.deepStrictEqual(removedAndAppended.upsert, [extra]);
    assert.deepStrictEqual(removedAndAppended.remove, ['cache']);
    const inserted = [extra, ...before];
    const delta = sceneDelta(before, inserted);
    assert.deepStrictEqual(delta.order, inserted.map((e) => e.id));
    assert.deepStrictEqual(delta.upsert, [extra]);
  });

  test('applyDelta shares the unchanged elements of before rather than copying them', () => {
    const before = architecture();
    const after = before.map((e) => (e.id === 'db' ? { ...e, x: (e.x as number) + 10 } : e));
    const result = applyDelta(before, sceneDelta(before, after));
    for (const [i, element] of result.entries()) {
      if (element.id !== 'db') assert.equal(element, before[i], `${element.id} is before's own object`);
    }
  });

  test('a delta naming an element neither scene holds is refused', () => {
    const before = architecture();
    const delta: SceneDelta = { upsert: [], remove: [], order: ['nowhere'] };
    assert.throws(() => applyDelta(before, delta), /nowhere/);
  });
});

test('elements that serialise differently are changed, even when only their key order or an undefined key differs', () => {
  const before = [{ id: 'a', type: 'rectangle', x: 1, y: 2 }];
  for (const after of [[{ id: 'a', type: 'rectangle', y: 2, x: 1 }], [{ id: 'a', type: 'rectangle', x: 1, y: 2, link: undefined }], [{ id: 'a', type: 'rectangle', x: 1, y: [2] }]]) {
    const delta = sceneDelta(before, after as typeof before);
    assert.equal(delta.upsert.length, 1, JSON.stringify(after));
    assert.equal(JSON.stringify(applyDelta(before, delta)), JSON.stringify(after));
  }
  assert.deepEqual(sceneDelta(before, [{ id: 'a', type: 'rectangle', x: 1, y: 2 }]), { upsert: [], remove: [] }, 'an equal copy is unchanged');
});
