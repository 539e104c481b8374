/**
 * The Dockerfile's rules, read from the file (test/process/container.test.ts runs
 * its steps): pinned bases, one Debian base for both stages, a non-root user,
 * a health check on /readyz, the settings a container needs, and a build context
 * that leaves out what must not reach an image.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  dockerignoreMatcher,
  envAssignments,
  execForm,
  instructionsOf,
  parseDockerfile,
  parseHealthcheck,
  splitFlags,
  stageEnv,
  volumePaths,
} from '../helpers/dockerfile.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dockerfile = parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = dockerfile.stages.at(-1)!;
const ignored = dockerignoreMatcher(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));

describe('the Dockerfile', () => {
  test('every stage starts from a pinned image (a full version or a digest, never latest)', () => {
    assert.ok(dockerfile.stages.length >= 2, 'a build stage and a runtime stage');
    for (const stage of dockerfile.stages) {
      assert.match(stage.base, /@sha256:[0-9a-f]{64}$|:\d+\.\d+\.\d+[\w.-]*$/, `stage ${stage.name} starts from ${stage.base}`);
    }
  });

  test('the build and runtime stages share one Debian base, so native modules built in one load in the other', () => {
    const bases = new Set(dockerfile.stages.map((stage) => stage.base));
    assert.equal(bases.size, 1, [...bases].join(', '));
    assert.match([...bases][0]!, /bookworm/);
  });

  test('the runtime stage runs as a numeric non-root user', () => {
    const user = instructionsOf(runtime, 'USER').at(-1)?.args;
    assert.ok(user, 'USER is set in the final stage');
    assert.match(user, /^\d+(:\d+)?$/, 'numeric, so a runtime can verify it is not root without reading /etc/passwd');
    assert.notEqual(user.split(':')[0], '0');
  });

  test('the runtime stage has a HEALTHCHECK in exec form, asking /readyz within its timeout', () => {
    const instruction = instructionsOf(runtime, 'HEALTHCHECK').at(-1);
    assert.ok(instruction, 'HEALTHCHECK is set in the final stage');
    const { flags, command } = parseHealthcheck(instruction.args);
    for (const flag of ['interval', 'timeout', 'start-period', 'retries']) assert.ok(flag in flags, `--${flag} is set`);
    assert.deepEqual(command.slice(0, 1), ['node']);
    const script = fs.readFileSync(path.join(ROOT, command[1]!), 'utf8');
    assert.match(script, /\/readyz/);
    const scriptTimeoutMs = Number(/TIMEOUT_MS = (\d+)/.exec(script)?.[1]);
    assert.ok(scriptTimeoutMs < Number.parseInt(flags.timeout!, 10) * 1000, `the script gives up (${scriptTimeoutMs} ms) before Docker kills it (${flags.timeout})`);
    const copied = instructionsOf(runtime, 'COPY').some((copy) => splitFlags(copy.args).rest.includes(command[1]!));
    assert.ok(copied, `${command[1]} is copied into the runtime stage`);
  });

  test('the runtime listens on every address on the exposed port, with DATA_DIR a volume', () => {
    const env = stageEnv(runtime);
    assert.equal(env.HOST, '0.0.0.0');
    assert.deepEqual(instructionsOf(runtime, 'EXPOSE').map((expose) => expose.args), [env.PORT]);
    assert.deepEqual(instructionsOf(runtime, 'VOLUME').flatMap((volume) => volumePaths(volume.args)), [env.DATA_DIR]);
  });

  test("the image's CMD runs what npm start runs, node on the compiled server, with no npm or shell in between", () => {
    const cmd = execForm(instructionsOf(runtime, 'CMD').at(-1)!.args);
    const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
    assert.deepEqual(cmd, /exec (node \S+)$/.exec(start)![1]!.split(' '));
  });

  test('the build stage drops the dev dependencies before the runtime stage copies node_modules', () => {
    const [build] = dockerfile.stages;
    const runs = instructionsOf(build!, 'RUN').map((run) => run.args);
    assert.ok(runs.some((run) => /npm prune --omit=dev/.test(run)), runs.join('\n'));
    assert.ok(!instructionsOf(runtime, 'RUN').some((run) => /\bnpm\b/.test(run.args)), 'the runtime stage installs nothing');
  });
});

describe('the build context (.dockerignore)', () => {
  test('leaves out secrets, installed modules, builds, tests and the repository', () => {
    for (const file of ['.env', '.env.production', 'node_modules/x/index.js', 'tools/openapi-typescript/node_modules/x.js', 'dist/main.js', '.tools/node-24.22.3/bin/node', '.git/HEAD', 'test/smoke.test.ts', 'bench/api.ts', 'server.log', 'docs/debug.log']) {
      assert.ok(ignored(file), `${file} is left out`);
    }
  });

  test("keeps every file the image's build copies from it", () => {
    for (const file of ['package.json', 'package-lock.json', 'src/main.ts', 'src/web/client/editor.tsx', 'docs/spec.md', 'bin/drawbridge-admin', 'scripts/build.mjs', 'scripts/healthcheck.mjs', 'tsconfig.json', 'tsconfig.build.json']) {
      assert.ok(!ignored(file), `${file} is in the context`);
    }
    for (const stage of dockerfile.stages) {
      for (const copy of instructionsOf(stage, 'COPY')) {
        const { flags, rest } = splitFlags(copy.args);
        if (flags.from !== undefined) continue;
        const sources = rest.split(/\s+/).slice(0, -1).filter((source) => source !== '.');
        for (const source of sources) assert.ok(fs.existsSync(path.join(ROOT, source)) && !ignored(source), `COPY ${source} (line ${copy.line}) is in the context`);
      }
    }
  });
});

describe('the Dockerfile reader', () => {
  test('joins continued lines, drops comments, substitutes build arguments in FROM', () => {
    const parsed = parseDockerfile('# syntax=docker/dockerfile:1\nARG BASE=node:20.1.0-bookworm-slim\nFROM ${BASE} AS build\nRUN a \\\n  # a comment inside\n  && b\nENV A=1 \\\n    B="two words"\n');
    assert.deepEqual(parsed.args, { BASE: 'node:20.1.0-bookworm-slim' });
    assert.equal(parsed.stages[0]!.base, 'node:20.1.0-bookworm-slim');
    assert.equal(parsed.stages[0]!.name, 'build');
    assert.deepEqual(
      parsed.stages[0]!.instructions.map((instruction) => [instruction.keyword, instruction.args, instruction.line]),
      [
        ['RUN', 'a && b', 4],
        ['ENV', 'A=1 B="two words"', 7],
      ],
    );
    assert.deepEqual(envAssignments('A=1 B="two words"'), { A: '1', B: 'two words' });
    assert.throws(() => parseDockerfile('FROM ${MISSING}\n'), /ARG MISSING/);
  });

  test('.dockerignore: a pattern matches a path or a parent directory; the last matching pattern decides', () => {
    const matches = dockerignoreMatcher('# comment\n**/*.log\n/dist\ndocs\n!docs/spec.md\n');
    assert.equal(matches('a/b/c.log'), true);
    assert.equal(matches('c.log'), true);
    assert.equal(matches('dist/main.js'), true);
    assert.equal(matches('src/dist/main.js'), false);
    assert.equal(matches('docs/operations.md'), true);
    assert.equal(matches('docs/spec.md'), false);
    assert.equal(matches('src/main.ts'), false);
  });
});
