/**
 * The @font-face rules that make a rendered SVG show the same glyphs in any
 * browser: for each face the text uses (src/render/fonts/ decides which), a
 * subset holding just the characters drawn in it (harfbuzz, through
 * subset-font; the colour emoji face through colour-subset.ts), inlined as a
 * data: URL. Faces are told apart by `unicode-range`, as the editor does, and
 * each is declared under a family the text's stack names (see ChosenFace.embedAs).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { EditorFontFiles } from './font-files.ts';
import { chooseFonts, type TextRun } from './fonts/index.ts';
import { subsetColourFont } from './fonts/colour-subset.ts';
import { svgTextRuns } from './fonts/svg-text.ts';

export type { TextRun } from './fonts/index.ts';

// subset-font ships no type declarations.
const subsetFont = createRequire(import.meta.url)('subset-font') as (font: Buffer, text: string, options: { targetFormat: 'truetype'; noHinting?: boolean }) => Promise<Buffer>;

function unicodeRange(codePoints: number[]): string {
  return codePoints.map((cp) => `U+${cp.toString(16).toUpperCase()}`).join(',');
}

export interface EmbedOptions {
  /**
   * Embed nothing unless some character needs a face beyond the family its stack names first (scripts, CJK,
   * emoji): for SVGs whose stacks name fonts every system has (the fast renderer's). When one does, every
   * face is embedded, the first families too: Chromium draws a ZWJ sequence as missing glyphs when a
   * system font comes before the embedded ones in the stack.
   */
  onlyWithFallbacks?: boolean;
}

/** CSS @font-face rules embedding subsets of the faces drawing these runs of text ('' when none apply). */
export async function embeddedFontFaces(runs: readonly TextRun[], files: EditorFontFiles, options: EmbedOptions = {}): Promise<string> {
  const { faces } = await chooseFonts(runs, files.fontsDirectory, 'colour');
  if (options.onlyWithFallbacks && !faces.some(({ embedAs }) => [...embedAs.values()].some(({ fallback }) => fallback))) return '';
  const rules: string[] = [];
  for (const { candidate, face, embedAs } of faces) {
    const embeddings = [...embedAs];
    if (embeddings.length === 0) continue;
    const codePoints = [...new Set(embeddings.flatMap(([, { characters }]) => [...characters]))].sort((a, b) => a - b);
    // Without hinting instructions: a third of the size, and browsers scale SVG text without them.
    const subset =
      candidate.role === 'colour-emoji'
        ? await subsetColourFont(face.path, codePoints)
        : await subsetFont(fs.readFileSync(face.path), String.fromCodePoint(...codePoints), { targetFormat: 'truetype', noHinting: true });
    const url = `url(data:font/ttf;base64,${subset.toString('base64')}) format("truetype")`;
    for (const [family, { characters }] of embeddings) {
      rules.push(`@font-face { font-family: ${JSON.stringify(family)}; src: ${url}; unicode-range: ${unicodeRange([...characters].sort((a, b) => a - b))}; }`);
    }
  }
  return rules.join('\n');
}

/**
 * The fast renderer's SVG with subsets of the faces its text needs embedded when it needs more than the
 * system fonts its stacks name (scripts, CJK, emoji), so a browser shows no missing glyph whatever fonts
 * its system has. An SVG whose text the stacks' own fonts draw (Latin) comes back unchanged.
 */
export async function withEmbeddedFallbackFonts(svg: string, files: EditorFontFiles): Promise<string> {
  const css = await embeddedFontFaces(svgTextRuns(svg), files, { onlyWithFallbacks: true });
  if (css === '') return svg;
  const root = /<svg\b[^>]*>/.exec(svg);
  if (!root) return svg;
  const at = root.index + root[0].length;
  return `${svg.slice(0, at)}\n<defs><style>${css}</style></defs>${svg.slice(at)}`;
}
