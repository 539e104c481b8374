import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import * as present from '../../src/api/presenters/diagrams.ts';
import { diagramEtag } from '../../src/app/diagrams/etag.ts';

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

    test('every 201 carries a Location that a GET with the same token resolves to the created resource', async () => {
      const diagram = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'Located', scene: sceneOf(1) } });
      const folder = await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Located' } });
      const comment = await h.call('POST', `/api/v1/diagrams/${diagram.json().id}/comments`, { token: alice.token, body: { body: 'Here' } });
      for (const [res, path] of [
        [diagram, `/api/v1/diagrams/${diagram.json().id}`],
        [folder, `/api/v1/folders/${folder.json().id}`],
        [comment, `/api/v1/diagrams/${diagram.json().id}/comments/${comment.json().id}`],
      ] as const) {
        assert.equal(res.statusCode, 201);
        assert.equal(res.headers.location, path);
        const got = await h.call('GET', path, { token: alice.token });
        assert.equal(got.statusCode, 200, path);
        assert.equal(got.json().id, res.json().id);
      }
      assert.deepEqual((await h.call('GET', `/api/v1/folders/${folder.json().id}`, { token: alice.token })).json(), folder.json());
      assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${diagram.json().id}/comments/${comment.json().id}`, { token: alice.token })).json(), comment.json());
      const stranger = await h.user();
      assert.equal((await h.call('GET', `/api/v1/folders/${folder.json().id}`, { token: stranger.token })).statusCode, 404);
      assert.equal((await h.call('GET', `/api/v1/diagrams/${diagram.json().id}/comments/${comment.json().id}`, { token: stranger.token })).statusCode, 404);
      assert.equal((await h.call('GET', `/api/v1/diagrams/${diagram.json().id}/comments/00000000-0000-4000-8000-000000000000`, { token: alice.token })).statusCode, 404);
    });

    describe('ETag, If-None-Match and If-Match', () => {
      const get = (id: string, headers: Record<string, string> = {}) => h.call('GET', `/api/v1/diagrams/${id}`, { token: alice.token, headers });
      const etagOf = async (id: string) => {
        const res = await get(id);
        assert.equal(res.statusCode, 200);
        const etag = res.headers.etag as string;
        assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'a strong ETag');
        return etag;
      };

      test('GET answers 304 with no body and the same ETag while If-None-Match names the current one', async () => {
        const { id } = await create();
        const etag = await etagOf(id);
        assert.equal(await etagOf(id), etag, 'stable while nothing changes');
        for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
          const res = await get(id, { 'if-none-match': header });
          assert.equal(res.statusCode, 304, header);
          assert.equal(res.body, '');
          assert.equal(res.headers.etag, etag);
        }
        for (const header of ['"other"', 'not-quoted']) {
          const res = await get(id, { 'if-none-match': header });
          assert.equal(res.statusCode, 200, header);
          assert.equal(res.json().id, id);
        }
      });

      test('a read answers the bytes and ETag the stored diagram gives, whether prepared before or not; a write changes both', async () => {
        const { id } = await create();
        const viewer = await h.user({ caps: 'read' });
        await h.admin('diagram', 'share', '--id', id, '--email', viewer.email, '--role', 'viewer');
        const stranger = await h.user();
        const fromStore = async () => {
          const stored = (await h.store.diagrams.findForUser(id, alice.id))!.diagram;
          return { body: present.diagramJson(stored, 'http://drawbridge.test'), etag: diagramEtag(stored, 'http://drawbridge.test') };
        };
        const read = async (token = alice.token) => {
          const res = await h.call('GET', `/api/v1/diagrams/${id}`, { token });
          assert.equal(res.statusCode, 200);
          return { body: res.body, etag: res.headers.etag };
        };
        let expected = await fromStore();
        assert.deepEqual(await read(), expected, 'the first read');
        assert.deepEqual(await read(), expected, 'a read of the answer prepared by the first');
        assert.deepEqual(await read(viewer.token), expected, 'another reader gets the same answer');
        assert.equal((await h.call('GET', `/api/v1/diagrams/${id}`, { token: stranger.token })).statusCode, 404, 'a prepared answer is no way around access');
        const writes: Array<[string, () => Promise<unknown>]> = [
          ['content', () => h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'move', id: 'el-0', dx: 3, dy: 0 }] } })],
          ['title', () => h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { title: 'Prepared again' } })],
          ['store write', () => h.store.diagrams.updateMeta(id, { title: 'Written beside the API', updatedAt: new Date().toISOString() }, null)],
        ];
        for (const [what, write] of writes) {
          await write();
          const now = await fromStore();
          assert.notEqual(now.body, expected.body, `${what} changes the body`);
          assert.notEqual(now.etag, expected.etag, `${what} changes the ETag`);
          assert.deepEqual(await read(viewer.token), now, `${what}: the read answers the new bytes`);
          assert.deepEqual(await read(), now, `${what}: and again, prepared`);
          expected = now;
        }
      });

      test('the ETag changes with the scene, the title, the folder, the trash state and the star', async () => {
        const { id } = await create();
        const folderId = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'E' } })).json().id;
        const seen = new Set([await etagOf(id)]);
        const changes: Array<[string, () => Promise<unknown>]> = [
          ['content', () => h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'move', id: 'el-0', dx: 1, dy: 0 }] } })],
          ['title', () => h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { title: 'New title' } })],
          ['folder', () => h.call('PATCH', `/api/v1/diagrams/${id}`, { token: alice.token, body: { folderId } })],
          ['trash', () => h.call('DELETE', `/api/v1/diagrams/${id}`, { token: alice.token })],
          ['restore', () => h.call('POST', `/api/v1/diagrams/${id}/restore`, { token: alice.token })],
          ['star', () => h.store.diagrams.setStarred(id, true)],
        ];
        for (const [what, change] of changes) {
          const before = await etagOf(id);
          await change();
          const after = await etagOf(id);
          assert.ok(!seen.has(after), `${what} gives a new ETag`);
          seen.add(after);
          assert.equal((await get(id, { 'if-none-match': before })).statusCode, 200, `${what}: the old ETag no longer revalidates`);
        }
      });

      test('a content write with the current ETag in If-Match succeeds and answers the new ETag', async () => {
        const { id } = await create();
        let etag = await etagOf(id);
        const writes: Array<[string, unknown]> = [
          ['patch', { ops: [{ op: 'move', id: 'el-0', dx: 5, dy: 0 }] }],
          ['edit', { addNodes: [{ id: 'added' }] }],
          ['regenerate', { scene: sceneOf(2) }],
        ];
        for (const [verb, body] of writes) {
          const res = await h.call('POST', `/api/v1/diagrams/${id}/${verb}`, { token: alice.token, body, headers: { 'if-match': etag } });
          assert.equal(res.statusCode, 200, `${verb}: ${res.body}`);
          const next = res.headers.etag as string;
          assert.notEqual(next, etag);
          assert.equal(next, await etagOf(id), `${verb}: the answered ETag is the one GET now shows`);
          etag = next;
        }
        const move = { ops: [{ op: 'move', id: 'el-0', dx: 1, dy: 1 }] };
        const any = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: move, headers: { 'if-match': '*' } });
        assert.equal(any.statusCode, 200, 'If-Match: * accepts any revision');
        const listed = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: move, headers: { 'if-match': `"stale", ${any.headers.etag}` } });
        assert.equal(listed.statusCode, 200, 'one of a list matching is enough');
      });

      test('a stale If-Match is 409 stale_read, exactly as a stale expectedUpdatedAt, and nothing is written', async () => {
        const { id } = await create();
        const etag = await etagOf(id);
        const docUpdatedAt = (await get(id)).json().docUpdatedAt;
        await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'move', id: 'el-0', dx: 1, dy: 0 }] } });
        const current = (await get(id)).body;
        const writes: Array<[string, Record<string, unknown>]> = [
          ['patch', { ops: [{ op: 'delete', id: 'el-0' }] }],
          ['regenerate', { scene: sceneOf(3) }],
          ['edit', { addNodes: [{ id: 'late' }] }],
        ];
        for (const [verb, body] of writes) {
          const byEtag = await h.call('POST', `/api/v1/diagrams/${id}/${verb}`, { token: alice.token, body, headers: { 'if-match': etag } });
          assert.equal(byEtag.statusCode, 409, verb);
          assert.equal(byEtag.json().error, 'stale_read');
          if (verb !== 'edit') {
            const byBody = await h.call('POST', `/api/v1/diagrams/${id}/${verb}`, { token: alice.token, body: { ...body, expectedUpdatedAt: docUpdatedAt } });
            assert.equal(byBody.statusCode, 409, verb);
            assert.equal(byBody.json().error, 'stale_read');
          }
          for (const weak of [`W/${await etagOf(id)}`]) {
            assert.equal((await h.call('POST', `/api/v1/diagrams/${id}/${verb}`, { token: alice.token, body, headers: { 'if-match': weak } })).statusCode, 409, 'a weak ETag never matches a write');
          }
        }
        assert.equal((await get(id)).body, current, 'nothing was written');
      });

      test('If-Match with expectedUpdatedAt, or a malformed If-Match, is 400 and writes nothing', async () => {
        const { id } = await create();
        const etag = await etagOf(id);
        const { docUpdatedAt } = (await get(id)).json();
        const both = await h.call('POST', `/api/v1/diagrams/${id}/patch`, {
          token: alice.token,
          body: { ops: [{ op: 'delete', id: 'el-0' }], expectedUpdatedAt: docUpdatedAt },
          headers: { 'if-match': etag },
        });
        assert.equal(both.statusCode, 400);
        assert.equal(both.json().error, 'bad_request');
        assert.match(both.json().message, /either the If-Match header or expectedUpdatedAt/);
        for (const header of ['unquoted', '"a" "b"', '"a",,']) {
          const res = await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: alice.token, body: { ops: [{ op: 'delete', id: 'el-0' }] }, headers: { 'if-match': header } });
          assert.equal(res.statusCode, 400, header);
          assert.match(res.json().message, /If-Match must be/);
        }
        assert.equal(await etagOf(id), etag);
      });
    });

    test('a missing, malformed, unknown, expired or revoked token gets one 401, byte for byte, that says how to authenticate', async () => {
      const { generateToken } = await import('../../src/auth/token.ts');
      const revoked = await h.admin('token', 'mint', '--email', alice.email, '--caps', 'read');
      await h.admin('token', 'revoke', '--id', revoked.id);
      const expired = await h.admin('token', 'mint', '--email', alice.email, '--caps', 'read', '--expires-at', new Date(Date.now() - 1000).toISOString());
      const authorizations: Record<string, string | undefined> = {
        missing: undefined,
        malformed: 'Bearer not-a-token',
        unknown: `Bearer ${generateToken()}`,
        expired: `Bearer ${expired.token}`,
        revoked: `Bearer ${revoked.token}`,
      };
      const answers = [];
      for (const [kind, authorization] of Object.entries(authorizations)) {
        const res = await h.call('GET', '/api/v1/diagrams', { headers: authorization ? { authorization } : {} });
        assert.equal(res.statusCode, 401, kind);
        answers.push({ body: res.body, wwwAuthenticate: res.headers['www-authenticate'], contentType: res.headers['content-type'] });
      }
      for (const answer of answers) assert.deepEqual(answer, answers[0]);
      assert.equal(answers[0]!.wwwAuthenticate, 'Bearer realm="drawbridge", error="invalid_token"');
      const body = JSON.parse(answers[0]!.body);
      assert.deepEqual(Object.keys(body), ['error', 'message']);
      assert.equal(body.error, 'unauthorized');
      assert.match(body.message, /Authorization: Bearer <token>/);
    });
  });
}
