/**
 * Emoji sequences for resvg. resvg-js 2.6 drops a whole <text> when a glyph
 * stands for several characters in a face it falls back to or a tspan names
 * (a ZWJ sequence, a skin tone, a flag): the label vanishes. So resvg gets the
 * monochrome emoji face with every glyph also reachable at its own code point
 * (U+F0000 + glyph id, private use), and each emoji sequence is shaped here,
 * with harfbuzz, into those code points: one character per glyph, which
 * resvg draws. The same goes for the scripts whose clusters resvg misplaces
 * (a Devanagari vowel sign drawn over its consonant).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readTables, writeTables } from './sfnt.ts';

const require = createRequire(import.meta.url);
const fontkit = require('fontkit') as { create(buffer: Buffer): { numGlyphs: number; characterSet: number[]; glyphForCodePoint(codePoint: number): { id: number } } };

/** Where glyph ids start in the private use planes. */
const GLYPH_CODE_BASE = 0xf0000;

/** A cmap (format 12, Windows Unicode full repertoire) mapping `mappings` (code point → glyph), sorted. */
function cmapTable(mappings: Array<[number, number]>): Buffer {
  const groups: Array<[number, number, number]> = [];
  for (const [codePoint, glyph] of mappings) {
    const last = groups.at(-1);
    if (last && codePoint === last[1] + 1 && glyph === last[2] + (codePoint - last[0])) last[1] = codePoint;
    else groups.push([codePoint, codePoint, glyph]);
  }
  const table = Buffer.alloc(12 + 16 + groups.length * 12);
  table.writeUInt16BE(0, 0);
  table.writeUInt16BE(1, 2);
  table.writeUInt16BE(3, 4);
  table.writeUInt16BE(10, 6);
  table.writeUInt32BE(12, 8);
  table.writeUInt16BE(12, 12);
  table.writeUInt16BE(0, 14);
  table.writeUInt32BE(16 + groups.length * 12, 16);
  table.writeUInt32BE(0, 20);
  table.writeUInt32BE(groups.length, 24);
  groups.forEach(([start, end, glyph], at) => {
    table.writeUInt32BE(start, 28 + at * 12);
    table.writeUInt32BE(end, 28 + at * 12 + 4);
    table.writeUInt32BE(glyph, 28 + at * 12 + 8);
  });
  return table;
}

/** A copy of `ttfPath` beside it whose every glyph is also at GLYPH_CODE_BASE + its id (made once, atomically). */
export function glyphAddressedCopy(ttfPath: string): string {
  const target = ttfPath.replace(/\.ttf$/, '.glyph-addressed.ttf');
  if (fs.existsSync(target)) return target;
  const source = fs.readFileSync(ttfPath);
  const font = fontkit.create(source);
  const mappings: Array<[number, number]> = font.characterSet.map((codePoint) => [codePoint, font.glyphForCodePoint(codePoint).id]);
  for (let glyph = 0; glyph < font.numGlyphs; glyph++) mappings.push([GLYPH_CODE_BASE + glyph, glyph]);
  mappings.sort(([a], [b]) => a - b);
  const tables = readTables(source);
  tables.set('cmap', cmapTable(mappings));
  const temporary = `${target}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(temporary, writeTables(tables));
  fs.renameSync(temporary, target);
  return target;
}

interface Shaper {
  /** The glyphs drawing `text`, in visual order, without those that draw nothing (a lone U+FE0F's empty glyph). */
  shape(text: string): number[];
}

const shapers = new Map<string, Promise<Shaper>>();

function shaperFor(ttfPath: string): Promise<Shaper> {
  let shaper = shapers.get(ttfPath);
  if (!shaper) {
    shaper = (async () => {
      const hb = await import('harfbuzzjs');
      const font = new hb.Font(new hb.Face(new hb.Blob(fs.readFileSync(ttfPath))));
      return {
        shape(text: string) {
          const buffer = new hb.Buffer();
          buffer.addText(text);
          buffer.guessSegmentProperties();
          hb.shape(font, buffer);
          return buffer
            .getGlyphInfosAndPositions()
            .filter((info) => (info.xAdvance ?? 0) !== 0 || (font.glyphExtents(info.codepoint)?.width ?? 0) !== 0)
            .map((info) => info.codepoint);
        },
      };
    })();
    shapers.set(ttfPath, shaper);
  }
  return shaper;
}

/** Text (an emoji sequence, a word) as the glyph-addressed code points of the glyphs the face draws it with, in visual order. */
export async function glyphCodes(text: string, ttfPath: string): Promise<string> {
  return String.fromCodePoint(...(await shaperFor(ttfPath)).shape(text).map((glyph) => GLYPH_CODE_BASE + glyph));
}
