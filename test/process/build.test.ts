/**
 * The production form: `npm run build` compiles the server to dist/, and
 * `npm start` runs it on node, without tsx, in the server and in every worker
 * process. The compiled server answers the API, renders fast and faithful,
 * serves the web editor's bundle; SIGTERM to the npm process reaches the
 * server (npm's `sh -c` would otherwise keep it as a grandchild npm cannot
 * signal), lets a request in flight finish, and leaves no process behind.
 * Nothing here depends on timing: deadlines only stop a broken run.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/open.ts';
import { freePort } from '../helpers/ports.ts';
import { signIn } from '../helpers/web-session.ts';
import { assertRendersEveryWay } from '../helpers/served-renders.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const STARTUP_DEADLINE_MS = 120_000;

let dataDir: string;
let npm: ChildProcess | undefined;

/**
 * After a failure: npm start runs in a process group of its own (detached), so
 * everything it started goes with it, even processes a broken start left
 * behind when npm exited (they would hold the test's pipes open).
 */
function killAll(): void {
  try {
    if (npm?.pid !== undefined) process.kill(-npm.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}
// Last resort if the runner is torn down before the after hook: never leave a server behind.
process.on('exit', killAll);

const run = promisify(execFile);

async function admin(...argv: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, ['bin/drawbridge-admin', ...argv], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
  return JSON.parse(stdout);
}

// ---------------------------------------------------------------------------
// Processes, from /proc

interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Process group: npm start's own (it is started detached), inherited by everything it starts. */
  pgrp: number;
  argv: string[];
}

function processInfo(pid: number): ProcessInfo | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: the fields after it (state, ppid, pgrp, …) follow its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), argv };
  } catch {
    return null; // gone meanwhile
  }
}

function allProcesses(): ProcessInfo[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => processInfo(Number(name)) ?? []);
}

/** Every live process descended from `pid`. */
function descendants(pid: number): ProcessInfo[] {
  const all = allProcesses();
  const found: ProcessInfo[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of all) {
      if (parents.has(info.ppid) && !parents.has(info.pid)) {
        parents.add(info.pid);
        found.push(info);
        grew = true;
      }
    }
  }
  return found;
}

/** The live processes of a process group (npm start's: npm, the server, its workers, and anything they started). */
const processGroup = (pgrp: number) => allProcesses().filter((info) => info.pgrp === pgrp);

// ---------------------------------------------------------------------------

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-build-'));
});

after(async () => {
  const exited = npm && npm.exitCode === null && npm.signalCode === null ? new Promise((resolve) => npm!.once('exit', resolve)) : undefined;
  killAll();
  await exited;
  npm?.stdout?.destroy();
  npm?.stderr?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('npm run build compiles the server; npm start serves it without tsx; SIGTERM to npm drains and stops every process', { timeout: 600_000 }, async (t) => {
  // Where the time goes, for the log.
  const started = performance.now();
  const reached = (step: string) => t.diagnostic(`${step} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const build = await run('npm', ['run', 'build'], { cwd: ROOT });
  reached('built');
  assert.match(build.stdout, /built dist\//);
  // Redoc's bundle too: redoc is a dev dependency, and the server serves the copy in dist/.
  for (const entry of ['main.js', 'workers/scene-worker.js', 'render/fast-worker.js', 'render/faithful-worker.js', 'domain/text/font-metrics.json', 'domain/icons/catalog.json', 'web/front-door/redoc.standalone.js']) {
    assert.ok(fs.existsSync(path.join(ROOT, 'dist', entry)), `dist/${entry} is built`);
  }

  const created = await admin('user', 'create', '--email', 'build@example.com');
  const { token } = await admin('token', 'mint', '--email', 'build@example.com', '--caps', 'read,write');

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: baseUrl, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const npmProcess = npm;
  const exited = new Promise<number | null>((resolve) => npmProcess.once('exit', (code) => resolve(code)));
  let output = '';
  const logWaiters = new Set<() => void>();
  for (const stream of [npmProcess.stdout!, npmProcess.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const waiter of logWaiters) waiter();
    });
  }
  const logged = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!output.includes(text)) return;
        logWaiters.delete(check);
        resolve();
      };
      logWaiters.add(check);
      check();
    });

  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    assert.ok(npmProcess.exitCode === null, `npm start exited (${npmProcess.exitCode}) before the server was up:\n${output}`);
    assert.ok(Date.now() < deadline, `the server was not up within ${STARTUP_DEADLINE_MS} ms:\n${output}`);
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (res?.status === 200) {
      assert.deepEqual(await res.json(), { status: 'ok' });
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  reached(`server up on ${baseUrl}`);

  // npm start warms one faithful render worker and nothing else: the fast and scene workers start on first use.
  const workersOf = (entry: string) => descendants(npmProcess.pid!).filter((info) => info.argv.some((arg) => arg.endsWith(entry)));
  for (const waitUntil = Date.now() + 5_000; workersOf('dist/render/faithful-worker.js').length === 0 && Date.now() < waitUntil; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(workersOf('dist/render/faithful-worker.js').length, 1, 'one faithful worker, warming');
  assert.equal(workersOf('dist/render/fast-worker.js').length, 0, 'no fast worker before a fast render');
  assert.equal(workersOf('dist/workers/scene-worker.js').length, 0, 'no scene worker before a scene job');

  const auth = { authorization: `Bearer ${token}` };
  const spec = {
    nodes: Array.from({ length: 12 }, (_, i) => ({ id: `n${i}`, label: `Node ${i}` })),
    edges: Array.from({ length: 11 }, (_, i) => ({ from: `n${i}`, to: `n${i + 1}` })),
  };
  const createRes = await fetch(`${baseUrl}/api/v1/diagrams`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Compiled', spec }),
  });
  const diagram = (await createRes.json()) as { id: string };
  assert.equal(createRes.status, 201, JSON.stringify(diagram));

  // Renders, both qualities, both formats: the fast and faithful workers run compiled.
  await assertRendersEveryWay(baseUrl, auth, diagram.id, 'Node 11', output);
  reached('rendered');

  // The web editor's page and the bundle it loads, for a signed-in person.
  const store = await openStore(loadConfig({ DATA_DIR: dataDir }));
  let cookie: string;
  try {
    ({ cookie } = await signIn({ store }, created.id));
  } finally {
    await store.close();
  }
  const page = await fetch(`${baseUrl}/app/d/${diagram.id}`, { headers: { cookie } });
  const html = await page.text();
  assert.equal(page.status, 200, html.slice(0, 300));
  const script = /<script type="module" src="(\/assets\/[^"]+\/editor\.js)">/.exec(html)?.[1];
  const stylesheet = /<link rel="stylesheet" href="(\/assets\/[^"]+\/editor\.css)">/.exec(html)?.[1];
  assert.ok(script && stylesheet, `the editor page loads the bundle: ${html.slice(0, 500)}`);
  for (const [url, type] of [
    [script, 'text/javascript'],
    [stylesheet, 'text/css'],
  ] as const) {
    const res = await fetch(`${baseUrl}${url}`);
    const body = await res.text();
    assert.equal(res.status, 200, url);
    assert.ok(res.headers.get('content-type')?.startsWith(type), `${url}: ${res.headers.get('content-type')}`);
    assert.ok(body.length > 1000, `${url} has content`);
  }

  reached('editor bundle loaded');

  // What runs: node dist/main.js straight under npm (no shell between them), workers from dist/, tsx nowhere.
  const tree = descendants(npmProcess.pid!);
  const server = tree.find((info) => info.ppid === npmProcess.pid);
  assert.ok(server, `npm start has a child:\n${JSON.stringify(tree, null, 1)}`);
  assert.equal(path.basename(server.argv[0]!), path.basename(process.execPath), `npm's child is node itself: ${server.argv.join(' ')}`);
  assert.deepEqual(server.argv.slice(1), ['dist/main.js']);
  const nodes = tree.filter((info) => path.basename(info.argv[0] ?? '') === path.basename(process.execPath));
  for (const worker of ['dist/workers/scene-worker.js', 'dist/render/fast-worker.js', 'dist/render/faithful-worker.js']) {
    assert.ok(
      nodes.some((info) => info.argv.some((arg) => arg.endsWith(worker))),
      `a ${worker} process runs: ${nodes.map((info) => info.argv.join(' ')).join('\n')}`,
    );
  }
  for (const info of nodes) assert.doesNotMatch(info.argv.join(' '), /tsx|bootstrap\.mjs|\.ts\b/, `runs compiled: ${info.argv.join(' ')}`);

  // SIGTERM to npm while a create is in flight: its body is half sent when the signal arrives and the rest
  // after the server has begun shutting down; it is still answered (over a keep-alive connection, which
  // must not hold the server up afterwards), then everything exits.
  const requestId = 'build-test-in-flight-create';
  const body = JSON.stringify({ title: 'Sent while stopping', spec });
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request(`${baseUrl}/api/v1/diagrams`, {
    method: 'POST',
    agent,
    headers: { ...auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId },
  });
  const answered = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => void (text += chunk));
      response.once('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, text }));
    });
  });
  request.write(body.slice(0, Math.floor(body.length / 2)));
  await logged(`"reqId":"${requestId}"`);
  npmProcess.kill('SIGTERM');
  await logged('"msg":"shutting down"');
  request.end(body.slice(Math.floor(body.length / 2)));
  const inFlight = await answered;
  assert.equal(inFlight.status, 201, `the create in flight at SIGTERM is answered: ${inFlight.text}\n${output}`);
  assert.equal(inFlight.connection, 'close', 'an answer sent while closing ends its keep-alive connection, which would otherwise hold the server up');
  const stored = (JSON.parse(inFlight.text) as { id: string }).id;

  assert.equal(await exited, 0, `npm start exits 0 after SIGTERM:\n${output}`);
  reached('stopped');
  assert.match(output, /"signal":"SIGTERM","msg":"shutting down"/);
  await assert.rejects(fetch(`${baseUrl}/healthz`), 'the port no longer answers');
  // The server and its workers end with it (a worker may take a moment to see its parent gone).
  assert.ok(tree.every((info) => info.pgrp === npmProcess.pid), 'the server and its workers are in npm start\'s process group');
  const stopDeadline = Date.now() + 30_000;
  let left = processGroup(npmProcess.pid!);
  while (left.length > 0 && Date.now() < stopDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processGroup(npmProcess.pid!);
  }
  assert.deepEqual(left.map((info) => info.argv.join(' ')), [], 'no process of the server remains');
  agent.destroy();

  // The create answered during the shutdown was kept.
  const reopened = await openStore(loadConfig({ DATA_DIR: dataDir }));
  try {
    assert.equal((await reopened.diagrams.findMetaForUser(stored, created.id))?.diagram.title, 'Sent while stopping');
  } finally {
    await reopened.close();
  }
});
