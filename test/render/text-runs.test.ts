/**
 * The faithful SVG embeds fonts for its text looked up once per character and
 * font stack (src/render/text-runs.ts): the rule is that this embeds exactly
 * what looking up every `<text>` in full embeds, in the same order.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { embeddedFontFaces } from '../../src/render/embed-fonts.ts';
import { editorFontFiles } from '../../src/render/font-files.ts';
import { inLightDocument } from '../../src/render/light-dom.ts';
import { textRunsOf } from '../../src/render/text-runs.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';

test('fonts embedded from the runs of new characters are those of every text in full, in the same order', async () => {
  const editor = await loadExcalidraw();
  const fonts = editorFontFiles(fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-text-runs-')));
  for (const scene of ['fonts', 'flowchart'] as const) {
    const elements = editor.restoreElements(GOLDEN_SCENES[scene]!(), null, { repairBindings: true });
    const root = await inLightDocument(() => editor.exportToSvg({ elements, appState: { exportBackground: true, viewBackgroundColor: '#ffffff' }, files: null, exportPadding: 10, skipInliningFonts: true }));
    const everyText = [...root.querySelectorAll('text')].map((text) => ({ fontFamily: text.getAttribute('font-family') ?? '', text: text.textContent ?? '' }));
    const runs = textRunsOf(root);
    assert.ok(runs.reduce((sum, run) => sum + run.text.length, 0) < everyText.reduce((sum, run) => sum + run.text.length, 0), `${scene}: characters repeat across its labels`);
    assert.equal(await embeddedFontFaces(runs, fonts), await embeddedFontFaces(everyText, fonts), scene);
  }
});
