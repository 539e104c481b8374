import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DrawbridgeClient } from '../../src/client/client.ts';
import { createMcpServer } from '../../src/mcp/tools.ts';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

// The render tools (read_diagram, export_diagram) in-process, over the typed
// client, against real servers: one as configured by default, one with the
// faithful renderer turned off (every render falls back to the fast preview
// with note faithful_unavailable), and one whose renders cannot finish in time
// (RENDER_TIMEOUT_MS=1: the server answers 503 render_failed).

interface Connected {
  h: Harness;
  user: TestUser;
  client: Client;
}

async function connect(env: Record<string, string> = {}): Promise<Connected> {
  const h = await startHarness({ env });
  const user = await h.user({ caps: 'read,write' });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const api = new DrawbridgeClient({ apiUrl, token: user.token });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(api, { authHelp: 'unused', appUrl: apiUrl }).connect(serverSide);
  const client = new Client({ name: 'tools-test', version: '0.0.0' });
  await client.connect(clientSide);
  return { h, user, client };
}

let main: Connected;
let fallback: Connected;
let failing: Connected;
describe('mcp/tools', () => {
  before(async () => {
    main = await connect();
    fallback = await connect({ RENDER_FAITHFUL: 'off' });
    failing = await connect({ RENDER_FAITHFUL: 'off', RENDER_TIMEOUT_MS: '1' });
  });
  after(async () => {
    for (const { h, client } of [main, fallback, failing]) {
      await client.close();
      await h.close();
    }
  });

  const node = (id: string, x: number) => ({ id, type: 'rectangle', x, y: 0, width: 100, height: 50 });

  /** Creates a diagram over the API (not through the tools) and returns its id. */
  async function diagram({ h, user }: Connected, elements: Array<Record<string, unknown>> = [node('a', 0), node('b', 200)]): Promise<string> {
    const res = await h.call('POST', '/api/v1/diagrams', { token: user.token, body: { scene: { elements } } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id;
  }

  /** The request lines the server logged for URLs containing `fragment`. */
  const requestsFor = (h: Harness, fragment: string) =>
    h
      .logs()
      .split('\n')
      .filter((line) => line.includes('"incoming request"'))
      .map((line) => JSON.parse(line).req.url as string)
      .filter((url) => url.includes(fragment));

  type Block = { type: string; text?: string; data?: string; mimeType?: string };
  const blocks = (result: unknown) => (result as { content: Block[] }).content;

  describe('read_diagram', () => {
    test('returns the summary and a PNG image block, faithful by default', async () => {
      const id = await diagram(main);
      const [summary, image, ...rest] = blocks(await main.client.callTool({ name: 'read_diagram', arguments: { id } }));
      assert.equal(rest.length, 0);
      const parsed = JSON.parse(summary!.text!);
      assert.deepEqual(parsed.nodes.map((n: { id: string }) => n.id), ['a', 'b']);
      assert.deepEqual(parsed.image, { quality: 'faithful' });
      assert.equal(image!.type, 'image');
      assert.equal(image!.mimeType, 'image/png');
      assert.equal(pngSize(Buffer.from(image!.data!, 'base64')).width, 1024);
      assert.deepEqual(requestsFor(main.h, `/${id}/render`), [`/api/v1/diagrams/${id}/render?format=png&quality=faithful`]);
    });

    test('passes the quality asked for', async () => {
      const id = await diagram(main);
      const [summary, image] = blocks(await main.client.callTool({ name: 'read_diagram', arguments: { id, quality: 'fast' } }));
      assert.deepEqual(JSON.parse(summary!.text!).image, { quality: 'fast' });
      assert.equal(pngSize(Buffer.from(image!.data!, 'base64')).width, 1024);
      assert.deepEqual(requestsFor(main.h, `/${id}/render`), [`/api/v1/diagrams/${id}/render?format=png&quality=fast`]);
    });

    test('with image: false makes no render call', async () => {
      const id = await diagram(main);
      const content = blocks(await main.client.callTool({ name: 'read_diagram', arguments: { id, image: false } }));
      assert.deepEqual(content.map((b) => b.type), ['text']);
      assert.deepEqual(requestsFor(main.h, id), [`/api/v1/diagrams/${id}`]);
    });

    test('a fallback to the fast preview is reported with its note', async () => {
      const id = await diagram(fallback);
      const [summary, image] = blocks(await fallback.client.callTool({ name: 'read_diagram', arguments: { id } }));
      assert.deepEqual(JSON.parse(summary!.text!).image, { quality: 'fast', note: 'faithful_unavailable' });
      assert.equal(pngSize(Buffer.from(image!.data!, 'base64')).width, 1024);
    });

    test('a failed render still returns the summary, with imageNote saying why', async () => {
      const id = await diagram(failing, [node('a', 0)]);
      const result = await failing.client.callTool({ name: 'read_diagram', arguments: { id } });
      assert.notEqual(result.isError, true);
      const content = blocks(result);
      assert.deepEqual(content.map((b) => b.type), ['text']);
      const parsed = JSON.parse(content[0]!.text!);
      assert.equal(parsed.elementCount, 1);
      assert.match(parsed.imageNote, /^no image: render_failed: /);
    });

    test('an empty diagram has a summary and no image', async () => {
      const id = await diagram(main, []);
      const content = blocks(await main.client.callTool({ name: 'read_diagram', arguments: { id } }));
      assert.deepEqual(content.map((b) => b.type), ['text']);
      assert.match(JSON.parse(content[0]!.text!).imageNote, /empty/);
    });
  });

  describe('export_diagram', () => {
    test('png is an image block after a block naming the delivered quality', async () => {
      const id = await diagram(main);
      const [about, image] = blocks(await main.client.callTool({ name: 'export_diagram', arguments: { id, format: 'png', quality: 'fast' } }));
      const { editorUrl, ...described } = JSON.parse(about!.text!);
      assert.deepEqual(described, { id, format: 'png', mimeType: 'image/png', quality: 'fast' });
      assert.ok(editorUrl.endsWith(`/app/d/${id}`), editorUrl);
      assert.equal(image!.type, 'image');
      assert.equal(image!.mimeType, 'image/png');
      assert.equal(pngSize(Buffer.from(image!.data!, 'base64')).width, 1024);
    });

    test('svg is text, and a fallback to fast carries its note', async () => {
      const id = await diagram(fallback);
      const [about, svg] = blocks(await fallback.client.callTool({ name: 'export_diagram', arguments: { id, format: 'svg' } }));
      const { mimeType, editorUrl, ...described } = JSON.parse(about!.text!);
      assert.match(mimeType, /^image\/svg\+xml\b/);
      assert.deepEqual(described, { id, format: 'svg', quality: 'fast', note: 'faithful_unavailable' });
      assert.ok(editorUrl.endsWith(`/app/d/${id}`), editorUrl);
      assert.equal(svg!.type, 'text');
      assert.match(svg!.text!, /^(<\?xml[^>]*>\s*)?<svg[\s>]/);
      assert.deepEqual(requestsFor(fallback.h, `/${id}/render`), [`/api/v1/diagrams/${id}/render?format=svg&quality=faithful`]);
    });

    test('an empty diagram says there is nothing to export', async () => {
      const id = await diagram(main, []);
      const result = await main.client.callTool({ name: 'export_diagram', arguments: { id } });
      assert.notEqual(result.isError, true);
      assert.deepEqual(blocks(result).map((b) => b.type), ['text']);
      assert.equal(JSON.parse(blocks(result)[0]!.text!).isEmpty, true);
    });

    test('render_failed is an isError result with its code', async () => {
      const id = await diagram(failing, [node('a', 0)]);
      const result = await failing.client.callTool({ name: 'export_diagram', arguments: { id, format: 'png' } });
      assert.equal(result.isError, true);
      assert.equal(JSON.parse(blocks(result)[0]!.text!).error, 'render_failed');
    });

    test("another user's diagram is an isError not_found, as over the API", async () => {
      const other = await main.h.user();
      const theirs = await diagram({ ...main, user: other });
      const result = await main.client.callTool({ name: 'export_diagram', arguments: { id: theirs, format: 'png' } });
      assert.equal(result.isError, true);
      assert.equal(JSON.parse(blocks(result)[0]!.text!).error, 'not_found');
    });

    test('the render options reach the API: the PNG is as wide as asked, dark, and only the elements named', async () => {
      const id = await diagram(main, [node('a', 0), node('b', 300)]);
      const arguments_ = { id, format: 'png', quality: 'fast', width: 400, theme: 'dark', padding: 0, background: '#0d1117', elements: ['a'] };
      const [about, image] = blocks(await main.client.callTool({ name: 'export_diagram', arguments: arguments_ }));
      assert.equal(JSON.parse(about!.text!).quality, 'fast');
      assert.equal(pngSize(Buffer.from(image!.data!, 'base64')).width, 400);
      assert.deepEqual(requestsFor(main.h, `/${id}/render`), [`/api/v1/diagrams/${id}/render?format=png&quality=fast&width=400&padding=0&background=%230d1117&theme=dark&elements=a`]);
    });

    test('options out of range are refused before any call; ids the diagram does not draw are invalid_selection', async () => {
      const id = await diagram(main);
      const wide = await main.client.callTool({ name: 'export_diagram', arguments: { id, width: 9000 } });
      assert.equal(wide.isError, true);
      assert.match(blocks(wide)[0]!.text!, /width/);
      assert.deepEqual(requestsFor(main.h, id), []);
      const unknown = await main.client.callTool({ name: 'export_diagram', arguments: { id, elements: ['nope'] } });
      assert.equal(unknown.isError, true);
      assert.equal(JSON.parse(blocks(unknown)[0]!.text!).error, 'invalid_selection');
    });

    test('an unknown quality is refused before any call', async () => {
      const id = await diagram(main);
      const result = await main.client.callTool({ name: 'export_diagram', arguments: { id, quality: 'best' } });
      assert.equal(result.isError, true);
      assert.match(blocks(result)[0]!.text!, /quality/);
      assert.deepEqual(requestsFor(main.h, id), []);
    });
  });
});
