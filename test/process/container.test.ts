/**
 * The container image's steps, carried out on this machine (no container engine
 * runs here, so the image itself is never built): the Dockerfile's build stage and
 * runtime stage, RUN commands exactly as written with the stage's ENV, COPY steps
 * applied, in a fresh directory made from the working tree's files less what
 * .dockerignore leaves out. Then the server starts as the image's CMD starts it, as
 * the image's USER, from the runtime stage's files only (production dependencies,
 * no dev tools), and answers: an account and token made with the admin CLI the
 * image ships, a diagram created from a spec, rendered fast and faithful as PNG and
 * SVG, read back; the HEALTHCHECK command passes while it runs and fails once it
 * has stopped. On PostgreSQL too when TEST_DATABASE_URL is set (as compose.yaml
 * runs it).
 *
 * The machine stands in for the base image: its node must be the image's major
 * version (the test is skipped, saying so, on another; .ci/run runs the suite on the
 * image's Node), and npm uses its cache first (npm_config_prefer_offline).
 * better-sqlite3's install fetches its prebuilt binary, as a build with network
 * access does; here that download comes from a loopback mirror holding the binary
 * this checkout's own install made (same version, same Node ABI, same platform),
 * rather than compiling it from source again for minutes.
 * It needs root, as a build does: the runtime stage chowns to the image's user and
 * the server runs as that user. Slow (two installs' worth of work: npm ci and the
 * copy of the pruned node_modules); deadlines only stop a broken run.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  type StageResult,
  dockerignoreMatcher,
  execForm,
  instructionsOf,
  killRunningCommands,
  mappedEnv,
  onHost,
  parseDockerfile,
  parseHealthcheck,
  runCommand,
  runStage,
} from '../helpers/dockerfile.ts';
import { freePort } from '../helpers/ports.ts';
import { freshPostgresDatabase } from '../helpers/postgres.ts';
import { assertRendersEveryWay } from '../helpers/served-renders.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const STARTUP_DEADLINE_MS = 120_000;

const isRoot = process.getuid?.() === 0;
const DOCKERFILE = parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const IMAGE_BASE = DOCKERFILE.stages.at(-1)?.base ?? '';
const IMAGE_NODE_MAJOR = /^node:(\d+)[.-]/.exec(IMAGE_BASE)?.[1];
const NODE_MAJOR = process.versions.node.split('.')[0];
/** Why this machine cannot stand in for the image, if it cannot. */
const SKIP_REASON = !isRoot
  ? 'needs root, as an image build does (chown to the image user, the server run as that user)'
  : NODE_MAJOR !== IMAGE_NODE_MAJOR
    ? `this machine's Node ${NODE_MAJOR} cannot stand in for ${IMAGE_BASE} (native modules are built for one major version); .ci/run runs the tests on the image's Node`
    : false;

let workspace: string | undefined;
let server: ChildProcess | undefined;
let mirror: Awaited<ReturnType<typeof prebuiltBinaryMirror>> | undefined;

/** Ends the server and everything it started (its own process group), and any step still running. */
function killServer(): void {
  killRunningCommands();
  try {
    if (server?.pid !== undefined) process.kill(-server.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
process.on('exit', killServer);

after(async () => {
  const exited = server && server.exitCode === null && server.signalCode === null ? new Promise((resolve) => server!.once('exit', resolve)) : undefined;
  killServer();
  await exited;
  await mirror?.close();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

/** The build context: the working tree's files (committed or not, never git-ignored ones) less what .dockerignore leaves out. */
function makeContext(target: string): number {
  const ignored = dockerignoreMatcher(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  let count = 0;
  for (const file of listed) {
    const source = path.join(ROOT, file);
    if (ignored(file) || !fs.existsSync(source)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.cpSync(source, path.join(target, file), { verbatimSymlinks: true });
    count++;
  }
  return count;
}

/** `uid[:gid]` of a USER instruction, as numbers (the image uses numeric ids, which this machine need not have names for). */
function numericUser(user: string): { uid: number; gid: number } {
  const [uid = '', gid = uid] = user.split(':');
  assert.match(uid, /^\d+$/, `USER ${user} is numeric`);
  assert.match(gid, /^\d+$/, `USER ${user} is numeric`);
  return { uid: Number(uid), gid: Number(gid) };
}

/** The image's environment for its processes: its ENV (paths mapped into the stage), the base image's PATH, the user's HOME, the image's /tmp. */
function imageEnvironment(runtime: StageResult, home: string, overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, TMPDIR: onHost(runtime.root, '/tmp'), ...mappedEnv(runtime.root, runtime.env), ...overrides };
}

interface Smoke {
  runtime: StageResult;
  user: { uid: number; gid: number };
  env: NodeJS.ProcessEnv;
  cmd: string[];
  healthcheck: string[];
  log: (step: string) => void;
}

/** Runs a command in the running image, as `docker exec` does: its USER, WORKDIR and environment. */
function exec(smoke: Smoke, argv: string[]) {
  return runCommand(argv[0]!, argv.slice(1), { cwd: onHost(smoke.runtime.root, smoke.runtime.workdir), env: smoke.env, ...smoke.user });
}

async function admin(smoke: Smoke, ...argv: string[]): Promise<any> {
  const result = await exec(smoke, ['node', 'bin/drawbridge-admin', ...argv]);
  assert.equal(result.code, 0, `drawbridge-admin ${argv.join(' ')}: ${result.output}`);
  return JSON.parse(result.output);
}

/** Starts the image's CMD, serves the smoke test's requests, stops it with SIGTERM as `docker stop` does. */
async function smokeTest(smoke: Smoke, email: string): Promise<void> {
  const baseUrl = smoke.env.PUBLIC_URL!;
  const created = await admin(smoke, 'user', 'create', '--email', email);
  assert.equal(created.email, email);
  const { token } = await admin(smoke, 'token', 'mint', '--email', email, '--caps', 'read,write');
  smoke.log('account and token made with bin/drawbridge-admin');

  server = spawn(smoke.cmd[0]!, smoke.cmd.slice(1), {
    cwd: onHost(smoke.runtime.root, smoke.runtime.workdir),
    env: smoke.env,
    ...smoke.user,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const running = server;
  const exited = new Promise<number | null>((resolve) => running.once('exit', (code) => resolve(code)));
  let output = '';
  running.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  running.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));

  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    assert.ok(running.exitCode === null, `the server exited (${running.exitCode}) before it was up:\n${output}`);
    assert.ok(Date.now() < deadline, `the server was not up within ${STARTUP_DEADLINE_MS} ms:\n${output}`);
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (res?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  smoke.log(`server up on ${baseUrl}`);
  // The web bundle was prepared by the build: the start found it (and could touch it as the image's user).
  // Its log line may reach the pipe a moment after /readyz answers (the logger writes asynchronously).
  for (const until = Date.now() + 10_000; !/"msg":"web assets ready"/.test(output) && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.match(output, /"built":false[^\n]*"msg":"web assets ready"/, `the start reused the web bundle built in the image:\n${output}`);

  const healthy = await exec(smoke, smoke.healthcheck);
  assert.equal(healthy.code, 0, `the HEALTHCHECK passes while the server is ready: ${healthy.output}`);
  const ready = await fetch(`${baseUrl}/readyz`);
  assert.deepEqual(await ready.json(), { status: 'ready' });

  const auth = { authorization: `Bearer ${token}` };
  const spec = {
    nodes: [
      { id: 'proxy', label: 'Caddy' },
      { id: 'one', label: 'Drawbridge 1' },
      { id: 'two', label: 'Drawbridge 2' },
      { id: 'db', label: 'PostgreSQL', shape: 'ellipse' },
    ],
    edges: [
      { from: 'proxy', to: 'one' },
      { from: 'proxy', to: 'two' },
      { from: 'one', to: 'db' },
      { from: 'two', to: 'db' },
    ],
  };
  const createRes = await fetch(`${baseUrl}/api/v1/diagrams`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'In the container', spec }) });
  const diagram = (await createRes.json()) as { id: string };
  assert.equal(createRes.status, 201, JSON.stringify(diagram));

  await assertRendersEveryWay(baseUrl, auth, diagram.id, 'Drawbridge 2', output);
  smoke.log('rendered fast and faithful, PNG and SVG');

  // Mermaid's parser (and the jsdom it needs) load from the production dependencies.
  const mermaidRes = await fetch(`${baseUrl}/api/v1/diagrams`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'From Mermaid', source: { language: 'mermaid', text: 'flowchart LR\n  a[Caddy] --> b[Drawbridge]' } }),
  });
  assert.equal(mermaidRes.status, 201, await mermaidRes.clone().text());
  // The API reference serves Redoc's bundle, which the build copied into dist/ (redoc is a dev dependency, not in the runtime).
  const docsPage = await (await fetch(`${baseUrl}/docs/api`)).text();
  const scriptUrl = /<script src="([^"]+redoc\.standalone\.js)"/.exec(docsPage)?.[1];
  assert.ok(scriptUrl, `the API reference names Redoc's bundle:\n${docsPage.slice(0, 2000)}`);
  const script = await fetch(new URL(scriptUrl, baseUrl));
  assert.equal(script.status, 200);
  assert.ok((await script.text()).length > 100_000, "Redoc's bundle is served whole");
  smoke.log('imported Mermaid; served the API reference with Redoc');

  const readRes = await fetch(`${baseUrl}/api/v1/diagrams/${diagram.id}`, { headers: auth });
  const read = (await readRes.json()) as { title: string; scene: { elements: { type: string; text?: string }[] } };
  assert.equal(readRes.status, 200, JSON.stringify(read));
  assert.equal(read.title, 'In the container');
  assert.deepEqual(
    read.scene.elements.filter((element) => element.type === 'text').map((element) => element.text).sort(),
    ['Caddy', 'Drawbridge 1', 'Drawbridge 2', 'PostgreSQL'],
  );

  running.kill('SIGTERM');
  assert.equal(await exited, 0, `the server exits 0 on SIGTERM:\n${output}`);
  server = undefined;
  const unhealthy = await exec(smoke, smoke.healthcheck);
  assert.notEqual(unhealthy.code, 0, 'the HEALTHCHECK fails once the server has stopped');
  assert.match(unhealthy.output, /readyz/, 'and says what it asked');
  smoke.log('stopped; the HEALTHCHECK fails');
}

test(
  "the Dockerfile's stages, run here, make a runtime that serves as the image's user with production dependencies only",
  // Below scripts/test.mjs's limit for a whole file, so that a run this slow still fails here, and cleans up.
  { timeout: 25 * 60_000, skip: SKIP_REASON },
  async (t) => {
    const started = performance.now();
    const log = (step: string) => t.diagnostic(`${step} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const [build, runtimeStage] = DOCKERFILE.stages;
    assert.ok(build && runtimeStage && DOCKERFILE.stages.length === 2, 'a build stage and a runtime stage');

    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-container-'));
    // The image's user must reach its files, as it can in the image.
    fs.chmodSync(workspace, 0o755);
    const context = path.join(workspace, 'context');
    const files = makeContext(context);
    log(`context of ${files} files`);

    // What the build machine and the base image provide besides the stage's ENV: PATH, HOME (npm's cache and settings),
    // and where better-sqlite3's prebuilt binary is downloaded from.
    mirror = await prebuiltBinaryMirror(path.join(workspace, 'prebuilt'));
    const hostEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      npm_config_prefer_offline: 'true',
      npm_config_better_sqlite3_binary_host: mirror.url,
    };
    const stages: Record<string, string> = {};
    const built = await runStage(build, { context, stages, root: path.join(workspace, build.name), hostEnv });
    stages[build.name] = built.root;
    assert.ok(mirror.served() > 0, "better-sqlite3's install fetched its prebuilt binary from the mirror");
    for (const run of built.runs) log(`build stage: RUN ${run.command} took ${run.seconds.toFixed(1)} s`);
    const runtime = await runStage(runtimeStage, { context, stages, root: path.join(workspace, runtimeStage.name), hostEnv });
    for (const run of runtime.runs) log(`runtime stage: RUN ${run.command} took ${run.seconds.toFixed(1)} s`);
    log('stages done');

    // Production dependencies only: no TypeScript, no test tools; tsx stays (the admin CLI runs on it).
    const app = onHost(runtime.root, runtime.workdir);
    const modules = path.join(app, 'node_modules');
    for (const dev of ['typescript', 'fast-check', 'playwright-core', '@types/node', 'redoc', 'simple-icons', 'lucide-static', 'elkjs']) assert.ok(!fs.existsSync(path.join(modules, dev)), `${dev} (a dev dependency) is not in the runtime`);
    for (const needed of ['tsx', 'better-sqlite3', '@napi-rs/canvas', '@resvg/resvg-js']) assert.ok(fs.existsSync(path.join(modules, needed)), `${needed} is in the runtime`);
    assert.ok(!fs.existsSync(path.join(app, 'test')) && !fs.existsSync(path.join(app, 'tools')), 'no tests or test tools in the runtime');
    t.diagnostic(`runtime node_modules: ${execFileSync('du', ['-sh', modules], { encoding: 'utf8' }).split('\t')[0]}`);

    assert.ok(runtime.user, 'the runtime stage names a USER');
    const user = numericUser(runtime.user);
    assert.notEqual(user.uid, 0, 'the runtime does not run as root');
    // The base image's home of that user, and its /tmp (where tsx, which runs the admin CLI, keeps its cache).
    const home = onHost(runtime.root, '/home/node');
    fs.mkdirSync(home, { recursive: true });
    fs.chownSync(home, user.uid, user.gid);
    fs.mkdirSync(onHost(runtime.root, '/tmp'), { mode: 0o1777 });
    fs.chmodSync(onHost(runtime.root, '/tmp'), 0o1777);

    const cmd = execForm(instructionsOf(runtimeStage, 'CMD').at(-1)!.args)!;
    const healthcheck = parseHealthcheck(instructionsOf(runtimeStage, 'HEALTHCHECK').at(-1)!.args).command;
    const run = async (engine: string, databaseUrl: string | undefined) => {
      const port = await freePort();
      // What `docker run -e` would set: the port (this machine is shared) and the address people use.
      const env = imageEnvironment(runtime, home, { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
      await smokeTest({ runtime, user, env, cmd, healthcheck, log: (step) => log(`${engine}: ${step}`) }, `container-${engine}@example.com`);
    };
    await run('sqlite', undefined);
    // The data directory is the image user's, and the server wrote its database there.
    const dataDir = mappedEnv(runtime.root, runtime.env).DATA_DIR!;
    assert.equal(fs.statSync(dataDir).uid, user.uid);
    assert.equal(fs.statSync(path.join(dataDir, 'drawbridge.sqlite')).uid, user.uid);
    if (process.env.TEST_DATABASE_URL) await run('postgres', await freshPostgresDatabase());
    else t.diagnostic('TEST_DATABASE_URL is unset: the runtime was not started on PostgreSQL');
  },
);

/**
 * A loopback stand-in for better-sqlite3's release downloads: prebuild-install asks
 * `$npm_config_better_sqlite3_binary_host/v<version>/better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`,
 * and gets a tarball of the binary this checkout's install made.
 */
async function prebuiltBinaryMirror(directory: string): Promise<{ url: string; served: () => number; close: () => Promise<void> }> {
  const packageDir = path.join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  fs.mkdirSync(directory, { recursive: true });
  const tarball = path.join(directory, name);
  execFileSync('tar', ['-czf', tarball, '-C', packageDir, 'build/Release/better_sqlite3.node']);
  let served = 0;
  const server = http.createServer((request, response) => {
    if (request.url !== `/v${version}/${name}`) return void response.writeHead(404).end();
    served += 1;
    response.writeHead(200, { 'content-type': 'application/gzip' });
    fs.createReadStream(tarball).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: () => served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
