import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

// PostgreSQL cannot store a NUL or a lone UTF-16 surrogate as text; SQLite
// can. The edge refuses both wherever a request carries text, so the two
// engines answer alike: 400 bad_request naming the field, nothing written.
// Titles and names are the exception: they are cleaned (title-cleaning.test.ts).

const NUL = '\u0000';
const SPEC = { nodes: [{ id: 'api', label: 'API' }, { id: 'db', label: 'DB' }], edges: ['api -> db : SQL'] };

/** One request carrying unstorable text, and the message naming where it is. */
interface Attempt {
  method: string;
  url: string;
  body?: unknown;
  message: string;
}

function attemptsOn(diagram: string, folder: string): Attempt[] {
  const d = `/api/v1/diagrams/${diagram}`;
  const nul = (message: string) => `${message} contains a NUL character`;
  return [
    { method: 'POST', url: '/api/v1/diagrams', body: { spec: { nodes: [{ id: `a${NUL}` }] } }, message: nul('body.spec.nodes[0].id') },
    { method: 'POST', url: '/api/v1/diagrams', body: { spec: { nodes: [{ id: 'a', label: `A${NUL}` }] } }, message: nul('body.spec.nodes[0].label') },
    { method: 'POST', url: '/api/v1/diagrams', body: { spec: { ...SPEC, edges: [`api -> db : ${NUL}`] } }, message: nul('body.spec.edges[0]') },
    { method: 'POST', url: '/api/v1/diagrams', body: { spec: { ...SPEC, edges: [{ from: 'api', to: 'db', label: NUL }] } }, message: nul('body.spec.edges[0].label') },
    { method: 'POST', url: '/api/v1/diagrams', body: { scene: { elements: [{ id: `e${NUL}`, type: 'rectangle', x: 0, y: 0, width: 10, height: 10 }] } }, message: nul('body.scene.elements[0].id') },
    { method: 'POST', url: '/api/v1/diagrams', body: { scene: { elements: [{ id: 't', type: 'text', text: `x${NUL}y`, x: 0, y: 0, width: 10, height: 10 }] } }, message: nul('body.scene.elements[0].text') },
    { method: 'POST', url: '/api/v1/diagrams', body: { scene: { elements: [{ id: 'k', type: 'rectangle', [`x${NUL}`]: 1 }] } }, message: `body.scene.elements[0]: the key "x\\u0000" contains a NUL character` },
    { method: 'POST', url: `${d}/patch`, body: { ops: [{ op: 'move', id: 'db', dx: 1, dy: 0 }, { op: 'add', element: { id: `n${NUL}`, type: 'rectangle', x: 0, y: 0, width: 10, height: 10 } }] }, message: nul('body.ops[1].element.id') },
    { method: 'POST', url: `${d}/patch`, body: { ops: [{ op: 'update', id: 'api-label', set: { text: `x${NUL}` } }] }, message: nul('body.ops[0].set.text') },
    { method: 'POST', url: `${d}/patch`, body: { ops: [{ op: 'delete', id: `db${NUL}` }] }, message: nul('body.ops[0].id') },
    { method: 'POST', url: `${d}/edit`, body: { addNodes: [{ id: 'cache', label: `C${NUL}` }] }, message: nul('body.addNodes[0].label') },
    { method: 'POST', url: `${d}/edit`, body: { updateNodes: [{ id: 'api', label: `API${NUL}` }] }, message: nul('body.updateNodes[0].label') },
    { method: 'POST', url: `${d}/edit`, body: { addEdges: [`db -> api : ${NUL}`] }, message: nul('body.addEdges[0]') },
    { method: 'POST', url: `${d}/regenerate`, body: { spec: { nodes: [{ id: `x${NUL}` }] } }, message: nul('body.spec.nodes[0].id') },
    { method: 'POST', url: `${d}/comments`, body: { body: `hello${NUL}` }, message: nul('body.body') },
    { method: 'POST', url: `${d}/comments`, body: { body: 'hello', elementId: `api${NUL}` }, message: nul('body.elementId') },
    { method: 'PUT', url: `${d}/public-link`, body: { enabled: true, password: `pw${NUL}` }, message: nul('body.password') },
    { method: 'POST', url: '/api/v1/folders', body: { name: 'f', parentId: `${folder}${NUL}` }, message: nul('body.parentId') },
    { method: 'PATCH', url: d, body: { folderId: `${folder}${NUL}` }, message: nul('body.folderId') },
    { method: 'GET', url: '/api/v1/diagrams/%00', message: nul('params.id') },
    { method: 'DELETE', url: '/api/v1/folders/%00', message: nul('params.id') },
    { method: 'GET', url: '/api/v1/icons?q=%00', message: nul('query.q') },
    { method: 'GET', url: '/api/v1/diagrams?cursor=a%00', message: nul('query.cursor') },
    // Half a surrogate pair, which only a JSON escape can carry.
    { method: 'POST', url: `${d}/comments`, body: '{"body":"hello \\ud800"}', message: 'body.body contains a lone UTF-16 surrogate' },
    { method: 'POST', url: `${d}/patch`, body: '{"ops":[{"op":"update","id":"api-label","set":{"text":"\\udc00 x"}}]}', message: 'body.ops[0].set.text contains a lone UTF-16 surrogate' },
  ];
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`unstorable text on ${engine}`, { skip: engine === 'postgres' ? skipWithoutPostgres : false }, () => {
    let h: ListeningHarness;
    let alice: TestUser;
    before(async () => {
      h = await startHarness({ engine, listen: true });
      alice = await h.user();
    });
    after(() => h.close());

    /** Everything of alice's the attempts could have changed. */
    async function snapshot(diagram: string) {
      const get = async (url: string) => (await h.call('GET', url, { token: alice.token })).json();
      return {
        diagram: await get(`/api/v1/diagrams/${diagram}`),
        comments: await get(`/api/v1/diagrams/${diagram}/comments`),
        diagrams: await get('/api/v1/diagrams'),
        folders: await get('/api/v1/folders'),
      };
    }

    test('a NUL or a lone surrogate anywhere in a body, path or query is 400 bad_request naming the field, and nothing is written', async () => {
      const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { title: 'Kept', spec: SPEC } });
      assert.equal(created.statusCode, 201, created.body);
      const diagram = created.json().id as string;
      const folder = (await h.call('POST', '/api/v1/folders', { token: alice.token, body: { name: 'Kept' } })).json().id as string;
      assert.equal((await h.call('POST', `/api/v1/diagrams/${diagram}/comments`, { token: alice.token, body: { body: 'kept' } })).statusCode, 201);
      const before = await snapshot(diagram);

      for (const { method, url, body, message } of attemptsOn(diagram, folder)) {
        const res = await h.call(method, url, { token: alice.token, ...(body === undefined ? {} : { body }) });
        assert.equal(res.statusCode, 400, `${method} ${url}: ${res.body}`);
        assert.deepEqual(res.json(), { error: 'bad_request', message }, `${method} ${url}`);
      }
      assert.deepEqual(await snapshot(diagram), before, 'nothing was written');
    });

    test('other control characters are stored as sent in text and ids', async () => {
      const created = await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { scene: { elements: [{ id: 'a\u0001b', type: 'text', text: 'tab\there\nbell\u0007', x: 0, y: 0, width: 10, height: 10 }] } } });
      assert.equal(created.statusCode, 201, created.body);
      const element = (await h.call('GET', `/api/v1/diagrams/${created.json().id}`, { token: alice.token })).json().scene.elements[0];
      assert.equal(element.id, 'a\u0001b');
      assert.equal(element.text, 'tab\there\nbell\u0007');
      const comment = await h.call('POST', `/api/v1/diagrams/${created.json().id}/comments`, { token: alice.token, body: { body: 'line one\nline\u0002two' } });
      assert.equal(comment.json().body, 'line one\nline\u0002two');
    });

    test('MCP add_comment with a NUL is a tool error carrying bad_request, and adds no comment', async () => {
      const diagram = (await h.call('POST', '/api/v1/diagrams', { token: alice.token, body: { spec: SPEC } })).json().id as string;
      const client = new Client({ name: 'unstorable-text-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${alice.token}` } } }));
      try {
        const result = (await client.callTool({ name: 'add_comment', arguments: { id: diagram, elementId: 'api', body: `hello${NUL}` } })) as { isError?: boolean; content: Array<{ text: string }> };
        assert.equal(result.isError, true);
        assert.deepEqual(JSON.parse(result.content[0]!.text), { error: 'bad_request', message: 'arguments.body contains a NUL character' });
      } finally {
        await client.close();
      }
      const comments = await h.call('GET', `/api/v1/diagrams/${diagram}/comments`, { token: alice.token });
      assert.deepEqual(comments.json().items, []);
    });
  });
}
