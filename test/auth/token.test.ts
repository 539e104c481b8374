import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { generateToken, hashToken, isWellFormedToken } from '../../src/auth/token.ts';

test('minted tokens have the contract shape and a valid checksum', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const token = generateToken();
    assert.match(token, /^drw_pat_[0-9A-Za-z]{32,}_[0-9A-Za-z]{6}$/);
    assert.ok(isWellFormedToken(token));
    seen.add(token);
  }
  assert.equal(seen.size, 200);
});

test('any single-character change breaks the checksum', () => {
  const token = generateToken();
  fc.assert(
    fc.property(fc.integer({ min: 8, max: token.length - 1 }), fc.constantFrom(...'0123456789abcXYZ'), (index, replacement) => {
      if (token[index] === replacement || token[index] === '_') return;
      const altered = token.slice(0, index) + replacement + token.slice(index + 1);
      assert.equal(isWellFormedToken(altered), false);
    }),
  );
});

test('hashes are SHA-256 hex and differ per token', () => {
  const a = hashToken(generateToken());
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.notEqual(a, hashToken(generateToken()));
});
