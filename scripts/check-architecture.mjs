#!/usr/bin/env node
// `npm run check:architecture` (and `npm test`, after the type check): src/ has no import cycles and
// keeps to the layer rules of scripts/architecture.config.mjs. Prints each broken rule (from → to)
// and each cycle (its chain), and exits 1 if there is any.
//
// The graph comes from dependency-cruiser with its swc parser: it reads the .ts sources as they are
// (imports with .ts extensions, `import type`), without the TypeScript compiler API, which
// TypeScript 7 no longer ships. swc reports a type-only import as an import like any other, so
// type-only imports count, for cycles as for layers (they are not told apart in the output).
// dependency-cruiser asks swc for TypeScript without JSX, so a .tsx file would not parse: the check
// runs on a copy of src/ in which each .tsx file holds only its imports (read with swc's own TSX
// parser), so .tsx files are checked like the rest, under their own paths.
//
//   node scripts/check-architecture.mjs [--root DIR] [--config FILE]
//
// --root: the directory whose src/ is checked (default: this repository); --config: the rules and
// exceptions (default: scripts/architecture.config.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    root: { type: 'string', default: path.resolve(here, '..') },
    config: { type: 'string', default: path.join(here, 'architecture.config.mjs') },
  },
});
const root = path.resolve(values.root);
const { forbidden, exceptions = [] } = await import(pathToFileURL(path.resolve(values.config)).href);

let cruiser;
try {
  cruiser = await import('dependency-cruiser');
} catch (error) {
  console.error(`check-architecture: cannot load dependency-cruiser (${error.message}): run npm install`);
  process.exit(2);
}
// Without @swc/core, dependency-cruiser reads .ts with a loose JavaScript parser that loses every
// `import type`: refuse to check a half-read graph.
if (!cruiser.getAvailableTranspilers().some((t) => t.name === 'swc' && t.available)) {
  console.error('check-architecture: @swc/core is not installed (dependency-cruiser parses TypeScript with it): run npm install');
  process.exit(2);
}

/** Every module a .tsx file imports, statically, by re-export or dynamically with a literal: `import` statements that parse without JSX. */
async function importsOnly(file) {
  const swc = await import('@swc/core');
  const module = await swc.parseFile(file, { syntax: 'typescript', tsx: true });
  const sources = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (['ImportDeclaration', 'ExportAllDeclaration', 'ExportNamedDeclaration'].includes(node.type) && node.source) sources.push(node.source.value);
    if (node.type === 'CallExpression' && node.callee?.type === 'Import' && node.arguments[0]?.expression?.type === 'StringLiteral') sources.push(node.arguments[0].expression.value);
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  visit(module.body);
  return sources.map((source) => `import ${JSON.stringify(source)};\n`).join('');
}

/** A copy of root's src/ (and its packages, by a link) whose .tsx files hold only their imports. */
async function shadowOf(root) {
  const shadow = fs.mkdtempSync(path.join(os.tmpdir(), 'check-architecture-'));
  fs.cpSync(path.join(root, 'src'), path.join(shadow, 'src'), { recursive: true });
  fs.copyFileSync(path.join(here, '..', 'package.json'), path.join(shadow, 'package.json'));
  fs.symlinkSync(path.join(here, '..', 'node_modules'), path.join(shadow, 'node_modules'), 'dir');
  const tsx = fs.readdirSync(path.join(shadow, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.tsx'));
  for (const file of tsx) fs.writeFileSync(path.join(shadow, 'src', file), await importsOnly(path.join(root, 'src', file)));
  return shadow;
}

const shadow = await shadowOf(root);
process.on('exit', () => fs.rmSync(shadow, { recursive: true, force: true }));
process.chdir(shadow);
const result = await cruiser.cruise(
  ['src'],
  {
    baseDir: shadow,
    validate: true,
    ruleSet: { forbidden },
    parser: 'swc',
    // Keep the imports that compile away (`import type`, `import { type X }`).
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
    doNotFollow: { path: 'node_modules' },
    outputType: 'json',
  },
  { extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.json'] },
);
const cruised = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;

if (!cruised.modules.some((m) => m.source.startsWith('src/'))) {
  console.error(`check-architecture: no module found under ${path.join(root, 'src')}`);
  process.exit(2);
}

// One finding per violation: `to` is a repository path, or a package's name as imported.
const findings = cruised.summary.violations.map((v) => {
  if (v.rule.name === 'no-circular') {
    // Each step of the chain is an import of the module before it.
    const chain = v.cycle.map((step) => ` → ${step.name}`).join('');
    return { rule: v.rule.name, from: v.from, to: v.to, line: `[no-circular] ${v.from}${chain}` };
  }
  const dep = cruised.modules.find((m) => m.source === v.from)?.dependencies.find((d) => d.resolved === v.to);
  const to = /(^|\/)node_modules\//.test(v.to) ? (dep?.module ?? v.to) : v.to;
  const note = to === v.to ? '' : ' (package)';
  return { rule: v.rule.name, from: v.from, to, line: `[${v.rule.name}] ${v.from} → ${to}${note}` };
});

const key = (f) => `${f.rule}\u0000${f.from}\u0000${f.to}`;
const excepted = new Set(exceptions.map(key));
const used = new Set(findings.map(key).filter((k) => excepted.has(k)));
const failures = findings.filter((f) => !excepted.has(key(f)));
const stale = exceptions.filter((e) => !used.has(key(e)));
const cycles = failures.filter((f) => f.rule === 'no-circular');
const layers = failures.filter((f) => f.rule !== 'no-circular');
const src = cruised.modules.filter((m) => m.source.startsWith('src/')).length;

if (failures.length === 0 && stale.length === 0) {
  console.log(`architecture: ${src} files in src/, no import cycle, no layer rule broken (${exceptions.length} exception(s))`);
  process.exit(0);
}
for (const f of [...layers, ...cycles]) console.log(f.line);
for (const e of stale) console.log(`[stale-exception] ${e.rule}: ${e.from} → ${e.to} no longer happens: remove it from the exceptions`);
console.log(`architecture: ${layers.length} layer violation(s), ${cycles.length} cycle(s)${stale.length ? `, ${stale.length} stale exception(s)` : ''} in ${src} files of src/`);
process.exit(1);
