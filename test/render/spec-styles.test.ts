/**
 * What the spec's styles draw in both renderers: a bold or italic label's
 * `<text>` lines carry font-weight / font-style (the editor's text has no such
 * fields; the label's customData records them), an invisible edge and an
 * invisible container draw nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { type ExcalidrawModule, loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { renderFaithful } from '../../src/render/faithful.ts';
import { renderFastSvg } from '../../src/render/fast-svg.ts';

const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-spec-styles-'));
const build = (raw: unknown) => sceneFromSpec(parseSpec(raw, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph }) as Record<string, unknown>[];

let editor: Promise<ExcalidrawModule> | undefined;

const svgs = async (elements: Record<string, unknown>[]) => ({
  fast: renderFastSvg(elements),
  faithful: (await renderFaithful(await (editor ??= loadExcalidraw()), { elementsJson: JSON.stringify(elements), svg: true, png: false, fontsDirectory })).svg!,
});

/** The attributes of the `<text>` whose content is `line`. */
const textTag = (svg: string, line: string) => new RegExp(`<text([^>]*)>${line}</text>`).exec(svg)?.[1] ?? null;

describe('the spec styles in both renderers', () => {
  test('a bold label renders bold, an italic one italic, a plain one neither', async () => {
    const elements = build({ nodes: [{ id: 'a', label: 'Heavy', bold: true }, { id: 'b', label: 'Slanted', italic: true }, { id: 'c', label: 'Plain' }], edges: ['a -> b', 'b -> c'] });
    for (const [quality, svg] of Object.entries(await svgs(elements))) {
      assert.match(textTag(svg, 'Heavy') ?? '', /font-weight="bold"/, quality);
      assert.doesNotMatch(textTag(svg, 'Heavy') ?? '', /font-style/, quality);
      assert.match(textTag(svg, 'Slanted') ?? '', /font-style="italic"/, quality);
      assert.doesNotMatch(textTag(svg, 'Plain') ?? 'missing', /font-weight|font-style/, quality);
    }
  });

  test('an invisible edge draws nothing: the SVG is the one without that edge', async () => {
    const nodes = [{ id: 'a' }, { id: 'b' }];
    const hidden = build({ nodes, edges: [{ from: 'a', to: 'b', style: 'invisible', label: 'never drawn' }] });
    const none = build({ nodes: [{ id: 'a' }, { id: 'b' }], edges: [] });
    assert.deepEqual(hidden.map((e) => e.id), ['a', 'a-label', 'b', 'b-label']);
    const [withEdge, without] = [await svgs(hidden), await svgs(none)];
    for (const quality of ['fast', 'faithful'] as const) {
      assert.doesNotMatch(withEdge[quality], /never drawn/, quality);
      assert.equal((withEdge[quality].match(/<path/g) ?? []).length, (without[quality].match(/<path/g) ?? []).length, quality);
    }
  });

  test('an invisible container draws nothing: no outline, no label', async () => {
    const spec = (invisible: boolean) => build({ nodes: [{ id: 'g', label: 'Grouping', invisible }, { id: 'a', parent: 'g' }], edges: [] });
    const [hidden, shown] = [await svgs(spec(true)), await svgs(spec(false))];
    for (const quality of ['fast', 'faithful'] as const) {
      assert.doesNotMatch(hidden[quality], /Grouping/, quality);
      assert.match(shown[quality], /Grouping/, quality);
      // The outline is a path (rough, or rounded) or a rect (a fast square corner): the hidden one draws fewer shapes.
      const shapes = (svg: string) => (svg.match(/<(path|rect)\b/g) ?? []).length;
      assert.ok(shapes(hidden[quality]) < shapes(shown[quality]), quality);
    }
  });
});
