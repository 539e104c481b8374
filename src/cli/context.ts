/**
 * What every command of the CLI shares: the exit codes and the failure that carries one, the
 * parsers of option values, and the context a command is registered with (output helpers that
 * know about colour and progress, the API client from the stored login or the environment, file
 * and standard-input readers).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { RenderFormat } from '../api/schemas.ts';
import { DrawbridgeClient } from '../client/client.ts';
import { configPath, DEFAULT_API_URL, resolveCredentials } from '../client/credentials.ts';
import { openInBrowser } from './browser.ts';
import { FolderReferenceError, isFolderId, resolveFolderReference, ROOT_WORDS } from './folders.ts';

/** Exit codes (docs/cli.md): 0 ok, 1 API error, 2 usage, 3 auth. */
export const EXIT = { ok: 0, api: 1, usage: 2, auth: 3 } as const;

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
export class CliFailure extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const FORMAT_BY_EXTENSION: Record<string, RenderFormat> = { '.png': 'png', '.svg': 'svg', '.json': 'json', '.pdf': 'pdf' };

export function byteSize(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export const LOGIN_HINT = 'Log in with `drawbridge auth login`, or set SERVICE_TOKEN (and SERVICE_API_URL) in the environment.';

export const ENVIRONMENT_HELP = `
Environment:
  SERVICE_TOKEN     the API token; wins over the stored login
  SERVICE_API_URL   the API base URL (default: the one stored by \`auth login\`, else ${DEFAULT_API_URL})
  XDG_CONFIG_HOME   the stored login is $XDG_CONFIG_HOME/drawbridge/config.json (default ~/.config/drawbridge/config.json)
  BROWSER           the command --web opens URLs with (default: xdg-open, open or start)
  NO_COLOR          any value turns colour off (colour is used only on a terminal)
`;

/** The value of --limit: a positive integer (the server caps it at 100). */
export function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliFailure(EXIT.usage, `--limit must be a positive integer, got ${value}`);
  return n;
}

/** A parser for an option that takes a whole number (the server checks its range and says so). */
export function parseWholeNumber(name: string): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value)) throw new CliFailure(EXIT.usage, `${name} must be a whole number, got ${value}`);
    return Number(value);
  };
}

/** A parser for an option that takes a number such as 2 or 1.5 (the server checks its range and says so). */
export function parseDecimal(name: string): (value: string) => number {
  return (value) => {
    if (!/^\d+(\.\d+)?$/.test(value)) throw new CliFailure(EXIT.usage, `${name} must be a number such as 2 or 1.5, got ${value}`);
    return Number(value);
  };
}

/** The help text's closing "Examples:" section; each line a command as typed. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** Where a person edits the diagram: the API's editorUrl, or, from a server that predates it, the editor path on the API's origin. */
export function editorUrlOf(diagram: { id: string; editorUrl?: string | null }, apiUrl: string): string {
  return diagram.editorUrl ?? `${new URL(apiUrl).origin}/app/d/${encodeURIComponent(diagram.id)}`;
}

export async function readAll(input: CliInput | undefined): Promise<string> {
  if (!input) throw new CliFailure(EXIT.usage, 'no standard input available');
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}

/** Reads one line from a TTY without echoing it. */
export function promptHidden(io: CliIo, question: string): Promise<string> {
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

/** What a command is registered with: the streams, output helpers and readers every command uses. */
export interface CliContext {
  io: CliIo;
  env: NodeJS.ProcessEnv;
  stdout: CliStream;
  stderr: CliStream;
  /** Whether standard error takes colour (a terminal, and NO_COLOR unset). */
  errColour: boolean;
  paint(code: string, text: string): string;
  bold(text: string): string;
  dim(text: string): string;
  /** One line of progress on standard error, redrawn in place; only on a terminal and without --quiet. */
  progress(text: string): void;
  clearProgress(): void;
  out(line?: string): void;
  json(value: unknown): void;
  /** A line on standard error. */
  note(line: string): void;
  table(headers: string[], rows: string[][]): void;
  apiUrl(): string;
  /** The API client of the stored login or the environment; not logged in is exit 3. */
  client(): DrawbridgeClient;
  /**
   * The folder id a command-line folder reference names: a UUID as it is,
   * `root` or `none` the top level (null) where allowed, else a name or path
   * looked up among the caller's folders.
   */
  folderIdOf(c: DrawbridgeClient, ref: string, options: { allowRoot: true }): Promise<string | null>;
  folderIdOf(c: DrawbridgeClient, ref: string, options?: { allowRoot?: false }): Promise<string>;
  /**
   * Opens `url` for --web, saying so on standard error. With no browser to
   * open it the command still succeeds: it says so and, unless the URL is
   * already on standard output, prints it there.
   */
  openWeb(url: string, options: { urlShown: boolean }): Promise<void>;
  /** A file's text, or standard input's for `-`. */
  readSource(file: string): Promise<string>;
  readJson(file: string): Promise<unknown>;
  /** A spec's JSON file for --spec; a request body in its place (with "spec" inside) is refused, naming --spec and --title. */
  readSpec(file: string): Promise<unknown>;
  /** A scene: its JSON file, or a PNG or an SVG that carries it. */
  readScene(file: string): Promise<unknown>;
  /** A diagram source file's content: the language from --language, or else from the extension (.mmd/.mermaid Mermaid, .dot/.gv DOT). */
  readDiagramSource(file: string, language: string | undefined): Promise<{ language: 'mermaid' | 'dot'; text: string }>;
  /** What the drawing of a source leaves out, one line each on standard error. */
  warnAbout(warnings: Array<{ line: number; message: string }> | undefined): void;
  jsonOpt(): Option;
  examples(...lines: string[]): string;
  /** Throws the usage error (exit 2) with this message. */
  usage(message: string): never;
}

/** The context of one run of the CLI, whose program is `program` (its --quiet silences progress). */
export function cliContext(io: CliIo, program: Command): CliContext {
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
  /**
   * A scene file: the editor's JSON (.excalidraw, .json, or - for standard input), or a PNG or an SVG that
   * carries its scene (sent as a data URL or as text; the server reads the scene out of it).
   */
  const readScene = async (file: string): Promise<unknown> => {
    const extension = path.extname(file).toLowerCase();
    if (extension === '.png') {
      try {
        return `data:image/png;base64,${fs.readFileSync(file).toString('base64')}`;
      } catch (error) {
        throw new CliFailure(EXIT.usage, `cannot read ${file}: ${(error as Error).message}`);
      }
    }
    if (extension === '.svg') return readSource(file);
    return readJson(file);
  };
  const readJson = async (file: string): Promise<unknown> => {
    const text = await readSource(file);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new CliFailure(EXIT.usage, `${file === '-' ? 'standard input' : file} is not valid JSON: ${(error as Error).message}`);
    }
  };

  const readSpec = async (file: string): Promise<unknown> => {
    const spec = await readJson(file);
    if (typeof spec === 'object' && spec !== null && !Array.isArray(spec) && 'spec' in spec) {
      const name = file === '-' ? 'standard input' : file;
      throw new CliFailure(EXIT.usage, `${name} is a request body, not a spec: give --spec the value of its "spec" alone${'title' in spec ? ', and its title with --title' : ''}`);
    }
    return spec;
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
  return {
    io,
    env,
    stdout,
    stderr,
    errColour,
    paint,
    bold,
    dim,
    progress,
    clearProgress,
    out,
    json,
    note,
    table,
    apiUrl,
    client,
    folderIdOf,
    openWeb,
    readSource,
    readJson,
    readSpec,
    readScene,
    readDiagramSource,
    warnAbout,
    jsonOpt: () => new Option('--json', 'machine-readable JSON output'),
    examples,
    usage: (message) => {
      throw new CliFailure(EXIT.usage, message);
    },
  };
}
