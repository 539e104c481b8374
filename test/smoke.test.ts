import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Harness, sceneOf, startHarness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

test('a minted token creates and reads back a diagram', async () => {
  const alice = await h.user();
  const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'First', scene: sceneOf(2) } });
  assert.equal(created.statusCode, 201);
  const read = await h.call('GET', `/api/v1/diagrams/${created.json().id}`, { token: alice.token });
  assert.equal(read.statusCode, 200);
  assert.equal(read.json().scene.elements.length, 2);
});
