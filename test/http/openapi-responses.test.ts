/**
 * The check every harness applies to the API's answers (helpers/openapi-responses.ts):
 * that it fails when an answer strays from the published OpenAPI document, and
 * that it sees every answer, whether asked for with inject or over a socket.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { type ApiExchange, ApiResponseMismatch, OpenApiResponseChecker, type OpenApiDocument, toJsonSchema2020, watchApiResponses } from '../helpers/openapi-responses.ts';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';

let h: Harness;
let alice: TestUser;
let checker: OpenApiResponseChecker;
describe('http/openapi-responses', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
    checker = new OpenApiResponseChecker((await h.call('GET', '/api/v1/openapi.json')).json());
  });
  after(() => h.close());

  const JSON_TYPE = 'application/json; charset=utf-8';
  const identity = { id: '0f452b73-5cd7-4217-8d41-4461223eda9a', email: 'a@example.com', capabilities: ['read'], scope: 'read' };
  const me = (overrides: Partial<ApiExchange> = {}): ApiExchange => ({
    method: 'GET',
    url: '/api/v1/me',
    route: '/api/v1/me',
    status: 200,
    contentType: JSON_TYPE,
    body: JSON.stringify(identity),
    ...overrides,
  });
  const notFoundAt = (url: string, overrides: Partial<ApiExchange> = {}): ApiExchange => ({
    method: 'GET',
    url,
    status: 404,
    contentType: JSON_TYPE,
    body: '{"error":"not_found","message":"No such resource exists, or you cannot see it."}',
    ...overrides,
  });

  function assertMismatch(exchange: ApiExchange, ...patterns: RegExp[]) {
    assert.throws(
      () => checker.check(exchange),
      (error: unknown) => {
        assert.ok(error instanceof ApiResponseMismatch, `expected an ApiResponseMismatch, got ${error}`);
        for (const pattern of patterns) assert.match(error.message, pattern);
        return true;
      },
    );
  }

  describe('the response checker, on the published document', () => {
    test('passes an answer the document describes', () => {
      checker.check(me());
      checker.check(me({ method: 'HEAD' }));
      checker.check(me({ status: 401, body: '{"error":"unauthorized","message":"m"}' }));
    });

    test('a body that does not match the schema fails, naming the request, the status, the schema errors and the body', () => {
      const wrong = { ...identity, email: 42, capabilities: ['fly'] };
      assertMismatch(
        me({ url: '/api/v1/me?x=1', body: JSON.stringify(wrong) }),
        /^GET \/api\/v1\/me\?x=1 answered 200 \(application\/json; charset=utf-8\)/,
        /the body does not match the documented schema/,
        /operation: GET \/api\/v1\/me \(getMe\)/,
        /\/email must be string/,
        /\/capabilities\/0 must be equal to one of the allowed values/,
        /body: \{"id":"0f452b73/,
      );
      const { email: _, ...missing } = identity;
      assertMismatch(me({ body: JSON.stringify(missing) }), /must have required property 'email'/);
      assertMismatch(me({ body: '{"id": ' }), /the body is not JSON/);
    });

    test('a property the document does not name fails', () => {
      assertMismatch(me({ body: JSON.stringify({ ...identity, admin: true }) }), /must NOT have additional properties/, /"additionalProperty":"admin"/);
    });

    test('a status the operation does not document fails', () => {
      assertMismatch(me({ status: 201 }), /status 201 is not documented \(documented: 200, /);
      assertMismatch(me({ status: 409, body: '{"error":"stale_read"}' }), /status 409 is not documented/);
    });

    test('a content type the status does not document fails', () => {
      assertMismatch(me({ contentType: 'text/html; charset=utf-8', body: '<p>hi</p>' }), /content type text\/html is not documented for status 200/);
      assertMismatch(me({ contentType: undefined }), /content type \(none\) is not documented/);
      const icon = { method: 'GET', url: '/api/v1/icons/icon-database', route: '/api/v1/icons/:id', status: 200, body: '<svg/>' };
      checker.check({ ...icon, contentType: 'image/svg+xml' });
      assertMismatch({ ...icon, contentType: 'image/png' }, /content type image\/png is not documented/);
    });

    test('an error status must carry the Error envelope', () => {
      assertMismatch(me({ status: 401, body: '{"message":"who are you"}' }), /must have required property 'error'/);
      assertMismatch(me({ status: 401, body: '{"error":"unauthorized","message":"m","detail":1}' }), /must NOT have additional properties/);
    });

    test('a 204 must have no body', () => {
      const trash = { method: 'DELETE', url: '/api/v1/diagrams/x', route: '/api/v1/diagrams/:id', status: 204 };
      checker.check({ ...trash, body: '' });
      assertMismatch({ ...trash, body: '{}', contentType: JSON_TYPE }, /status 204 is documented without a body/);
    });

    test('null is accepted exactly where the document says nullable', () => {
      const page = { method: 'GET', url: '/api/v1/diagrams', route: '/api/v1/diagrams', status: 200, contentType: JSON_TYPE };
      checker.check({ ...page, body: '{"items":[],"nextCursor":null}' });
      assertMismatch({ ...page, body: '{"items":[],"nextCursor":5}' }, /\/nextCursor must be string,null/);
      assertMismatch({ ...me(), body: JSON.stringify({ ...identity, email: null }) }, /\/email must be string/);
    });

    test('answers with no documented operation under /api/v1 must be refusals in the Error envelope', () => {
      checker.check(notFoundAt('/api/v1/nope'));
      checker.check(notFoundAt('http://127.0.0.1/api/v1/nope?x'));
      checker.check(notFoundAt('/api/v1/me', { method: 'PUT', route: '/api/v1/me', status: 405, body: '{"error":"method_not_allowed","message":"allowed methods: GET, HEAD"}' }));
      assertMismatch(notFoundAt('/api/v1/nope', { status: 200 }), /no documented operation may only be refused/, /operation: no documented operation/);
      assertMismatch(notFoundAt('/api/v1/nope', { contentType: 'text/html', body: '<h1>Not found</h1>' }), /content type text\/html is not application\/json/);
      assertMismatch(notFoundAt('/api/v1/nope', { body: '{"statusCode":404}' }), /must have required property 'error'/);
    });

    test('pages, the web app and /mcp are not the API: not checked', () => {
      for (const url of ['/', '/app', '/p/abc', '/mcp', '/app/api/diagrams/x']) checker.check(notFoundAt(url, { status: 200, contentType: 'text/html', body: '<html></html>' }));
    });
  });

  describe('OpenAPI 3.0 schemas in JSON Schema 2020-12', () => {
    test('nullable widens the type, and the enum; without a type it is an anyOf with null', () => {
      assert.deepEqual(toJsonSchema2020({ type: 'string', nullable: true }), { type: ['string', 'null'] });
      assert.deepEqual(toJsonSchema2020({ type: 'string', enum: ['a'], nullable: true }), { type: ['string', 'null'], enum: ['a', null] });
      assert.deepEqual(toJsonSchema2020({ anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true }), {
        anyOf: [{ type: 'null' }, { anyOf: [{ type: 'string' }, { type: 'number' }] }],
      });
      assert.deepEqual(toJsonSchema2020({ type: 'string', nullable: false }), { type: 'string' });
    });

    test('a boolean exclusiveMinimum/exclusiveMaximum becomes an exclusive bound', () => {
      assert.deepEqual(toJsonSchema2020({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }), {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 9,
      });
    });

    test('subschemas are rewritten, properties named like keywords are not', () => {
      const schema = { type: 'object', properties: { nullable: { type: 'boolean' }, a: { type: 'array', items: { type: 'integer', nullable: true } } } };
      assert.deepEqual(toJsonSchema2020(schema), {
        type: 'object',
        properties: { nullable: { type: 'boolean' }, a: { type: 'array', items: { type: ['integer', 'null'] } } },
      });
    });
  });

  describe('the harness checks every API answer it receives', () => {
    test('through call, app.inject and a real socket', async () => {
      const before = h.apiResponses.checked;
      const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: sceneOf(1) } });
      assert.equal(created.statusCode, 201);
      await h.app.inject({ method: 'GET', url: `/api/v1/diagrams/${created.json().id}`, headers: { authorization: `Bearer ${alice.token}` } });
      assert.equal(h.apiResponses.checked, before + 2);
      const listening = await startHarness({ listen: true });
      try {
        const res = await fetch(`${listening.baseUrl}/api/v1/nope`);
        assert.equal(res.status, 404);
        await fetch(`${listening.baseUrl}/healthz`);
        await fetch(`${listening.baseUrl}/login`); // a page: not checked
        assert.equal(listening.apiResponses.checked, 2);
      } finally {
        await listening.close();
      }
      assert.deepEqual(h.apiResponses.mismatches, []);
    });

    test('an answer the document does not describe rejects the inject that got it, and over a socket is recorded', async () => {
      // A toy API whose document promises one thing and whose handler sends another; watched as the harness watches.
      const document: OpenApiDocument = {
        openapi: '3.1.0',
        components: { schemas: { Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } } },
        paths: {
          '/api/v1/thing': {
            get: {
              operationId: 'getThing',
              responses: { 200: { content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } } } },
            },
          },
        },
      };
      const app = Fastify();
      app.get('/api/v1/thing', async (request, reply) => (request.query as { teapot?: string }).teapot ? reply.code(418).send({ error: 'teapot' }) : { n: 'one' });
      const watch = watchApiResponses(app, async () => new OpenApiResponseChecker(document));
      await app.ready();
      await watch.ready();
      try {
        await assert.rejects(app.inject({ method: 'GET', url: '/api/v1/thing' }), (error: unknown) => {
          assert.ok(error instanceof ApiResponseMismatch);
          assert.match(error.message, /^GET \/api\/v1\/thing answered 200 .*the body does not match the documented schema/);
          assert.match(error.message, /\/n must be integer/);
          return true;
        });
        await assert.rejects(app.inject({ method: 'GET', url: '/api/v1/thing?teapot=1' }), /status 418 is not documented \(documented: 200\)/);
        await app.listen({ port: 0, host: '127.0.0.1' });
        const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/thing`);
        assert.deepEqual(await res.json(), { n: 'one' }, 'the answer itself is left as it was');
        assert.equal(watch.mismatches.length, 3);
        assert.match(watch.mismatches[2]!.message, /^GET \/api\/v1\/thing answered 200/);
      } finally {
        await app.close();
      }
    });
  });
});
