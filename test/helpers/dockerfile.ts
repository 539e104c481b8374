/**
 * Reading the project's Dockerfile and .dockerignore, and carrying out a
 * Dockerfile's stages on this machine without a container engine: each stage's
 * filesystem is a directory (an image path `/app/dist` is `<stage root>/app/dist`),
 * COPY copies between those directories and the build context, and RUN runs its
 * command with `/bin/sh -c` in the stage's WORKDIR with the stage's ENV, as
 * `docker build` would. Only the instructions the project's Dockerfile uses are
 * understood; any other stops the run with its name, never skipped silently.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

interface Instruction {
  /** Upper-case: FROM, RUN, COPY… */
  keyword: string;
  /** The rest of the logical line, continuations joined. */
  args: string;
  /** Where it starts in the file (1-based). */
  line: number;
}

export interface Stage {
  name: string;
  /** The base image, build arguments substituted. */
  base: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  args: Record<string, string>;
  stages: Stage[];
}

/** Parses a Dockerfile into its stages; comment lines (parser directives too) are dropped, continuations joined. */
export function parseDockerfile(text: string): Dockerfile {
  const logical: Instruction[] = [];
  let pending: { parts: string[]; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trimEnd();
    if (line.trim().startsWith('#') || (line.trim() === '' && pending === null)) return;
    const continued = line.endsWith('\\');
    const body = continued ? line.slice(0, -1) : line;
    pending ??= { parts: [], line: index + 1 };
    pending.parts.push(body.trim());
    if (continued) return;
    const joined = pending.parts.filter(Boolean).join(' ');
    const [keyword = ''] = joined.split(/\s+/);
    logical.push({ keyword: keyword.toUpperCase(), args: joined.slice(keyword.length).trim(), line: pending.line });
    pending = null;
  });

  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of logical) {
    if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match) throw new Error(`line ${instruction.line}: FROM ${instruction.args} is not "image [AS name]"`);
      const base = match[1]!.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => {
        const name = (braced ?? bare)!;
        if (!(name in args)) throw new Error(`line ${instruction.line}: FROM uses ARG ${name}, which has no default before the first FROM`);
        return args[name]!;
      });
      stages.push({ name: match[2] ?? String(stages.length), base, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`line ${instruction.line}: ${instruction.keyword} before the first FROM`);
      const [name, value = ''] = instruction.args.split('=', 2) as [string, string?];
      args[name] = value;
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/** Splits leading `--name=value` flags off an instruction's arguments. */
export function splitFlags(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = args;
  for (let match = /^--([\w-]+)=(\S+)\s*/.exec(rest); match; match = /^--([\w-]+)=(\S+)\s*/.exec(rest)) {
    flags[match[1]!] = match[2]!;
    rest = rest.slice(match[0].length);
  }
  return { flags, rest };
}

/** An exec-form (JSON array) command, or null for the shell form. */
export function execForm(args: string): string[] | null {
  if (!args.trim().startsWith('[')) return null;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) throw new Error(`${args} is not a JSON array of strings`);
  return parsed;
}

/** Splits on white space, honouring double and single quotes (enough for ENV, COPY and VOLUME here). */
function words(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

/** The variables an ENV instruction sets (`ENV A=1 B="two"`, or the legacy `ENV A 1`). */
export function envAssignments(args: string): Record<string, string> {
  if (!/^\S+=/.test(args)) {
    const [name, ...value] = args.split(/\s+/);
    return { [name!]: value.join(' ') };
  }
  return Object.fromEntries(
    [...args.matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S*))/g)].map((match) => [match[1]!, match[2] ?? match[3] ?? match[4] ?? '']),
  );
}

/** Every instruction of a stage with this keyword. */
export const instructionsOf = (stage: Stage, keyword: string) => stage.instructions.filter((instruction) => instruction.keyword === keyword);

/** The ENV a stage ends with. */
export function stageEnv(stage: Stage): Record<string, string> {
  return Object.assign({}, ...instructionsOf(stage, 'ENV').map((instruction) => envAssignments(instruction.args)));
}

/** The paths a VOLUME instruction declares (JSON or plain form). */
export function volumePaths(args: string): string[] {
  return execForm(args) ?? words(args);
}

export interface Healthcheck {
  flags: Record<string, string>;
  command: string[];
}

/** `HEALTHCHECK [--flag=value…] CMD ["exec", "form"]`. */
export function parseHealthcheck(args: string): Healthcheck {
  const { flags, rest } = splitFlags(args);
  const match = /^CMD\s+(.*)$/i.exec(rest);
  const command = match ? execForm(match[1]!) : null;
  if (!command) throw new Error(`HEALTHCHECK ${args}: expected CMD in exec form (a JSON array)`);
  return { flags, command };
}

// ---------------------------------------------------------------------------
// .dockerignore

/** A .dockerignore glob as a regular expression over slash-separated paths relative to the context. */
function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      pattern += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/**
 * Whether a path of the context is left out by .dockerignore: the last pattern that
 * matches it or one of its parent directories decides (`!` patterns bring it back).
 */
export function dockerignoreMatcher(text: string): (relativePath: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const glob = path.posix.normalize((negated ? line.slice(1) : line).trim()).replace(/^\/+|\/+$/g, '');
      return { negated, pattern: globToRegExp(glob) };
    });
  return (relativePath) => {
    const parts = relativePath.split('/');
    const candidates = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (candidates.some((candidate) => rule.pattern.test(candidate))) excluded = !rule.negated;
    return excluded;
  };
}

// ---------------------------------------------------------------------------
// Carrying out a stage

/** A command's run: its exit and everything it printed (stdout and stderr interleaved). */
export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Process groups of the commands still running (each runs in a group of its own, with what it starts). */
const running = new Set<number>();

/** Ends every command still running, and what it started: for a test that fails or times out mid-step. */
export function killRunningCommands(): void {
  for (const pgid of running) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  running.clear();
}

/** Runs a command to its end, collecting its output; never rejects for a non-zero exit. */
export function runCommand(command: string, argv: string[], options: { cwd: string; env: NodeJS.ProcessEnv; uid?: number; gid?: number }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) running.add(child.pid);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (child.pid !== undefined) running.delete(child.pid);
      resolve({ code, signal, output });
    });
  });
}

export interface StageResult {
  /** The stage's filesystem root on this machine. */
  root: string;
  /** WORKDIR at the end, as an image path. */
  workdir: string;
  /** ENV at the end, as the image has it (image paths unmapped). */
  env: Record<string, string>;
  /** USER at the end (`uid[:gid]`), or undefined for root. */
  user: string | undefined;
  /** Each RUN's command and how long it took, for the log. */
  runs: { command: string; seconds: number }[];
}

export interface StageOptions {
  /** The build context (the files .dockerignore lets through). */
  context: string;
  /** Filesystem roots of the stages run before, by name (COPY --from). */
  stages: Record<string, string>;
  /** The directory to lay this stage's filesystem in. */
  root: string;
  /**
   * The environment RUN commands get besides the stage's ENV: what the base image
   * and the build machine provide (PATH, HOME, npm's settings).
   */
  hostEnv: NodeJS.ProcessEnv;
}

/** An image path on this machine, under a stage's root. */
export const onHost = (root: string, imagePath: string) => path.join(root, imagePath);

/** The ENV as this machine must see it: a value that is an absolute path names a place in the stage's filesystem. */
export function mappedEnv(root: string, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.startsWith('/') ? onHost(root, value) : value]));
}

async function copyInto(source: string, target: string): Promise<void> {
  const result = fs.statSync(source).isDirectory()
    ? (fs.mkdirSync(target, { recursive: true }), await runCommand('cp', ['-a', `${source}/.`, target], { cwd: '/', env: process.env }))
    : (fs.mkdirSync(path.dirname(target), { recursive: true }), await runCommand('cp', ['-a', source, target], { cwd: '/', env: process.env }));
  if (result.code !== 0) throw new Error(`cp ${source} ${target} failed: ${result.output}`);
}

/** COPY [--from=stage] [--chown=uid:gid] source… destination. */
async function copy(instruction: Instruction, workdir: string, options: StageOptions): Promise<void> {
  const { flags, rest } = splitFlags(instruction.args);
  const unknown = Object.keys(flags).filter((flag) => flag !== 'from' && flag !== 'chown');
  if (unknown.length > 0) throw new Error(`line ${instruction.line}: COPY --${unknown[0]} is not supported by this test`);
  const parts = execForm(rest) ?? words(rest);
  const destination = parts.pop()!;
  if (parts.some((part) => /[*?[]/.test(part))) throw new Error(`line ${instruction.line}: COPY with wildcards is not supported by this test`);
  const fromRoot = flags.from === undefined ? undefined : options.stages[flags.from];
  if (flags.from !== undefined && fromRoot === undefined) throw new Error(`line ${instruction.line}: COPY --from=${flags.from} names no earlier stage`);
  const imageDestination = path.posix.resolve(workdir, destination);
  const intoDirectory = destination.endsWith('/') || parts.length > 1;
  const targets: string[] = [];
  for (const part of parts) {
    const source = fromRoot === undefined ? path.join(options.context, part) : onHost(fromRoot, path.posix.resolve('/', part));
    if (!fs.existsSync(source)) throw new Error(`line ${instruction.line}: COPY source ${part} does not exist`);
    const directory = fs.statSync(source).isDirectory();
    const target = onHost(options.root, intoDirectory && !directory ? path.posix.join(imageDestination, path.posix.basename(part)) : imageDestination);
    await copyInto(source, target);
    targets.push(target);
  }
  if (flags.chown !== undefined) {
    const result = await runCommand('chown', ['-R', flags.chown, ...targets], { cwd: '/', env: process.env });
    if (result.code !== 0) throw new Error(`line ${instruction.line}: chown ${flags.chown} failed: ${result.output}`);
  }
}

/** Carries out one stage (FROM's base image is not fetched: this machine stands in for it). */
export async function runStage(stage: Stage, options: StageOptions): Promise<StageResult> {
  fs.mkdirSync(options.root, { recursive: true });
  let workdir = '/';
  let user: string | undefined;
  const env: Record<string, string> = {};
  const runs: StageResult['runs'] = [];
  for (const instruction of stage.instructions) {
    switch (instruction.keyword) {
      case 'WORKDIR':
        workdir = path.posix.resolve(workdir, instruction.args);
        fs.mkdirSync(onHost(options.root, workdir), { recursive: true });
        break;
      case 'ENV':
        Object.assign(env, envAssignments(instruction.args));
        break;
      case 'COPY':
        await copy(instruction, workdir, options);
        break;
      case 'RUN': {
        if (user !== undefined) throw new Error(`line ${instruction.line}: RUN after USER is not supported by this test`);
        const argv = execForm(instruction.args) ?? ['/bin/sh', '-c', instruction.args];
        const started = performance.now();
        const result = await runCommand(argv[0]!, argv.slice(1), {
          cwd: onHost(options.root, workdir),
          env: { ...options.hostEnv, ...mappedEnv(options.root, env) },
        });
        if (result.code !== 0) throw new Error(`line ${instruction.line}: RUN ${instruction.args} failed (${result.code ?? result.signal}):\n${result.output.slice(-4000)}`);
        runs.push({ command: instruction.args, seconds: (performance.now() - started) / 1000 });
        break;
      }
      case 'USER':
        user = instruction.args;
        break;
      case 'VOLUME':
      case 'EXPOSE':
      case 'HEALTHCHECK':
      case 'CMD':
        // Metadata of the image: the caller reads them from the parsed stage.
        break;
      default:
        throw new Error(`line ${instruction.line}: ${instruction.keyword} is not supported by this test`);
    }
  }
  return { root: options.root, workdir, env, user, runs };
}
