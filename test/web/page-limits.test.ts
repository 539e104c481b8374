// Limits of the pages anyone can reach without signing in, on both engines; on
// PostgreSQL, two instances sharing one database count together.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type Engine, type Harness, sceneOf, startHarness, uniqueEmail } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signedInClient } from './form-client.ts';

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

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function guess(h: Harness, slug: string, password: string, ip = '10.1.0.1'): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url: `/p/${slug}`,
    remoteAddress: ip,
    headers: FORM,
    payload: new URLSearchParams({ password }).toString(),
  });
}

/** One request for each kind of page anyone can reach, from `ip`. */
function pageRequests(h: Harness, slug: string, ip: string) {
  const form = (fields: Record<string, string>) => ({ headers: FORM, payload: new URLSearchParams(fields).toString() });
  const send = (method: 'GET' | 'POST', url: string, extra = {}) => () => h.app.inject({ method, url, remoteAddress: ip, ...extra });
  return {
    'GET /p/:slug': send('GET', `/p/${slug}`),
    'POST /p/:slug': send('POST', `/p/${slug}`, form({ password: 'wrong' })),
    'GET /login': send('GET', '/login'),
    'POST /login': send('POST', '/login', form({ email: 'nobody@example.com', password: 'wrong password!' })),
    'GET /signup': send('GET', '/signup'),
    'POST /signup': send('POST', '/signup', form({ email: 'not an address' })),
  };
}

/** What each of those requests answers within the budget. */
const NORMAL_STATUS = { 'GET /p/:slug': 200, 'POST /p/:slug': 401, 'GET /login': 200, 'POST /login': 401, 'GET /signup': 200, 'POST /signup': 400 };

function assertPageRefused(res: LightMyRequestResponse, what: string) {
  assert.equal(res.statusCode, 429, what);
  const wait = Number(res.headers['retry-after']);
  assert.ok(wait >= 1 && wait <= 60, `${what}: Retry-After ${res.headers['retry-after']}`);
  assert.match(res.headers['content-type'] as string, /text\/html/, what);
  assert.match(res.body, /<h1>That did not work<\/h1>/, what);
  assert.match(res.body, /Too many requests from your address\. Try again in \d+ seconds\./, what);
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

for (const { engine, skip } of ENGINES) {
  describe(`page requests per client address (${engine})`, { skip }, () => {
    const LIMIT = 6;
    let h: Harness;
    before(async () => {
      h = await startHarness({ engine, env: { RATE_LIMIT_PAGES_PER_MIN: String(LIMIT) } });
    });
    after(() => h?.close());

    test('public pages, sign-in and sign-up, GET and POST, share one budget per client address; over it each is 429 with Retry-After, as an error page', async () => {
      const slug = await publish(h, PASSWORD);
      const requests = pageRequests(h, slug, '10.2.0.1');
      assert.equal(Object.keys(requests).length, LIMIT);
      for (const [what, send] of Object.entries(requests)) {
        assert.equal((await send()).statusCode, NORMAL_STATUS[what as keyof typeof NORMAL_STATUS], what);
      }
      for (const [what, send] of Object.entries(requests)) assertPageRefused(await send(), what);
      assertPageRefused(await h.app.inject({ method: 'GET', url: '/p/AAAAAAAAAAAAAAAAAAAAAAAA', remoteAddress: '10.2.0.1' }), 'an unknown slug');
    });

    test('within the budget pages answer as usual; a flood from one address leaves other addresses, the API and signed-in pages alone', async () => {
      const slug = await publish(h);
      const { token } = await h.user();
      for (let i = 0; i < LIMIT; i++) {
        const page = await h.app.inject({ method: 'GET', url: `/p/${slug}`, remoteAddress: '10.2.0.2' });
        assert.equal(page.statusCode, 200, `request ${i + 1}`);
        assert.match(page.body, /class="diagram"/);
      }
      assert.equal((await h.app.inject({ method: 'GET', url: `/p/${slug}`, remoteAddress: '10.2.0.2' })).statusCode, 429);

      assert.equal((await h.app.inject({ method: 'GET', url: `/p/${slug}`, remoteAddress: '10.2.0.3' })).statusCode, 200, 'another address');
      assert.equal((await h.app.inject({ method: 'GET', url: '/login', remoteAddress: '10.2.0.3' })).statusCode, 200, 'another address');
      const me = await h.app.inject({ method: 'GET', url: '/api/v1/me', remoteAddress: '10.2.0.2', headers: { authorization: `Bearer ${token}` } });
      assert.equal(me.statusCode, 200, 'the API keeps its own limits');

      // Signing in takes a page request; the dashboard after it is not one.
      const { client } = await signedInClient(h, { email: uniqueEmail('pages') });
      for (let i = 0; i < LIMIT + 2; i++) assert.equal((await client.get('/app')).statusCode, 200, 'the dashboard is not counted');
    });
  });
}

describe('two instances sharing one PostgreSQL database', { skip: skipWithoutPostgres }, () => {
  // Room for the 12 page requests of the guessing test, from its own address.
  const PAGES_LIMIT = 15;
  let first: Harness;
  let second: Harness;
  before(async () => {
    const env = { RATE_LIMIT_PAGES_PER_MIN: String(PAGES_LIMIT) };
    first = await startHarness({ engine: 'postgres', env });
    second = await startHarness({ engine: 'postgres', env, databaseUrl: first.config.databaseUrl });
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

  test('page requests from one address are counted together, whichever instance answers', async () => {
    const slug = await publish(first);
    const view = (h: Harness) => h.app.inject({ method: 'GET', url: h === first ? `/p/${slug}` : '/login', remoteAddress: '10.3.0.1' });
    for (let i = 0; i < PAGES_LIMIT; i++) assert.equal((await view(i % 2 === 0 ? first : second)).statusCode, 200, `request ${i + 1}`);
    assertPageRefused(await view(first), 'on the first instance');
    assertPageRefused(await view(second), 'on the second instance');
  });
});
