/**
 * The real corpus (bench/quality/real/): every Mermaid and DOT diagram copied
 * from a public project is listed in sources.json with its repository, path
 * and licence, imports without error, and its scene survives the editor's
 * restore unchanged (the editor opens it as generated).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { importEntry, loadRealCorpus, REAL_DIRECTORY } from '../../bench/quality/real.ts';
import { assertSurvivesRestore } from '../helpers/excalidraw.ts';

const sources = JSON.parse(fs.readFileSync(path.join(REAL_DIRECTORY, 'sources.json'), 'utf8')) as Array<{ file: string; repository: string; path: string; licence: string; url: string }>;

test('every file of the real corpus is listed with its repository, path and licence, and every listing has its file', () => {
  const files = loadRealCorpus().map((entry) => path.basename(entry.file)).sort();
  assert.ok(files.length >= 60, `at least 60 real diagrams (${files.length})`);
  assert.deepEqual(sources.map((source) => source.file).sort(), files);
  for (const source of sources) {
    assert.match(source.repository, /^[\w.-]+\/[\w.-]+$/, source.file);
    assert.ok(source.path && source.licence && source.url.startsWith(`https://github.com/${source.repository}/`), source.file);
  }
});

test('every real diagram imports, and its scene survives the editor\'s restore unchanged', async () => {
  for (const entry of loadRealCorpus()) {
    const { spec } = await importEntry(entry);
    const elements = sceneFromSpec(parseSpec(spec, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph });
    try {
      await assertSurvivesRestore(elements);
    } catch (error) {
      assert.fail(`${entry.name}: ${(error as Error).message}`);
    }
  }
});
