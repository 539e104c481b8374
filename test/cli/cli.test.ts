import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { configPath } from '../../src/client/credentials.ts';
import { runCli } from '../../src/cli/program.ts';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { pngSize } from '../helpers/png.ts';

const BIN = fileURLToPath(new URL('../../bin/drawbridge', import.meta.url));

let h: Harness;
let alice: TestUser;
let reader: TestUser;
let apiUrl: string;
describe('cli/cli', () => {
  before(async () => {
    h = await startHarness();
    alice = await h.user();
    reader = await h.user({ caps: 'read,write' });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  after(() => h.close());

  function tempHome(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-cli-home-'));
  }

  interface Run {
    code: number;
    stdout: string;
    stderr: string;
  }

  /** Runs the CLI in-process with a clean environment (HOME is a temp dir unless given). */
  async function cli(argv: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const env = { HOME: tempHome(), ...options.env };
    const code = await runCli(argv, {
      env,
      stdout: { write: (s: string) => void (stdout += s) },
      stderr: { write: (s: string) => void (stderr += s) },
      ...(options.stdin !== undefined ? { stdin: Readable.from([Buffer.from(options.stdin)]) } : {}),
    });
    return { code, stdout, stderr };
  }

  const as = (user: TestUser) => ({ SERVICE_TOKEN: user.token, SERVICE_API_URL: apiUrl });

  describe('auth', () => {
    test('login validates the token, stores it with mode 600, status and logout use it', async () => {
      const HOME = tempHome();
      const env = { HOME, SERVICE_API_URL: apiUrl };
      const login = await cli(['auth', 'login', '--token', alice.token], { env });
      assert.equal(login.code, 0, login.stderr);
      const file = configPath(env);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { token: alice.token, apiUrl });

      // the stored login carries the API URL, so no variable is needed afterwards
      const status = await cli(['auth', 'status'], { env: { HOME } });
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /stored login/);
      assert.ok(status.stdout.includes(alice.email));
      assert.equal(JSON.parse((await cli(['me', '--json'], { env: { HOME } })).stdout).email, alice.email);

      // SERVICE_TOKEN wins over the stored login
      const envStatus = await cli(['auth', 'status', '--json'], { env: { HOME, ...as(reader) } });
      assert.equal(envStatus.code, 0, envStatus.stderr);
      const parsed = JSON.parse(envStatus.stdout);
      assert.equal(parsed.source, 'env');
      assert.equal(parsed.identity.email, reader.email);
      assert.match((await cli(['auth', 'status'], { env: { HOME, ...as(reader) } })).stdout, /SERVICE_TOKEN environment variable/);

      assert.equal((await cli(['auth', 'logout'], { env: { HOME } })).code, 0);
      assert.equal(fs.existsSync(file), false);
      const gone = await cli(['auth', 'status'], { env: { HOME } });
      assert.equal(gone.code, 3);
      assert.match(gone.stderr, /drawbridge auth login/);
    });

    test('login reads the token from standard input when it is not a TTY', async () => {
      const HOME = tempHome();
      const run = await cli(['auth', 'login'], { env: { HOME, SERVICE_API_URL: apiUrl }, stdin: `${alice.token}\n` });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(fs.readFileSync(configPath({ HOME }), 'utf8')).token, alice.token);
    });

    test('on a terminal, login prompts for the token without echoing it', async () => {
      const HOME = tempHome();
      const tty = Object.assign(new PassThrough(), { isTTY: true, rawModes: [] as boolean[], setRawMode(mode: boolean) { tty.rawModes.push(mode); } });
      let stdout = '';
      let stderr = '';
      const pending = runCli(['auth', 'login'], {
        env: { HOME, SERVICE_API_URL: apiUrl },
        stdout: { write: (s: string) => void (stdout += s) },
        stderr: { write: (s: string) => void (stderr += s) },
        stdin: tty,
      });
      setImmediate(() => tty.write(`${alice.token}\r`));
      assert.equal(await pending, 0, stderr);
      assert.match(stderr, /token: \n$/);
      assert.ok(!stderr.includes(alice.token) && !stdout.includes(alice.token), 'the token is never echoed');
      assert.deepEqual(tty.rawModes, [true, false]);
      assert.equal(JSON.parse(fs.readFileSync(configPath({ HOME }), 'utf8')).token, alice.token);
    });

    test('an invalid token is refused with exit 3 and nothing is saved', async () => {
      const HOME = tempHome();
      const run = await cli(['auth', 'login', '--token', 'not-a-real-token'], { env: { HOME, SERVICE_API_URL: apiUrl } });
      assert.equal(run.code, 3);
      assert.match(run.stderr, /nothing was saved/);
      assert.equal(fs.existsSync(configPath({ HOME })), false);
      assert.equal(fs.existsSync(path.dirname(configPath({ HOME }))), false);
    });
  });

  describe('diagrams and the rest of the surface', () => {
    test('a request body given as --spec is refused naming the CLI\'s own flags; the spec alone with --title is taken', async () => {
      const env = as(await h.user());
      const dir = tempHome();
      const body = path.join(dir, 'body.json');
      const spec = { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] };
      fs.writeFileSync(body, JSON.stringify({ title: 'Flow', spec }));
      const refused = await cli(['diagrams', 'create', '--spec', body], { env });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /body\.json is a request body, not a spec: give --spec the value of its "spec" alone, and its title with --title/);
      const alone = path.join(dir, 'spec.json');
      fs.writeFileSync(alone, JSON.stringify(spec));
      const created = await cli(['diagrams', 'create', '--spec', alone, '--title', 'Flow', '--json'], { env });
      assert.equal(created.code, 0, created.stderr);
      assert.equal(JSON.parse(created.stdout).title, 'Flow');
    });

    test('create from a Mermaid sequence, class or ER diagram file draws it as that kind, and source gives it back', async () => {
      const env = as(await h.user());
      const dir = tempHome();
      const files: Array<[string, string, RegExp]> = [
        ['login.mmd', 'sequenceDiagram\n  actor U as User\n  U->>+App: Sign in\n  App-->>-U: Signed in\n', /^sequenceDiagram\n/],
        ['types.mmd', 'classDiagram\n  Animal <|-- Dog\n  class Animal {\n    +String name\n  }\n', /^classDiagram\n/],
        ['data.mmd', 'erDiagram\n  CUSTOMER ||--o{ ORDER : places\n', /^erDiagram\n/],
      ];
      for (const [name, text, written] of files) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        const created = await cli(['diagrams', 'create', file, '--json'], { env });
        assert.equal(created.code, 0, created.stderr);
        const { id } = JSON.parse(created.stdout);
        const source = await cli(['diagrams', 'source', id, '--language', 'mermaid'], { env });
        assert.equal(source.code, 0, source.stderr);
        assert.match(source.stdout, written, name);
      }
    });

    test('create and regenerate from a Mermaid or DOT file: the language from the extension or --language, warnings on standard error', async () => {
      const env = as(await h.user());
      const dir = tempHome();
      const mermaid = path.join(dir, 'flow.mmd');
      fs.writeFileSync(mermaid, 'flowchart LR\n  web[Web app] --> api[Orders API]\n  click web "https://example.com"\n');
      const created = await cli(['diagrams', 'create', mermaid, '--title', 'Flow', '--json'], { env });
      assert.equal(created.code, 0, created.stderr);
      const { id, elementCount, warnings } = JSON.parse(created.stdout);
      assert.equal(elementCount, 5);
      assert.deepEqual(warnings, [{ line: 3, message: 'click handlers and links (click) are not kept' }]);
      assert.equal(created.stderr, 'warning: line 3: click handlers and links (click) are not kept\n');
      const scene = JSON.parse((await cli(['diagrams', 'get', id], { env })).stdout).scene.elements as Array<{ id: string }>;
      assert.ok(scene.some((e) => e.id === 'web') && scene.some((e) => e.id === 'api'), 'the source\'s own node ids');

      const dot = path.join(dir, 'services.gv');
      fs.writeFileSync(dot, 'digraph { a -> b -> c }');
      const regenerated = await cli(['diagrams', 'regenerate', id, dot, '--json'], { env });
      assert.equal(regenerated.code, 0, regenerated.stderr);
      assert.equal(JSON.parse(regenerated.stdout).replaced, 8, 'three ellipses with their labels, two arrows');
      const piped = await cli(['diagrams', 'create', '-', '--language', 'dot'], { env, stdin: 'graph { x -- y }' });
      assert.equal(piped.code, 0, piped.stderr);
      assert.match(piped.stdout, /^Created /);

      const unknown = path.join(dir, 'flow.txt');
      fs.writeFileSync(unknown, 'flowchart LR\n  a --> b');
      const untold = await cli(['diagrams', 'create', unknown], { env });
      assert.equal(untold.code, 2);
      assert.match(untold.stderr, /cannot tell the language of .*flow\.txt: name it \.mmd or \.dot, or give --language mermaid\|dot/);
      assert.equal((await cli(['diagrams', 'create', unknown, '--language', 'plantuml'], { env })).code, 2);
      assert.equal((await cli(['diagrams', 'create', mermaid, '--spec', mermaid], { env })).code, 2, 'a file and --spec');
      fs.writeFileSync(mermaid, 'flowchart LR\n  a -->> b');
      const broken = await cli(['diagrams', 'create', mermaid], { env });
      assert.equal(broken.code, 1);
      assert.match(broken.stderr, /INVALID_SOURCE/);
      assert.match(broken.stderr, /line 2, column \d+/);
    });

    test('create from a spec file, list --json shape, get, rename, lint, trash and restore', async () => {
      const bob = await h.user();
      const env = as(bob);
      const dir = tempHome();
      const specFile = path.join(dir, 'spec.json');
      fs.writeFileSync(specFile, JSON.stringify({ nodes: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], edges: ['a -> b'] }));
      const created = await cli(['diagrams', 'create', '--spec', specFile, '--title', 'From spec', '--json'], { env });
      assert.equal(created.code, 0, created.stderr);
      const { id, elementCount } = JSON.parse(created.stdout);
      assert.equal(elementCount, 5);
      const fromStdin = await cli(['diagrams', 'create', '--spec', '-', '--title', 'Piped'], { env, stdin: fs.readFileSync(specFile, 'utf8') });
      assert.equal(fromStdin.code, 0, fromStdin.stderr);
      assert.match(fromStdin.stdout, /Created .*Piped/);

      const list = await cli(['diagrams', 'list', '--json'], { env });
      assert.equal(list.code, 0, list.stderr);
      const page = JSON.parse(list.stdout);
      assert.deepEqual(Object.keys(page).sort(), ['items', 'nextCursor']);
      assert.equal(page.items.length, 2);
      assert.deepEqual(Object.keys(page.items[1]).sort(), ['createdAt', 'editorUrl', 'folderId', 'id', 'starred', 'title', 'updatedAt']);
      assert.equal(page.items[1].title, 'From spec');
      const all = JSON.parse((await cli(['diagrams', 'list', '--all', '--limit', '1', '--json'], { env })).stdout);
      assert.equal(all.items.length, 2);
      const human = await cli(['diagrams', 'list'], { env });
      assert.match(human.stdout, /^ID\s+UPDATED\s+FOLDER\s+TITLE/);
      assert.ok(!human.stdout.includes('\u001b['), 'no colour when stdout is not a TTY');

      assert.equal(JSON.parse((await cli(['diagrams', 'get', id], { env })).stdout).scene.elements.length, 5);
      assert.match((await cli(['diagrams', 'rename', id, 'Renamed'], { env })).stdout, /Renamed/);
      assert.equal((await cli(['diagrams', 'lint', id, '--json'], { env })).code, 0);
      const mermaid = await cli(['diagrams', 'source', id, '--language', 'mermaid'], { env });
      assert.equal(mermaid.code, 0, mermaid.stderr);
      assert.match(mermaid.stdout, /^flowchart TB\n/);
      const mmd = path.join(dir, 'back.mmd');
      fs.writeFileSync(mmd, mermaid.stdout);
      const copy = await cli(['diagrams', 'create', mmd, '--json'], { env });
      assert.equal(copy.code, 0, copy.stderr);
      const asSpec = JSON.parse((await cli(['diagrams', 'source', JSON.parse(copy.stdout).id], { env })).stdout);
      assert.deepEqual(asSpec, JSON.parse((await cli(['diagrams', 'source', id], { env })).stdout), 'the Mermaid written back makes the same spec');
      assert.equal((await cli(['diagrams', 'source', id, '--language', 'plantuml'], { env })).code, 2, 'an unknown language is a usage error');
      for (const extension of ['png', 'svg']) {
        const file = path.join(dir, `carried.${extension}`);
        const rendered = await cli(['diagrams', 'render', id, '--embed-scene', '--quality', 'fast', '-o', file], { env });
        assert.equal(rendered.code, 0, rendered.stderr);
        const reopened = await cli(['diagrams', 'create', '--scene', file, '--json'], { env });
        assert.equal(reopened.code, 0, reopened.stderr);
        assert.equal(JSON.parse(reopened.stdout).elementCount, 5, `the ${extension} carries the scene back`);
      }

      const patchFile = path.join(dir, 'patch.json');
      fs.writeFileSync(patchFile, JSON.stringify([{ op: 'move', id: 'a', dx: 5, dy: 0 }]));
      assert.equal(JSON.parse((await cli(['diagrams', 'patch', id, '--file', patchFile, '--json'], { env })).stdout).applied, 1);
      const regen = await cli(['diagrams', 'regenerate', id, '--spec', specFile, '--if-unchanged', '--json'], { env });
      assert.equal(regen.code, 0, regen.stderr);

      const edit = await cli(['diagrams', 'edit', id, '--file', '-', '--json'], { env, stdin: JSON.stringify({ addNodes: [{ id: 'c' }], addEdges: ['b -> c'] }) });
      assert.equal(edit.code, 0, edit.stderr);
      assert.equal(JSON.parse(edit.stdout).added.length, 2);

      const folder = JSON.parse((await cli(['folders', 'create', 'Work', '--json'], { env })).stdout);
      assert.equal((await cli(['folders', 'rename', folder.id, 'Job'], { env })).code, 0);
      assert.match((await cli(['folders', 'list'], { env })).stdout, /Job/);
      assert.equal((await cli(['diagrams', 'move', id, folder.id], { env })).code, 0);
      assert.equal(JSON.parse((await cli(['diagrams', 'get', id], { env })).stdout).folderId, folder.id);
      assert.equal((await cli(['diagrams', 'move', id, 'root'], { env })).code, 0);

      assert.equal((await cli(['comments', 'add', id, '--body', 'hello', '--element', 'a'], { env })).code, 0);
      assert.equal(JSON.parse((await cli(['comments', 'list', id, '--json'], { env })).stdout).items[0].body, 'hello');

      assert.equal((await cli(['diagrams', 'trash', id], { env })).code, 0);
      assert.equal(JSON.parse((await cli(['diagrams', 'list', '--filter', 'trash', '--json'], { env })).stdout).items[0].id, id);
      assert.equal((await cli(['diagrams', 'restore', id], { env })).code, 0);
      assert.match((await cli(['diagrams', 'publish', id, '--enable', '--password', 'pw'], { env })).stdout, /password protected/);
      assert.equal((await cli(['folders', 'delete', folder.id], { env })).code, 0);
      assert.match((await cli(['icons', 'list', '--search', 'postgres'], { env })).stdout, /icon-postgresql/);
    });

    test('exit codes: 1 for API errors, 2 for usage, 3 for auth; insufficient_scope names the capability', async () => {
      const env = as(alice);
      const missing = await cli(['diagrams', 'get', '00000000-0000-4000-8000-000000000000'], { env });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /not_found/);

      assert.equal((await cli(['diagrams', 'frobnicate'], { env })).code, 2);
      assert.equal((await cli(['diagrams', 'get'], { env })).code, 2);
      assert.equal((await cli(['diagrams', 'publish', 'x'], { env })).code, 2);
      assert.equal((await cli(['diagrams', 'create', '--spec', '/nonexistent/spec.json'], { env })).code, 2);

      const noToken = await cli(['me'], { env: { SERVICE_API_URL: apiUrl } });
      assert.equal(noToken.code, 3);
      assert.match(noToken.stderr, /drawbridge auth login/);
      const badToken = await cli(['me'], { env: { SERVICE_TOKEN: 'bogus', SERVICE_API_URL: apiUrl } });
      assert.equal(badToken.code, 3);
      assert.match(badToken.stderr, /SERVICE_TOKEN/);

      assert.equal((await cli(['diagrams', 'create'], { env })).code, 2);
      const dir = tempHome();
      fs.writeFileSync(path.join(dir, 's.json'), '{"nodes":[{"id":"a"}]}');
      fs.writeFileSync(path.join(dir, 'bad.json'), '{nope');
      assert.equal((await cli(['diagrams', 'create', '--spec', path.join(dir, 'bad.json')], { env })).code, 2);
      const invalid = await cli(['diagrams', 'create', '--spec', '-'], { env, stdin: '{"nodes":[{"id":"a","shape":"star"}]}' });
      assert.equal(invalid.code, 1);
      assert.match(invalid.stderr, /UNKNOWN_SHAPE/);
      const d = JSON.parse((await cli(['diagrams', 'create', '--spec', path.join(dir, 's.json'), '--json'], { env: as(reader) })).stdout);
      const denied = await cli(['diagrams', 'trash', d.id], { env: as(reader) });
      assert.equal(denied.code, 1);
      assert.match(denied.stderr, /"delete" capability/);
      assert.match(denied.stderr, /insufficient_scope/);
    });
  });

  describe('render', () => {
    /** Runs the CLI keeping standard output as bytes, as `-o -` writes images there. */
    async function cliBytes(argv: string[], env: NodeJS.ProcessEnv, stdoutIsTTY = false) {
      const chunks: Buffer[] = [];
      let stderr = '';
      const code = await runCli(argv, {
        env: { HOME: tempHome(), ...env },
        stdout: { isTTY: stdoutIsTTY, write: (chunk: string | Uint8Array) => void chunks.push(Buffer.from(chunk)) },
        stderr: { write: (s: string | Uint8Array) => void (stderr += String(s)) },
      });
      return { code, stdout: Buffer.concat(chunks), stderr };
    }

    const createDiagram = async (user: TestUser, body: unknown) => (await h.call('POST', '/api/v1/diagrams', { token: user.token, body })).json().id as string;

    test('writes a 1024-px-wide PNG, an SVG or the JSON envelope, the format read from the file extension', async () => {
      const env = as(alice);
      const id = await createDiagram(alice, { spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } });
      const dir = tempHome();

      const png = await cli(['diagrams', 'render', id, '-o', path.join(dir, 'out.png'), '--quality', 'fast'], { env });
      assert.equal(png.code, 0, png.stderr);
      assert.match(png.stdout, /Wrote .*out\.png \(PNG, .*, fast quality\)/);
      const bytes = fs.readFileSync(path.join(dir, 'out.png'));
      assert.equal(pngSize(bytes).width, 1024); // pngSize checks the PNG signature first

      assert.equal((await cli(['diagrams', 'render', id, '-o', path.join(dir, 'out.svg')], { env })).code, 0);
      assert.match(fs.readFileSync(path.join(dir, 'out.svg'), 'utf8'), /<svg[\s>]/);

      const described = await cli(['render', id, '-o', path.join(dir, 'out.json'), '--json'], { env });
      assert.equal(described.code, 0, described.stderr);
      assert.equal(JSON.parse(described.stdout).format, 'json');
      const envelope = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8'));
      assert.equal(envelope.isEmpty, false);
      assert.equal(pngSize(Buffer.from(envelope.png, 'base64')).width, 1024);

      // --format wins over the extension
      assert.equal((await cli(['render', id, '-o', path.join(dir, 'image.bin'), '--format', 'svg'], { env })).code, 0);
      assert.match(fs.readFileSync(path.join(dir, 'image.bin'), 'utf8'), /<svg[\s>]/);
    });

    test('the render options reach the server: width, theme, padding, background, elements and frame', async () => {
      const env = as(alice);
      const id = await createDiagram(alice, { spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } });
      const dir = tempHome();
      const wide = await cli(['render', id, '-o', path.join(dir, 'wide.png'), '--quality', 'fast', '--width', '2048', '--theme', 'dark', '--padding', '40', '--background', '#0d1117'], { env });
      assert.equal(wide.code, 0, wide.stderr);
      assert.equal(pngSize(fs.readFileSync(path.join(dir, 'wide.png'))).width, 2048);
      const part = await cli(['render', id, '-o', path.join(dir, 'part.svg'), '--quality', 'fast', '--elements', 'a', '--scale', '2'], { env });
      assert.equal(part.code, 0, part.stderr);
      const svg = fs.readFileSync(path.join(dir, 'part.svg'), 'utf8');
      assert.doesNotMatch(svg, />b</, 'only the element asked for is drawn');
      assert.match(svg, /^<svg[^>]* width="\d+"/);
      const unknown = await cli(['render', id, '-o', path.join(dir, 'x.png'), '--frame', 'a'], { env });
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /invalid_selection/);
      const both = await cli(['render', id, '-o', path.join(dir, 'x.png'), '--width', '800', '--scale', '2'], { env });
      assert.equal(both.code, 2);
      assert.equal((await cli(['render', id, '-o', path.join(dir, 'x.png'), '--width', 'wide'], { env })).code, 2);
      const range = await cli(['render', id, '-o', path.join(dir, 'x.png'), '--width', '10'], { env });
      assert.equal(range.code, 1);
      assert.match(range.stderr, /width: must be from 256 to 4096/);
    });

    test('publishing without a password shows the Markdown that embeds the image; with one, none', async () => {
      const env = as(alice);
      const id = await createDiagram(alice, { title: 'Our [system]', spec: { nodes: [{ id: 'a' }] } });
      const enabled = await cli(['publish', 'enable', id], { env });
      assert.equal(enabled.code, 0, enabled.stderr);
      const url = /Public at (\S+)/.exec(enabled.stdout.replace(/\x1b\[[0-9;]*m/g, ''))![1];
      assert.match(enabled.stdout, new RegExp(`Embed: +!\\[Our \\\\\\[system\\\\\\]\\]\\(${url!.replace(/[.]/g, '\\.')}\\.svg\\)`));
      assert.match((await cli(['publish', 'status', id], { env })).stdout, /Embed: +!\[/);
      const locked = await cli(['publish', 'enable', id, '--password', 'pw'], { env });
      assert.doesNotMatch(locked.stdout, /Embed/);
    });

    test('-o - writes the image bytes to standard output', async () => {
      const id = await createDiagram(alice, { spec: { nodes: [{ id: 'a' }] } });
      const run = await cliBytes(['render', id, '-o', '-', '--quality', 'fast'], as(alice));
      assert.equal(run.code, 0, run.stderr);
      assert.equal(pngSize(run.stdout).width, 1024);
    });

    test('without -o it writes ID.png in the current directory', async () => {
      const id = await createDiagram(alice, { spec: { nodes: [{ id: 'a' }] } });
      const dir = tempHome();
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        assert.equal((await cli(['render', id, '--quality', 'fast'], { env: as(alice) })).code, 0);
      } finally {
        process.chdir(cwd);
      }
      assert.equal(pngSize(fs.readFileSync(path.join(dir, `${id}.png`))).width, 1024);
    });

    test('an empty diagram writes nothing, says so, and exits 0', async () => {
      const id = await createDiagram(alice, { scene: sceneOf(0) });
      const file = path.join(tempHome(), 'empty.png');
      const run = await cli(['render', id, '-o', file], { env: as(alice) });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /is empty: nothing to render/);
      assert.equal(fs.existsSync(file), false);
    });

    test('usage errors exit 2 before any request: unknown extension or format, bad quality, PNG to a terminal', async () => {
      const env = { SERVICE_TOKEN: 'drw_pat_unused', SERVICE_API_URL: 'http://127.0.0.1:1' };
      const unknown = await cli(['render', 'some-id', '-o', 'picture.gif'], { env });
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /\.png, \.svg or \.json/);
      assert.equal((await cli(['render', 'some-id', '-o', 'x.png', '--format', 'gif'], { env })).code, 2);
      const quality = await cli(['diagrams', 'render', 'some-id', '-o', 'x.png', '--quality', 'best'], { env });
      assert.equal(quality.code, 2);
      assert.match(quality.stderr, /'best' is invalid\. Allowed choices are faithful, fast/);
      assert.equal((await cli(['render', 'some-id', '-o', '-', '--json'], { env })).code, 2);
      const tty = await cliBytes(['render', 'some-id', '-o', '-'], env, true);
      assert.equal(tty.code, 2);
      assert.match(tty.stderr, /terminal/);
    });

    test('a fallback to the fast preview is reported: the delivered quality and its note', async () => {
      const off = await startHarness({ env: { RENDER_FAITHFUL: 'off' } });
      try {
        await off.app.listen({ port: 0, host: '127.0.0.1' });
        const user = await off.user();
        const env = { SERVICE_TOKEN: user.token, SERVICE_API_URL: `http://127.0.0.1:${(off.app.server.address() as AddressInfo).port}` };
        const id = (await off.call('POST', '/api/v1/diagrams', { token: user.token, body: { spec: { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] } } })).json().id as string;
        const dir = tempHome();

        const run = await cli(['render', id, '-o', path.join(dir, 'd1.png'), '--json'], { env });
        assert.equal(run.code, 0, run.stderr);
        const written = fs.readFileSync(path.join(dir, 'd1.png'));
        assert.equal(pngSize(written).width, 1024);
        assert.deepEqual(JSON.parse(run.stdout), { id, file: path.join(dir, 'd1.png'), format: 'png', bytes: written.length, quality: 'fast', note: 'faithful_unavailable' });
        assert.match(run.stderr, /note: faithful_unavailable \(the fast preview was delivered\)/);

        const human = await cli(['render', id, '-o', path.join(dir, 'd1.svg')], { env });
        assert.equal(human.code, 0, human.stderr);
        assert.match(human.stdout, /Wrote .*d1\.svg \(SVG, .*, fast quality\)/);
        assert.match(human.stderr, /note: faithful_unavailable/);

        const envelope = await cli(['render', id, '-o', path.join(dir, 'd1.json')], { env });
        assert.equal(envelope.code, 0, envelope.stderr);
        const parsed = JSON.parse(fs.readFileSync(path.join(dir, 'd1.json'), 'utf8'));
        assert.equal(parsed.quality, 'fast');
        assert.equal(parsed.note, 'faithful_unavailable');
        assert.equal(pngSize(Buffer.from(parsed.png, 'base64')).width, 1024);
      } finally {
        await off.close();
      }
    });

    test('an empty diagram on standard output writes no bytes; --json says isEmpty', async () => {
      const id = await createDiagram(alice, { scene: { elements: [] } });
      const empty = await cliBytes(['render', id, '-o', '-'], as(alice));
      assert.equal(empty.code, 0, empty.stderr);
      assert.equal(empty.stdout.length, 0);
      assert.match(empty.stderr, /is empty: nothing to render/);

      const file = path.join(tempHome(), 'empty.svg');
      const described = await cli(['render', id, '-o', file, '--json'], { env: as(alice) });
      assert.equal(described.code, 0, described.stderr);
      assert.deepEqual(JSON.parse(described.stdout), { id, file: null, format: 'svg', isEmpty: true });
      assert.equal(fs.existsSync(file), false);
    });

    test('a render the server refuses exits 1 with its code and writes nothing', async () => {
      const bob = await h.user();
      const theirs = await createDiagram(bob, { spec: { nodes: [{ id: 'a' }] } });
      const dir = tempHome();
      for (const id of [theirs, '00000000-0000-4000-8000-000000000000']) {
        const run = await cli(['render', id, '-o', path.join(dir, 'x.png'), '--quality', 'fast'], { env: as(alice) });
        assert.equal(run.code, 1);
        assert.match(run.stderr, /not_found/);
        assert.equal(fs.existsSync(path.join(dir, 'x.png')), false);
      }

      // a server whose renders cannot finish in time answers 503 render_failed
      const slow = await startHarness({ env: { RENDER_FAITHFUL: 'off', RENDER_TIMEOUT_MS: '1' } });
      try {
        await slow.app.listen({ port: 0, host: '127.0.0.1' });
        const user = await slow.user();
        const env = { SERVICE_TOKEN: user.token, SERVICE_API_URL: `http://127.0.0.1:${(slow.app.server.address() as AddressInfo).port}` };
        const id = (await slow.call('POST', '/api/v1/diagrams', { token: user.token, body: { scene: sceneOf(1) } })).json().id as string;
        const run = await cli(['render', id, '-o', path.join(dir, 'slow.png')], { env });
        assert.equal(run.code, 1);
        assert.match(run.stderr, /render_failed/);
        assert.equal(fs.existsSync(path.join(dir, 'slow.png')), false);
      } finally {
        await slow.close();
      }
    });
  });

  test('colour only on a TTY and never with NO_COLOR', async () => {
    const run = async (env: NodeJS.ProcessEnv) => {
      let stdout = '';
      await runCli(['me'], { env: { HOME: tempHome(), ...as(alice), ...env }, stdout: { isTTY: true, write: (s: string) => void (stdout += s) }, stderr: { write: () => true } });
      return stdout;
    };
    assert.ok((await run({})).includes('\u001b['));
    assert.ok(!(await run({ NO_COLOR: '1' })).includes('\u001b['));
  });

  test('the real bin/drawbridge runs: --help and me', async () => {
    const run = promisify(execFile);
    const HOME = tempHome();
    const help = await run(BIN, ['--help'], { env: { PATH: process.env.PATH, HOME } });
    assert.match(help.stdout, /Usage: drawbridge/);
    const me = await run(BIN, ['me', '--json'], { env: { PATH: process.env.PATH, HOME, SERVICE_TOKEN: alice.token, SERVICE_API_URL: apiUrl } });
    assert.equal(JSON.parse(me.stdout).email, alice.email);
  });
});
