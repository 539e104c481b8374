// scripts/check-architecture.mjs: import cycles and the floors of src/ (docs/architecture.md), and the
// claims docs/architecture.md makes about the code: its floors table is the check's, its store table the interfaces'.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The floors the check enforces (plain JavaScript, read as the check reads it). */
const { FLOORS } = (await import(pathToFileURL(path.join(ROOT, 'scripts/architecture.config.mjs')).href)) as { FLOORS: Array<{ floor: string[]; mayImport: string[] }> };
const FIXTURE = path.join(ROOT, 'test/fixtures/architecture');

function check(...args: string[]): { status: number | null; lines: string[]; output: string } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-architecture.mjs'), ...args], { encoding: 'utf8' });
  const output = run.stdout + run.stderr;
  return { status: run.status, lines: run.stdout.split('\n').filter((line) => line.startsWith('[')), output };
}

test('the checker reports every broken rule and cycle of a fixture tree, .tsx files included, and fails', () => {
  const { status, lines, output } = check('--root', FIXTURE);
  assert.equal(status, 1, output);
  assert.deepEqual(lines.sort(), [
    '[domain-no-io-packages] src/domain/shape.ts → fastify (package)',
    '[floor-app] src/app/create.ts → src/web/page.ts',
    '[floor-domain] src/domain/shape.ts → src/http/route.ts',
    // A dynamic import in a file with JSX.
    '[floor-web] src/web/client/panel.tsx → src/mcp/tool.ts',
    '[floor-web] src/web/page.ts → src/http/route.ts',
    // The cycle closes through an `import type`: type-only imports count.
    '[no-circular] src/store/codec.ts → src/store/rows.ts → src/store/codec.ts',
  ]);
});

test('an exception silences exactly its import, and one that matches nothing fails the check', () => {
  const { status, lines, output } = check('--root', FIXTURE, '--config', path.join(FIXTURE, 'exceptions.config.mjs'));
  assert.equal(status, 1, output);
  assert.ok(!lines.some((line) => line.startsWith('[floor-domain]')), output);
  assert.ok(lines.includes('[domain-no-io-packages] src/domain/shape.ts → fastify (package)'), output);
  assert.ok(lines.includes('[stale-exception] floor-web: src/web/gone.ts → src/http/route.ts no longer happens: remove it from the exceptions'), output);
  assert.equal(lines.length, 6, output);
});

test('src/ has no import cycle and keeps to its layer boundaries', () => {
  const { status, output } = check();
  assert.equal(status, 0, output);
});

const ARCHITECTURE_DOC = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
/** The rows of the markdown table whose header row starts with `header`, as their cells. */
function tableRows(header: string): string[][] {
  const lines = ARCHITECTURE_DOC.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  assert.ok(start >= 0, `docs/architecture.md has a table headed ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

test("docs/architecture.md's floors table is the check's FLOORS, row for row, and every folder and file at the top of src/ has a row", () => {
  const documented = tableRows('| folder |').map(([floors, , mayImport]) => ({
    floor: ticked(floors!).map((name) => name.replace(/^src\//, '').replace(/\/$/, '')),
    mayImport: mayImport === 'everything' ? ['*'] : mayImport === 'nothing' ? [] : ticked(mayImport!),
  }));
  assert.deepEqual(documented, FLOORS.map(({ floor, mayImport }) => ({ floor: [...floor], mayImport: [...mayImport] })));
  const rowed = new Set(FLOORS.flatMap(({ floor }) => floor));
  assert.deepEqual(fs.readdirSync(path.join(ROOT, 'src')).filter((name) => !rowed.has(name)), [], 'every entry of src/ is a floor');
});

test("docs/architecture.md's store table: each interface is declared in its file with exactly the methods listed, and is the Store member named", () => {
  const store = fs.readFileSync(path.join(ROOT, 'src/store/store.ts'), 'utf8');
  const rows = tableRows('| `store.`');
  assert.ok(rows.length >= 10, 'a row per aggregate');
  for (const [member, declared, methods] of rows) {
    const [property] = ticked(member!);
    const [name, file] = ticked(declared!);
    assert.match(store, new RegExp(`^  readonly ${property}: ${name};$`, 'm'), `Store.${property} is a ${name}`);
    const source = fs.readFileSync(path.join(ROOT, 'src/store', file!), 'utf8');
    const body = new RegExp(`export interface ${name}\\b[^{]*\\{\\n([\\s\\S]*?)\\n\\}`).exec(source)?.[1];
    assert.ok(body, `${name} is declared in src/store/${file}`);
    const actual = [...body.matchAll(/^  (?:readonly )?(\w+)\??\s*[(<:]/gm)].map((m) => m[1]);
    assert.deepEqual(ticked(methods!), actual, `${name}'s methods, in the order declared`);
  }
});
