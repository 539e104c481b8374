/**
 * The Node.js the project runs on, told the same everywhere: the container image's
 * base, the `engines` field, what every installed package accepts (so that npm
 * warns about no engine on a supported Node), the Node `.ci/run` tests on, and the
 * README. And every installed package with an install script is named in
 * `allowScripts`, so that an npm that skips unreviewed scripts still builds
 * better-sqlite3.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { parseDockerfile } from '../helpers/dockerfile.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

const manifest = JSON.parse(read('package.json')) as { engines: { node: string }; allowScripts: Record<string, boolean> };
const locked = (JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> }).packages;
const imageBase = parseDockerfile(read('Dockerfile')).stages.at(-1)!.base;
const imageNode = /^node:(\d+\.\d+\.\d+)-/.exec(imageBase)?.[1];

/** The oldest version of each alternative of a range: `^22.13.0 || >=24` gives 22.13.0 and 24.0.0. */
function oldestOfEach(range: string): string[] {
  return range.split('||').map((part) => semver.minVersion(part.trim())!.version);
}

const packageName = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);

test("the image's Node is a full version that engines admits, and an LTS major", () => {
  assert.ok(imageNode, `${imageBase} names a full Node version`);
  assert.ok(semver.satisfies(imageNode, manifest.engines.node), `engines ${manifest.engines.node} admits the image's Node ${imageNode}`);
  assert.equal(semver.major(imageNode) % 2, 0, 'an even major: the release line that becomes LTS');
});

test('every installed package accepts the oldest Node of each line engines admits', () => {
  const oldest = oldestOfEach(manifest.engines.node);
  assert.ok(oldest.length >= 2, `engines names more than one release line: ${manifest.engines.node}`);
  const refusing: string[] = [];
  for (const [lockPath, entry] of Object.entries(locked)) {
    const wanted = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if (!lockPath || !wanted) continue;
    for (const version of oldest) {
      if (!semver.satisfies(version, wanted)) refusing.push(`${packageName(lockPath)}@${entry.version} wants ${wanted}, not ${version}`);
    }
  }
  assert.deepEqual(refusing, [], 'npm would warn of an unsupported engine on a Node that engines admits');
});

test(".ci/run tests on the image's Node, fetched from the npm registry", () => {
  const script = read('.ci/run');
  const line = /^node_version="\$\((.*)\)"$/m.exec(script);
  assert.ok(line, '.ci/run reads the Node version from somewhere');
  const version = execFileSync('bash', ['-c', line[1]!], { cwd: ROOT, encoding: 'utf8' }).trim();
  assert.equal(version, imageNode, ".ci/run's Node is the image's");
  assert.match(script, /npm pack --silent "node-linux-\$node_arch@\$node_version"/);
  assert.match(script, /export PATH="\$node_dir\/bin:\$PATH"/, 'and puts it first on PATH');
});

test('the README names the oldest Node engines admits and the one the image runs', () => {
  const readme = read('README.md');
  const oldest = oldestOfEach(manifest.engines.node)[0]!;
  const [major, minor] = oldest.split('.');
  assert.ok(readme.includes(`Node.js ${major}.${minor} or later`), `the README says Node.js ${major}.${minor} or later`);
  assert.ok(readme.includes(`Node.js ${semver.major(imageNode!)}`), `and names Node.js ${semver.major(imageNode!)}, the image's`);
});

test('every installed package with an install script is allowed or denied by name in allowScripts', () => {
  const withScripts = Object.entries(locked)
    .filter(([lockPath, entry]) => lockPath && entry.hasInstallScript)
    .map(([lockPath]) => packageName(lockPath));
  assert.ok(withScripts.includes('better-sqlite3'), 'better-sqlite3 builds or fetches its binary at install');
  assert.deepEqual(withScripts.filter((name) => !(name in manifest.allowScripts)), [], 'each is reviewed');
  assert.equal(manifest.allowScripts['better-sqlite3'], true, "better-sqlite3's install runs");
  assert.deepEqual(Object.keys(manifest.allowScripts).filter((name) => !withScripts.includes(name)), [], 'and nothing else is named');
});
