/**
 * What the server loads at run time is installed without the dev dependencies (`npm ci --omit=dev`,
 * the container image's runtime): every package that src/ imports (statically, dynamically or through
 * require, type-only imports aside) is one of package.json's `dependencies`, and the packages that only
 * the build, the tests, the benches and the scripts use are dev dependencies, so that a runtime install
 * leaves them out. test/process/container.test.ts starts a server from such an install.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

const SPECIFIERS = [
  // import x from 'p', import { a, b } from 'p' (not `import type`), export … from 'p'
  /(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s+['"]([^'"]+)['"]/g,
  // import 'p'
  /(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g,
  // import('p'), require('p'), createRequire(…)('p'), require.resolve('p'), createRequire(…).resolve('p')
  /(?:\bimport|\brequire|\bresolve|\))\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Package name → the files of src/ that load it. */
function packagesLoadedBySrc(): Map<string, string[]> {
  const loaded = new Map<string, string[]>();
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const pattern of SPECIFIERS) {
      for (const [, specifier] of text.matchAll(pattern)) {
        if (!specifier || specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
        const name = packageOf(specifier);
        loaded.set(name, [...(loaded.get(name) ?? []), path.relative(ROOT, file)]);
      }
    }
  }
  return loaded;
}

test('every package src/ loads is a production dependency', () => {
  const loaded = packagesLoadedBySrc();
  // The scan finds what it should: a static import, a dynamic one, and one through createRequire.
  for (const name of ['fastify', 'mermaid', 'subset-font']) assert.ok(loaded.has(name), `${name} is found among src/'s imports`);
  const missing = [...loaded].filter(([name]) => !(name in manifest.dependencies)).map(([name, files]) => `${name} (${[...new Set(files)].join(', ')})${name in manifest.devDependencies ? ': a dev dependency' : ''}`);
  assert.deepEqual(missing, [], 'loaded at run time but not installed by npm ci --omit=dev');
});

test('what only the build, the tests, the benches and the scripts use is a dev dependency', () => {
  // redoc: the build copies its bundle into dist/ (src/web/front-door/api-docs.ts); simple-icons and
  // lucide-static: scripts/build-icon-catalog.ts makes the committed catalog from them; elkjs: the benches' peer;
  // typescript, the test tools and the type declarations.
  for (const name of ['redoc', 'simple-icons', 'lucide-static', 'elkjs', 'typescript', 'playwright-core', 'fast-check', '@redocly/cli']) {
    assert.ok(name in manifest.devDependencies && !(name in manifest.dependencies), `${name} is a dev dependency`);
  }
  const loaded = packagesLoadedBySrc();
  for (const name of ['redoc', 'simple-icons', 'lucide-static', 'elkjs']) assert.ok(!loaded.has(name), `src/ does not import ${name}`);
});

test('npm install runs no install script of the project itself (the test tools are installed by the tests that use them)', () => {
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(scripts[hook], undefined, `no ${hook} script`);
});
