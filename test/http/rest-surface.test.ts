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

    describe('list filters', () => {
      let owner: TestUser;
      let folder: string;
      let other: string;
      const titles: Record<string, string> = {};
      before(async () => {
        owner = await h.user();
        folder = (await h.call('POST', '/api/v1/folders', { token: owner.token, body: { name: 'Work' } })).json().id;
        other = (await h.call('POST', '/api/v1/folders', { token: owner.token, body: { name: 'Other' } })).json().id;
        const make = async (title: string, extra: { folderId?: string; starred?: boolean; trashed?: boolean } = {}) => {
          const { id } = await create({ title, ...(extra.folderId ? { folderId: extra.folderId } : {}) }, owner.token);
          if (extra.starred) await h.store.diagrams.setStarred(id, true);
          if (extra.trashed) await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: owner.token });
          titles[id] = title;
        };
        await make('Payments flow', { folderId: folder });
        await make('PAYMENT refunds', { starred: true });
        await make('payment retries', { folderId: folder, starred: true });
        await make('Login');
        await make('100% done_ok');
        await make('100 percent');
        await make('ÉCOLE Straße', { folderId: other });
        await make('payment (old)', { trashed: true, folderId: folder });
      });

      const list = async (query: string) => {
        const res = await h.call('GET', `/api/v1/diagrams?${query}`, { token: owner.token });
        assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
        return (res.json().items as Array<{ title: string }>).map((d) => d.title);
      };

      test('q is a case-insensitive title substring, with every character literal', async () => {
        assert.deepEqual(await list('q=pAyMeNt'), ['payment retries', 'PAYMENT refunds', 'Payments flow']);
        assert.deepEqual(await list(`q=${encodeURIComponent('%')}`), ['100% done_ok']);
        assert.deepEqual(await list('q=e_o'), ['100% done_ok']);
        assert.deepEqual(await list('q=_'), ['100% done_ok']);
        assert.deepEqual(await list(`q=${encodeURIComponent('\\')}`), []);
        assert.deepEqual(await list('q='), await list(''), 'an empty q matches every title');
      });

      test('q folds non-ASCII case alike on every engine', async () => {
        assert.deepEqual(await list(`q=${encodeURIComponent('école')}`), ['ÉCOLE Straße']);
        assert.deepEqual(await list(`q=${encodeURIComponent('STRASSE')}`), ['ÉCOLE Straße']);
        assert.deepEqual(await list(`q=${encodeURIComponent('e\u0301cole')}`), ['ÉCOLE Straße'], 'a decomposed é is an é');
      });

      test('folderId narrows to one folder, none to the root, starred to starred or not', async () => {
        assert.deepEqual(await list(`folderId=${folder}`), ['payment retries', 'Payments flow']);
        assert.deepEqual(await list('folderId=none'), ['100 percent', '100% done_ok', 'Login', 'PAYMENT refunds']);
        assert.deepEqual(await list('starred=true'), ['payment retries', 'PAYMENT refunds']);
        assert.deepEqual(await list('starred=false'), ['ÉCOLE Straße', '100 percent', '100% done_ok', 'Login', 'Payments flow']);
      });

      test('the filters combine with each other and with filter=trash', async () => {
        assert.deepEqual(await list(`q=payment&folderId=${folder}&starred=true`), ['payment retries']);
        assert.deepEqual(await list(`q=payment&folderId=${folder}&starred=false`), ['Payments flow']);
        assert.deepEqual(await list('q=payment&folderId=none'), ['PAYMENT refunds']);
        assert.deepEqual(await list('q=payment&filter=trash'), ['payment (old)']);
        assert.deepEqual(await list(`filter=trash&folderId=${folder}&starred=false`), ['payment (old)']);
        assert.deepEqual(await list('filter=trash&folderId=none'), []);
      });

      test('pages under filters follow one another, and a cursor is refused under other filters', async () => {
        const first = (await h.call('GET', '/api/v1/diagrams?q=payment&limit=2', { token: owner.token })).json();
        assert.deepEqual(first.items.map((d: { title: string }) => d.title), ['payment retries', 'PAYMENT refunds']);
        const cursor = encodeURIComponent(first.nextCursor);
        assert.deepEqual(await list(`q=PAYMENT&limit=2&cursor=${cursor}`), ['Payments flow'], 'the same search in other letter case is the same listing');
        for (const query of [`limit=2&cursor=${cursor}`, `q=pay&limit=2&cursor=${cursor}`, `q=payment&starred=true&cursor=${cursor}`, `q=payment&folderId=none&cursor=${cursor}`, `q=payment&filter=trash&cursor=${cursor}`]) {
          const res = await h.call('GET', `/api/v1/diagrams?${query}`, { token: owner.token });
          assert.equal(res.statusCode, 400, query);
          assert.equal(res.json().error, 'bad_request');
          assert.match(res.json().message, /cursor belongs to a listing with other filters/);
        }
      });

      test("someone else's folder, or an unknown one, is not_found like a missing diagram; bad values are 400", async () => {
        const missing = await h.call('GET', '/api/v1/diagrams/00000000-0000-4000-8000-000000000000', { token: alice.token });
        for (const id of [folder, '00000000-0000-4000-8000-000000000000']) {
          const res = await h.call('GET', `/api/v1/diagrams?folderId=${id}`, { token: alice.token });
          assert.equal(res.statusCode, 404);
          assert.equal(res.body, missing.body);
        }
        const bad: Array<[string, RegExp]> = [
          ['folderId=root', /^folderId: must be a folder id \(UUID\) or "none"$/],
          ['folderId=', /^folderId: /],
          ['starred=yes', /^starred: must be true or false$/],
          ['starred=1', /^starred: /],
          ['starred=true&starred=false', /^starred: /],
          [`q=${'x'.repeat(201)}`, /^q: /],
          ['filter=all', /^filter: /],
        ];
        for (const [query, message] of bad) {
          const res = await h.call('GET', `/api/v1/diagrams?${query}`, { token: owner.token });
          assert.equal(res.statusCode, 400, query);
          assert.equal(res.json().error, 'bad_request');
          assert.match(res.json().message, message, query);
        }
      });
    });

    test('an unknown query parameter is 400 bad_request naming it, on every route', async () => {
      const { id } = await create();
      const folderId = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Q' } })).json().id;
      const cases: Array<[string, string, unknown?]> = [
        ['GET', '/api/v1/diagrams?foo=1'],
        ['GET', '/api/v1/diagrams?limit=2&folder=none'],
        ['GET', `/api/v1/diagrams/${id}?foo=1`],
        ['GET', `/api/v1/diagrams/${id}/render?format=svg&foo`],
        ['GET', `/api/v1/diagrams/${id}/public-link?foo=1`],
        ['GET', '/api/v1/me?foo=1'],
        ['GET', '/api/v1/icons?foo=1'],
        ['GET', '/api/v1/openapi.json?foo=1'],
        ['POST', `/api/v1/diagrams/${id}/patch?foo=1`, { ops: [] }],
        ['PATCH', `/api/v1/folders/${folderId}?foo=1`, { name: 'R' }],
      ];
      for (const [method, url, body] of cases) {
        const res = await h.call(method, url, { token: alice.token, ...(body === undefined ? {} : { body }) });
        assert.equal(res.statusCode, 400, `${method} ${url}`);
        assert.equal(res.json().error, 'bad_request');
        const name = url.includes('folder=none') ? 'folder' : 'foo';
        assert.ok(res.json().message.startsWith(`unknown query parameter "${name}"`), res.json().message);
      }
      assert.equal((await h.call('GET', `/api/v1/folders`, { token: alice.token })).json().items.find((f: { id: string }) => f.id === folderId).name, 'Q', 'nothing was written');
    });
  });
}
