import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

const BIN = fileURLToPath(new URL('../../bin/drawbridge-mcp', import.meta.url));

let h: Harness;
let alice: TestUser;
let apiUrl: string;
before(async () => {
  h = await startHarness();
  alice = await h.user({ caps: 'read,write' });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
after(() => h.close());

/** Env for the child: no stored login (fresh HOME), explicit token and URL. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'SERVICE_TOKEN' && k !== 'SERVICE_API_URL') env[k] = v;
  return { ...env, HOME: os.tmpdir(), XDG_CONFIG_HOME: `${os.tmpdir()}/drawbridge-mcp-test-none`, ...extra };
}

function json(result: unknown): any {
  const content = (result as { content: Array<{ type: string; text: string }> }).content;
  return JSON.parse(content[0]!.text);
}

describe('drawbridge-mcp over stdio against a running server', () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: 'mcp-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: BIN, args: [], env: childEnv({ SERVICE_TOKEN: alice.token, SERVICE_API_URL: apiUrl }), stderr: 'ignore' }));
  });
  after(() => client.close());

  test('lists the tools and the two resources', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    for (const name of ['generate_diagram', 'create_scene', 'read_diagram', 'get_scene', 'list_diagrams', 'rename_diagram', 'move_diagram', 'edit_diagram', 'regenerate_diagram', 'patch_elements', 'trash_diagram', 'restore_diagram', 'lint_diagram', 'list_icons', 'list_folders', 'create_folder', 'list_comments', 'add_comment', 'export_diagram']) {
      assert.ok(names.includes(name), `missing tool ${name}`);
    }
    assert.ok(!names.some((n) => n.includes('publish')));
    const uris = (await client.listResources()).resources.map((r) => r.uri).sort();
    assert.deepEqual(uris, ['drawbridge://docs/scene-guide', 'drawbridge://docs/spec-grammar']);
    const grammar = await client.readResource({ uri: 'drawbridge://docs/spec-grammar' });
    assert.match(String((grammar.contents[0] as { text: string }).text), /nodes/);
  });

  test('generate, read, list, patch, lint, source; trash is refused without the delete capability', async () => {
    const created = json(await client.callTool({ name: 'generate_diagram', arguments: { title: 'MCP', spec: { nodes: [{ id: 'a', label: 'Alpha' }, { id: 'b', label: 'Beta' }], edges: ['a -> b'] } } }));
    assert.equal(created.title, 'MCP');
    assert.equal(created.elementCount, 5);

    const summary = json(await client.callTool({ name: 'read_diagram', arguments: { id: created.id, includeGeometry: true } }));
    assert.equal(summary.title, 'MCP');
    assert.deepEqual(summary.nodes.map((n: { id: string; label?: string }) => [n.id, n.label]).sort(), [['a', 'Alpha'], ['b', 'Beta']]);
    assert.equal(summary.edges.length, 1);
    assert.equal(summary.edges[0].from, 'a');
    assert.equal(summary.edges[0].to, 'b');
    assert.equal(typeof summary.nodes[0].x, 'number');

    const list = json(await client.callTool({ name: 'list_diagrams', arguments: {} }));
    assert.ok(list.items.some((d: { id: string }) => d.id === created.id));

    const patched = json(await client.callTool({ name: 'patch_elements', arguments: { id: created.id, ops: [{ op: 'move', id: 'b', dx: 10, dy: 0 }] } }));
    assert.equal(patched.applied, 1);

    const lint = json(await client.callTool({ name: 'lint_diagram', arguments: { id: created.id } }));
    assert.ok(Array.isArray(lint.issues));

    const source = json(await client.callTool({ name: 'get_diagram_source', arguments: { id: created.id, language: 'mermaid' } }));
    assert.equal(source.text, 'flowchart TB\n  a["Alpha"]\n  b["Beta"]\n  a --> b\n');
    assert.deepEqual(source.warnings, []);
    assert.match(source.editorUrl, new RegExp(`/app/d/${created.id}$`));
    const spec = JSON.parse(json(await client.callTool({ name: 'get_diagram_source', arguments: { id: created.id } })).text);
    assert.deepEqual(spec.edges, [{ from: 'a', to: 'b' }], 'a spec by default');

    const trash = await client.callTool({ name: 'trash_diagram', arguments: { id: created.id } });
    assert.equal(trash.isError, true);
    assert.match(json(trash).error, /insufficient_scope/);
    const after = json(await client.callTool({ name: 'read_diagram', arguments: { id: created.id } }));
    assert.equal(after.deletedAt, null);
  });

  test('read_diagram includes a rendered PNG image block; export_diagram returns PNG as an image and SVG as text', async () => {
    const created = json(await client.callTool({ name: 'generate_diagram', arguments: { spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } } }));
    const read = (await client.callTool({ name: 'read_diagram', arguments: { id: created.id } })) as { content: Array<{ type: string; text?: string; data?: string; mimeType?: string }> };
    assert.deepEqual(read.content.map((b) => b.type), ['text', 'image']);
    assert.equal(JSON.parse(read.content[0]!.text!).nodes.length, 2);
    assert.equal(read.content[1]!.mimeType, 'image/png');
    assert.equal(pngSize(Buffer.from(read.content[1]!.data!, 'base64')).width, 1024);

    const png = (await client.callTool({ name: 'export_diagram', arguments: { id: created.id, format: 'png', quality: 'fast' } })) as typeof read;
    assert.equal(JSON.parse(png.content[0]!.text!).quality, 'fast');
    assert.equal(png.content[1]!.type, 'image');
    assert.equal(pngSize(Buffer.from(png.content[1]!.data!, 'base64')).width, 1024);

    const svg = (await client.callTool({ name: 'export_diagram', arguments: { id: created.id, format: 'svg' } })) as typeof read;
    assert.equal(svg.content[1]!.type, 'text');
    assert.match(svg.content[1]!.text!, /^(<\?xml[^>]*>\s*)?<svg[\s>]/);
  });

  test('create_scene fills the minimal fields of terse elements', async () => {
    const created = json(await client.callTool({ name: 'create_scene', arguments: { title: 'Terse', elements: [{ type: 'rectangle', id: 'r', x: 0, y: 0 }, { type: 'ellipse', x: 300, y: 0 }] } }));
    assert.equal(created.elementCount, 2);
    const summary = json(await client.callTool({ name: 'read_diagram', arguments: { id: created.id } }));
    assert.deepEqual(summary.counts, { rectangle: 1, ellipse: 1 });
  });

  test('tool arguments are checked as they arrive: a top-level __proto__ is PROTO_KEY, a NUL is bad_request, and nothing is written', async () => {
    const polluted = await client.callTool({ name: 'create_folder', arguments: JSON.parse('{"name":"Polluted","__proto__":{"polluted":true}}') });
    assert.equal(polluted.isError, true);
    assert.deepEqual(json(polluted), { error: 'PROTO_KEY', message: 'arguments.__proto__: the key "__proto__" is not allowed anywhere in a payload' });
    const nul = await client.callTool({ name: 'create_folder', arguments: { name: 'Nul', parentId: 'p\u0000' } });
    assert.equal(nul.isError, true);
    assert.deepEqual(json(nul), { error: 'bad_request', message: 'arguments.parentId contains a NUL character' });
    const folders = (await h.call('GET', '/api/v1/folders', { token: alice.token })).json().items as Array<{ name: string }>;
    assert.ok(!folders.some((f) => f.name.startsWith('Polluted') || f.name.startsWith('Nul')));
  });

  test('an empty diagram id is not_found, not a crash', async () => {
    for (const name of ['get_scene', 'read_diagram']) {
      const result = await client.callTool({ name, arguments: { id: '' } });
      assert.equal(result.isError, true, name);
      assert.equal(json(result).error, 'not_found', name);
    }
  });

  test('a server error comes back as isError with its code', async () => {
    const result = await client.callTool({ name: 'read_diagram', arguments: { id: '00000000-0000-4000-8000-000000000000' } });
    assert.equal(result.isError, true);
    assert.equal(json(result).error, 'not_found');
  });
});

test('without a token the server starts and tools explain how to set SERVICE_TOKEN', async () => {
  const client = new Client({ name: 'mcp-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: BIN, args: [], env: childEnv({ SERVICE_API_URL: apiUrl }), stderr: 'ignore' }));
  try {
    const result = await client.callTool({ name: 'list_diagrams', arguments: {} });
    assert.equal(result.isError, true);
    assert.match(json(result).message, /SERVICE_TOKEN/);
  } finally {
    await client.close();
  }
});

describe('--health', () => {
  // Asynchronous: the server under test runs in this process and must keep answering.
  const run = (env: Record<string, string>) =>
    new Promise<{ status: number | null }>((resolve, reject) => {
      const child = spawn(BIN, ['--health'], { env: childEnv(env), stdio: 'ignore', timeout: 15_000 });
      child.on('error', reject);
      child.on('close', (status) => resolve({ status }));
    });
  test('exits 0 with a valid token', async () => {
    assert.equal((await run({ SERVICE_TOKEN: alice.token, SERVICE_API_URL: apiUrl })).status, 0);
  });
  test('exits 1 with a bad or missing token', async () => {
    assert.equal((await run({ SERVICE_TOKEN: 'not-a-token', SERVICE_API_URL: apiUrl })).status, 1);
    assert.equal((await run({ SERVICE_API_URL: apiUrl })).status, 1);
  });
  test('exits 2 when the server is unreachable', async () => {
    assert.equal((await run({ SERVICE_TOKEN: alice.token, SERVICE_API_URL: 'http://127.0.0.1:1' })).status, 2);
  });
  test('--version and --help', () => {
    assert.match(spawnSync(BIN, ['--version'], { encoding: 'utf8' }).stdout, /^\d+\.\d+\.\d+/);
    assert.match(spawnSync(BIN, ['--help'], { encoding: 'utf8' }).stdout, /--health/);
  });
});

test('every other tool works with a full-capability token', async () => {
  const bob = await h.user();
  const client = new Client({ name: 'mcp-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: BIN, args: [], env: childEnv({ SERVICE_TOKEN: bob.token, SERVICE_API_URL: apiUrl }), stderr: 'ignore' }));
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
    return json(result);
  };
  try {
    const folder = await call('create_folder', { name: 'Agents' });
    assert.equal((await call('list_folders')).items[0].id, folder.id);
    const d = await call('generate_diagram', { spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } });
    assert.equal((await call('rename_diagram', { id: d.id, title: 'Renamed' })).title, 'Renamed');
    assert.equal((await call('move_diagram', { id: d.id, folderId: folder.id })).folderId, folder.id);
    assert.equal((await call('edit_diagram', { id: d.id, addNodes: [{ id: 'c' }], addEdges: ['b -> c'] })).added.length, 2);
    const scene = await call('get_scene', { id: d.id });
    assert.ok(scene.scene.elements.length > 5);
    await call('add_comment', { id: d.id, elementId: 'a', body: 'looks good' });
    assert.equal((await call('list_comments', { id: d.id })).items[0].body, 'looks good');
    const regenerated = await call('regenerate_diagram', { id: d.id, spec: { nodes: [{ id: 'x' }] }, expectedUpdatedAt: scene.docUpdatedAt });
    assert.equal(regenerated.id, d.id);
    const stale = await client.callTool({ name: 'regenerate_diagram', arguments: { id: d.id, spec: { nodes: [{ id: 'y' }] }, expectedUpdatedAt: scene.docUpdatedAt } });
    assert.equal(stale.isError, true);
    assert.equal(json(stale).error, 'stale_read');
    await call('trash_diagram', { id: d.id });
    assert.equal((await call('list_diagrams', { filter: 'trash' })).items[0].id, d.id);
    await call('restore_diagram', { id: d.id });
    assert.equal((await call('read_diagram', { id: d.id })).deletedAt, null);
    assert.ok((await call('list_icons', { q: 'postgres' })).items.some((i: { id: string }) => i.id === 'icon-postgresql'));
    const guide = await client.readResource({ uri: 'drawbridge://docs/scene-guide' });
    assert.match(String((guide.contents[0] as { text: string }).text), /Worked example/);
  } finally {
    await client.close();
  }
});
