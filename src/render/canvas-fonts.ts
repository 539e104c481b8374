/**
 * Fonts for the canvas exporter on Skia (faithful-canvas.ts) and the fast PDF:
 * the files src/render/fonts/ chooses (colour emoji: Skia draws COLR fonts),
 * registered under names of their own.
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
import { editorFamilyOf } from './fonts/index.ts';

/** A font family's name without quotes. */
function unquoted(name: string): string {
  return name.trim().replace(/^["']|["']$/g, '');
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
  // The exporter sets the same few font strings over and over (once per text drawn): each is rewritten once.
  const rewritten = new Map<string, string>();
  const rewrite = (font: string): string => {
    const match = /^(.*?\d(?:px|pt|em|rem|%))\s+(.+)$/.exec(font.trim());
    if (!match) return font;
    // A stack's alias (Helvetica, Consolas…) names the files of the family that stands in for it.
    const names = match[2]!.split(',').flatMap((family) => namesOfFamily.get(unquoted(family)) ?? namesOfFamily.get(editorFamilyOf(unquoted(family)) ?? '') ?? []);
    // Then every other file of this render, in the order given: a character the stack lacks is drawn by one of them.
    const stack = [...new Set([...names, ...everyName])];
    return stack.length === 0 ? font : `${match[1]} ${stack.map((name) => JSON.stringify(name)).join(', ')}`;
  };
  return (font) => {
    let done = rewritten.get(font);
    if (done === undefined) rewritten.set(font, (done = rewrite(font)));
    return done;
  };
}
