import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { inspectPayload, MAX_PAYLOAD_DEPTH } from '../../src/domain/payload.ts';

test('finds a forbidden key at any depth and names its path', () => {
  const value = JSON.parse('{"a":[{"b":{"ok":1}},{"c":{"__proto__":{"x":1}}}]}');
  assert.deepEqual(inspectPayload(value), { kind: 'forbidden_key', path: 'a[1].c.__proto__', keys: ['a', 1, 'c', '__proto__'], key: '__proto__' });
  assert.equal(inspectPayload(JSON.parse('{"constructor":1}'))?.kind, 'forbidden_key');
  assert.equal(inspectPayload(JSON.parse('[{"prototype":null}]'))?.kind, 'forbidden_key');
  assert.equal(inspectPayload({ proto: 1, Constructor: 2, __proto: 3 }), null);
});

test('refuses nesting deeper than the limit without recursion', () => {
  const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
  assert.equal(inspectPayload(deep)?.kind, 'too_deep');
  const fine = JSON.parse('['.repeat(MAX_PAYLOAD_DEPTH) + ']'.repeat(MAX_PAYLOAD_DEPTH));
  assert.equal(inspectPayload(fine), null);
});

test('any JSON value without forbidden keys and shallow enough passes', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 10 }), (value) => {
      const text = JSON.stringify(value);
      const hasForbidden = /"(__proto__|constructor|prototype)":/.test(text);
      const problem = inspectPayload(value);
      if (!hasForbidden) assert.equal(problem, null);
    }),
  );
});

test('numbers beyond the range of a double are reported, not stored as null', () => {
  assert.deepEqual(inspectPayload(JSON.parse('{"a":[1,{"x":1e400}]}')), { kind: 'non_finite', path: 'a[1].x', keys: ['a', 1, 'x'] });
  assert.equal(inspectPayload(JSON.parse('{"a":-1e400}'))?.kind, 'non_finite');
  assert.equal(inspectPayload(JSON.parse('{"a":1.7e308}')), null);
});
