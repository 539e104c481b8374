/** Child processes for the benchmarks: the real server and baselines, always killed on exit. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  proc: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

export const children: Child[] = [];

export function startChild(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const child = { name, proc, output, exited };
  children.push(child);
  return child;
}

export async function waitForHttp(child: Child, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${child.name} exited before answering ${url}:\n${child.output.join('')}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms:\n${child.output.join('')}`);
}

export async function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  child.proc.kill('SIGTERM');
  const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10_000).unref());
  if ((await Promise.race([child.exited, timer])) === 'timeout') {
    child.proc.kill('SIGKILL');
    await child.exited;
  }
}

process.on('exit', () => {
  for (const child of children) if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}


/** The real server on the SQLite database in `dataDir`, rate limits lifted, ready to serve; `env` adds settings (HISTORY=off…). */
export async function startApiServer(dataDir: string, env: NodeJS.ProcessEnv = {}, name = 'server'): Promise<{ child: Child; base: string }> {
  const port = await freePort();
  const child = startChild(name, ['--import', 'tsx', 'src/main.ts'], {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_READ_PER_MIN: '1000000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000000',
    DATABASE_URL: '',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${base}/healthz`);
  return { child, base };
}

/** One user with a large quota and a token, made with the admin commands before the server starts. */
export async function seedBenchUser(dataDir: string, caps: string): Promise<string> {
  const { openStore } = await import('../src/store/open.ts');
  const { runAdminCommand } = await import('../src/admin/commands.ts');
  const store = await openStore({ dataDir });
  try {
    await runAdminCommand(['user', 'create', '--email', 'bench@example.com', '--quota', '1000000'], store);
    return ((await runAdminCommand(['token', 'mint', '--email', 'bench@example.com', '--caps', caps], store)) as { token: string }).token;
  } finally {
    await store.close();
  }
}

/**
 * Runs a benchmark with a fresh data directory: a failure is reported with the
 * children's last output; the children are always stopped and the directory
 * removed; the process exits with the outcome.
 */
export async function runBenchmark(name: string, body: (dataDir: string) => Promise<void>): Promise<never> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `drawbridge-${name.replace(/\W/g, '-')}-`));
  let exitCode = 0;
  try {
    await body(dataDir);
  } catch (error) {
    console.error(`${name} failed: ${(error as Error).stack ?? error}`);
    for (const child of children) if (child.output.length) console.error(`--- ${child.name} output ---\n${child.output.join('').slice(-4000)}`);
    exitCode = 1;
  } finally {
    await Promise.all(children.map(stopChild));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(exitCode);
}
