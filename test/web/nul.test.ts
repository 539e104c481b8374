import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startHarness } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn } from '../helpers/web-session.ts';

/** PostgreSQL cannot store a NUL in text: a NUL from a client is its mistake (4xx), never a 500, on either engine. */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`NUL characters on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    test('web forms, queries and ids with a NUL are refused with 400 and change nothing; the API cursor too', async () => {
      const h = await startHarness({ engine });
      try {
        const user = await h.user();
        const web = await signIn(h, user.id);
        const form = { 'content-type': 'application/x-www-form-urlencoded', cookie: web.cookie };
        const csrf = `_csrf=${web.csrfToken}`;
        const attempts: Array<[string, string, string | undefined, Record<string, string>]> = [
          ['POST', '/login', 'email=a%00@b.co&password=whatever12', { 'content-type': 'application/x-www-form-urlencoded' }],
          ['POST', '/signup', 'email=a%00@b.co&password=whatever1234&confirm=whatever1234', { 'content-type': 'application/x-www-form-urlencoded' }],
          ['POST', '/reset', 'email=a%00@b.co', { 'content-type': 'application/x-www-form-urlencoded' }],
          ['GET', '/app?q=%00', undefined, { cookie: web.cookie }],
          ['POST', '/app/folders', `${csrf}&name=x&parentId=%00`, form],
          ['POST', '/app/diagrams', `${csrf}&title=x&folderId=%00&spec=`, form],
          ['POST', '/app/settings/tokens/%00/revoke', csrf, form],
        ];
        for (const [method, url, body, headers] of attempts) {
          const response = await h.call(method, url, { headers, ...(body === undefined ? {} : { body }) });
          assert.ok(response.statusCode >= 400 && response.statusCode < 500, `${method} ${url}: ${response.statusCode}`);
        }
        const cursor = Buffer.from(JSON.stringify(['\u0000', '\u0000'])).toString('base64url');
        const listed = await h.call('GET', `/api/v1/diagrams?cursor=${cursor}`, { token: user.token });
        assert.equal(listed.statusCode, 400);
        assert.equal((await h.call('GET', '/api/v1/folders', { token: user.token })).json().items.length, 0, 'no folder was made');
      } finally {
        await h.close();
      }
    });
  });
}
