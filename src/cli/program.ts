import fs from 'node:fs';
import path from 'node:path';
import { Argument, Command, CommanderError, Option } from 'commander';
import type { RenderFormat, RenderQuality } from '../api/schemas.ts';
import { embedMarkdown } from '../api/embed.ts';
import { DrawbridgeApiError, DrawbridgeClient } from '../client/client.ts';
import { configPath, DEFAULT_API_URL, readStoredLogin, resolveCredentials, writeStoredLogin } from '../client/credentials.ts';
import { openInBrowser } from './browser.ts';
import { COMPLETION_SHELLS, type CompletionShell, completionScript } from './completion.ts';
import { FolderReferenceError, folderPaths, isFolderId, resolveFolderReference, ROOT_WORDS } from './folders.ts';
import { diffLines, HISTORY_HEADERS, historyRow } from './history.ts';
import { addSharingCommands } from './sharing.ts';

/** Exit codes (docs/cli.md): 0 ok, 1 API error, 2 usage, 3 auth. */
const EXIT = { ok: 0, api: 1, usage: 2, auth: 3 } as const;

interface CliStream {
  write(chunk: string | Uint8Array): unknown;
  isTTY?: boolean;
}

interface CliInput extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on?(event: string, listener: (...args: any[]) => void): unknown;
  removeListener?(event: string, listener: (...args: any[]) => void): unknown;
  resume?(): unknown;
  pause?(): unknown;
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: CliStream;
  stderr: CliStream;
  stdin?: CliInput;
}

/** A failure with a chosen exit code and a message already meant for people. */
class CliFailure extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

const FORMAT_BY_EXTENSION: Record<string, RenderFormat> = { '.png': 'png', '.svg': 'svg', '.json': 'json', '.pdf': 'pdf' };

function byteSize(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

const LOGIN_HINT = 'Log in with `drawbridge auth login`, or set SERVICE_TOKEN (and SERVICE_API_URL) in the environment.';

const ENVIRONMENT_HELP = `
Environment:
  SERVICE_TOKEN     the API token; wins over the stored login
  SERVICE_API_URL   the API base URL (default: the one stored by \`auth login\`, else ${DEFAULT_API_URL})
  XDG_CONFIG_HOME   the stored login is $XDG_CONFIG_HOME/drawbridge/config.json (default ~/.config/drawbridge/config.json)
  BROWSER           the command --web opens URLs with (default: xdg-open, open or start)
  NO_COLOR          any value turns colour off (colour is used only on a terminal)
`;

/** The value of --limit: a positive integer (the server caps it at 100). */
function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliFailure(EXIT.usage, `--limit must be a positive integer, got ${value}`);
  return n;
}

/** A parser for an option that takes a whole number (the server checks its range and says so). */
function parseWholeNumber(name: string): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value)) throw new CliFailure(EXIT.usage, `${name} must be a whole number, got ${value}`);
    return Number(value);
  };
}

/** A parser for an option that takes a number such as 2 or 1.5 (the server checks its range and says so). */
function parseDecimal(name: string): (value: string) => number {
  return (value) => {
    if (!/^\d+(\.\d+)?$/.test(value)) throw new CliFailure(EXIT.usage, `${name} must be a number such as 2 or 1.5, got ${value}`);
    return Number(value);
  };
}

/** The help text's closing "Examples:" section; each line a command as typed. */
function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** Where a person edits the diagram: the API's editorUrl, or, from a server that predates it, the editor path on the API's origin. */
function editorUrlOf(diagram: { id: string; editorUrl?: string | null }, apiUrl: string): string {
  return diagram.editorUrl ?? `${new URL(apiUrl).origin}/app/d/${encodeURIComponent(diagram.id)}`;
}

async function readAll(input: CliInput | undefined): Promise<string> {
  if (!input) throw new CliFailure(EXIT.usage, 'no standard input available');
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}

/** Reads one line from a TTY without echoing it. */
function promptHidden(io: CliIo, question: string): Promise<string> {
  const input = io.stdin!;
  io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    input.setRawMode?.(true);
    input.resume?.();
    const done = (error?: Error) => {
      input.setRawMode?.(false);
      input.pause?.();
      input.removeListener?.('data', onData);
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new CliFailure(EXIT.usage, 'cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    input.on?.('data', onData);
  });
}

/** The source language a file's extension names, if any: .mmd/.mermaid Mermaid, .dot/.gv DOT. */
function languageOfFile(file: string): 'mermaid' | 'dot' | undefined {
  const extension = /\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase();
  if (extension === 'mmd' || extension === 'mermaid') return 'mermaid';
  if (extension === 'dot' || extension === 'gv') return 'dot';
  return undefined;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const { env, stdout, stderr } = io;
  const colour = Boolean(stdout.isTTY) && env.NO_COLOR === undefined;
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const bold = (t: string) => paint('1', t);
  const dim = (t: string) => paint('2', t);
  const errColour = Boolean(stderr.isTTY) && env.NO_COLOR === undefined;

  // Progress is for a person watching: one line on standard error, redrawn in
  // place, only when standard error is a terminal and --quiet is not given.
  // Scripts and pipes never see it.
  let progressShown = false;
  const progress = (text: string) => {
    if (!stderr.isTTY || program.opts<{ quiet?: boolean }>().quiet) return;
    stderr.write(`\r\u001b[K${text}`);
    progressShown = true;
  };
  const clearProgress = () => {
    if (progressShown) stderr.write('\r\u001b[K');
    progressShown = false;
  };
  const out = (line = '') => {
    clearProgress();
    stdout.write(`${line}\n`);
  };
  const json = (value: unknown) => out(JSON.stringify(value, null, 2));
  const note = (line: string) => {
    clearProgress();
    stderr.write(`${line}\n`);
  };

  const apiUrl = () => resolveCredentials(env, configPath(env)).apiUrl;
  const client = (): DrawbridgeClient => {
    const creds = resolveCredentials(env, configPath(env));
    if (!creds.token) throw new CliFailure(EXIT.auth, `Not logged in. ${LOGIN_HINT}`);
    return new DrawbridgeClient({ apiUrl: creds.apiUrl, token: creds.token });
  };

  /**
   * The folder id a command-line folder reference names: a UUID as it is,
   * `root` or `none` the top level (null) where allowed, else a name or path
   * looked up among the caller's folders.
   */
  async function folderIdOf(c: DrawbridgeClient, ref: string, options: { allowRoot: true }): Promise<string | null>;
  async function folderIdOf(c: DrawbridgeClient, ref: string, options?: { allowRoot?: false }): Promise<string>;
  async function folderIdOf(c: DrawbridgeClient, ref: string, options: { allowRoot?: boolean } = {}): Promise<string | null> {
    if (options.allowRoot && (ROOT_WORDS as readonly string[]).includes(ref)) return null;
    if (isFolderId(ref)) return ref;
    try {
      return resolveFolderReference(ref, (await c.listFolders()).items);
    } catch (error) {
      if (error instanceof FolderReferenceError) throw new CliFailure(error.kind === 'ambiguous' ? EXIT.usage : EXIT.api, error.message);
      throw error;
    }
  }

  /**
   * Opens `url` for --web, saying so on standard error. With no browser to
   * open it the command still succeeds: it says so and, unless the URL is
   * already on standard output, prints it there.
   */
  const openWeb = async (url: string, options: { urlShown: boolean }) => {
    if (await openInBrowser(url, env)) return note(`Opened ${url} in your browser.`);
    note(`Could not open a browser (set BROWSER to the command that opens one)${options.urlShown ? '.' : '; the URL is:'}`);
    if (!options.urlShown) out(url);
  };

  const readSource = async (file: string): Promise<string> => {
    if (file === '-') return readAll(io.stdin);
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new CliFailure(EXIT.usage, `cannot read ${file}: ${(error as Error).message}`);
    }
  };
  const readJson = async (file: string): Promise<unknown> => {
    const text = await readSource(file);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new CliFailure(EXIT.usage, `${file === '-' ? 'standard input' : file} is not valid JSON: ${(error as Error).message}`);
    }
  };

  /**
   * A diagram source file's content: the language from --language, or else
   * from the extension (.mmd/.mermaid Mermaid, .dot/.gv DOT).
   */
  const readDiagramSource = async (file: string, language: string | undefined): Promise<{ language: 'mermaid' | 'dot'; text: string }> => {
    const chosen = language ?? languageOfFile(file);
    if (chosen === undefined) throw new CliFailure(EXIT.usage, `cannot tell the language of ${file === '-' ? 'standard input' : file}: name it .mmd or .dot, or give --language mermaid|dot`);
    if (chosen !== 'mermaid' && chosen !== 'dot') throw new CliFailure(EXIT.usage, `--language must be mermaid or dot; got ${JSON.stringify(chosen)}`);
    return { language: chosen, text: await readSource(file) };
  };
  /** What the drawing of a source leaves out, one line each on standard error. */
  const warnAbout = (warnings: Array<{ line: number; message: string }> | undefined) => {
    for (const warning of warnings ?? []) note(`warning: line ${warning.line}: ${warning.message}`);
  };

  const table = (headers: string[], rows: string[][]) => {
    if (rows.length === 0) return;
    const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
    out(bold(line(headers)));
    for (const row of rows) out(line(row));
  };

  const program = new Command('drawbridge');
  program
    .description('Command-line client for the Drawbridge diagram API')
    .version('0.1.0', '-V, --version')
    .option('--quiet', 'no progress on standard error (it is shown only on a terminal anyway)')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => void stdout.write(s),
      writeErr: (s) => void stderr.write(s),
      outputError: (s, write) => write(errColour ? `\u001b[31m${s}\u001b[0m` : s),
    });
  program.addHelpText(
    'after',
    `${examples(
      'drawbridge auth login',
      'drawbridge diagrams create --spec flow.json --title "Checkout flow" --folder Architecture --web',
      'drawbridge diagrams list --search checkout --folder Architecture',
      'drawbridge diagrams list --all --json | jq -r \'.items[].id\'',
      'drawbridge render ID -o flow.png',
      'drawbridge history ID',
      'drawbridge publish status ID',
      'source <(drawbridge completion bash)',
    )}${ENVIRONMENT_HELP}
Exit codes: 0 ok, 1 the API refused or could not be reached, 2 usage error, 3 not logged in or token refused.
Output to a closed pipe (\`| head\`) ends the command quietly with exit 0.
`,
  );
  const jsonOpt = () => new Option('--json', 'machine-readable JSON output');

  // auth
  const auth = program.command('auth').description('log in, log out and show which credentials are in use');
  auth
    .command('login')
    .description('validate a token with GET /me and store it (mode 600) for later commands')
    .option('--token <token>', 'the token (otherwise read from standard input, or prompted for without echo)')
    .option('--api-url <url>', 'the API base URL to store with the login (default: SERVICE_API_URL or the stored one)')
    .addHelpText(
      'after',
      `${examples('drawbridge auth login', 'drawbridge auth login --api-url https://drawbridge.example.com --token "$TOKEN"', 'echo "$TOKEN" | drawbridge auth login')}
In scripts and CI, skip the login: set SERVICE_TOKEN (and SERVICE_API_URL) in the environment instead.
`,
    )
    .action(async (opts: { token?: string; apiUrl?: string }) => {
      let token = opts.token;
      if (token === undefined) {
        if (io.stdin?.isTTY) token = await promptHidden(io, 'Paste your Drawbridge token: ');
        else token = await readAll(io.stdin);
      }
      token = token.trim();
      if (!token) throw new CliFailure(EXIT.usage, 'no token given');
      const file = configPath(env);
      const apiUrl = (opts.apiUrl || env.SERVICE_API_URL || readStoredLogin(file)?.apiUrl || DEFAULT_API_URL).replace(/\/+$/, '');
      let identity;
      try {
        identity = await new DrawbridgeClient({ apiUrl, token }).me();
      } catch (error) {
        if (error instanceof DrawbridgeApiError && error.status === 401) throw new CliFailure(EXIT.auth, `The token was refused (${error.message}); nothing was saved.`);
        throw error;
      }
      writeStoredLogin(file, { token, apiUrl });
      out(`Logged in to ${apiUrl} as ${bold(identity.email)} (capabilities: ${identity.capabilities.join(', ')}). Saved to ${file}.`);
      if (env.SERVICE_TOKEN) stderr.write('Note: SERVICE_TOKEN is set in the environment and takes precedence over the stored login.\n');
    });
  auth
    .command('logout')
    .description('remove the stored login')
    .action(() => {
      const file = configPath(env);
      if (fs.existsSync(file)) {
        fs.rmSync(file);
        out(`Removed the stored login (${file}).`);
      } else out('No stored login.');
      if (env.SERVICE_TOKEN) stderr.write('Note: SERVICE_TOKEN is still set in the environment.\n');
    });
  auth
    .command('status')
    .description('show which credential source is in use and whose token it is')
    .addOption(jsonOpt())
    .action(async (opts: { json?: boolean }) => {
      const file = configPath(env);
      const creds = resolveCredentials(env, file);
      if (!creds.token) throw new CliFailure(EXIT.auth, `Not logged in. ${LOGIN_HINT}`);
      const source = creds.source === 'env' ? 'the SERVICE_TOKEN environment variable' : `the stored login (${file})`;
      const identity = await new DrawbridgeClient({ apiUrl: creds.apiUrl, token: creds.token }).me();
      if (opts.json) return json({ source: creds.source, apiUrl: creds.apiUrl, identity });
      out(`Logged in to ${creds.apiUrl} as ${bold(identity.email)}`);
      out(`Token from: ${source}`);
      out(`Capabilities: ${identity.capabilities.join(', ')}`);
    });

  program
    .command('me')
    .description('show the identity and capabilities of the current token')
    .addOption(jsonOpt())
    .action(async (opts: { json?: boolean }) => {
      const me = await client().me();
      if (opts.json) return json(me);
      out(`${bold(me.email)}  ${dim(me.id)}`);
      out(`Capabilities: ${me.capabilities.join(', ')} (scope ${me.scope})`);
    });

  // diagrams
  const diagrams = program.command('diagrams').description('list, create and change diagrams');
  diagrams
    .command('list')
    .description('list diagrams, most recently updated first')
    .addOption(jsonOpt())
    .option('-q, --search <text>', 'only titles containing the text (case-insensitive)')
    .option('--folder <folder>', 'only diagrams in this folder (name, Parent/Child path or id), or none for the top level')
    .option('--starred', 'only starred diagrams')
    .option('--no-starred', 'only diagrams not starred')
    .option('--all', 'follow cursors and list every diagram')
    .addOption(new Option('--filter <filter>', 'active diagrams or the trash').choices(['active', 'trash']))
    .option('--shared', 'diagrams others own that are shared with you or in your workspaces, with your role')
    .option('--workspace <id>', "a workspace's diagrams (its id, from `workspaces list`), with your role")
    .option('--limit <n>', 'page size (1..100)', parseLimit)
    .addHelpText(
      'after',
      examples(
        'drawbridge diagrams list --search checkout',
        'drawbridge diagrams list --folder Architecture --starred',
        'drawbridge diagrams list --folder none          # the top level only',
        'drawbridge diagrams list --all --json | jq -r \'.items[].title\'',
        'drawbridge diagrams list --filter trash',
        'drawbridge diagrams list --shared',
      ),
    )
    .action(async (opts: { json?: boolean; search?: string; folder?: string; starred?: boolean; all?: boolean; filter?: 'active' | 'trash'; shared?: boolean; workspace?: string; limit?: number }) => {
      const others = Boolean(opts.shared) || opts.workspace !== undefined;
      if (others && (opts.search !== undefined || opts.folder !== undefined || opts.starred !== undefined || opts.filter !== undefined)) {
        throw new CliFailure(EXIT.usage, '--search, --folder, --starred and --filter narrow your own diagrams only; leave them out with --shared or --workspace');
      }
      if (opts.shared && opts.workspace !== undefined) throw new CliFailure(EXIT.usage, 'give --shared or --workspace, not both');
      const c = client();
      const folderId = opts.folder === undefined ? undefined : ((await folderIdOf(c, opts.folder, { allowRoot: true })) ?? 'none');
      const filters = {
        ...(opts.shared ? { filter: 'shared' as const } : {}),
        ...(opts.workspace !== undefined ? { workspace: opts.workspace } : {}),
        ...(opts.filter ? { filter: opts.filter } : {}),
        ...(opts.search !== undefined ? { q: opts.search } : {}),
        ...(folderId !== undefined ? { folderId } : {}),
        ...(opts.starred !== undefined ? { starred: opts.starred } : {}),
      };
      let items;
      let nextCursor: string | null = null;
      if (opts.all) {
        items = [];
        const onPage = (fetched: number) => progress(`Fetched ${fetched} diagrams…`);
        for await (const item of c.allDiagrams({ ...filters, onPage, ...(opts.limit ? { pageSize: opts.limit } : {}) })) items.push(item);
        clearProgress();
      } else {
        const page = await c.listDiagrams({ ...filters, ...(opts.limit ? { limit: opts.limit } : {}) });
        items = page.items;
        nextCursor = page.nextCursor;
      }
      if (opts.json) return json({ items, nextCursor });
      const narrowed = opts.search !== undefined || opts.folder !== undefined || opts.starred !== undefined;
      if (items.length === 0) return out(dim(narrowed ? 'No diagrams match.' : opts.filter === 'trash' ? 'The trash is empty.' : opts.shared ? 'Nothing is shared with you.' : 'No diagrams.'));
      if (others) {
        table(['ID', 'UPDATED', 'ROLE', 'TITLE'], items.map((d) => [d.id, d.updatedAt.replace('T', ' ').slice(0, 16), d.role ?? '-', d.title]));
        if (nextCursor) out(dim('More diagrams exist; use --all to list every one.'));
        return;
      }
      const paths = items.some((d) => d.folderId) ? folderPaths((await c.listFolders()).items) : new Map<string, string>();
      table(
        ['ID', 'UPDATED', 'FOLDER', 'TITLE'],
        // A folder the caller cannot list (another owner's) is shown by its short id.
        items.map((d) => [d.id, d.updatedAt.replace('T', ' ').slice(0, 16), d.folderId ? (paths.get(d.folderId) ?? d.folderId.slice(0, 8)) : '-', d.title]),
      );
      if (nextCursor) out(dim('More diagrams exist; use --all to list every one.'));
    });
  diagrams
    .command('get <id>')
    .description('print a diagram, scene included, as JSON')
    .action(async (id: string) => json(await client().getDiagram(id)));
  diagrams
    .command('view <id>')
    .description('show a diagram\'s title, folder, size and editor URL; --web opens it in the editor')
    .option('-w, --web', 'open the diagram in the browser instead')
    .addHelpText('after', `${examples('drawbridge diagrams view ID', 'drawbridge diagrams view ID --web')}\n--web opens the URL with BROWSER when set, else xdg-open, open or start.\n`)
    .action(async (id: string, opts: { web?: boolean }) => {
      const c = client();
      const d = await c.getDiagram(id);
      const url = editorUrlOf(d, apiUrl());
      if (opts.web) return openWeb(url, { urlShown: false });
      const folder = d.folderId ? (folderPaths((await c.listFolders()).items).get(d.folderId) ?? d.folderId) : '(top level)';
      out(bold(d.title));
      out(`id:        ${d.id}`);
      out(`folder:    ${folder}`);
      out(`updated:   ${d.updatedAt.replace('T', ' ').slice(0, 16)}`);
      out(`elements:  ${d.scene.elements.length}`);
      if (d.deletedAt) out(`trashed:   ${d.deletedAt.replace('T', ' ').slice(0, 16)}`);
      out(`editor:    ${url}`);
    });
  diagrams
    .command('create [file]')
    .description('create a diagram from a Mermaid or DOT file, a DiagramSpec (laid out by the server) or a raw scene; prints its editor URL')
    .option('--language <language>', 'the language of [file]: mermaid or dot (default: from its extension, .mmd or .dot)')
    .option('--spec <file>', 'DiagramSpec JSON file, or - for standard input')
    .option('--scene <file>', 'Excalidraw scene JSON file, or - for standard input')
    .option('--title <title>', 'title')
    .option('--folder <folder>', 'folder name, Parent/Child path or id (default: the top level)')
    .option('-w, --web', 'open the new diagram in the browser')
    .addOption(jsonOpt())
    .addHelpText(
      'after',
      examples(
        'drawbridge diagrams create flow.mmd --title "Checkout flow"',
        'drawbridge diagrams create services.dot --folder Architecture --web',
        'drawbridge diagrams create --spec flow.json --title "Checkout flow"',
        'cat scene.excalidraw | drawbridge diagrams create --scene - --json',
        'cat flow.txt | drawbridge diagrams create - --language mermaid',
      ),
    )
    .action(async (file: string | undefined, opts: { language?: string; spec?: string; scene?: string; title?: string; folder?: string; web?: boolean; json?: boolean }) => {
      if ([file, opts.spec, opts.scene].filter(Boolean).length !== 1) throw new CliFailure(EXIT.usage, 'give exactly one of a Mermaid or DOT file, --spec or --scene');
      if (opts.language !== undefined && !file) throw new CliFailure(EXIT.usage, '--language names the language of a Mermaid or DOT file: give the file');
      const c = client();
      const folderId = opts.folder === undefined ? undefined : await folderIdOf(c, opts.folder, { allowRoot: true });
      const created = await c.createDiagram({
        ...(opts.title !== undefined ? { title: opts.title } : {}),
        ...(folderId !== undefined ? { folderId } : {}),
        ...(file ? { source: await readDiagramSource(file, opts.language) } : {}),
        ...(opts.spec ? { spec: await readJson(opts.spec) } : {}),
        ...(opts.scene ? { scene: await readJson(opts.scene) } : {}),
      });
      warnAbout(created.warnings);
      const url = editorUrlOf(created, apiUrl());
      if (opts.json) json(created);
      else {
        out(`Created ${bold(created.title)} ${created.id} (${created.elementCount} elements)`);
        out(url);
      }
      if (opts.web) await openWeb(url, { urlShown: !opts.json });
    });
  diagrams
    .command('rename <id> <title>')
    .description('change the title')
    .addOption(jsonOpt())
    .action(async (id: string, title: string, opts: { json?: boolean }) => {
      const d = await client().updateDiagram(id, { title });
      if (opts.json) return json(d);
      out(`Renamed ${d.id} to ${bold(d.title)}`);
    });
  diagrams
    .command('move <id> <folder>')
    .description('move into a folder (name, Parent/Child path or id), or to the top level with "root"')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge diagrams move ID Architecture', 'drawbridge diagrams move ID Work/Architecture', 'drawbridge diagrams move ID root'))
    .action(async (id: string, folder: string, opts: { json?: boolean }) => {
      const c = client();
      const d = await c.updateDiagram(id, { folderId: await folderIdOf(c, folder, { allowRoot: true }) });
      if (opts.json) return json(d);
      out(`Moved ${d.id} to ${d.folderId ? (isFolderId(folder) ? d.folderId : folder) : 'the top level'}`);
    });
  diagrams
    .command('trash <id>')
    .description('move to the trash (needs the delete capability)')
    .action(async (id: string) => {
      await client().trashDiagram(id);
      out(`Moved ${id} to the trash.`);
    });
  diagrams
    .command('restore <id>')
    .description('restore from the trash')
    .action(async (id: string) => {
      await client().restoreDiagram(id);
      out(`Restored ${id}.`);
    });
  diagrams
    .command('edit <id>')
    .description('add nodes and edges or update nodes: the file holds { addNodes?, addEdges?, updateNodes? }')
    .requiredOption('--file <file>', 'edit JSON file, or - for standard input')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { file: string; json?: boolean }) => {
      const result = await client().editDiagram(id, (await readJson(opts.file)) as never);
      if (opts.json) return json(result);
      out(`Added ${result.added.length}, updated ${result.updated.length}, merged ${result.merged}.`);
    });
  diagrams
    .command('regenerate <id> [file]')
    .description('replace the content from a Mermaid or DOT file, a new spec or a scene')
    .option('--language <language>', 'the language of [file]: mermaid or dot (default: from its extension, .mmd or .dot)')
    .option('--spec <file>', 'DiagramSpec JSON file, or -')
    .option('--scene <file>', 'scene JSON file, or -')
    .option('--title <title>', 'new title')
    .option('--if-unchanged', 'refuse (409 stale_read) if the diagram changed since it was read')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge diagrams regenerate ID flow.mmd', 'drawbridge diagrams regenerate ID services.dot --if-unchanged', 'drawbridge diagrams regenerate ID --spec flow.json'))
    .action(async (id: string, file: string | undefined, opts: { language?: string; spec?: string; scene?: string; title?: string; ifUnchanged?: boolean; json?: boolean }) => {
      if ([file, opts.spec, opts.scene].filter(Boolean).length !== 1) throw new CliFailure(EXIT.usage, 'give exactly one of a Mermaid or DOT file, --spec or --scene');
      if (opts.language !== undefined && !file) throw new CliFailure(EXIT.usage, '--language names the language of a Mermaid or DOT file: give the file');
      const c = client();
      let expectedUpdatedAt: string | undefined;
      if (opts.ifUnchanged) expectedUpdatedAt = (await c.getDiagram(id)).docUpdatedAt ?? undefined;
      const content = file ? { source: await readDiagramSource(file, opts.language) } : opts.spec ? { spec: await readJson(opts.spec) } : { scene: await readJson(opts.scene!) };
      const result = await c.regenerateDiagram(id, {
        ...content,
        ...(opts.title !== undefined ? { title: opts.title } : {}),
        ...(expectedUpdatedAt ? { expectedUpdatedAt } : {}),
      });
      warnAbout(result.warnings);
      if (opts.json) return json(result);
      out(`Regenerated ${result.id}: ${result.replaced} elements, ${result.orphanedComments} orphaned comments.`);
    });
  diagrams
    .command('patch <id>')
    .description('apply element operations: the file holds { ops } or an array of ops')
    .requiredOption('--file <file>', 'patch JSON file, or -')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { file: string; json?: boolean }) => {
      const data = await readJson(opts.file);
      const body = Array.isArray(data) ? { ops: data } : (data as { ops: unknown[] });
      if (!body || typeof body !== 'object' || !Array.isArray(body.ops)) throw new CliFailure(EXIT.usage, 'the patch file must hold { "ops": [...] } or an array of ops');
      const result = await client().patchDiagram(id, body);
      if (opts.json) return json(result);
      out(`Applied ${result.applied} ops: ${result.elements} elements, ${result.deleted} deleted.`);
    });
  diagrams
    .command('publish <id>')
    .description('enable or disable the public link (needs the publish capability)')
    .option('--enable', 'enable the public link')
    .option('--disable', 'disable the public link')
    .option('--password <password>', 'require a password')
    .option('--clear-password', 'remove the password')
    .addOption(jsonOpt())
    .addHelpText('after', '\nSee the public link\'s state with `drawbridge publish status ID`.\n')
    .action(async (id: string, opts: { enable?: boolean; disable?: boolean; password?: string; clearPassword?: boolean; json?: boolean }) => {
      if (Boolean(opts.enable) === Boolean(opts.disable)) throw new CliFailure(EXIT.usage, 'give exactly one of --enable or --disable');
      await setPublicLink(id, { ...opts, enabled: Boolean(opts.enable) });
    });
  diagrams
    .command('lint <id>')
    .description('report layout problems (overlaps, clipped labels, unbound arrows, …)')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { json?: boolean }) => {
      const report = await client().lintDiagram(id);
      if (opts.json) return json(report);
      if (report.issues.length === 0) return out('No issues.');
      for (const issue of report.issues) out(`${paint('33', issue.kind)}  ${issue.message}  ${dim(issue.elementIds.join(', '))}`);
    });

  // publish: the public link, also reachable as `diagrams publish`
  const setPublicLink = async (id: string, opts: { enabled: boolean; password?: string; clearPassword?: boolean; json?: boolean }) => {
    if (opts.password !== undefined && opts.clearPassword) throw new CliFailure(EXIT.usage, 'give --password or --clear-password, not both');
    const link = await client().setPublicLink(id, {
      enabled: opts.enabled,
      ...(opts.password !== undefined ? { password: opts.password } : opts.clearPassword ? { password: null } : {}),
    });
    if (opts.json) return json(link);
    out(link.enabled ? `Public at ${bold(link.url ?? '')}${link.hasPassword ? ' (password protected)' : ''}` : 'Public link disabled.');
    await showEmbed(id, link);
  };
  /** The Markdown that embeds a published diagram's image, when it has one (published, no password). */
  const showEmbed = async (id: string, link: { enabled: boolean; hasPassword: boolean; url: string | null }) => {
    if (!link.enabled || link.hasPassword || link.url === null) return;
    const { title } = await client().getDiagram(id);
    out(`Embed:       ${embedMarkdown(title, link.url)}`);
  };
  const publish = program.command('publish').description("see and change a diagram's public link (a read-only page anyone with the URL can open)");
  publish
    .command('status <id>')
    .description('show whether the public link is enabled, its URL and whether it needs a password')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge publish status ID', 'drawbridge publish status ID --json   # {"slug","enabled","hasPassword","version","url"}'))
    .action(async (id: string, opts: { json?: boolean }) => {
      const link = await client().getPublicLink(id);
      if (opts.json) return json(link);
      out(`Public link: ${link.enabled ? bold('enabled') : link.slug === null ? 'disabled (never published)' : 'disabled'}`);
      out(`URL:         ${link.url ?? '-'}`);
      out(`Password:    ${link.hasPassword ? 'set' : 'none'}`);
      await showEmbed(id, link);
    });
  publish
    .command('enable <id>')
    .description('enable the public link (needs the publish capability)')
    .option('--password <password>', 'require a password')
    .option('--clear-password', 'remove the password')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge publish enable ID', 'drawbridge publish enable ID --password s3cret', 'drawbridge publish enable ID --clear-password'))
    .action((id: string, opts: { password?: string; clearPassword?: boolean; json?: boolean }) => setPublicLink(id, { ...opts, enabled: true }));
  publish
    .command('disable <id>')
    .description('disable the public link; its URL stops answering (needs the publish capability)')
    .addOption(jsonOpt())
    .action((id: string, opts: { json?: boolean }) => setPublicLink(id, { ...opts, enabled: false }));

  type RenderOptions = {
    output?: string;
    dir?: string;
    format?: RenderFormat;
    quality?: RenderQuality;
    rev?: string;
    json?: boolean;
    width?: number;
    scale?: number;
    padding?: number;
    background?: string;
    theme?: 'light' | 'dark';
    elements?: string;
    frame?: string;
  };
  /** What a render wrote, as --json describes it (with `rev` when a revision was rendered). */
  type Rendered = ({ id: string; file: string; format: RenderFormat; bytes: number; quality: RenderQuality; note: string | null } | { id: string; file: null; format: RenderFormat; isEmpty: true }) & { rev?: string };

  /** Renders one diagram to `file` (or standard output for `-`); reports notes and an empty diagram on standard error. */
  const renderOne = async (c: DrawbridgeClient, id: string, file: string, format: RenderFormat, opts: RenderOptions): Promise<Rendered> => {
    const rev = opts.rev !== undefined ? { rev: opts.rev } : {};
    const look = {
      width: opts.width,
      scale: opts.scale,
      padding: opts.padding,
      background: opts.background as `#${string}` | 'transparent' | undefined,
      theme: opts.theme,
      elementIds: opts.elements?.split(','),
      frameId: opts.frame,
    };
    const asked = { ...(opts.quality ? { quality: opts.quality } : {}), ...rev, ...look };
    let bytes: Uint8Array | null;
    let delivered: RenderQuality;
    let renderNote: string | null;
    if (format === 'json') {
      const envelope = await c.renderDiagram(id, { format: 'json', ...asked });
      bytes = new TextEncoder().encode(`${JSON.stringify(envelope, null, 2)}\n`);
      delivered = envelope.quality;
      renderNote = envelope.note ?? null;
    } else {
      const image = await c.renderDiagram(id, { format, ...asked });
      ({ bytes, quality: delivered, note: renderNote } = image);
    }
    if (bytes === null) {
      if (!opts.json) note(`Diagram ${id}${opts.rev !== undefined ? ` at revision ${opts.rev}` : ''} is empty: nothing to render, nothing written.`);
      return { id, ...rev, file: null, format, isEmpty: true };
    }
    if (renderNote) note(`note: ${renderNote}${renderNote === 'faithful_unavailable' ? ' (the fast preview was delivered)' : ''}`);
    if (file === '-') {
      clearProgress();
      stdout.write(bytes);
    } else {
      try {
        fs.writeFileSync(file, bytes);
      } catch (error) {
        throw new CliFailure(EXIT.usage, `cannot write ${file}: ${(error as Error).message}`);
      }
      if (!opts.json) out(`Wrote ${bold(file)} (${format.toUpperCase()}, ${byteSize(bytes.length)}, ${delivered} quality)`);
    }
    return { id, ...rev, file, format, bytes: bytes.length, quality: delivered, note: renderNote };
  };

  const render = async (ids: string[], opts: RenderOptions) => {
    if (opts.output !== undefined && opts.dir !== undefined) throw new CliFailure(EXIT.usage, 'give -o FILE or --dir DIR, not both');
    if (opts.output !== undefined && ids.length > 1) throw new CliFailure(EXIT.usage, '-o names one file; to render several diagrams give --dir DIR (each is written as DIR/ID.FORMAT)');
    if (opts.rev !== undefined && ids.length > 1) throw new CliFailure(EXIT.usage, '--rev names a revision of one diagram; give one id with it');
    const toStdout = opts.output === '-';
    let format = opts.format;
    if (!format && opts.output && !toStdout) {
      format = FORMAT_BY_EXTENSION[path.extname(opts.output).toLowerCase()];
      if (!format) throw new CliFailure(EXIT.usage, `cannot tell the format from "${opts.output}": name a .png, .svg or .json file (or .pdf for a PDF), or give --format`);
    }
    format ??= 'png';
    if (toStdout && opts.json) throw new CliFailure(EXIT.usage, '--json describes a written file; it cannot share standard output with -o -');
    if (opts.width !== undefined && opts.scale !== undefined) throw new CliFailure(EXIT.usage, 'give --width or --scale, not both');
    if (opts.elements !== undefined && opts.frame !== undefined) throw new CliFailure(EXIT.usage, 'give --elements or --frame, not both');
    if (toStdout && (format === 'png' || format === 'pdf') && stdout.isTTY) {
      throw new CliFailure(EXIT.usage, `refusing to write ${format.toUpperCase()} bytes to a terminal; redirect standard output or give -o FILE`);
    }
    if (opts.dir !== undefined && !fs.statSync(opts.dir, { throwIfNoEntry: false })?.isDirectory()) throw new CliFailure(EXIT.usage, `--dir ${opts.dir} is not a directory`);
    const c = client();
    const results: Rendered[] = [];
    for (const [index, id] of ids.entries()) {
      if (ids.length > 1) progress(`Rendering ${index + 1} of ${ids.length}: ${id}…`);
      const file = opts.output ?? path.join(opts.dir ?? '', `${id}${opts.rev !== undefined ? `-${opts.rev}` : ''}.${format}`);
      results.push(await renderOne(c, id, file, format, opts));
    }
    clearProgress();
    // One diagram keeps its single descriptor; several are an array in the order given.
    if (opts.json) json(ids.length === 1 ? results[0] : results);
  };
  const renderCommand = (parent: Command, description: string) =>
    parent
      .command('render <ids...>')
      .description(description)
      .option('-o, --output <file>', 'where to write one diagram: the extension (.png, .svg, .pdf, .json) picks the format; - for standard output (default: ID.png)')
      .option('--dir <dir>', 'write each diagram into this directory as ID.png (or ID.svg, ID.pdf, ID.json with --format)')
      .addOption(new Option('--format <format>', 'png, svg, pdf (one vector page) or json (the envelope with an SVG and a PNG); overrides the extension').choices(['png', 'svg', 'pdf', 'json']))
      .addOption(new Option('--quality <quality>', "faithful (default: the editor's own look) or fast (a plain preview)").choices(['faithful', 'fast']))
      .option('--rev <rev>', 'render this revision of the diagram (a REV from `drawbridge history ID`) instead of its current content; default file ID-REV.png')
      .option('--width <px>', 'PNG width in pixels, 256 to 4096 (default 1024); for SVG the document width', parseWholeNumber('--width'))
      .option('--scale <n>', 'PNG pixels per drawing pixel, 1 to 4, instead of --width', parseDecimal('--scale'))
      .option('--padding <px>', 'space around the drawing, 0 to 200 drawing pixels (default 10)', parseWholeNumber('--padding'))
      .option('--background <colour>', 'transparent, white or #rgb/#rrggbb: the colour behind the drawing (default white; #121212 with --theme dark)')
      .addOption(new Option('--theme <theme>', 'dark draws as the editor exports dark mode (default light)').choices(['light', 'dark']))
      .option('--elements <ids>', 'draw only these element ids (comma-separated), with their labels')
      .option('--frame <id>', 'draw only this frame, cropped to it as the editor exports a frame')
      .addOption(jsonOpt())
      .addHelpText(
        'after',
        `${examples(
          'drawbridge render ID -o flow.png',
          'drawbridge render ID -o - --format svg > flow.svg',
          'drawbridge render ID --rev r12 -o before.png',
          'drawbridge render ID -o wide.png --width 2048 --theme dark',
          'drawbridge render ID -o part.svg --frame FRAME_ID --background transparent',
          'drawbridge render ID -o flow.pdf',
          'drawbridge render ID1 ID2 ID3 --dir out/',
          "drawbridge diagrams list --all --json | jq -r '.items[].id' | xargs drawbridge render --dir out/ --format svg",
        )}\nRendering several diagrams shows its progress on standard error when that is a terminal (not with --quiet).\n`,
      )
      .action(render);
  renderCommand(diagrams, 'render diagrams to PNG (1024 px wide by default), SVG, PDF or JSON envelope files');
  renderCommand(program, 'render diagrams to files (same as `diagrams render`)');

  // history: the revisions of one diagram, what one changed, bringing one back
  program
    .command('history <id>')
    .description("list a diagram's revisions, newest first: when, who, how (token, web editor, MCP tool), what changed")
    .addOption(jsonOpt())
    .option('--all', 'follow cursors and list every revision')
    .option('--limit <n>', 'page size (1..100)', parseLimit)
    .option('--cursor <cursor>', 'the page after this nextCursor (from the --json output)')
    .addHelpText(
      'after',
      `${examples(
        'drawbridge history ID',
        'drawbridge history ID --limit 10',
        'drawbridge history ID --all --json | jq -r \'.items[] | select(.via.kind == "mcp") | .rev\'',
      )}
VIA says how the write came: a token (its name), an OAuth application, the web editor, or an MCP tool
with the token or application it acted for (mcp patch_elements (agent-bot)). WHEN is UTC.
`,
    )
    .action(async (id: string, opts: { json?: boolean; all?: boolean; limit?: number; cursor?: string }) => {
      if (opts.all && opts.cursor !== undefined) throw new CliFailure(EXIT.usage, 'give --all or --cursor, not both');
      const c = client();
      let items;
      let nextCursor: string | null = null;
      if (opts.all) {
        items = [];
        const onPage = (fetched: number) => progress(`Fetched ${fetched} revisions…`);
        for await (const item of c.allRevisions(id, { onPage, ...(opts.limit ? { pageSize: opts.limit } : {}) })) items.push(item);
        clearProgress();
      } else {
        const page = await c.listRevisions(id, { ...(opts.limit ? { limit: opts.limit } : {}), ...(opts.cursor !== undefined ? { cursor: opts.cursor } : {}) });
        items = page.items;
        nextCursor = page.nextCursor;
      }
      if (opts.json) return json({ items, nextCursor });
      if (items.length === 0) return out(dim('No revisions.'));
      table(HISTORY_HEADERS, items.map(historyRow));
      if (nextCursor) out(dim(`Older revisions exist; use --all to list every one, or --cursor ${nextCursor} for the next page.`));
    });
  program
    .command('diff <id> <rev>')
    .description('show what a revision changed: a one-line summary and the ids of the elements added, removed and changed')
    .option('--against <rev>', 'compare with this revision instead of the one before REV')
    .addOption(jsonOpt())
    .addHelpText(
      'after',
      `${examples('drawbridge diff ID r12', 'drawbridge diff ID r12 --against r3', 'drawbridge diff ID r12 --json   # {"from","to","added","removed","changed","summary","elements","order"?}')}
Changed elements are listed with what changed: geometry, style, text, binding or other.
--json adds the added and changed elements in full, as they are at REV.
`,
    )
    .action(async (id: string, rev: string, opts: { against?: string; json?: boolean }) => {
      const diff = await client().diffRevisions(id, rev, opts.against);
      if (opts.json) return json(diff);
      for (const line of diffLines(diff)) out(line);
    });
  program
    .command('restore <id> <rev>')
    .description("bring back a diagram's elements as they were at REV, written as a new revision (to take a diagram out of the trash: diagrams restore ID)")
    .option('--expected-updated-at <time>', 'refuse (409 stale_read, nothing written) if the diagram changed since this docUpdatedAt')
    .addOption(jsonOpt())
    .addHelpText(
      'after',
      `${examples('drawbridge history ID', 'drawbridge restore ID r12', 'drawbridge restore ID r12 --expected-updated-at 2026-05-04T10:21:07.512Z')}
Nothing is lost: the content replaced stays in the history, and the restore can itself be undone
by restoring the revision before it. The title and folder stay as they are.
`,
    )
    .action(async (id: string, rev: string, opts: { expectedUpdatedAt?: string; json?: boolean }) => {
      const c = client();
      const restored = await c.restoreRevision(id, rev, opts.expectedUpdatedAt !== undefined ? { expectedUpdatedAt: opts.expectedUpdatedAt } : {});
      if (opts.json) return json(restored);
      if (restored.rev === null) {
        out(`Restored ${bold(restored.restoredFrom)} of ${restored.id} (${restored.elements} elements); this server records no history now, so the restore is not in it.`);
      } else {
        out(`Restored ${bold(restored.restoredFrom)} of ${restored.id} as revision ${bold(restored.rev)} (${restored.elements} elements).`);
        // What the restore changed, from the history; the restore is done whether or not this can be read.
        const changes = await c.diffRevisions(id, restored.rev).catch(() => null);
        if (changes) out(`Changes: ${changes.summary}`);
      }
      if (restored.unresolvedComments > 0) out(`Opened again ${restored.unresolvedComments} comment${restored.unresolvedComments === 1 ? '' : 's'} on elements that came back.`);
    });

  addSharingCommands(program, diagrams, {
    client,
    out,
    json,
    table,
    dim,
    bold,
    jsonOpt,
    usage: (message) => {
      throw new CliFailure(EXIT.usage, message);
    },
    examples,
  });

  // completion
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      examples(
        'source <(drawbridge completion bash)                                            # this bash session',
        'drawbridge completion bash > ~/.local/share/bash-completion/completions/drawbridge  # every bash session',
        'drawbridge completion zsh > "${fpath[1]}/_drawbridge"                           # zsh (then restart it)',
        'drawbridge completion fish > ~/.config/fish/completions/drawbridge.fish',
      ),
    )
    .action((shell: CompletionShell) => void stdout.write(completionScript(program, shell)));

  // comments
  const comments = program.command('comments').description('list and add comments on a diagram');
  comments
    .command('list <id>')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { json?: boolean }) => {
      const list = await client().listComments(id);
      if (opts.json) return json(list);
      if (list.items.length === 0) return out(dim('No comments.'));
      table(
        ['ID', 'CREATED', 'ELEMENT', 'BODY'],
        list.items.map((c) => [c.id, c.createdAt.replace('T', ' ').slice(0, 16), c.elementId ?? '-', `${c.resolved ? '[resolved] ' : ''}${c.body}`]),
      );
    });
  comments
    .command('add <id>')
    .requiredOption('--body <text>', 'comment text')
    .option('--element <elementId>', 'anchor the comment to an element')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { body: string; element?: string; json?: boolean }) => {
      const comment = await client().addComment(id, { body: opts.body, ...(opts.element ? { elementId: opts.element } : {}) });
      if (opts.json) return json(comment);
      out(`Added comment ${comment.id}.`);
    });

  // folders
  const folders = program.command('folders').description('list and manage folders');
  folders
    .command('list')
    .addOption(jsonOpt())
    .action(async (opts: { json?: boolean }) => {
      const list = await client().listFolders();
      if (opts.json) return json(list);
      if (list.items.length === 0) return out(dim('No folders.'));
      const paths = folderPaths(list.items);
      table(['ID', 'PATH'], list.items.map((f) => [f.id, paths.get(f.id) ?? f.name]).sort((a, b) => a[1]!.localeCompare(b[1]!)));
    });
  folders
    .command('create <name>')
    .option('--parent <folder>', 'create it inside this folder (name, Parent/Child path or id)')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge folders create Architecture', 'drawbridge folders create Services --parent Architecture'))
    .action(async (name: string, opts: { parent?: string; json?: boolean }) => {
      const c = client();
      const f = await c.createFolder({ name, ...(opts.parent ? { parentId: await folderIdOf(c, opts.parent) } : {}) });
      if (opts.json) return json(f);
      out(`Created folder ${bold(f.name)} ${f.id}`);
    });
  folders
    .command('rename <folder> <name>')
    .description('rename a folder, given by name, Parent/Child path or id')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge folders rename Architecture "Architecture 2026"', 'drawbridge folders rename FOLDER_ID Drafts'))
    .action(async (folder: string, name: string, opts: { json?: boolean }) => {
      const c = client();
      const f = await c.renameFolder(await folderIdOf(c, folder), { name });
      if (opts.json) return json(f);
      out(`Renamed folder ${f.id} to ${bold(f.name)}`);
    });
  folders
    .command('delete <folder>')
    .description('delete a folder, given by name, Parent/Child path or id')
    .addHelpText('after', examples('drawbridge folders delete Drafts', 'drawbridge folders delete FOLDER_ID'))
    .action(async (folder: string) => {
      const c = client();
      const id = await folderIdOf(c, folder);
      await c.deleteFolder(id);
      out(`Deleted folder ${isFolderId(folder) ? id : `${folder} (${id})`}.`);
    });

  // icons
  const icons = program.command('icons').description('browse the icon catalog');
  icons
    .command('list')
    .option('--search <text>', 'match id, label or category')
    .option('--category <category>', 'only this category')
    .addOption(jsonOpt())
    .action(async (opts: { search?: string; category?: string; json?: boolean }) => {
      const list = await client().listIcons({ ...(opts.search ? { q: opts.search } : {}), ...(opts.category ? { category: opts.category } : {}) });
      if (opts.json) return json(list);
      if (list.items.length === 0) return out(dim('No icons match.'));
      table(['ID', 'CATEGORY', 'LABEL'], list.items.map((i) => [i.id, i.category, i.label]));
    });

  for (const cmd of [program, ...allCommands(program)]) cmd.exitOverride().configureOutput(program.configureOutput());

  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    const fail = (code: number, message: string) => {
      stderr.write(`${errColour ? `\u001b[31merror:\u001b[0m` : 'error:'} ${message}\n`);
      return code;
    };
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliFailure) return fail(error.exitCode, error.message);
    if (error instanceof DrawbridgeApiError) {
      const rid = error.requestId ? ` (request ${error.requestId})` : '';
      if (error.status === 401) return fail(EXIT.auth, `${error.message} [${error.code}]. ${LOGIN_HINT}`);
      if (error.code === 'insufficient_scope') {
        const cap = /"([a-z]+)" capability/.exec(error.message)?.[1];
        const mint = cap ? `a token that includes "${cap}" (e.g. drawbridge-admin token mint --email YOU --caps read,write,${cap})` : 'a token with that capability (drawbridge-admin token mint --caps …)';
        return fail(EXIT.api, `${error.message} [insufficient_scope]. Ask for ${mint}, then log in with it.${rid}`);
      }
      return fail(EXIT.api, `${error.message} [${error.code}, HTTP ${error.status}]${rid}`);
    }
    if (error instanceof TypeError && /fetch failed/.test(error.message)) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      return fail(EXIT.api, `cannot reach the API at ${resolveCredentials(env, configPath(env)).apiUrl}${cause ? `: ${cause}` : ''}`);
    }
    return fail(EXIT.api, (error as Error)?.message ?? String(error));
  }
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}
