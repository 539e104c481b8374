import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ApiError, errorStatus } from '../../src/errors.ts';
import { errorCodesOf } from '../../src/http/openapi.ts';
import { apiRoutes } from '../../src/http/routes/index.ts';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let alice: TestUser;
describe('http/crosscutting', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
  });
  after(() => h.close());

  test('an unknown route is a 404 not_found envelope', async () => {
    for (const url of ['/api/v1/nothing', '/api/v2/diagrams', '/nothing', '/api/v1/diagrams/x/y/z']) {
      const res = await h.call('GET', url, { token: alice.token });
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), new ApiError('not_found').toBody());
    }
  });

  test('a wrong verb on a known route is 405 method_not_allowed with Allow', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['PUT', '/api/v1/me', /GET/],
      ['DELETE', '/api/v1/diagrams', /GET, POST|POST, GET/],
      ['POST', '/api/v1/diagrams/00000000-0000-4000-8000-000000000000', /PATCH/],
      ['GET', '/api/v1/diagrams/00000000-0000-4000-8000-000000000000/restore', /POST/],
      ['POST', '/api/v1/folders/00000000-0000-4000-8000-000000000000', /DELETE/],
    ];
    for (const [method, url, allow] of cases) {
      const res = await h.call(method, url, { token: alice.token });
      assert.equal(res.statusCode, 405, `${method} ${url}`);
      assert.equal(res.json().error, 'method_not_allowed');
      assert.match(res.headers.allow as string, allow);
    }
  });

  test('an unparseable body is 400 invalid_json, whatever the Content-Type', async () => {
    for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      const res = await h.call('POST', '/api/v1/folders', { token: alice.token, body: '{"name": ', headers: { 'content-type': contentType } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'invalid_json');
    }
    const ok = await h.call('POST', '/api/v1/folders', { token: alice.token, body: '{"name":"curl -d"}', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(ok.statusCode, 201, 'curl -d style requests work');
  });

  test('a body over 1 MiB is 413 payload_too_large', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(1024 * 1024), scene: sceneOf(1) });
    const res = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: big });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error, 'payload_too_large');
  });

  describe('over a real socket', () => {
    let port: number;
    before(async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      port = (h.app.server.address() as AddressInfo).port;
    });

    test('a chunked body over 1 MiB is 413 payload_too_large', async () => {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { port, host: '127.0.0.1', method: 'POST', path: '/api/v1/diagrams', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          },
        );
        req.on('error', (error) => (error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error));
        req.write('{"title":"');
        const chunk = 'y'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 20) {
            sent += 1;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end('"}');
        };
        pump();
      });
      assert.equal(status, 413);
      assert.equal(JSON.parse(body).error, 'payload_too_large');
    });

    /** Writes the bytes on a fresh connection and reads the one response, however the server ends it. */
    function rawExchange(request: string | Buffer): Promise<{ status: number; contentType: string; body: string }> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('latin1')));
        socket.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
        socket.on('close', () => {
          const split = text.indexOf('\r\n\r\n');
          const head = text.slice(0, split).split('\r\n');
          resolve({
            status: Number(head[0]!.split(' ')[1]),
            contentType: head.find((line) => /^content-type:/i.test(line))?.replace(/^content-type:\s*/i, '') ?? '',
            body: Buffer.from(text.slice(split + 4), 'latin1').toString('utf8'),
          });
        });
      });
    }

    /** Checks a refusal is the envelope with a catalogue code, at that code's status. */
    function assertEnvelope(answer: { status: number; contentType: string; body: string }, code: keyof typeof errorStatus, what: string) {
      assert.equal(answer.status, errorStatus[code], `${what}: status`);
      assert.match(answer.contentType, /^application\/json/, `${what}: content type`);
      const envelope = JSON.parse(answer.body);
      assert.equal(envelope.error, code, `${what}: ${answer.body}`);
      assert.deepEqual(Object.keys(envelope).filter((key) => key !== 'error' && key !== 'message'), [], `${what}: only error and message`);
    }

    test('requests the HTTP parser or the router refuse are answered with the envelope and a catalogue code', async () => {
      const auth = `Authorization: Bearer ${alice.token}\r\n`;
      const cases: Array<[string, string | Buffer, keyof typeof errorStatus]> = [
        ['a 60 KB header', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(60_000)}\r\n\r\n`, 'request_header_too_large'],
        ['a control byte in a header', Buffer.from(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n`, 'latin1'), 'bad_request'],
        ['a garbled request line', 'NOT HTTP AT ALL\r\n\r\n', 'bad_request'],
        ['both Content-Length and chunked', 'POST /api/v1/folders HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'bad_request'],
        ['a 5,000-character id', `GET /api/v1/diagrams/${'a'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`, 'uri_too_long'],
        ['%ff in an API path', `GET /api/v1/diagrams/%ff HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`, 'bad_request'],
        ['%ff in a web path', 'GET /app/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'bad_request'],
        ['%ff in a public page path', 'GET /p/%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'bad_request'],
        ['an unparseable Content-Type', `POST /api/v1/folders HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: ;;\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"name":"a"}`, 'bad_request'],
      ];
      for (const [what, request, code] of cases) assertEnvelope(await rawExchange(request), code, what);
      const folders = (await h.call('GET', '/api/v1/folders', { token: alice.token })).json().items as Array<{ name: string }>;
      assert.ok(!folders.some((f) => f.name === 'a'), 'no refused request was handled');
    });

    test('a request that does not arrive in time is answered 408 request_timeout in the envelope', async () => {
      // Node reports a slow request as a clientError after its headers timeout (a minute); the listener is what is under test.
      const accepted = new Promise<net.Socket>((resolve) => h.app.server.once('connection', resolve));
      const answer = rawExchange('GET /api/v1/me HTTP/1.1\r\n');
      const serverSide = await accepted;
      h.app.server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), serverSide);
      assertEnvelope(await answer, 'request_timeout', 'a slow request');
    });
  });

  test('every response carries x-request-id; a sane incoming one is echoed', async () => {
    const a = await h.call('GET', '/api/v1/me', { token: alice.token });
    const b = await h.call('GET', '/api/v1/nothing');
    assert.match(a.headers['x-request-id'] as string, /^[0-9a-f-]{36}$/);
    assert.match(b.headers['x-request-id'] as string, /^[0-9a-f-]{36}$/);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
    const echoed = await h.call('GET', '/api/v1/me', { token: alice.token, headers: { 'x-request-id': 'trace-123' } });
    assert.equal(echoed.headers['x-request-id'], 'trace-123');
    const refused = await h.call('GET', '/api/v1/me', { token: alice.token, headers: { 'x-request-id': '<script>' } });
    assert.notEqual(refused.headers['x-request-id'], '<script>');
  });

  test('health and readiness answer without a token', async () => {
    assert.deepEqual((await h.call('GET', '/healthz')).json(), { status: 'ok' });
    assert.deepEqual((await h.call('GET', '/readyz')).json(), { status: 'ready' });
  });

  test('the API kill switch answers 503 api_disabled until it is switched back on', async () => {
    await h.admin('api', 'disable');
    try {
      for (const [method, url] of [['GET', '/api/v1/me'], ['GET', '/api/v1/diagrams'], ['POST', '/api/v1/folders']] as const) {
        const res = await h.call(method, url, { token: alice.token, ...(method === 'POST' ? { body: { name: 'x' } } : {}) });
        assert.equal(res.statusCode, 503);
        assert.equal(res.json().error, 'api_disabled');
      }
      assert.equal((await h.call('GET', '/healthz')).statusCode, 200);
      assert.deepEqual((await h.call('GET', '/api/v1/folders', { token: alice.token })).statusCode, 503);
    } finally {
      await h.admin('api', 'enable');
    }
    assert.equal((await h.call('GET', '/api/v1/me', { token: alice.token })).statusCode, 200);
    const folders = (await h.call('GET', '/api/v1/folders', { token: alice.token })).json().items as Array<{ name: string }>;
    assert.ok(!folders.some((f) => f.name === 'x'), 'nothing was written while disabled');
  });

  test('the OpenAPI document is public and covers every route with its error codes', async () => {
    const res = await h.call('GET', '/api/v1/openapi.json');
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    for (const def of apiRoutes) {
      const op = doc.paths[def.url.replace(/:(\w+)/g, '{$1}')]?.[def.method.toLowerCase()];
      assert.ok(op, `${def.method} ${def.url} is documented`);
      assert.ok(op.responses[def.response.status], `${def.method} ${def.url} documents its success`);
      for (const code of errorCodesOf(def)) {
        const documented = op.responses[errorStatus[code]];
        assert.ok(documented?.description.includes(`\`${code}\``), `${def.method} ${def.url} documents ${code}`);
      }
    }
    assert.deepEqual(doc.paths['/api/v1/diagrams'].post.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreateDiagramBody' });
    assert.ok(doc.components.schemas.CreateDiagramBody.properties.scene);
  });

  describe('rate limits', () => {
    let limited: Harness;
    before(async () => {
      limited = await startHarness({ env: { RATE_LIMIT_READ_PER_MIN: '5', RATE_LIMIT_WRITE_PER_MIN: '3' } });
    });
    after(() => limited.close());

    test('every API response states the policy; counted ones state the remaining budget', async () => {
      const user = await limited.user();
      const res = await limited.call('GET', '/api/v1/me', { token: user.token });
      assert.equal(res.headers['ratelimit-policy'], '"read";q=5;w=60, "write";q=3;w=60');
      assert.match(res.headers.ratelimit as string, /^"read";r=4;t=\d+$/);
      const missing = await limited.call('GET', '/api/v1/nothing', { token: user.token });
      assert.equal(missing.headers['ratelimit-policy'], '"read";q=5;w=60, "write";q=3;w=60');
    });

    test('writes over the cap are 429 rate_limited with Retry-After; reads count separately', async () => {
      const user = await limited.user();
      for (let i = 0; i < 3; i++) {
        const ok = await limited.call('POST', '/api/v1/folders', { token: user.token, body: { name: `f${i}` } });
        assert.equal(ok.statusCode, 201);
        assert.match(ok.headers.ratelimit as string, new RegExp(`^"write";r=${2 - i};t=\\d+$`));
      }
      const refused = await limited.call('POST', '/api/v1/folders', { token: user.token, body: { name: 'one too many' } });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().error, 'rate_limited');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers['retry-after']}`);
      assert.match(refused.headers.ratelimit as string, /^"write";r=0;t=\d+$/);

      const read = await limited.call('GET', '/api/v1/folders', { token: user.token });
      assert.equal(read.statusCode, 200, 'the read bucket is independent');
      assert.equal(read.json().items.length, 3, 'the refused write wrote nothing');

      const other = await limited.user();
      assert.equal((await limited.call('POST', '/api/v1/folders', { token: other.token, body: { name: 'mine' } })).statusCode, 201, 'limits are per user');
    });

    test('reads over the cap are 429 too', async () => {
      const user = await limited.user();
      for (let i = 0; i < 5; i++) assert.equal((await limited.call('GET', '/api/v1/me', { token: user.token })).statusCode, 200);
      const refused = await limited.call('GET', '/api/v1/diagrams', { token: user.token });
      assert.equal(refused.statusCode, 429);
      assert.ok(refused.headers['retry-after']);
    });
  });

  test('secrets of emailed links never reach the logs, whichever route (or none) a request hits', async () => {
    const secret = 'Zq8secretLinkToken0123456789abcdef';
    for (const [method, url] of [
      ['HEAD', `/verify?token=${secret}`],
      ['POST', `/verify?x=1&token=${secret}`],
      ['GET', `/reset/${secret}`],
      ['GET', `/reset/${secret}/more`],
      ['GET', `/nowhere?token=${secret}`],
    ] as const) {
      await h.call(method, url);
    }
    assert.ok(!h.logs().includes(secret), 'a link secret was logged');
    assert.match(h.logs(), /token=\[redacted\]/);
    assert.match(h.logs(), /\/reset\/\[redacted\]/);
  });

  describe('TRUST_PROXY', () => {
    async function unauthenticatedBudget(env: Record<string, string>) {
      const proxied = await startHarness({ env: { RATE_LIMIT_READ_PER_MIN: '2', ...env } });
      try {
        const from = (address: string) => proxied.call('GET', '/api/v1/me', { headers: { 'x-forwarded-for': address } });
        const first = [await from('203.0.113.5'), await from('203.0.113.5'), await from('203.0.113.5')].map((r) => r.statusCode);
        const other = (await from('198.51.100.7')).statusCode;
        return { first, other };
      } finally {
        await proxied.close();
      }
    }

    test('behind a trusted proxy, per-address limits count the forwarded client address', async () => {
      const { first, other } = await unauthenticatedBudget({ TRUST_PROXY: 'loopback' });
      assert.deepEqual(first, [401, 401, 429]);
      assert.equal(other, 401, 'another client behind the proxy has its own budget');
    });

    test('without TRUST_PROXY, X-Forwarded-For is ignored: every client shares the connecting address', async () => {
      const { first, other } = await unauthenticatedBudget({});
      assert.deepEqual(first, [401, 401, 429]);
      assert.equal(other, 429, 'a forged header does not buy a fresh budget');
    });

    test('a malformed TRUST_PROXY stops the server at start', () => {
      assert.throws(() => loadConfig({ TRUST_PROXY: 'everyone; drop table' }), /TRUST_PROXY/);
    });
  });
});
