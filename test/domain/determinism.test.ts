import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fractionalIndex, stableInt } from '../../src/domain/scene/determinism.ts';

test('fractional indices follow the editor key sequence and sort like their order', () => {
  assert.deepEqual([0, 1, 9, 10, 61, 62, 63, 62 + 3843, 62 + 3844].map(fractionalIndex), ['a0', 'a1', 'a9', 'aA', 'az', 'b00', 'b01', 'bzz', 'c000']);
  const keys = Array.from({ length: 6000 }, (_, i) => fractionalIndex(i));
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  assert.deepEqual(sorted, keys);
});

test('stable integers are positive, 31-bit and differ between ids', () => {
  const values = ['a', 'b', 'a-label', 'api-to-db'].map(stableInt);
  assert.equal(new Set(values).size, 4);
  for (const v of values) assert.ok(Number.isInteger(v) && v > 0 && v < 2 ** 31);
  assert.equal(stableInt('a'), stableInt('a'));
});
