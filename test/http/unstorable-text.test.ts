import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLEANED_FIELDS } from '../../src/edge/validate.ts';
import { apiRoutes } from '../../src/http/routes/index.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';

// PostgreSQL cannot store a NUL or a lone UTF-16 surrogate as text; SQLite
// can. The edge refuses both wherever a request carries text, so the two
// engines answer alike: 400 bad_request naming the field, nothing written.
// Titles and names are the exception: they are cleaned, never refused: control
// characters (a NUL included) are dropped, whitespace is collapsed and trimmed,
// and the rest is stored and echoed.

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

const DIRTY = '  Quarterly\u0000 report\u0007 <b>draft</b>\n ';
const CLEAN = 'Quarterly report <b>draft</b>';

/** The REST operations whose body takes a title or a name: each is exercised below. */
const TITLED_OPERATIONS = ['createDiagram', 'updateDiagram', 'regenerateDiagram', 'createFolder', 'updateFolder', 'createWorkspace', 'renameWorkspace'];

test('every REST body field named like a title or name is one of the operations exercised here', () => {
  const titled = apiRoutes
    .filter((route) => {
      const shape = (route.body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      return CLEANED_FIELDS.some((field) => field in shape);
    })
    .map((route) => route.operationId)
    .sort();
  assert.deepEqual(titled, [...TITLED_OPERATIONS].sort());
});

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

    const api = (method: string, url: string, body?: unknown) => h.call(method, url, { token: alice.token, ...(body === undefined ? {} : { body }) });
    const titleOf = async (id: string) => (await api('GET', `/api/v1/diagrams/${id}`)).json().title as string;
    const folderName = async (id: string) => ((await api('GET', '/api/v1/folders')).json().items as Array<{ id: string; name: string }>).find((f) => f.id === id)?.name;
    const workspaceName = async (id: string) => ((await api('GET', '/api/v1/workspaces')).json().items as Array<{ id: string; name: string }>).find((w) => w.id === id)?.name;

    test('POST /diagrams with control characters and a NUL in the title: 201, stored cleaned, echoed by create, GET and the list', async () => {
      for (const content of [{ spec: SPEC }, { scene: { elements: [] } }]) {
        const created = await api('POST', '/api/v1/diagrams', { title: DIRTY, ...content });
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(created.json().title, CLEAN);
        const id = created.json().id as string;
        assert.equal(await titleOf(id), CLEAN);
        const listed = (await api('GET', '/api/v1/diagrams')).json().items as Array<{ id: string; title: string }>;
        assert.equal(listed.find((d) => d.id === id)?.title, CLEAN);
      }
    });

    test('PATCH /diagrams/:id and regenerate clean the title too; one that cleans to nothing is still 400', async () => {
      const id = (await api('POST', '/api/v1/diagrams', { title: 'Before', spec: SPEC })).json().id as string;
      const renamed = await api('PATCH', `/api/v1/diagrams/${id}`, { title: DIRTY.replace('Quarterly', 'Renamed') });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json().title, CLEAN.replace('Quarterly', 'Renamed'));
      assert.equal(await titleOf(id), CLEAN.replace('Quarterly', 'Renamed'));

      const regenerated = await api('POST', `/api/v1/diagrams/${id}/regenerate`, { spec: SPEC, title: DIRTY });
      assert.equal(regenerated.statusCode, 200, regenerated.body);
      assert.equal(regenerated.json().title, CLEAN);
      assert.equal(await titleOf(id), CLEAN);

      const empty = await api('PATCH', `/api/v1/diagrams/${id}`, { title: ' \u0000\u0007 ' });
      assert.equal(empty.statusCode, 400);
      assert.equal(empty.json().error, 'bad_request');
      assert.equal(await titleOf(id), CLEAN, 'nothing was written');
    });

    test('folder and workspace names are cleaned the same way, on create and rename', async () => {
      const folder = await api('POST', '/api/v1/folders', { name: DIRTY });
      assert.equal(folder.statusCode, 201, folder.body);
      assert.equal(folder.json().name, CLEAN);
      assert.equal(await folderName(folder.json().id), CLEAN);
      const renamedFolder = await api('PATCH', `/api/v1/folders/${folder.json().id}`, { name: `${DIRTY}\u0000II` });
      assert.equal(renamedFolder.statusCode, 200, renamedFolder.body);
      assert.equal(await folderName(folder.json().id), `${CLEAN} II`);

      const workspace = await api('POST', '/api/v1/workspaces', { name: DIRTY });
      assert.equal(workspace.statusCode, 201, workspace.body);
      assert.equal(workspace.json().name, CLEAN);
      const renamedWorkspace = await api('PATCH', `/api/v1/workspaces/${workspace.json().id}`, { name: `${DIRTY}\u0000II` });
      assert.equal(renamedWorkspace.statusCode, 200, renamedWorkspace.body);
      assert.equal(await workspaceName(workspace.json().id), `${CLEAN} II`);
    });

    test('MCP tools clean titles and names rather than refusing them', async () => {
      const client = new Client({ name: 'title-cleaning-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${alice.token}` } } }));
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
        const text = result.content.find((c) => c.type === 'text')?.text ?? '';
        assert.ok(!result.isError, `${name}: ${text}`);
        return JSON.parse(text);
      };
      try {
        const generated = await call('generate_diagram', { title: DIRTY, spec: SPEC });
        assert.equal(generated.title, CLEAN);
        assert.equal(await titleOf(generated.id), CLEAN);
        const scene = await call('create_scene', { title: DIRTY, elements: [{ type: 'rectangle', id: 'r', x: 0, y: 0 }] });
        assert.equal(await titleOf(scene.id), CLEAN);
        await call('rename_diagram', { id: scene.id, title: DIRTY.replace('Quarterly', 'Renamed') });
        assert.equal(await titleOf(scene.id), CLEAN.replace('Quarterly', 'Renamed'));
        await call('regenerate_diagram', { id: scene.id, title: DIRTY, spec: SPEC });
        assert.equal(await titleOf(scene.id), CLEAN);
        const folder = await call('create_folder', { name: DIRTY });
        assert.equal(await folderName(folder.id), CLEAN);
        const workspace = await call('create_workspace', { name: DIRTY });
        assert.equal(await workspaceName(workspace.id), CLEAN);
      } finally {
        await client.close();
      }
    });

    test('the web app cleans titles and names from its forms and its JSON endpoints', async () => {
      const web: SignedIn = await signIn(h, alice.id);
      const submit = (url: string, fields: Record<string, string>) =>
        h.call('POST', url, {
          body: new URLSearchParams({ _csrf: web.csrfToken, ...fields }).toString(),
          headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        });
      const newest = async () => (await api('GET', '/api/v1/diagrams')).json().items[0] as { id: string; title: string };

      const made = await submit('/app/diagrams', { title: DIRTY, spec: JSON.stringify(SPEC) });
      assert.equal(made.statusCode, 303, made.body);
      const diagram = await newest();
      assert.equal(diagram.title, CLEAN);
      assert.equal((await submit(`/app/d/${diagram.id}/rename`, { title: DIRTY.replace('Quarterly', 'Renamed') })).statusCode, 303);
      assert.equal(await titleOf(diagram.id), CLEAN.replace('Quarterly', 'Renamed'));

      assert.equal((await submit('/app/folders', { name: `${DIRTY}\u0000web` })).statusCode, 303);
      const folders = (await api('GET', '/api/v1/folders')).json().items as Array<{ name: string }>;
      assert.ok(folders.some((f) => f.name === `${CLEAN} web`), JSON.stringify(folders));

      assert.equal((await submit('/app/workspaces', { name: `${DIRTY}\u0000web` })).statusCode, 303);
      const workspaces = (await api('GET', '/api/v1/workspaces')).json().items as Array<{ id: string; name: string }>;
      const workspace = workspaces.find((w) => w.name === `${CLEAN} web`);
      assert.ok(workspace, JSON.stringify(workspaces));
      const renamed = await h.call('PUT', `/app/api/workspaces/${workspace.id}`, { headers: { cookie: web.cookie, 'x-csrf-token': web.csrfToken }, body: { name: `${DIRTY}\u0000json` } });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json().name, `${CLEAN} json`);
      assert.equal(await workspaceName(workspace.id), `${CLEAN} json`);

      const minted = await submit('/app/settings/tokens', { name: DIRTY, 'cap-read': '1', expires: '30' });
      assert.equal(minted.statusCode, 200, minted.body);
      assert.match(minted.body, /<td[^>]*>Quarterly report &#60;b&#62;draft&#60;\/b&#62;<\/td>/);
    });
  });
}
