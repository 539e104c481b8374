import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { ApiError } from '../../src/errors.ts';

let h: Harness;
let alice: TestUser;
describe('http/diagrams.error', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  async function snapshot(user: TestUser) {
    const active = await h.call('GET', '/api/v1/diagrams?limit=100', { token: user.token });
    const trash = await h.call('GET', '/api/v1/diagrams?limit=100&filter=trash', { token: user.token });
    const folders = await h.call('GET', '/api/v1/folders', { token: user.token });
    return active.body + trash.body + folders.body;
  }

  async function expectRejected(body: unknown, status: number, error: string, messagePart?: RegExp) {
    const before = await snapshot(alice);
    const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body });
    assert.equal(res.statusCode, status, res.body);
    assert.equal(res.json().error, error);
    if (messagePart) assert.match(res.json().message, messagePart);
    assert.equal(await snapshot(alice), before, 'a rejected create wrote something');
  }

  test('create needs exactly one of spec or scene (400 bad_request)', async () => {
    await expectRejected({ title: 'x' }, 400, 'bad_request', /exactly one/);
    await expectRejected({ scene: sceneOf(1), spec: { nodes: [] } }, 400, 'bad_request', /exactly one/);
  });

  test('wrong field types are 400 bad_request naming the field', async () => {
    await expectRejected({ title: 5, scene: sceneOf(1) }, 400, 'bad_request', /title/);
    await expectRejected({ folderId: 'not-a-uuid', scene: sceneOf(1) }, 400, 'bad_request', /folderId/);
    await expectRejected({ folderId: 12, scene: sceneOf(1) }, 400, 'bad_request', /folderId/);
    await expectRejected({ scene: sceneOf(1), extra: true }, 400, 'bad_request', /extra/);
    await expectRejected([], 400, 'bad_request');
    await expectRejected('"just a string"', 400, 'bad_request');
  });

  test('a scene that is not a scene is 422 NOT_A_SCENE naming the element', async () => {
    await expectRejected({ scene: [] }, 422, 'NOT_A_SCENE');
    await expectRejected({ scene: null }, 422, 'NOT_A_SCENE');
    await expectRejected({ scene: { elements: {} } }, 422, 'NOT_A_SCENE', /elements/);
    await expectRejected({ scene: { elements: [{ id: 'a', type: 'rectangle' }, 7] } }, 422, 'NOT_A_SCENE', /elements\[1\]/);
    await expectRejected({ scene: { elements: [{ type: 'rectangle' }] } }, 422, 'NOT_A_SCENE', /elements\[0\].*id/);
    await expectRejected({ scene: { elements: [{ id: 'a' }] } }, 422, 'NOT_A_SCENE', /"a".*type/);
    await expectRejected({ scene: { elements: [{ id: 'a', type: 'x' }, { id: 'a', type: 'x' }] } }, 422, 'NOT_A_SCENE', /elements\[1\]/);
  });

  test('a link with a scheme other than http, https or mailto is 422 BAD_LINK_SCHEME', async () => {
    for (const link of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>', 'vbscript:x', 'file:///etc/passwd', '/relative', 'example.com']) {
      await expectRejected({ scene: { elements: [{ id: 'ok', type: 'text' }, { id: 'bad', type: 'rectangle', link }] } }, 422, 'BAD_LINK_SCHEME', /elements\[1\].*"bad"/);
    }
  });

  test('__proto__, constructor and prototype keys at any depth are 422 PROTO_KEY', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const text = `{"scene":{"elements":[{"id":"a","type":"rectangle","customData":{"x":[{"${key}":{"polluted":true}}]}}]}}`;
      await expectRejected(text, 422, 'PROTO_KEY', new RegExp(key));
    }
    await expectRejected('{"__proto__":{"admin":true},"scene":{"elements":[]}}', 422, 'PROTO_KEY');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('more than 5000 elements is 413 SCENE_TOO_LARGE', async () => {
    const elements = Array.from({ length: 5001 }, (_, i) => ({ id: `${i}`, type: 'line' }));
    await expectRejected({ scene: { elements } }, 413, 'SCENE_TOO_LARGE', /5000/);
    const ok = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: { elements: elements.slice(0, 5000) } } });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.json().elementCount, 5000);
  });

  test("a folderId the caller does not own is 403 folder_forbidden", async () => {
    const bob = await h.user();
    const bobsFolder = (await h.call('POST', '/api/v1/folders', { token: bob.token, body: { name: 'Bob' } })).json();
    await expectRejected({ folderId: bobsFolder.id, scene: sceneOf(1) }, 403, 'folder_forbidden');
    await expectRejected({ folderId: randomUUID(), scene: sceneOf(1) }, 403, 'folder_forbidden');
  });

  test('the destination folder is checked before the content is laid out; whether the diagram may be changed, before a regenerate lays anything out', async () => {
    // A dangling edge is found only by laying the spec out: the folder's refusal comes first.
    const dangling = { nodes: [{ id: 'a' }], edges: ['a -> nowhere'] };
    await expectRejected({ folderId: randomUUID(), spec: dangling }, 403, 'folder_forbidden');
    await expectRejected({ spec: dangling }, 422, 'DANGLING_EDGE');
    const mine = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'mine', scene: sceneOf(1) } });
    assert.equal(mine.statusCode, 201, mine.body);
    const stranger = await h.user();
    const foreign = await h.call('POST', `/api/v1/diagrams/${mine.json().id}/regenerate`, { token: stranger.token, body: { spec: dangling } });
    assert.equal(foreign.statusCode, 404, foreign.body);
    assert.equal(foreign.json().error, 'not_found');
    const own = await h.call('POST', `/api/v1/diagrams/${mine.json().id}/regenerate`, { token: alice.token, body: { spec: dangling } });
    assert.equal(own.json().error, 'DANGLING_EDGE');
  });

  test('the quota is enforced with 403 quota_exceeded', async () => {
    const carol = await h.user({ quota: 2 });
    for (let i = 0; i < 2; i++) assert.equal((await h.call('POST', '/api/v1/diagrams', { token: carol.token, body: { scene: sceneOf(1) } })).statusCode, 201);
    const res = await h.call('POST', '/api/v1/diagrams', { token: carol.token, body: { scene: sceneOf(1) } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error, 'quota_exceeded');
    assert.equal((await h.call('GET', '/api/v1/diagrams', { token: carol.token })).json().items.length, 2);
  });

  test('PATCH needs at least one field and a non-empty title', async () => {
    const { id } = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'Keep', scene: sceneOf(1) } })).json();
    for (const [body, part] of [[{}, /at least one/], [{ title: ' \u0001 ' }, /empty/], [{ title: 3 }, /title/], [{ folderId: 'x' }, /folderId/], [{ starred: true }, /starred/]] as const) {
      const res = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().error, 'bad_request');
      assert.match(res.json().message, part);
    }
    const bob = await h.user();
    const bobsFolder = (await h.call('POST', '/api/v1/folders', { token: bob.token, body: { name: 'Bob' } })).json();
    const foreign = await h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { title: 'Changed?', folderId: bobsFolder.id } });
    assert.equal(foreign.statusCode, 403);
    assert.equal(foreign.json().error, 'folder_forbidden');
    assert.equal((await h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token })).json().title, 'Keep', 'nothing was half-written');
  });

  test('unknown or malformed diagram ids are 404 not_found', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '..%2F..%2Fetc', "1' or '1'='1"]) {
      for (const [method, suffix] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/restore'], ['PUT', '/public-link']] as const) {
        const body = method === 'PATCH' ? { title: 'x' } : method === 'PUT' ? { enabled: true } : undefined;
        const res = await h.call(method, `/api/v1/diagrams/${encodeURIComponent(id)}${suffix}`, { token: alice.token, ...(body ? { body } : {}) });
        assert.equal(res.statusCode, 404, `${method} ${id}${suffix}`);
        assert.equal(res.body, JSON.stringify(new ApiError('not_found').toBody()));
      }
    }
  });

  test('bad list parameters are 400 bad_request', async () => {
    for (const query of ['limit=abc', 'limit=1.5', 'filter=deleted', 'cursor=%%%', 'cursor=bm9wZQ', 'limit=1&limit=2']) {
      const res = await h.call('GET', `/api/v1/diagrams?${query}`, { token: alice.token });
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().error, 'bad_request');
    }
  });
});
