/**
 * The @font-face rules that make a rendered SVG show the editor's fonts
 * anywhere: for each face its text uses, a subset holding just the characters
 * drawn in it (harfbuzz, through subset-font), inlined as a data: URL. The
 * faces of one family are told apart by `unicode-range`, as the editor does.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CJK_FALLBACK_FAMILY, type EditorFontFace, editorFontFaces } from './editor-fonts.ts';
import type { EditorFontFiles } from './font-files.ts';

// subset-font ships no type declarations.
const subsetFont = createRequire(import.meta.url)('subset-font') as (font: Buffer, text: string, options: { targetFormat: 'truetype' }) => Promise<Buffer>;

export interface TextRun {
  /** The element's CSS font stack, as in its font-family attribute. */
  fontFamily: string;
  text: string;
}

/** The face of `family` the browser would pick for a code point (the last declared wins where ranges overlap). */
async function faceFor(family: string, codePoint: number, files: EditorFontFiles): Promise<EditorFontFace | undefined> {
  const faces = editorFontFaces();
  for (let at = faces.length - 1; at >= 0; at--) {
    const face = faces[at]!;
    if (face.family === family && (await files.draws(face, codePoint))) return face;
  }
  return undefined;
}

function unicodeRange(codePoints: number[]): string {
  return codePoints.map((cp) => `U+${cp.toString(16).toUpperCase()}`).join(',');
}

/** The characters each face draws: the first family of a run's stack that has the character, else the CJK fallback. */
async function charactersByFace(runs: readonly TextRun[], files: EditorFontFiles): Promise<Map<EditorFontFace, Set<number>>> {
  const byFace = new Map<EditorFontFace, Set<number>>();
  for (const run of runs) {
    const stack = [...run.fontFamily.split(',').map((name) => name.trim().replace(/^["']|["']$/g, '')), CJK_FALLBACK_FAMILY];
    for (const char of new Set(run.text)) {
      const codePoint = char.codePointAt(0)!;
      if (codePoint <= 0x20) continue;
      let face: EditorFontFace | undefined;
      for (const family of stack) if ((face = await faceFor(family, codePoint, files))) break;
      if (!face) continue;
      let characters = byFace.get(face);
      if (!characters) byFace.set(face, (characters = new Set()));
      characters.add(codePoint);
    }
  }
  return byFace;
}

/** CSS @font-face rules embedding subsets of the editor's fonts for these runs of text ('' when none apply). */
export async function embeddedFontFaces(runs: readonly TextRun[], files: EditorFontFiles): Promise<string> {
  const rules: string[] = [];
  for (const [face, characters] of await charactersByFace(runs, files)) {
    const codePoints = [...characters].sort((a, b) => a - b);
    const ttf = await files.face(face);
    const subset = await subsetFont(fs.readFileSync(ttf.path), String.fromCodePoint(...codePoints), { targetFormat: 'truetype' });
    rules.push(
      `@font-face { font-family: ${JSON.stringify(face.family)}; src: url(data:font/ttf;base64,${subset.toString('base64')}) format("truetype"); unicode-range: ${unicodeRange(codePoints)}; }`,
    );
  }
  return rules.join('\n');
}
