/**
 * Twemoji's ligatures name U+FE0F among their components (🙋‍♂️ is
 * U+1F64B U+200D U+2642 U+FE0F), and Chromium and Skia shape emoji with the
 * variation selector already folded into the character before it: the
 * sequence then matches no ligature and draws as its parts (🙋 ♂️). So the
 * emoji face gets, beside each ligature with a U+FE0F, the same ligature
 * without it (unless the font has that sequence already); shapers that keep
 * the selector still match the original first, as each set lists longer
 * ligatures first.
 *
 * Handles the GSUB tables of fonts built like Twemoji's (version 1.0, lists in
 * the order script, feature, lookup, only ligature lookups); any other is
 * left as it is.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readTables, writeTables } from './sfnt.ts';

const fontkit = createRequire(import.meta.url)('fontkit') as { create(buffer: Buffer): { glyphForCodePoint(codePoint: number): { id: number } } };

const LIGATURE_SUBSTITUTION = 4;
const EMOJI_SELECTOR = 0xfe0f;

interface Ligature {
  /** Every glyph of the sequence, the first included. */
  sequence: number[];
  glyph: number;
}

function coverageGlyphs(table: Buffer, at: number): number[] {
  const format = table.readUInt16BE(at);
  const count = table.readUInt16BE(at + 2);
  if (format === 1) return Array.from({ length: count }, (_, index) => table.readUInt16BE(at + 4 + index * 2));
  const glyphs: number[] = [];
  for (let index = 0; index < count; index++) {
    const record = at + 4 + index * 6;
    for (let glyph = table.readUInt16BE(record); glyph <= table.readUInt16BE(record + 2); glyph++) glyphs.push(glyph);
  }
  return glyphs;
}

/** The ligatures of a LigatureSubst format 1 subtable at `at`, or null for another format. */
function readLigatures(table: Buffer, at: number): Ligature[] | null {
  if (table.readUInt16BE(at) !== 1) return null;
  const firsts = coverageGlyphs(table, at + table.readUInt16BE(at + 2));
  const setCount = table.readUInt16BE(at + 4);
  const ligatures: Ligature[] = [];
  for (let set = 0; set < setCount; set++) {
    const setAt = at + table.readUInt16BE(at + 6 + set * 2);
    for (let index = 0; index < table.readUInt16BE(setAt); index++) {
      const ligatureAt = setAt + table.readUInt16BE(setAt + 2 + index * 2);
      const components = table.readUInt16BE(ligatureAt + 2);
      const rest = Array.from({ length: components - 1 }, (_, component) => table.readUInt16BE(ligatureAt + 4 + component * 2));
      ligatures.push({ sequence: [firsts[set]!, ...rest], glyph: table.readUInt16BE(ligatureAt) });
    }
  }
  return ligatures;
}

/** A LigatureSubst format 1 subtable of these ligatures, each set longest first. */
function writeLigatures(ligatures: readonly Ligature[]): Buffer {
  const byFirst = new Map<number, Ligature[]>();
  for (const ligature of ligatures) byFirst.set(ligature.sequence[0]!, [...(byFirst.get(ligature.sequence[0]!) ?? []), ligature]);
  const firsts = [...byFirst.keys()].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  const header = Buffer.alloc(6 + firsts.length * 2);
  let offset = header.length;
  const coverage = Buffer.alloc(4 + firsts.length * 2);
  coverage.writeUInt16BE(1, 0);
  coverage.writeUInt16BE(firsts.length, 2);
  firsts.forEach((glyph, index) => coverage.writeUInt16BE(glyph, 4 + index * 2));
  header.writeUInt16BE(1, 0);
  header.writeUInt16BE(offset, 2);
  header.writeUInt16BE(firsts.length, 4);
  parts.push(coverage);
  offset += coverage.length;
  firsts.forEach((first, index) => {
    const set = [...byFirst.get(first)!].sort((a, b) => b.sequence.length - a.sequence.length);
    const setTable = Buffer.alloc(2 + set.length * 2);
    setTable.writeUInt16BE(set.length, 0);
    const ligatureTables = set.map(({ sequence, glyph }) => {
      const table = Buffer.alloc(4 + (sequence.length - 1) * 2);
      table.writeUInt16BE(glyph, 0);
      table.writeUInt16BE(sequence.length, 2);
      sequence.slice(1).forEach((component, at) => table.writeUInt16BE(component, 4 + at * 2));
      return table;
    });
    let within = setTable.length;
    ligatureTables.forEach((table, at) => {
      setTable.writeUInt16BE(within, 2 + at * 2);
      within += table.length;
    });
    header.writeUInt16BE(offset, 6 + index * 2);
    parts.push(setTable, ...ligatureTables);
    offset += within;
  });
  if (offset > 0xffff) throw new Error('the ligature subtable outgrows 16-bit offsets');
  return Buffer.concat([header, ...parts]);
}

/** The GSUB table with FE0F-less ligatures added, or null when the table is not one this handles. */
function patchedGsub(gsub: Buffer, selectorGlyph: number): Buffer | null {
  if (gsub.readUInt32BE(0) !== 0x00010000) return null;
  const [scripts, features, lookups] = [gsub.readUInt16BE(4), gsub.readUInt16BE(6), gsub.readUInt16BE(8)];
  if (!(scripts < features && features < lookups)) return null;
  const lookupCount = gsub.readUInt16BE(lookups);
  const rebuilt: Buffer[] = [];
  for (let index = 0; index < lookupCount; index++) {
    const lookupAt = lookups + gsub.readUInt16BE(lookups + 2 + index * 2);
    const [type, flag, subtables] = [gsub.readUInt16BE(lookupAt), gsub.readUInt16BE(lookupAt + 2), gsub.readUInt16BE(lookupAt + 4)];
    if (type !== LIGATURE_SUBSTITUTION || (flag & 0x10) !== 0) return null;
    const ligatures: Ligature[] = [];
    for (let subtable = 0; subtable < subtables; subtable++) {
      const read = readLigatures(gsub, lookupAt + gsub.readUInt16BE(lookupAt + 6 + subtable * 2));
      if (read === null) return null;
      ligatures.push(...read);
    }
    const known = new Set(ligatures.map(({ sequence }) => sequence.join(',')));
    for (const { sequence, glyph } of [...ligatures]) {
      const loose = sequence.filter((component) => component !== selectorGlyph);
      if (loose.length === sequence.length || loose.length < 2 || known.has(loose.join(','))) continue;
      known.add(loose.join(','));
      ligatures.push({ sequence: loose, glyph });
    }
    const subtable = writeLigatures(ligatures);
    const lookup = Buffer.alloc(8);
    lookup.writeUInt16BE(type, 0);
    lookup.writeUInt16BE(flag, 2);
    lookup.writeUInt16BE(1, 4);
    lookup.writeUInt16BE(8, 6);
    rebuilt.push(Buffer.concat([lookup, subtable]));
  }
  const list = Buffer.alloc(2 + lookupCount * 2);
  list.writeUInt16BE(lookupCount, 0);
  let offset = list.length;
  rebuilt.forEach((lookup, index) => {
    if (offset > 0xffff) throw new Error('the lookup list outgrows 16-bit offsets');
    list.writeUInt16BE(offset, 2 + index * 2);
    offset += lookup.length;
  });
  // Header, script list and feature list as they were (their offsets unchanged), then the lookups anew.
  return Buffer.concat([gsub.subarray(0, lookups), list, ...rebuilt]);
}

/**
 * A copy of the emoji face beside `ttfPath` whose ligatures also match without
 * their U+FE0F (made once, atomically); `ttfPath` itself when its GSUB is not
 * one this handles.
 */
export function withLooseSelectorLigatures(ttfPath: string): string {
  const target = ttfPath.replace(/\.ttf$/, '.loose-selectors.ttf');
  if (fs.existsSync(target)) return target;
  const font = fs.readFileSync(ttfPath);
  const selectorGlyph = fontkit.create(font).glyphForCodePoint(EMOJI_SELECTOR).id;
  const tables = readTables(font);
  const gsub = tables.get('GSUB');
  const patched = gsub && selectorGlyph !== 0 ? patchedGsub(gsub, selectorGlyph) : null;
  if (!patched) return ttfPath;
  tables.set('GSUB', patched);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(temporary, writeTables(tables));
  fs.renameSync(temporary, target);
  return target;
}
