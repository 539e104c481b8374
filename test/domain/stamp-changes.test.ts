import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { stampChanges } from '../../src/domain/edit/stamp-changes.ts';
import type { SceneElement } from '../../src/domain/edit/types.ts';
import { LiveScene } from '../../src/domain/live/reconcile.ts';

const stamp = { now: 1_000, nonce: () => 42 };
const box = (id: string, x: number, version: number, versionNonce = 7): SceneElement => ({ id, type: 'rectangle', x, version, versionNonce, updated: 5 });

test('an element that shows the same as its stored self is kept as stored, version and all', () => {
  const stored = [box('a', 0, 4)];
  const [a] = stampChanges(stored, [box('a', 0, 1, 99)], stamp);
  assert.equal(a, stored[0]);
});

test('a changed element continues the higher version plus one, with a new nonce and the write time; an added one starts above its own', () => {
  const [changed, added] = stampChanges([box('a', 0, 4)], [box('a', 9, 2), { id: 'n', type: 'ellipse' }], stamp);
  assert.deepEqual([changed!.version, changed!.versionNonce, changed!.updated, changed!.x], [5, 42, 1_000, 9]);
  assert.deepEqual([added!.version, added!.versionNonce, added!.updated], [1, 42, 1_000]);
});

test('what a write changed wins the editor reconcile over every copy of the stored scene, and what it left alone changes no copy', () => {
  const element = fc.record({ id: fc.constantFrom('a', 'b', 'c'), x: fc.integer({ min: 0, max: 2 }), version: fc.integer({ min: 1, max: 9 }), versionNonce: fc.integer({ min: 0, max: 99 }) });
  fc.assert(
    fc.property(fc.uniqueArray(element, { selector: (e) => e.id }), fc.uniqueArray(element, { selector: (e) => e.id }), (stored, next) => {
      const storedScene = stored.map((e) => ({ ...e, type: 'rectangle' }));
      const written = stampChanges(storedScene, next.map((e) => ({ ...e, type: 'rectangle' })), stamp);
      const copy = new LiveScene(storedScene);
      const won = new Set(copy.merge(written).map((e) => e.id));
      for (const e of written) {
        const before = storedScene.find((s) => s.id === e.id);
        assert.equal(won.has(e.id), before !== e, `${e.id}: changed elements win, kept ones are the same object`);
      }
    }),
  );
});
