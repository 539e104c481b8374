// The repository's docs, comments and messages stand alone: they never send a reader to a file
// outside the repository (the product specification and its companions) or to an issue number;
// where a rule comes from elsewhere, it is said where it matters.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');
const FOLDERS = ['src', 'docs', 'test', 'bench', 'scripts', 'bin', '.ci'];
const FILES = ['README.md', 'package.json'];
const TEXT = /\.(ts|tsx|mts|mjs|js|cjs|json|md|css|sh|yaml|yml)$|^[^.]+$/;
// Built from pieces so that this file does not match itself.
const OUTSIDE = new RegExp(['SPEC', 'CONTRACT', 'STYLE'].map((name) => `\\b${name}\\.md\\b`).join('|'));
const ISSUE_NUMBER = /\bissues?\s+#?\d/i;

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'gallery' ? [] : files(full);
    return TEXT.test(entry.name) ? [full] : [];
  });
}

test('no doc, comment or message points at a file outside the repository or at an issue number', () => {
  const found: string[] = [];
  for (const file of [...FOLDERS.flatMap((f) => files(path.join(ROOT, f))), ...FILES.map((f) => path.join(ROOT, f))]) {
    if (!fs.existsSync(file) || fs.statSync(file).size > 2_000_000) continue;
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (OUTSIDE.test(line) || ISSUE_NUMBER.test(line)) found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  assert.deepEqual(found, []);
});

test('the check finds such a reference', () => {
  assert.ok(OUTSIDE.test(`as ${'SPEC'}.md says`));
  assert.ok(ISSUE_NUMBER.test(`the dashboard (${'iss'}ue 7, item 3)`) && ISSUE_NUMBER.test(`see ${'iss'}ue #12`));
  assert.ok(!ISSUE_NUMBER.test('one issue per arrow and node') && !ISSUE_NUMBER.test('issues.filter((issue) => issue.kind)'));
});

test('the token has one name everywhere a reader is shown a command: SERVICE_TOKEN', () => {
  const names = new Map<string, string[]>();
  for (const file of [...['docs', 'src'].flatMap((f) => files(path.join(ROOT, f))), path.join(ROOT, 'README.md')]) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/Bearer \$\{?([A-Z][A-Z_]*)\b/g)) {
      const name = match[1]!;
      // A template's own placeholder, filled in by the page, is not a shell variable.
      if (name.endsWith('_PLACEHOLDER')) continue;
      names.set(name, [...(names.get(name) ?? []), path.relative(ROOT, file)]);
    }
  }
  assert.deepEqual([...names.keys()], ['SERVICE_TOKEN'], JSON.stringify(Object.fromEntries(names)));
});
