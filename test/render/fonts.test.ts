/**
 * Every character of every script and emoji sequence has a face, in both
 * renderers: for the texts of the script and emoji golden scenes, the faces
 * src/render/fonts/ picks are shaped with harfbuzz, and no glyph may be
 * .notdef (glyph 0); the SVGs' embedded subsets are checked the same way, as
 * a browser would reach them through each text's font stack.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import * as hb from 'harfbuzzjs';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { embeddedFontFaces, withEmbeddedFallbackFonts } from '../../src/render/embed-fonts.ts';
import { renderFaithful } from '../../src/render/faithful.ts';
import { renderFastSvg } from '../../src/render/fast-svg.ts';
import { editorFontFiles } from '../../src/render/font-files.ts';
import { subsetColourFont } from '../../src/render/fonts/colour-subset.ts';
import { graphemes, isEmojiGrapheme, isInvisible } from '../../src/render/fonts/emoji.ts';
import { chooseFonts, type EmojiStyle, fontFilesFor, stackNames, type TextRun } from '../../src/render/fonts/index.ts';
import { stackWithFallbacks } from '../../src/render/fonts/stacks.ts';
import { svgTextRuns } from '../../src/render/fonts/svg-text.ts';
import { EMOJI_SAMPLES, GOLDEN_SCENES, SCRIPT_SAMPLES } from '../fixtures/render/scenes.ts';

const fontsDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-fonts-'));
const SCENES = ['scripts', 'emoji'] as const;

const fonts = new Map<string, hb.Font>();
function harfbuzzFont(bytes: Buffer, key: string): hb.Font {
  let font = fonts.get(key);
  if (!font) fonts.set(key, (font = new hb.Font(new hb.Face(new hb.Blob(bytes)))));
  return font;
}

/** The glyph ids harfbuzz shapes `text` into with `font`. */
function shape(font: hb.Font, text: string): number[] {
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer);
  return buffer.getGlyphInfos().map((info) => info.codepoint);
}

/** Each golden scene's SVGs by `scene.quality`, rendered once, by the first test that asks. */
let rendered: Promise<Map<string, string>> | undefined;
function goldenSvgs(): Promise<Map<string, string>> {
  rendered ??= (async () => {
    const svgs = new Map<string, string>();
    const editor = await loadExcalidraw();
    for (const scene of SCENES) {
      const elements = GOLDEN_SCENES[scene]!();
      const faithful = await renderFaithful(editor, { elementsJson: JSON.stringify(elements), svg: true, png: false, fontsDirectory });
      svgs.set(`${scene}.faithful`, faithful.svg!);
      svgs.set(`${scene}.fast`, await withEmbeddedFallbackFonts(renderFastSvg(elements as Record<string, unknown>[]), editorFontFiles(fontsDirectory)));
    }
    return svgs;
  })();
  return rendered;
}

describe('the faces chosen for each character', () => {
  for (const scene of SCENES) {
    for (const quality of ['faithful', 'fast']) {
      for (const emoji of ['colour', 'monochrome'] as EmojiStyle[]) {
        test(`every character of the ${scene} scene (${quality} SVG) has a ${emoji}-emoji face that draws it without .notdef`, async () => {
          const runs = svgTextRuns((await goldenSvgs()).get(`${scene}.${quality}`)!);
          assert.ok(runs.length > 0);
          const choice = await chooseFonts(runs, fontsDirectory, emoji);
          assert.deepEqual([...choice.missing].map((cp) => `U+${cp.toString(16)}`), [], 'characters no face draws');
          runs.forEach((run, at) => {
            const segments = choice.segments[at]!;
            assert.equal(segments.map(({ text }) => text).join(''), run.text, 'the segments hold the whole text');
            for (const { text, face } of segments) {
              if (face === null) {
                assert.match(text, /^\s*$/u, `${JSON.stringify(text)} in ${JSON.stringify(run.text)} is left to no face`);
                continue;
              }
              const glyphs = shape(harfbuzzFont(fs.readFileSync(face.face.path), face.face.path), text);
              assert.ok(!glyphs.includes(0), `${JSON.stringify(text)} of ${JSON.stringify(run.text)} shapes to .notdef in ${face.candidate.family} (${path.basename(face.face.path)})`);
            }
          });
        });
      }
    }
  }

  test('every emoji sequence of the samples is drawn as one glyph by the colour and the monochrome emoji face', async () => {
    for (const emoji of ['colour', 'monochrome'] as EmojiStyle[]) {
      const runs = EMOJI_SAMPLES.map((text) => ({ fontFamily: 'Excalifont, Xiaolai, Segoe UI Emoji', text }));
      const choice = await chooseFonts(runs, fontsDirectory, emoji);
      for (const segments of choice.segments) {
        for (const { text, face } of segments) {
          if (face?.candidate.role !== `${emoji}-emoji`) continue;
          const font = harfbuzzFont(fs.readFileSync(face.face.path), face.face.path);
          for (const grapheme of graphemes(text).filter(isEmojiGrapheme)) {
            const drawn = shape(font, grapheme).filter((glyph) => (font.glyphExtents(glyph)?.width ?? 0) > 0);
            // Glyphs that draw nothing (resvg's monochrome face leaves a zero-width U+FE0F glyph) do not count.
            assert.equal(drawn.length, 1, `${grapheme} (${emoji}): ${drawn.length} glyphs`);
          }
        }
      }
    }
  });

  test('each script is drawn by the face made for it, after the editor family and Xiaolai', async () => {
    const expected: Record<string, string> = { Chinese: 'Xiaolai', Japanese: 'Xiaolai', Korean: 'Xiaolai', Arabic: 'Noto Sans Arabic', Hebrew: 'Noto Sans Hebrew', Devanagari: 'Noto Sans Devanagari', Thai: 'Noto Sans Thai' };
    for (const [script, sample] of SCRIPT_SAMPLES) {
      const files = await fontFilesFor([{ fontFamily: 'Virgil, Segoe UI Emoji', text: sample.replace(/[—]/g, '') }], fontsDirectory);
      // Virgil draws the spaces, as a browser draws them.
      assert.deepEqual([...new Set(files.map((file) => file.family))], ['Virgil', expected[script]], `${script}: ${files.map((file) => file.family).join(', ')}`);
    }
  });

  test('fontFilesFor gives the files in fallback order with the family to register each under', async () => {
    const files = await fontFilesFor([{ fontFamily: 'Excalifont, Xiaolai, Segoe UI Emoji', text: 'API 数据库 🗄️ مرحبا' }], fontsDirectory);
    assert.deepEqual([...new Set(files.map((file) => file.family))], ['Excalifont', 'Xiaolai', 'Noto Sans Arabic', 'Segoe UI Emoji']);
    for (const file of files) assert.ok(fs.statSync(file.path).size > 0, file.path);
    const monochrome = await fontFilesFor([{ fontFamily: 'Helvetica, Segoe UI Emoji', text: '🗄️' }], fontsDirectory, { emoji: 'monochrome' });
    assert.deepEqual(monochrome.map((file) => [file.family, file.internalFamily]), [['Segoe UI Emoji', 'Noto Emoji']]);
  });
});

/** The @font-face rules of an SVG: family, subset bytes, unicode-range. */
function embeddedFaces(svg: string): Array<{ family: string; font: Buffer; range: Set<number> }> {
  return [...svg.matchAll(/@font-face \{ font-family: "([^"]*)"; src: url\(data:font\/ttf;base64,([^)]*)\) format\("truetype"\); unicode-range: ([^;]*); \}/g)].map(([, family, base64, range]) => ({
    family: family!,
    font: Buffer.from(base64!, 'base64'),
    range: new Set(range!.split(',').map((part) => Number.parseInt(part.trim().slice(2), 16))),
  }));
}

describe('the fonts embedded in SVGs', () => {
  for (const scene of SCENES) {
    for (const quality of ['faithful', 'fast']) {
      test(`the ${quality} SVG of the ${scene} scene embeds, under a family its stack names, a face for every character, without .notdef`, async () => {
        const svg = (await goldenSvgs()).get(`${scene}.${quality}`)!;
        const faces = embeddedFaces(svg);
        assert.ok(faces.length > 0, 'no @font-face');
        for (const run of svgTextRuns(svg)) {
          const names = stackNames(run.fontFamily);
          for (const grapheme of graphemes(run.text)) {
            const visible = [...grapheme].map((char) => char.codePointAt(0)!).filter((cp) => !isInvisible(cp));
            if (visible.length === 0) continue;
            // As a browser picks: the first family of the stack with a face whose unicode-range holds the character.
            const face = names.flatMap((name) => faces.filter((candidate) => candidate.family === name)).find((candidate) => candidate.range.has(visible[0]!));
            assert.ok(face, `${JSON.stringify(grapheme)} of ${JSON.stringify(run.text)}: no embedded face in ${run.fontFamily}`);
            const font = harfbuzzFont(face.font, `${face.family}:${face.font.length}:${[...face.range].join()}`);
            assert.ok(!shape(font, grapheme).includes(0), `${JSON.stringify(grapheme)} shapes to .notdef in the embedded ${face.family}`);
          }
        }
      });
    }
  }

  test('the colour emoji subset keeps each emoji in colour: layers and a palette for the glyph the sequence shapes to', async () => {
    const emoji = (await fontFilesFor([{ fontFamily: 'Segoe UI Emoji', text: '👩‍💻' }], fontsDirectory))[0]!;
    const subset = await subsetColourFont(emoji.path, [...'👩‍💻🇯🇵🗄️'].map((char) => char.codePointAt(0)!));
    const face = new hb.Face(new hb.Blob(subset));
    const font = new hb.Font(face);
    assert.ok(face.hasColorLayers() && face.hasColorPalettes());
    for (const sequence of ['👩‍💻', '🇯🇵', '🗄️']) {
      const glyphs = shape(font, sequence).filter((glyph) => (font.glyphExtents(glyph)?.width ?? 0) > 0 || face.getGlyphColorLayers(glyph).length > 0);
      assert.equal(glyphs.length, 1, sequence);
      const layers = face.getGlyphColorLayers(glyphs[0]!);
      assert.ok(layers.length > 1, `${sequence}: ${layers.length} colour layers`);
      const colours = face.getColorPalettes()[0]!.colors;
      for (const layer of layers) assert.ok(layer.colorIndex === 0xffff || (layer.colorIndex ?? 0) < colours.length);
    }
  });

  test('the colour emoji face also matches its ligatures without U+FE0F, as Chromium and Skia present them', async () => {
    const emoji = (await fontFilesFor([{ fontFamily: 'Segoe UI Emoji', text: '🙋‍♂️' }], fontsDirectory))[0]!;
    const font = harfbuzzFont(fs.readFileSync(emoji.path), emoji.path);
    for (const sequence of ['🙋‍♂️', '👩‍⚕️', '🏳️‍🌈', '#️⃣', '❤️‍🔥']) {
      const withSelector = shape(font, sequence);
      assert.equal(withSelector.length, 1, `${sequence}: ${withSelector.length} glyphs`);
      assert.deepEqual(shape(font, sequence.replace(/\uFE0F/g, '')), withSelector, `${sequence} without U+FE0F`);
    }
  });

  test('a Latin-only fast SVG embeds nothing and keeps its stacks', async () => {
    const svg = renderFastSvg(GOLDEN_SCENES.fonts!() as Record<string, unknown>[]);
    const latinOnly = svg.replace(/<g[^>]*><text[^>]*>[^<]*[^\u0000-\u024f][^<]*<\/text><\/g>/g, '');
    assert.equal(await withEmbeddedFallbackFonts(latinOnly, editorFontFiles(fontsDirectory)), latinOnly);
    assert.equal(stackWithFallbacks('Liberation Sans, Helvetica, Arial, sans-serif', 'café — Ωμέγα'), 'Liberation Sans, Helvetica, Arial, sans-serif');
    assert.equal(await embeddedFontFaces([{ fontFamily: 'Liberation Sans, Helvetica, Arial, sans-serif', text: 'plain' }], editorFontFiles(fontsDirectory), { onlyWithFallbacks: true }), '');
  });
});

describe('emoji graphemes', () => {
  test('emoji presentation, variation selectors, keycaps, skin tones, ZWJ sequences and flags are emoji; text symbols are not', () => {
    for (const emoji of ['😀', '🗄️', '❤️', '#️⃣', '👍🏽', '👩‍💻', '🇯🇵', '🏳️‍🌈', '🏴󠁧󠁢󠁳󠁣󠁴󠁿']) assert.equal(isEmojiGrapheme(emoji), true, emoji);
    for (const text of ['#', '©', '❤', '✍', 'a', '数', '❤︎']) assert.equal(isEmojiGrapheme(text), false, text);
  });

  test('runs of text keep every character in their segments, in order', async () => {
    const runs: TextRun[] = [{ fontFamily: 'Nunito, Segoe UI Emoji', text: ' 用户 👩‍💻  数据库 🗄️ ok ' }];
    const { segments } = await chooseFonts(runs, fontsDirectory);
    assert.equal(segments[0]!.map(({ text }) => text).join(''), runs[0]!.text);
  });
});
