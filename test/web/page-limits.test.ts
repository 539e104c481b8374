// Limits of the pages anyone can reach without signing in, on both engines; on
// PostgreSQL, two instances sharing one database count together.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type Engine, type Harness, sceneOf, startHarness } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

const ENGINES: Array<{ engine: Engine; skip: string | false }> = [
  { engine: 'sqlite', skip: false },
  { engine: 'postgres', skip: skipWithoutPostgres },
];

const PASSWORD = 'correct horse';

/** Publishes a diagram (with a password, if given) and returns its slug. */
async function publish(h: Harness, password?: string): Promise<string> {
  const { token } = await h.user();
  const id = (await h.call('POST', '/api/v1/diagrams', { token, body: { title: 'Shared', scene: sceneOf(1) } })).json().id as string;
  const link = await h.call('PUT', `/api/v1/diagrams/${id}/public-link`, { token, body: { enabled: true, ...(password ? { password } : {}) } });
  return link.json().slug as string;
}

function guess(h: Harness, slug: string, password: string, ip = '10.1.0.1'): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url: `/p/${slug}`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ password }).toString(),
  });
}

function assertGuessRefused(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 429);
  const wait = Number(res.headers['retry-after']);
  assert.ok(wait >= 1 && wait <= 60, `Retry-After ${res.headers['retry-after']}`);
  assert.match(res.headers['content-type'] as string, /text\/html/);
  assert.match(res.body, /Too many attempts/);
  assert.match(res.body, /type="password"/, 'the password form is shown again');
  assert.ok(!res.body.includes('class="diagram"'), 'the diagram is not shown');
}

for (const { engine, skip } of ENGINES) {
  describe(`public-link password guesses (${engine})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ engine });
    });
    after(() => h?.close());

    test('10 guesses a minute per link and client address; the 11th is refused with 429 and Retry-After, even when right', async () => {
      const slug = await publish(h, PASSWORD);
      for (let i = 0; i < 10; i++) assert.equal((await guess(h, slug, 'wrong')).statusCode, 401, `guess ${i + 1}`);
      assertGuessRefused(await guess(h, slug, PASSWORD));
    });

    test('the guess limit of one client address and link leaves other addresses and other links alone', async () => {
      const slug = await publish(h, PASSWORD);
      const other = await publish(h, PASSWORD);
      for (let i = 0; i < 10; i++) await guess(h, slug, 'wrong', '10.1.0.2');
      assert.equal((await guess(h, slug, PASSWORD, '10.1.0.2')).statusCode, 429);
      assert.equal((await guess(h, slug, PASSWORD, '10.1.0.3')).statusCode, 200, 'another address');
      assert.equal((await guess(h, other, PASSWORD, '10.1.0.2')).statusCode, 200, 'another link');
    });
  });
}

describe('two instances sharing one PostgreSQL database', { skip: skipWithoutPostgres }, () => {
  let first: Harness;
  let second: Harness;
  before(async () => {
    first = await startHarness({ engine: 'postgres' });
    second = await startHarness({ engine: 'postgres', databaseUrl: first.config.databaseUrl });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  test('password guesses at one link from one address are counted together, whichever instance answers', async () => {
    const slug = await publish(first, PASSWORD);
    for (let i = 0; i < 5; i++) {
      assert.equal((await guess(first, slug, 'wrong')).statusCode, 401);
      assert.equal((await guess(second, slug, 'wrong')).statusCode, 401);
    }
    assertGuessRefused(await guess(first, slug, PASSWORD));
    assertGuessRefused(await guess(second, slug, PASSWORD));
  });
});
