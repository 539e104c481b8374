import assert from 'node:assert/strict';
import type { Harness, TestUser } from './harness.ts';

let made = 0;

/** A two-node diagram of `user` whose label no other has, so no render of it is cached: a render must reach the workers. */
export async function unrenderedDiagram(h: Harness, user: TestUser, word: string): Promise<string> {
  made += 1;
  const spec = { nodes: [{ id: 'a', label: `${word} ${made}` }, { id: 'b', label: 'Queue' }], edges: ['a -> b'] };
  const created = await h.call('POST', '/api/v1/diagrams', { token: user.token, body: { title: `d${made}`, spec } });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}
