/**
 * The web app's JSON endpoints (`/app/api/…`) are declared like the API's operations and served by
 * the same code: every one the router serves is declared (the live socket apart), and each answers
 * as the API does: 401 in the envelope when signed out, 403 csrf_failed for a change without the
 * session's token, 405 with Allow for another method, 400 for an unknown query parameter. The
 * harness checks every answer against the declarations' document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { webApiRoutes } from '../../src/web/web-api.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { servedRoutes } from '../helpers/routes.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';

let h: Harness;
let owner: { id: string; token: string };
let web: SignedIn;
let diagramId: string;

describe('web/web-api', () => {
  before(async () => {
    h = await startHarness();
    owner = await h.user();
    web = await signIn(h, owner.id);
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Plan', spec: { nodes: [{ id: 'db', label: 'Orders', icon: 'icon-postgresql' }] } } });
    assert.equal(created.statusCode, 201, created.body);
    diagramId = created.json().id;
  });
  after(() => h.close());

  /** A declared path with its parameters filled: this diagram, the owner, or an id nothing has. */
  const filled = (url: string) => url.replace(':id', diagramId).replace(/:\w+/g, '00000000-0000-4000-8000-000000000000');

  test('every JSON endpoint the web app serves under /app/api/ is declared, and every declaration is served', () => {
    const declared = new Set(webApiRoutes.map((def) => `${def.method} ${def.url}`));
    const served = servedRoutes(h.app)
      .filter((route) => route.url.startsWith('/app/api/') && route.url !== '/app/api/diagrams/:id/live')
      .flatMap((route) => route.methods.filter((method) => !['HEAD', 'OPTIONS'].includes(method)).map((method) => `${method} ${route.url}`));
    // A declared path's other methods are served too, refusing with 405 (below).
    const paths = new Set(webApiRoutes.map((def) => def.url));
    for (const route of served) assert.ok(declared.has(route) || paths.has(route.split(' ')[1]!), `${route} is declared`);
    for (const route of declared) assert.ok(served.includes(route), `${route} is served`);
    assert.ok(declared.size >= 18, `${declared.size} endpoints`);
  });

  test('signed out, each endpoint answers 401 unauthorized in the error envelope', async () => {
    for (const def of webApiRoutes) {
      const res = await h.call(def.method, filled(def.url), def.method === 'GET' ? {} : { body: {} });
      assert.equal(res.statusCode, 401, `${def.method} ${def.url}: ${res.body}`);
      assert.equal(res.json().error, 'unauthorized');
      assert.match(res.headers['content-type'] as string, /^application\/json/);
    }
  });

  test('a change without the session\'s CSRF token answers 403 csrf_failed and changes nothing', async () => {
    for (const def of webApiRoutes.filter((route) => route.method !== 'GET')) {
      const res = await h.call(def.method, filled(def.url), { headers: { cookie: web.cookie }, body: {} });
      assert.equal(res.statusCode, 403, `${def.method} ${def.url}: ${res.body}`);
      assert.equal(res.json().error, 'csrf_failed');
    }
    const read = await h.call('GET', `/app/api/diagrams/${diagramId}/sharing`, { headers: { cookie: web.cookie } });
    assert.equal(read.json().publicLink.enabled, false, 'the public-link change was not made');
  });

  test('another method on a declared path answers 405 with the methods it serves', async () => {
    const res = await h.call('PATCH', `/app/api/diagrams/${diagramId}/sharing`, { headers: { cookie: web.cookie, 'x-csrf-token': web.csrfToken }, body: {} });
    assert.equal(res.statusCode, 405, res.body);
    assert.equal(res.json().error, 'method_not_allowed');
    assert.equal(res.headers.allow, 'GET, HEAD');
  });

  test('an unknown query parameter and a body its schema refuses answer 400 as the API does', async () => {
    const query = await h.call('GET', `/app/api/diagrams/${diagramId}/revisions?limt=5`, { headers: { cookie: web.cookie } });
    assert.equal(query.statusCode, 400, query.body);
    assert.match(query.json().message, /limt/);
    const body = await h.call('PUT', `/app/api/diagrams/${diagramId}/shares/${owner.id}`, { headers: { cookie: web.cookie, 'x-csrf-token': web.csrfToken }, body: { role: 'captain' } });
    assert.equal(body.statusCode, 400, body.body);
    assert.equal(body.json().error, 'bad_request');
    assert.match(body.json().message, /^role: /);
  });

  test('the editor\'s diagram is the API\'s diagram with its icons\' images after the scene, as one JSON object', async () => {
    const res = await h.call('GET', `/app/api/diagrams/${diagramId}`, { headers: { cookie: web.cookie } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const diagram = res.json();
    const api = (await h.call('GET', `/api/v1/diagrams/${diagramId}`, { token: owner.token })).json();
    const { files, ...rest } = diagram;
    assert.deepEqual(rest, api);
    assert.deepEqual(Object.keys(diagram).slice(-2), ['scene', 'files']);
    const image = diagram.scene.elements.find((element: { type: string }) => element.type === 'image');
    assert.ok(image, 'the icon is an image element');
    assert.match(files[image.fileId].dataURL, /^data:image\/svg\+xml/);
  });
});
