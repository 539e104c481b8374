import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { defaultCapabilities } from '../../src/app/oauth/consent.ts';
import { CAPABILITIES, capabilitiesOfScope } from '../../src/auth/capabilities.ts';

test('a scope string grants the capabilities it names, in canonical order, ignoring other scopes and repeats', () => {
  assert.deepEqual(capabilitiesOfScope('write offline_access read write openid'), ['read', 'write']);
  assert.deepEqual(capabilitiesOfScope(''), []);
  assert.deepEqual(capabilitiesOfScope(undefined), []);
  assert.deepEqual(capabilitiesOfScope('READ admin'), [], 'scopes are case-sensitive and unknown ones grant nothing');
});

test('whatever the scope, only capabilities come out, each once', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.constantFrom(...CAPABILITIES), fc.string())), (parts) => {
      const capabilities = capabilitiesOfScope(parts.join(' '));
      assert.equal(new Set(capabilities).size, capabilities.length);
      for (const c of capabilities) assert.ok(parts.join(' ').split(' ').includes(c));
    }),
  );
});

test('the consent form starts with read and write, and publish or delete only when asked', () => {
  assert.deepEqual(defaultCapabilities([]), ['read', 'write']);
  assert.deepEqual(defaultCapabilities(['read']), ['read', 'write']);
  assert.deepEqual(defaultCapabilities(['delete']), ['read', 'write', 'delete']);
  assert.deepEqual(defaultCapabilities([...CAPABILITIES]), [...CAPABILITIES]);
});
