import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/program.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';

let h: ListeningHarness;
describe('cli/workflows', () => {
  before(async () => {
    h = await startHarness({ listen: true });
  });
  after(() => h.close());

  const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-cli-'));

  interface Run {
    code: number;
    stdout: string;
    stderr: string;
  }

  /** Runs the CLI in-process as `user`; `tty` makes standard error a terminal. */
  async function cli(user: TestUser, argv: string[], options: { env?: NodeJS.ProcessEnv; tty?: boolean } = {}): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      env: { HOME: tempDir(), SERVICE_TOKEN: user.token, SERVICE_API_URL: h.baseUrl, ...options.env },
      stdout: { write: (s: string | Uint8Array) => void (stdout += String(s)) },
      stderr: { isTTY: Boolean(options.tty), write: (s: string | Uint8Array) => void (stderr += String(s)) },
    });
    return { code, stdout, stderr };
  }

  const SPEC = { nodes: [{ id: 'a' }, { id: 'b' }], edges: ['a -> b'] };
  const api = async (user: TestUser, method: string, url: string, body?: unknown) => {
    const res = await h.call(method, url, { token: user.token, body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? undefined : res.json();
  };
  const createDiagram = async (user: TestUser, body: Record<string, unknown> = {}) => (await api(user, 'POST', '/api/v1/diagrams', { spec: SPEC, ...body })).id as string;
  const folderOf = async (user: TestUser, id: string) => (await api(user, 'GET', `/api/v1/diagrams/${id}`)).folderId as string | null;

  describe('folders by name, path or id', () => {
    let user: TestUser;
    let top: string;
    let work: string;
    let nested: string;
    before(async () => {
      user = await h.user();
      top = (await api(user, 'POST', '/api/v1/folders', { name: 'Architecture' })).id;
      work = (await api(user, 'POST', '/api/v1/folders', { name: 'Work' })).id;
      nested = (await api(user, 'POST', '/api/v1/folders', { name: 'Architecture', parentId: work })).id;
    });

    test('move takes a unique name, a Parent/Child path, an id, or root', async () => {
      const id = await createDiagram(user);
      const byName = await cli(user, ['diagrams', 'move', id, 'Work']);
      assert.equal(byName.code, 0, byName.stderr);
      assert.equal(byName.stdout, `Moved ${id} to Work\n`);
      assert.equal(await folderOf(user, id), work);
      assert.equal((await cli(user, ['diagrams', 'move', id, 'Work/Architecture'])).code, 0);
      assert.equal(await folderOf(user, id), nested);
      assert.equal((await cli(user, ['diagrams', 'move', id, top])).code, 0);
      assert.equal(await folderOf(user, id), top);
      assert.equal((await cli(user, ['diagrams', 'move', id, 'root'])).code, 0);
      assert.equal(await folderOf(user, id), null);
    });

    test('a name shared by two folders is refused with exit 2, listing each path and id, and nothing moves', async () => {
      const id = await createDiagram(user);
      const run = await cli(user, ['diagrams', 'move', id, 'Architecture']);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /"Architecture" names 2 folders/);
      assert.ok(run.stderr.includes(`  Architecture  ${top}\n`), run.stderr);
      assert.ok(run.stderr.includes(`  Work/Architecture  ${nested}\n`), run.stderr);
      assert.equal(await folderOf(user, id), null);
      assert.equal((await cli(user, ['diagrams', 'create', '--spec', '-', '--folder', 'Architecture'])).code, 2);
    });

    test('a name matching no folder exits 1 and suggests the close ones', async () => {
      const id = await createDiagram(user);
      const typo = await cli(user, ['diagrams', 'move', id, 'architecure']);
      assert.equal(typo.code, 1);
      assert.match(typo.stderr, /no folder named "architecure"\. Did you mean "Architecture", "Work\/Architecture"\?/);
      const far = await cli(user, ['diagrams', 'move', id, 'Holidays']);
      assert.equal(far.code, 1);
      assert.match(far.stderr, /no folder named "Holidays"\. List them with `drawbridge folders list`/);
      assert.equal(await folderOf(user, id), null);
    });

    test('create --folder, folders create --parent, rename and delete take names too', async () => {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(SPEC));
      const created = await cli(user, ['diagrams', 'create', '--spec', path.join(dir, 'spec.json'), '--folder', 'Work', '--json']);
      assert.equal(created.code, 0, created.stderr);
      assert.equal(JSON.parse(created.stdout).folderId, work);

      const child = await cli(user, ['folders', 'create', 'Drafts', '--parent', 'Work', '--json']);
      assert.equal(child.code, 0, child.stderr);
      const drafts = JSON.parse(child.stdout);
      assert.equal(drafts.parentId, work);
      assert.match((await cli(user, ['folders', 'list'])).stdout, new RegExp(`${drafts.id}  Work/Drafts\\n`));
      assert.equal((await cli(user, ['folders', 'rename', 'Work/Drafts', 'Sketches'])).code, 0);
      const deleted = await cli(user, ['folders', 'delete', 'Sketches']);
      assert.equal(deleted.code, 0, deleted.stderr);
      assert.equal(deleted.stdout, `Deleted folder Sketches (${drafts.id}).\n`);
      assert.ok(!(await api(user, 'GET', '/api/v1/folders')).items.some((f: { id: string }) => f.id === drafts.id));
    });

    test('the diagrams table names each folder by its path', async () => {
      const other = await h.user();
      const folder = (await api(other, 'POST', '/api/v1/folders', { name: 'Plans' })).id;
      const inner = (await api(other, 'POST', '/api/v1/folders', { name: 'Q3', parentId: folder })).id;
      await createDiagram(other, { title: 'Nested', folderId: inner });
      await createDiagram(other, { title: 'Loose' });
      const run = await cli(other, ['diagrams', 'list']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^[0-9a-f-]{36}  [0-9: -]{16}  -\s+Loose$/m);
      assert.match(run.stdout, /^[0-9a-f-]{36}  [0-9: -]{16}  Plans\/Q3  Nested$/m);
    });
  });

  describe('editor URL and --web', () => {
    /** A BROWSER that records the URL it was asked to open. */
    function recordingBrowser(): { env: NodeJS.ProcessEnv; opened: () => string[] } {
      const dir = tempDir();
      const log = path.join(dir, 'opened.txt');
      const browser = path.join(dir, 'browser.sh');
      fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`, { mode: 0o755 });
      return { env: { BROWSER: browser }, opened: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
    }

    test('create prints the editor URL; --web opens it in the browser', async () => {
      const user = await h.user();
      const browser = recordingBrowser();
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(SPEC));
      const run = await cli(user, ['diagrams', 'create', '--spec', path.join(dir, 'spec.json'), '--title', 'Flow', '--web'], { env: browser.env });
      assert.equal(run.code, 0, run.stderr);
      const id = /Created .*Flow ([0-9a-f-]{36}) \(5 elements\)/.exec(run.stdout)?.[1];
      assert.ok(id, run.stdout);
      const url = `${h.baseUrl}/app/d/${id}`;
      assert.equal(run.stdout.split('\n')[1], url);
      assert.deepEqual(browser.opened(), [url]);
      assert.equal(run.stderr, `Opened ${url} in your browser.\n`);
      // the page is the diagram's editor
      assert.equal((await fetch(url, { redirect: 'manual' })).status < 500, true);
    });

    test('view summarises a diagram with its editor URL; view --web opens it', async () => {
      const user = await h.user();
      const folder = (await api(user, 'POST', '/api/v1/folders', { name: 'Team' })).id;
      const id = await createDiagram(user, { title: 'Overview', folderId: folder });
      const url = `${h.baseUrl}/app/d/${id}`;
      const shown = await cli(user, ['diagrams', 'view', id]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /^Overview\nid: +[0-9a-f-]{36}\nfolder: +Team\n/);
      assert.match(shown.stdout, /^elements: +5$/m);
      assert.ok(shown.stdout.includes(`editor:    ${url}\n`));

      const browser = recordingBrowser();
      const opened = await cli(user, ['diagrams', 'view', id, '--web'], { env: browser.env });
      assert.equal(opened.code, 0, opened.stderr);
      assert.equal(opened.stdout, '');
      assert.deepEqual(browser.opened(), [url]);
    });

    test('with no browser to open, --web still succeeds and prints the URL', async () => {
      const user = await h.user();
      const id = await createDiagram(user);
      const env = { BROWSER: path.join(tempDir(), 'no-such-browser') };
      const run = await cli(user, ['diagrams', 'view', id, '--web'], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `${h.baseUrl}/app/d/${id}\n`);
      assert.match(run.stderr, /Could not open a browser \(set BROWSER/);

      const created = await cli(user, ['diagrams', 'create', '--scene', '-', '--web', '--json'], { env });
      assert.equal(created.code, 2, 'no standard input in this run'); // usage, before any browser
    });
  });

  describe('publish status', () => {
    test('shows never published, then enabled with its URL and password, then disabled', async () => {
      const user = await h.user();
      const id = await createDiagram(user);

      const never = await cli(user, ['publish', 'status', id]);
      assert.equal(never.code, 0, never.stderr);
      assert.equal(never.stdout, 'Public link: disabled (never published)\nURL:         -\nPassword:    none\n');
      assert.deepEqual(JSON.parse((await cli(user, ['publish', 'status', id, '--json'])).stdout), { slug: null, enabled: false, hasPassword: false, version: 0, url: null });

      const enabled = await cli(user, ['publish', 'enable', id, '--password', 's3cret']);
      assert.equal(enabled.code, 0, enabled.stderr);
      const status = await cli(user, ['publish', 'status', id]);
      const link = JSON.parse((await cli(user, ['publish', 'status', id, '--json'])).stdout);
      assert.equal(link.enabled, true);
      assert.equal(link.hasPassword, true);
      assert.equal(status.stdout, `Public link: enabled\nURL:         ${link.url}\nPassword:    set\n`);
      assert.equal((await fetch(link.url)).status, 200, 'the URL shown is the public page');

      assert.equal((await cli(user, ['publish', 'disable', id])).code, 0);
      assert.equal((await cli(user, ['publish', 'status', id])).stdout, 'Public link: disabled\nURL:         -\nPassword:    set\n');
    });

    test("another user's diagram is not found (exit 1)", async () => {
      const owner = await h.user();
      const id = await createDiagram(owner);
      const run = await cli(await h.user(), ['publish', 'status', id]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /not_found/);
    });
  });

  describe('diagrams list filters', () => {
    test('--search, --folder (name or none) and --starred narrow the list on the server', async () => {
      const user = await h.user();
      const folder = (await api(user, 'POST', '/api/v1/folders', { name: 'Payments' })).id;
      const checkout = await createDiagram(user, { title: 'Checkout flow', folderId: folder });
      const refunds = await createDiagram(user, { title: 'Refunds', folderId: folder });
      const loose = await createDiagram(user, { title: 'CHECKOUT notes' });
      await h.store.diagrams.setStarred(refunds, true);
      const ids = async (...argv: string[]) => {
        const run = await cli(user, ['diagrams', 'list', '--json', ...argv]);
        assert.equal(run.code, 0, run.stderr);
        return (JSON.parse(run.stdout).items as { id: string }[]).map((d) => d.id).sort();
      };
      assert.deepEqual(await ids('--search', 'checkout'), [checkout, loose].sort());
      assert.deepEqual(await ids('-q', 'checkout', '--folder', 'Payments'), [checkout]);
      assert.deepEqual(await ids('--folder', folder), [checkout, refunds].sort());
      assert.deepEqual(await ids('--folder', 'none'), [loose]);
      assert.deepEqual(await ids('--starred'), [refunds]);
      assert.deepEqual(await ids('--no-starred', '--folder', 'Payments'), [checkout]);
      assert.deepEqual(await ids('--all', '--limit', '1', '--search', 'checkout'), [checkout, loose].sort());
      const none = await cli(user, ['diagrams', 'list', '--search', 'nothing like this']);
      assert.equal(none.stdout, 'No diagrams match.\n');
    });
  });

  describe('progress', () => {
    let user: TestUser;
    let ids: string[];
    before(async () => {
      user = await h.user();
      ids = [];
      for (let i = 0; i < 3; i++) ids.push(await createDiagram(user, { title: `P${i}` }));
    });

    test('--all shows pages fetched on a terminal standard error, cleared before the table', async () => {
      const quietRun = await cli(user, ['diagrams', 'list', '--all', '--limit', '1']);
      const run = await cli(user, ['diagrams', 'list', '--all', '--limit', '1'], { tty: true });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, quietRun.stdout, 'standard output is the same either way');
      assert.ok(run.stderr.includes('Fetched 1 diagrams…') && run.stderr.includes('Fetched 3 diagrams…'), JSON.stringify(run.stderr));
      assert.ok(run.stderr.endsWith('\r\u001b[K'), 'the progress line is cleared');
      assert.equal(quietRun.stderr, '', 'nothing when standard error is not a terminal');
      assert.equal((await cli(user, ['--quiet', 'diagrams', 'list', '--all', '--limit', '1'], { tty: true })).stderr, '');
      assert.equal((await cli(user, ['diagrams', 'list', '--all', '--limit', '1', '--json', '--quiet'], { tty: true })).stderr, '');
    });

    test('rendering several diagrams writes each into --dir, with progress only on a terminal', async () => {
      const dir = tempDir();
      const run = await cli(user, ['render', ...ids, '--dir', dir, '--format', 'svg', '--quality', 'fast'], { tty: true });
      assert.equal(run.code, 0, run.stderr);
      for (const id of ids) assert.match(fs.readFileSync(path.join(dir, `${id}.svg`), 'utf8'), /<svg[\s>]/);
      assert.equal(run.stdout.split('\n').filter((l) => l.startsWith('Wrote ')).length, 3);
      assert.ok(run.stderr.includes(`Rendering 3 of 3: ${ids[2]}…`), JSON.stringify(run.stderr));

      const json = await cli(user, ['diagrams', 'render', ...ids, '--dir', dir, '--json', '--quality', 'fast']);
      assert.equal(json.code, 0, json.stderr);
      assert.equal(json.stderr, '');
      assert.deepEqual((JSON.parse(json.stdout) as { file: string }[]).map((r) => r.file), ids.map((id) => path.join(dir, `${id}.png`)));

      const usage = await cli(user, ['render', ...ids, '-o', path.join(dir, 'one.png')]);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--dir/);
    });
  });

  describe('help', () => {
    const help = async (...argv: string[]) => {
      const user = await h.user({ caps: 'read' });
      const run = await cli(user, [...argv, '--help']);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout;
    };

    test('the root help has examples and names every environment variable the CLI reads', async () => {
      const text = await help();
      assert.match(text, /\nExamples:\n {2}\$ drawbridge /);
      const sources = ['src/cli', 'src/client'].flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')));
      const read = new Set(sources.flatMap((source) => [...source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!)));
      read.delete('HOME'); // the home directory, named as ~ in the help
      assert.ok(read.has('SERVICE_TOKEN') && read.has('SERVICE_API_URL') && read.has('BROWSER'));
      for (const name of read) assert.match(text, new RegExp(`\\n {2}${name} +\\S`), `${name} is described under Environment`);
    });

    test('commands that take folders, URLs or several diagrams show examples', async () => {
      for (const argv of [['diagrams', 'list'], ['diagrams', 'create'], ['diagrams', 'move'], ['diagrams', 'view'], ['publish', 'status'], ['render'], ['completion'], ['auth', 'login']]) {
        assert.match(await help(...argv), new RegExp(`\\nExamples:\\n {2}\\$ .*drawbridge ${argv.join(' ')}`), argv.join(' '));
      }
      assert.match(await help('auth', 'login'), /SERVICE_TOKEN/);
    });
  });
});
