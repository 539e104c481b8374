import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { DrawbridgeClient } from '../../src/client/client.ts';
import { createMcpServer } from '../../src/mcp/tools.ts';
import { type Harness, startHarness, type TestUser } from '../helpers/harness.ts';

// What the MCP server teaches an agent, through the SDK's own client against a
// real server: the instructions, the prompts, tool schemas that carry the
// content schemas and a valid example each, editorUrl on every result naming a
// diagram, one-sentence errors, and every problem of a refused spec at once.

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

let h: Harness;
let user: TestUser;
let apiUrl: string;
let client: Client;
describe('mcp/teaching', () => {
  before(async () => {
    h = await startHarness();
    user = await h.user(); // every capability: trash_diagram needs delete
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(new DrawbridgeClient({ apiUrl, token: user.token }), { authHelp: 'unused', appUrl: apiUrl }).connect(serverSide);
    client = new Client({ name: 'teaching-test', version: '0.0.0' });
    await client.connect(clientSide);
  });
  after(async () => {
    await client.close();
    await h.close();
  });

  type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };
  const text = (result: unknown) => (result as Result).content[0]!.text!;
  const json = (result: unknown) => JSON.parse(text(result));

  async function call(name: string, args: Record<string, unknown>): Promise<any> {
    const result = (await client.callTool({ name, arguments: args })) as Result;
    assert.notEqual(result.isError, true, `${name}: ${result.content[0]?.text}`);
    return json(result);
  }

  async function refused(name: string, args: Record<string, unknown>): Promise<{ error: string; message: string; problems?: Array<{ code: string; message: string; path: string; hint?: string }> }> {
    const result = (await client.callTool({ name, arguments: args })) as Result;
    assert.equal(result.isError, true, `${name} should have failed: ${result.content[0]?.text}`);
    return json(result);
  }

  const editorUrlOf = (id: string) => new RegExp(`^https?://[^/]+/app/d/${id}$`);

  test('the server sends instructions that teach the way to a good diagram', () => {
    const instructions = client.getInstructions() ?? '';
    for (const needle of ['generate_diagram', 'Mermaid', 'parent', 'search_icons', 'validate_diagram', 'read_diagram', 'lint_diagram', 'edit_diagram', 'list_revisions', 'diff_revisions', 'restore_revision', 'editorUrl', 'layout']) {
      assert.ok(instructions.includes(needle), `instructions mention ${needle}`);
    }
    assert.ok(instructions.split('\n').length <= 12, 'a few lines');
  });

  describe('prompts', () => {
    test('prompts/list names the seven, with their arguments', async () => {
      const { prompts } = await client.listPrompts();
      const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
      assert.deepEqual(Object.keys(byName).sort(), ['architecture_diagram', 'class_diagram', 'diagram_from_description', 'er_diagram', 'flowchart', 'improve_diagram', 'sequence_diagram']);
      for (const name of ['architecture_diagram', 'diagram_from_description', 'flowchart', 'sequence_diagram', 'class_diagram', 'er_diagram']) assert.deepEqual(byName[name]!.arguments?.map((a) => [a.name, a.required]), [['description', true]]);
      assert.deepEqual(byName.improve_diagram!.arguments?.map((a) => [a.name, a.required]), [['diagramId', true]]);
      for (const p of prompts) assert.ok(p.title && p.description, p.name);
    });

    test('prompts/get walks the agent through the tools in order', async () => {
      for (const name of ['architecture_diagram', 'diagram_from_description', 'flowchart', 'sequence_diagram', 'class_diagram', 'er_diagram']) {
        const { messages } = await client.getPrompt({ name, arguments: { description: 'A shop: web app, orders API, Postgres' } });
        assert.equal(messages.length, 1);
        const body = (messages[0]!.content as { text: string }).text;
        assert.match(body, /A shop: web app, orders API, Postgres/);
        const order = ['validate_diagram', 'generate_diagram', 'read_diagram', 'lint_diagram', 'editorUrl'].map((tool) => body.indexOf(tool));
        assert.ok(order.every((i) => i >= 0), `${name} names every step`);
        assert.deepEqual([...order].sort((a, b) => a - b), order, `${name} in order`);
      }
      const architecture = (await client.getPrompt({ name: 'architecture_diagram', arguments: { description: 'x' } })).messages[0]!.content as { text: string };
      assert.match(architecture.text, /"parent"/);
      assert.match(architecture.text, /search_icons/);
      const improve = (await client.getPrompt({ name: 'improve_diagram', arguments: { diagramId: 'd-42' } })).messages[0]!.content as { text: string };
      for (const needle of ['"d-42"', 'read_diagram', 'lint_diagram', 'edit_diagram', 'patch_elements', 'editorUrl']) assert.ok(improve.text.includes(needle), needle);
      assert.match(improve.text, /Do not call regenerate_diagram/);
    });

    test('the sequence, class and ER prompts each show a spec of their kind that validate_diagram finds valid and generate_diagram draws', async () => {
      for (const [name, kind] of [['sequence_diagram', 'sequence'], ['class_diagram', 'class'], ['er_diagram', 'er']] as const) {
        const body = ((await client.getPrompt({ name, arguments: { description: 'x' } })).messages[0]!.content as { text: string }).text;
        const spec = JSON.parse(/Example spec: (\{.*\})$/.exec(body)![1]!);
        assert.equal(spec.kind, kind);
        // Its steps are the kind's own: these specs have no nodes and no layout direction to pick.
        const steps = body.slice(body.indexOf('Steps:'), body.indexOf('Example spec:'));
        assert.doesNotMatch(steps, /nodes|direction|\bTB\b|\bLR\b/, name);
        assert.deepEqual([...steps.matchAll(/^(\d+)\./gm)].map((m) => Number(m[1])), [1, 2, 3, 4, 5], `${name}: steps numbered in order`);
        const checked = (await client.callTool({ name: 'validate_diagram', arguments: { spec } })).structuredContent as { valid: boolean; problems: unknown[] };
        assert.deepEqual([checked.valid, checked.problems], [true, []], name);
        const created = (await client.callTool({ name: 'generate_diagram', arguments: { title: name, spec } })).structuredContent as { elementCount: number };
        assert.ok(created.elementCount > 5, `${name} draws`);
      }
    });
  });

  /** For each tool, arguments its schema must refuse. */
  const WRONG: Record<string, Record<string, unknown>> = {
    generate_diagram: { spec: { direction: 'LR', nodes: [{ id: 'a', shape: 'box' }] } },
    create_scene: { elements: [{ x: 0, y: 0 }] },
    validate_diagram: { spec: { nodes: [] }, ops: [] },
    read_diagram: { id: 'x', quality: 'best' },
    export_diagram: { id: 'x', format: 'gif' },
    get_scene: {},
    list_diagrams: { limit: 0, folderId: 'Architecture' },
    rename_diagram: { id: 'x' },
    move_diagram: { id: 'x', folderId: 'Architecture' },
    edit_diagram: { id: 'x', addEdges: [{ source: 'a', target: 'b' }] },
    regenerate_diagram: { id: 'x', spec: { nodes: [] }, scene: { elements: [] } },
    patch_elements: { id: 'x', ops: [{ op: 'teleport', id: 'a' }] },
    trash_diagram: { id: 42 },
    restore_diagram: {},
    lint_diagram: { diagram: 'x' },
    get_diagram_source: { id: 'x', language: 'plantuml' },
    search_icons: { q: 5 },
    list_icons: { category: 'no-such-category' },
    list_folders: { all: true },
    create_folder: {},
    list_comments: {},
    add_comment: { id: 'x' },
    list_revisions: { id: 'x', limit: 0 },
    diff_revisions: { id: 'x' },
    restore_revision: { rev: 'r1' },
    list_shares: {},
    share_diagram: { id: 'x', email: 'ana@example.com', role: 'owner' },
    unshare_diagram: { id: 'x', userId: 'ana' },
    list_workspaces: { all: true },
    create_workspace: {},
    list_workspace_members: { workspaceId: 'Platform' },
    invite_to_workspace: { workspaceId: 'x', email: 'ana@example.com', role: 'owner' },
    move_to_workspace: { id: 'x', workspaceId: 'Platform' },
  };

  describe('tools/list', () => {
    test('every tool has a description with one example, and its inputSchema accepts that example and refuses a wrong one', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(WRONG).sort());
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      for (const tool of tools) {
        const schema = tool.inputSchema as Record<string, unknown> & { examples?: unknown[] };
        assert.equal(schema.type, 'object', tool.name);
        if (tool.outputSchema) assert.equal(tool.outputSchema.type, 'object', `${tool.name}: an outputSchema's root is an object`);
        assert.equal(schema.examples?.length, 1, `${tool.name} has one example`);
        const example = schema.examples![0];
        assert.ok(tool.description!.includes(`Example arguments: ${JSON.stringify(example)}`), `${tool.name}: the example is in the description`);
        assert.doesNotMatch(tool.description!, /docs\/|\.md\b/, `${tool.name} points at no document the agent cannot open`);
        const validate = ajv.compile(schema);
        assert.ok(validate(example), `${tool.name}: its example is valid: ${ajv.errorsText(validate.errors)}`);
        assert.equal(validate(WRONG[tool.name]), false, `${tool.name} refuses ${JSON.stringify(WRONG[tool.name])}`);
      }
    });

    test('content arguments carry the content schemas, not an empty object', async () => {
      const { tools } = await client.listTools();
      const schemaOf = (name: string) => tools.find((t) => t.name === name)!.inputSchema as any;
      const generate = schemaOf('generate_diagram');
      assert.equal(generate.properties.spec.$ref, '#/$defs/Spec');
      assert.deepEqual(generate.$defs.Spec.anyOf.map((s: { $ref: string }) => s.$ref), ['#/$defs/DiagramSpec', '#/$defs/SequenceSpec', '#/$defs/ClassSpec', '#/$defs/ErSpec'], 'a spec of any kind');
      assert.ok(generate.$defs.DiagramSpec.properties.nodes, 'DiagramSpec has nodes');
      assert.ok(generate.$defs.SequenceSpec.properties.steps, 'SequenceSpec has steps');
      assert.equal(generate.required, undefined, 'a spec, mermaid or dot: none is required on its own');
      assert.deepEqual(generate.oneOf, [{ required: ['spec'] }, { required: ['mermaid'] }, { required: ['dot'] }]);
      assert.equal(generate.properties.mermaid.type, 'string');
      const patch = schemaOf('patch_elements');
      assert.equal(patch.properties.ops.items.$ref, '#/$defs/PatchOp');
      assert.ok(patch.$defs.PatchOp.oneOf ?? patch.$defs.PatchOp.anyOf, 'PatchOp is a union of op kinds');
      const edit = schemaOf('edit_diagram');
      assert.notDeepEqual(edit.properties.addNodes.items, {});
      assert.ok(schemaOf('regenerate_diagram').$defs.Scene, 'regenerate_diagram takes a Scene');
      const validate = schemaOf('validate_diagram');
      assert.deepEqual(Object.keys(validate.properties).sort(), ['diagramId', 'dot', 'edit', 'mermaid', 'ops', 'scene', 'spec']);
    });
  });

  describe('calls', () => {
    test('generate_diagram, regenerate_diagram and validate_diagram take Mermaid or DOT, answering their warnings; a syntax error comes back with its line', async () => {
      const created = await call('generate_diagram', { title: 'From Mermaid', mermaid: 'flowchart LR\n  web[Web app] --> api[Orders API]\n  click web "https://example.com"' });
      assert.equal(created.elementCount, 5);
      assert.deepEqual(created.warnings, [{ line: 3, message: 'click handlers and links (click) are not kept' }]);
      const regenerated = await call('regenerate_diagram', { id: created.id, dot: 'digraph { web -> api -> db }' });
      assert.equal(regenerated.replaced, 8);
      assert.deepEqual(regenerated.warnings, []);
      const check = await call('validate_diagram', { dot: 'digraph {\n  a -> ;\n}' });
      assert.equal(check.valid, false);
      assert.deepEqual([check.problems[0].code, check.problems[0].line, check.problems[0].column], ['INVALID_SOURCE', 2, 8]);
      const broken = await refused('generate_diagram', { mermaid: 'flowchart LR\n  a -->> b' });
      assert.equal(broken.error, 'INVALID_SOURCE');
      assert.match(broken.message, /generate_diagram was refused and nothing was written: the source has one problem/);
      assert.match(broken.message, /line 2, column \d+/);
      const both = await refused('generate_diagram', { mermaid: 'flowchart LR\n  a --> b', spec: { nodes: [{ id: 'a' }] } });
      assert.equal(both.error, 'bad_request');
      assert.match(both.message, /exactly one of spec, mermaid, dot \(got spec and mermaid\)/);
    });

    test('the SDK client calls each tool successfully, and every result naming a diagram carries its editorUrl', async () => {
      const { tools } = await client.listTools();
      const called = new Set<string>();
      const run = async (name: string, args: Record<string, unknown>) => {
        called.add(name);
        return call(name, args);
      };
      const linked = (value: { id: string; editorUrl: string }, id: string) => {
        assert.equal(value.id, id);
        assert.match(value.editorUrl, editorUrlOf(id));
      };

      const spec = { layout: { direction: 'LR' }, nodes: [{ id: 'web', label: 'Web app' }, { id: 'api', label: 'Orders API', icon: 'icon-nodejs' }, { id: 'db', label: 'Orders DB', icon: 'icon-postgresql' }], edges: ['web -> api : HTTPS', 'api -> db'] };
      const check = await run('validate_diagram', { spec });
      assert.deepEqual(check, { valid: true, problems: [] });
      const created = await run('generate_diagram', { title: 'Shop', spec });
      linked(created, created.id);
      const id = created.id as string;

      const scene = await run('create_scene', { title: 'Two boxes', elements: [{ id: 'a', type: 'rectangle', x: 0, y: 0 }, { id: 'b', type: 'rectangle', x: 300, y: 0 }] });
      linked(scene, scene.id);
      assert.equal(scene.elementCount, 2);

      const read = await run('read_diagram', { id, image: false });
      linked(read, id);
      for (const node of ['web', 'api', 'db']) assert.ok(read.nodes.some((n: { id: string }) => n.id === node), node);
      const exported = await run('export_diagram', { id, format: 'svg', quality: 'fast' });
      linked(exported, id);
      const full = await run('get_scene', { id });
      linked(full, id);

      const list = await run('list_diagrams', { limit: 10 });
      assert.ok(list.items.length >= 2);
      for (const item of list.items) assert.match(item.editorUrl, editorUrlOf(item.id));
      assert.deepEqual((await run('list_diagrams', { q: 'two BOX', folderId: 'none', starred: false })).items.map((d: { id: string }) => d.id), [scene.id]);

      linked(await run('rename_diagram', { id, title: 'Shop (v2)' }), id);
      const folder = await run('create_folder', { name: 'Agents' });
      assert.ok((await run('list_folders', {})).items.some((f: { id: string }) => f.id === folder.id));
      const moved = await run('move_diagram', { id, folderId: folder.id });
      linked(moved, id);
      assert.equal(moved.folderId, folder.id);

      const edited = await run('edit_diagram', { id, addNodes: [{ id: 'cache', label: 'Cache', icon: 'icon-redis' }], addEdges: ['api -> cache'], updateNodes: [{ id: 'db', backgroundColor: '#e7f5ff' }] });
      linked(edited, id);
      assert.deepEqual(edited.updated, ['db']);
      const patched = await run('patch_elements', { id, ops: [{ op: 'move', id: 'db', dx: 40, dy: 0 }] });
      linked(patched, id);
      assert.equal(patched.applied, 1);

      const history = await run('list_revisions', { id, limit: 10 });
      linked(history, id);
      const [latest, previous] = history.items;
      assert.equal(latest.kind, 'patch');
      assert.equal(previous.kind, 'edit');
      const diff = await run('diff_revisions', { id, rev: latest.rev });
      linked(diff, id);
      assert.ok(diff.changed.some((c: { id: string }) => c.id === 'db'), JSON.stringify(diff));
      const restored = await run('restore_revision', { id, rev: previous.rev });
      linked(restored, id);
      assert.equal(restored.restoredFrom, previous.rev);
      const lint = await run('lint_diagram', { id });
      linked(lint, id);
      assert.ok(Array.isArray(lint.issues));
      const source = await run('get_diagram_source', { id, language: 'dot' });
      linked(source, id);
      assert.match(source.text, /^digraph \{/);

      assert.ok((await run('search_icons', { q: 'postgres' })).items.some((i: { id: string }) => i.id === 'icon-postgresql'));
      assert.ok((await run('list_icons', { q: 'kafka' })).items.some((i: { id: string }) => i.id === 'icon-kafka'));

      await run('add_comment', { id, elementId: 'db', body: 'Primary or replica?' });
      assert.equal((await run('list_comments', { id })).items[0].body, 'Primary or replica?');

      const regenerated = await run('regenerate_diagram', { id: scene.id, spec: { nodes: [{ id: 'a', label: 'Start', shape: 'ellipse' }, { id: 'b', label: 'Done' }], edges: ['a -> b'] } });
      linked(regenerated, scene.id);

      linked(await run('trash_diagram', { id: scene.id }), scene.id);
      linked(await run('restore_diagram', { id: scene.id }), scene.id);

      const colleague = await h.user();
      assert.equal((await run('share_diagram', { id, email: colleague.email, role: 'viewer' })).share.userId, colleague.id);
      assert.deepEqual((await run('list_shares', { id })).shares.map((s: { userId: string }) => s.userId), [colleague.id]);
      linked(await run('unshare_diagram', { id, userId: colleague.id }), id);
      const workspace = await run('create_workspace', { name: 'Agents' });
      assert.equal((await run('invite_to_workspace', { workspaceId: workspace.id, email: colleague.email, role: 'editor' })).member.role, 'editor');
      assert.equal((await run('list_workspace_members', { workspaceId: workspace.id })).members.length, 2);
      assert.ok((await run('list_workspaces', {})).items.some((w: { id: string }) => w.id === workspace.id));
      linked(await run('move_to_workspace', { id, workspaceId: workspace.id }), id);

      assert.deepEqual([...called].sort(), tools.map((t) => t.name).sort(), 'every tool was called');
    });

    test('results of tools with an outputSchema carry the same value as structuredContent', async () => {
      const { tools } = await client.listTools();
      assert.ok(tools.find((t) => t.name === 'validate_diagram')!.outputSchema, 'validate_diagram declares its output');
      const result = (await client.callTool({ name: 'generate_diagram', arguments: { spec: { nodes: [{ id: 'a' }] } } })) as Result;
      assert.deepEqual(result.structuredContent, JSON.parse(result.content[0]!.text!));
      const read = (await client.callTool({ name: 'read_diagram', arguments: { id: (result.structuredContent as { id: string }).id } })) as Result;
      assert.deepEqual(read.content.map((b) => b.type), ['text', 'image']);
      assert.deepEqual(read.structuredContent, JSON.parse(read.content[0]!.text!));
    });
  });

  describe('errors', () => {
    const missing = '00000000-0000-4000-8000-000000000000';

    test('a missing diagram id is one sentence that says what to do', async () => {
      const sentence = `No diagram with id "${missing}" exists, or you cannot see it. List your diagrams with list_diagrams.`;
      const calls: Array<[string, Record<string, unknown>]> = [
        ['read_diagram', { id: missing }],
        ['get_scene', { id: missing }],
        ['export_diagram', { id: missing }],
        ['rename_diagram', { id: missing, title: 'x' }],
        ['edit_diagram', { id: missing, addNodes: [{ id: 'n' }] }],
        ['patch_elements', { id: missing, ops: [{ op: 'delete', id: 'a' }] }],
        ['regenerate_diagram', { id: missing, spec: { nodes: [{ id: 'a' }] } }],
        ['lint_diagram', { id: missing }],
        ['get_diagram_source', { id: missing }],
        ['trash_diagram', { id: missing }],
        ['list_comments', { id: missing }],
        ['list_revisions', { id: missing }],
      ];
      for (const [name, args] of calls) assert.deepEqual(await refused(name, args), { error: 'not_found', message: sentence }, name);
    });

    test('a missing revision is one sentence naming the revision and the diagram, and what to do', async () => {
      const { id } = await call('generate_diagram', { spec: { nodes: [{ id: 'a' }] } });
      const about = (revs: string) => `No revision ${revs} of diagram "${id}" exists, or you cannot see that diagram. List its revisions with list_revisions.`;
      assert.deepEqual(await refused('diff_revisions', { id, rev: 'r999999' }), { error: 'not_found', message: about('"r999999"') });
      assert.deepEqual(await refused('diff_revisions', { id, rev: 'r999999', against: 'r999998' }), { error: 'not_found', message: about('"r999999" or "r999998"') });
      assert.deepEqual(await refused('restore_revision', { id, rev: 'r999999' }), { error: 'not_found', message: about('"r999999"') });
      assert.deepEqual(await refused('restore_revision', { id: missing, rev: 'r1' }), { error: 'not_found', message: `No revision "r1" of diagram "${missing}" exists, or you cannot see that diagram. List its revisions with list_revisions.` });
    });

    test('a mistaken plain argument is one sentence naming it, before any call', async () => {
      const unknown = await refused('generate_diagram', { direction: 'LR', spec: { nodes: [{ id: 'a' }] } });
      assert.equal(unknown.error, 'bad_request');
      assert.equal(unknown.message, 'Invalid arguments for generate_diagram: unknown argument "direction" (it takes title, folderId, mermaid, dot, spec).');
      const missingId = await refused('read_diagram', {});
      assert.equal(missingId.message, 'Invalid arguments for read_diagram: "id" is required.');
      const quality = await refused('export_diagram', { id: missing, quality: 'best' });
      assert.equal(quality.message, 'Invalid arguments for export_diagram: "quality" must be one of "faithful", "fast".');
    });

    test('content is judged by the API, not refused by the MCP SDK: a failing generate_diagram names every problem with its hint', async () => {
      const naive = {
        title: 'Naive',
        spec: {
          direction: 'LR',
          nodes: [{ id: 'web', label: 'Web', shape: 'box' }, { id: 'db', label: 'DB', shape: 'database' }],
          edges: [{ source: 'web', target: 'db' }],
        },
      };
      const result = await refused('generate_diagram', naive);
      assert.doesNotMatch(result.message, /Input validation error/);
      const problems = result.problems!;
      assert.ok(problems.length >= 4, `every problem: ${JSON.stringify(problems)}`);
      const at = (path: string) => problems.find((p) => p.path === path);
      assert.ok(at('/direction'), 'direction at the top level');
      assert.ok(at('/nodes/0/shape'), 'box');
      assert.ok(at('/nodes/1/shape'), 'database');
      assert.ok(problems.some((p) => p.path.startsWith('/edges/0')), 'source/target');
      assert.match(at('/direction')!.hint!, /layout\.direction/);
      assert.match(at('/nodes/0/shape')!.hint!, /rectangle/);
      for (const p of problems) {
        assert.ok(p.hint, `${p.path} has a hint`);
        assert.ok(result.message.includes(p.path) && result.message.includes(p.hint!), `the message names ${p.path} and its hint`);
      }
      // and nothing was written
      const titles = (await call('list_diagrams', {})).items.map((d: { title: string }) => d.title);
      assert.ok(!titles.includes('Naive'));
    });

    test('validate_diagram lists every problem without writing; refused ops name theirs too', async () => {
      const report = await call('validate_diagram', { spec: { nodes: [{ id: 'a', shape: 'box' }, { id: 'a' }], edges: ['a -> ghost'] } });
      assert.equal(report.valid, false);
      assert.ok(report.problems.length >= 2, JSON.stringify(report.problems));
      const created = await call('generate_diagram', { spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } });
      const ops = await refused('patch_elements', { id: created.id, ops: [{ op: 'move', id: 'nope', dx: 1, dy: 0 }, { op: 'teleport', id: 'a' }] });
      assert.ok(ops.problems && ops.problems.length >= 2, JSON.stringify(ops));
      const exclusive = await refused('validate_diagram', { spec: { nodes: [] }, ops: [] });
      assert.equal(exclusive.error, 'bad_request');
    });
  });

  test('over the hosted /mcp endpoint: the instructions, the prompts and editorUrl on this server', async () => {
    const hosted = new Client({ name: 'teaching-hosted', version: '0.0.0' });
    await hosted.connect(new StreamableHTTPClientTransport(new URL(`${apiUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${user.token}` } } }));
    try {
      assert.match(hosted.getInstructions() ?? '', /validate_diagram/);
      assert.equal((await hosted.listPrompts()).prompts.length, 7);
      const result = (await hosted.callTool({ name: 'generate_diagram', arguments: { spec: { nodes: [{ id: 'a' }] } } })) as Result;
      const created = JSON.parse(result.content[0]!.text!);
      assert.match(created.editorUrl, editorUrlOf(created.id));
    } finally {
      await hosted.close();
    }
  });
});
