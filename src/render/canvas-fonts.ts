/**
 * Fonts for the canvas exporter on Skia (faithful-canvas.ts).
 *
 * The editor sets `ctx.font` to strings such as "20px Excalifont, Xiaolai,
 * Segoe UI Emoji", where a browser resolves each family through @font-face
 * rules split by unicode-range (Xiaolai alone is some 200 files). Skia has no
 * unicode-range: it matches one typeface per family name. So each font file a
 * render needs is registered with Skia under a name of its own, and the
 * context's `font` is rewritten to list, for each family of the editor's
 * string, the files registered for it, then the render's other files as
 * fallbacks. Families with no file are dropped rather than left for Skia to
 * find among installed fonts.
 */
import path from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { CJK_FALLBACK_FAMILY, editorFontFaces, faceServes } from './editor-fonts.ts';
import type { TextRun } from './embed-fonts.ts';
import { editorFontFiles } from './font-files.ts';

/** Names in the editor's font strings and the fast SVG's stacks that are not the editor's families, and the family that draws them (as raster.ts). */
const FAMILY_ALIASES: Readonly<Record<string, string>> = {
  Helvetica: 'Liberation Sans',
  Arial: 'Liberation Sans',
  'sans-serif': 'Liberation Sans',
  'Cascadia Code': 'Cascadia',
  Consolas: 'Cascadia',
  'ui-monospace': 'Cascadia',
  monospace: 'Cascadia',
};
/** After the stack's own families: the editor's CJK fallback, then the family that draws what no other does (as for resvg). */
const FALLBACK_FAMILIES = [CJK_FALLBACK_FAMILY, 'Liberation Sans'];

/** A font family's name without quotes. */
function unquoted(name: string): string {
  return name.trim().replace(/^["']|["']$/g, '');
}

/**
 * The font files that draw these runs, in fallback order, each with the CSS
 * family (as the runs' stacks name it) to register it under.
 *
 * Interim: this covers the editor's own faces only (no emoji). The fonts
 * module's `fontFilesFor` (same signature) replaces it when it lands.
 */
export async function fontFilesFor(runs: readonly TextRun[], fontsDirectory: string): Promise<Array<{ path: string; family: string }>> {
  const files = editorFontFiles(fontsDirectory);
  // One pass per font stack, over the characters of all its runs: scenes have thousands of labels and a few stacks.
  const charactersOfStack = new Map<string, Set<number>>();
  for (const run of runs) {
    let characters = charactersOfStack.get(run.fontFamily);
    if (!characters) charactersOfStack.set(run.fontFamily, (characters = new Set()));
    for (const char of run.text) {
      const codePoint = char.codePointAt(0)!;
      if (codePoint > 0x20) characters.add(codePoint);
    }
  }
  const chosen: Array<{ path: string; family: string }> = [];
  const seen = new Set<string>();
  for (const [fontFamily, characters] of charactersOfStack) {
    const codePoints = [...characters];
    const stack = [...new Set([...fontFamily.split(',').map(unquoted), ...FALLBACK_FAMILIES])];
    for (const family of stack) {
      const faces = editorFontFaces().filter((face) => face.family === (FAMILY_ALIASES[family] ?? family));
      const ofFamily: Array<{ path: string; drawn: number }> = [];
      for (const face of faces) {
        const served = codePoints.filter((cp) => faceServes(face, cp));
        if (served.length === 0) continue;
        const ttf = await files.face(face);
        const drawn = served.filter((cp) => ttf.characters.has(cp)).length;
        if (drawn > 0) ofFamily.push({ path: ttf.path, drawn });
      }
      // Within a family, the face drawing most of the text first (the editor splits some families into faces).
      for (const { path: file } of ofFamily.sort((a, b) => b.drawn - a.drawn)) {
        const key = `${family}\n${file}`;
        if (seen.has(key)) continue;
        seen.add(key);
        chosen.push({ path: file, family });
      }
    }
  }
  return chosen;
}

/** Each registered (file, family): the name Skia knows it by. Registrations last for the process. */
const registeredNames = new Map<string, string>();

/**
 * Registers these files with Skia (once each) and answers the rewrite of a
 * CSS font string to the names they were registered under.
 */
export function registerFonts(files: ReadonlyArray<{ path: string; family: string }>): (font: string) => string {
  const namesOfFamily = new Map<string, string[]>();
  for (const file of files) {
    const key = `${file.family}\n${file.path}`;
    let name = registeredNames.get(key);
    if (name === undefined) {
      name = `drawbridge ${registeredNames.size} ${path.basename(file.path, path.extname(file.path))}`;
      if (GlobalFonts.registerFromPath(file.path, name) === null) throw new Error(`Skia could not load the font ${file.path}`);
      registeredNames.set(key, name);
    }
    const names = namesOfFamily.get(file.family) ?? [];
    namesOfFamily.set(file.family, [...names, name]);
  }
  const everyName = [...namesOfFamily.values()].flat();
  return (font) => {
    const match = /^(.*?\d(?:px|pt|em|rem|%))\s+(.+)$/.exec(font.trim());
    if (!match) return font;
    const names = match[2]!.split(',').flatMap((family) => namesOfFamily.get(unquoted(family)) ?? []);
    // Then every other file of this render, in the order given: a character the stack lacks is drawn by one of them.
    const stack = [...new Set([...names, ...everyName])];
    return stack.length === 0 ? font : `${match[1]} ${stack.map((name) => JSON.stringify(name)).join(', ')}`;
  };
}
