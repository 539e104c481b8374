import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

// The REST surface without surprises, on both engines: editor URLs, the public
// link's state, list filters, Location, ETag and If-Match, and the one 401.

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`REST surface on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    let h: Harness;
    let alice: TestUser;
    before(async () => {
      h = await startHarness({ engine });
      alice = await h.user();
    });
    after(() => h.close());

    const create = async (body: Record<string, unknown> = {}, token = alice.token) => {
      const res = await h.call('POST', '/api/v1/diagrams', { token, body: { scene: sceneOf(1), ...body } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { id: string; editorUrl: string; title: string };
    };

    test('every diagram the API returns carries its editor URL', async () => {
      const created = await create({ title: 'Editor url' });
      const editorUrl = `http://drawbridge.test/app/d/${created.id}`;
      assert.equal(created.editorUrl, editorUrl);
      assert.equal((await h.call('GET', `/api/v1/diagrams/${created.id}`, { token: alice.token })).json().editorUrl, editorUrl);
      const listed = (await h.call('GET', '/api/v1/diagrams', { token: alice.token })).json().items.find((d: { id: string }) => d.id === created.id);
      assert.equal(listed.editorUrl, editorUrl);
      const patched = await h.call('PATCH', `/api/v1/diagrams/${created.id}`, { token: alice.token, body: { title: 'Renamed' } });
      assert.equal(patched.json().editorUrl, editorUrl);
    });

    test('GET public-link answers the state of a never published, then published, then disabled link', async () => {
      const { id } = await create();
      const url = `/api/v1/diagrams/${id}/public-link`;
      const before = await h.call('GET', url, { token: alice.token });
      assert.equal(before.statusCode, 200);
      assert.deepEqual(before.json(), { slug: null, enabled: false, hasPassword: false, version: 0, url: null });

      const put = (await h.call('PUT', url, { token: alice.token, body: { enabled: true, password: 'pw' } })).json();
      const published = await h.call('GET', url, { token: alice.token });
      assert.deepEqual(published.json(), put);
      assert.equal(published.json().url, `http://drawbridge.test/p/${put.slug}`);
      assert.equal(published.json().hasPassword, true);

      const off = (await h.call('PUT', url, { token: alice.token, body: { enabled: false } })).json();
      assert.deepEqual((await h.call('GET', url, { token: alice.token })).json(), off);
      assert.equal(off.url, null);
    });

    test('GET public-link needs read access to the diagram: a viewer sees it, a stranger gets not_found', async () => {
      const { id } = await create();
      const url = `/api/v1/diagrams/${id}/public-link`;
      await h.call('PUT', url, { token: alice.token, body: { enabled: true } });
      const viewer = await h.user({ caps: 'read' });
      await h.admin('diagram', 'share', '--id', id, '--email', viewer.email, '--role', 'viewer');
      const seen = await h.call('GET', url, { token: viewer.token });
      assert.equal(seen.statusCode, 200);
      assert.equal(seen.json().enabled, true);

      const stranger = await h.user();
      const hidden = await h.call('GET', url, { token: stranger.token });
      const missing = await h.call('GET', '/api/v1/diagrams/00000000-0000-4000-8000-000000000000/public-link', { token: alice.token });
      assert.equal(hidden.statusCode, 404);
      assert.equal(hidden.body, missing.body);

      const writeOnly = await h.user({ caps: 'write' });
      assert.equal((await h.call('GET', url, { token: writeOnly.token })).json().error, 'insufficient_scope');
    });
  });
}
