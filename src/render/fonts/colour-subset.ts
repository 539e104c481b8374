/**
 * Subsets of a COLRv0 colour font (the emoji face). harfbuzz as packaged for
 * JavaScript (harfbuzzjs, what subset-font runs) is built without colour-font
 * support and drops the COLR and CPAL tables, so this subsets the outlines
 * with harfbuzz, keeping glyph names, and writes COLR and CPAL anew for the
 * glyphs kept: each colour glyph's layers and just the palette colours they use.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { readTables, type Tables, writeTables } from './sfnt.ts';

const require = createRequire(import.meta.url);

interface HarfbuzzSubset {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_clear(set: number): void;
  hb_set_invert(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_glyph_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_WRITABLE = 2;
const HB_SUBSET_SETS_LAYOUT_FEATURE_TAG = 6;
const HB_SUBSET_FLAGS_GLYPH_NAMES = 0x80;

let harfbuzz: Promise<HarfbuzzSubset> | undefined;

function loadHarfbuzz(): Promise<HarfbuzzSubset> {
  harfbuzz ??= (async () => {
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm')));
    const exports = instance.exports as unknown as HarfbuzzSubset & { _initialize(): void };
    exports._initialize();
    return exports;
  })();
  return harfbuzz;
}

/** A font loaded into harfbuzz's memory once (a face is read-only: subsets of it may be taken again and again). */
interface LoadedFace {
  hb: HarfbuzzSubset;
  face: number;
}

async function loadFace(font: Buffer): Promise<LoadedFace> {
  const hb = await loadHarfbuzz();
  const fontPointer = hb.malloc(font.length);
  new Uint8Array(hb.memory.buffer).set(font, fontPointer);
  const blob = hb.hb_blob_create(fontPointer, font.length, HB_MEMORY_MODE_WRITABLE, 0, 0);
  const face = hb.hb_face_create(blob, 0);
  hb.hb_blob_destroy(blob);
  return { hb, face };
}

/** harfbuzz's subset of a loaded face for these code points and glyph ids, every layout feature and the glyph names kept. */
function harfbuzzSubset({ hb, face }: LoadedFace, codePoints: Iterable<number>, glyphs: Iterable<number>): Buffer {
  const input = hb.hb_subset_input_create_or_fail();
  if (input === 0) throw new Error('harfbuzz could not create a subset input');
  try {
    const features = hb.hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
    hb.hb_set_clear(features);
    hb.hb_set_invert(features);
    hb.hb_subset_input_set_flags(input, hb.hb_subset_input_get_flags(input) | HB_SUBSET_FLAGS_GLYPH_NAMES);
    const unicodes = hb.hb_subset_input_unicode_set(input);
    for (const codePoint of codePoints) hb.hb_set_add(unicodes, codePoint);
    const glyphSet = hb.hb_subset_input_glyph_set(input);
    for (const glyph of glyphs) hb.hb_set_add(glyphSet, glyph);
    const subset = hb.hb_subset_or_fail(face, input);
    if (subset === 0) throw new Error('harfbuzz could not subset the font');
    const result = hb.hb_face_reference_blob(subset);
    const data = hb.hb_blob_get_data(result, 0);
    const bytes = Buffer.from(new Uint8Array(hb.memory.buffer).slice(data, data + hb.hb_blob_get_length(result)));
    hb.hb_blob_destroy(result);
    hb.hb_face_destroy(subset);
    return bytes;
  } finally {
    hb.hb_subset_input_destroy(input);
  }
}

const MAC_GLYPH_NAMES_COUNT = 258;

/** Glyph names from a version 2 post table (null for glyphs with a standard Macintosh name, which colour glyphs never have). */
function glyphNames(tables: Tables): Array<string | null> {
  const post = tables.get('post');
  if (!post || post.readUInt32BE(0) !== 0x00020000) throw new Error('the colour font has no glyph names (post table version 2)');
  const count = post.readUInt16BE(32);
  const indices = Array.from({ length: count }, (_, at) => post.readUInt16BE(34 + at * 2));
  const custom: string[] = [];
  for (let at = 34 + count * 2; at < post.length; ) {
    const length = post[at]!;
    custom.push(post.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  return indices.map((index) => (index >= MAC_GLYPH_NAMES_COUNT ? (custom[index - MAC_GLYPH_NAMES_COUNT] ?? null) : null));
}

interface ColourLayers {
  /** Base glyph → its layers as [glyph, palette index]. */
  layers: Map<number, Array<[number, number]>>;
  /** Colours of the first palette, as BGRA records. */
  colours: Buffer[];
}

function readColourLayers(tables: Tables): ColourLayers {
  const colr = tables.get('COLR');
  const cpal = tables.get('CPAL');
  if (!colr || !cpal || colr.readUInt16BE(0) !== 0) throw new Error('the colour font has no COLR version 0 and CPAL tables');
  const baseCount = colr.readUInt16BE(2);
  const baseOffset = colr.readUInt32BE(4);
  const layerOffset = colr.readUInt32BE(8);
  const layers = new Map<number, Array<[number, number]>>();
  for (let at = 0; at < baseCount; at++) {
    const record = baseOffset + at * 6;
    const [glyph, first, count] = [colr.readUInt16BE(record), colr.readUInt16BE(record + 2), colr.readUInt16BE(record + 4)];
    layers.set(glyph, Array.from({ length: count }, (_, layer) => {
      const layerRecord = layerOffset + (first + layer) * 4;
      return [colr.readUInt16BE(layerRecord), colr.readUInt16BE(layerRecord + 2)] as [number, number];
    }));
  }
  const entries = cpal.readUInt16BE(2);
  const recordsOffset = cpal.readUInt32BE(8);
  const firstPalette = cpal.readUInt16BE(12);
  const colours = Array.from({ length: entries }, (_, at) => cpal.subarray(recordsOffset + (firstPalette + at) * 4, recordsOffset + (firstPalette + at) * 4 + 4));
  return { layers, colours };
}

const FOREGROUND = 0xffff;

function writeColourTables(layers: Array<[number, Array<[number, number]>]>, colours: Buffer[]): { COLR: Buffer; CPAL: Buffer } {
  const layerCount = layers.reduce((sum, [, of]) => sum + of.length, 0);
  const colr = Buffer.alloc(14 + layers.length * 6 + layerCount * 4);
  colr.writeUInt16BE(0, 0);
  colr.writeUInt16BE(layers.length, 2);
  colr.writeUInt32BE(14, 4);
  colr.writeUInt32BE(14 + layers.length * 6, 8);
  colr.writeUInt16BE(layerCount, 12);
  let first = 0;
  layers.forEach(([glyph, of], at) => {
    colr.writeUInt16BE(glyph, 14 + at * 6);
    colr.writeUInt16BE(first, 14 + at * 6 + 2);
    colr.writeUInt16BE(of.length, 14 + at * 6 + 4);
    of.forEach(([layerGlyph, palette], layer) => {
      const record = 14 + layers.length * 6 + (first + layer) * 4;
      colr.writeUInt16BE(layerGlyph, record);
      colr.writeUInt16BE(palette, record + 2);
    });
    first += of.length;
  });
  const cpal = Buffer.alloc(14 + colours.length * 4);
  cpal.writeUInt16BE(0, 0);
  cpal.writeUInt16BE(colours.length, 2);
  cpal.writeUInt16BE(1, 4);
  cpal.writeUInt16BE(colours.length, 6);
  cpal.writeUInt32BE(14, 8);
  cpal.writeUInt16BE(0, 12);
  colours.forEach((colour, at) => colour.copy(cpal, 14 + at * 4));
  return { COLR: colr, CPAL: cpal };
}

interface ColourFont {
  face: LoadedFace;
  glyphOfName: Map<string, number>;
  colour: ColourLayers;
}

/** Colour fonts as loaded and read, by path: the emoji face is one file, read once per process. */
const colourFonts = new Map<string, Promise<ColourFont>>();

function colourFont(fontPath: string): Promise<ColourFont> {
  let loaded = colourFonts.get(fontPath);
  if (!loaded) {
    loaded = (async () => {
      const font = fs.readFileSync(fontPath);
      const tables = readTables(font);
      const glyphOfName = new Map(glyphNames(tables).flatMap((name, glyph) => (name === null ? [] : [[name, glyph] as const])));
      return { face: await loadFace(font), glyphOfName, colour: readColourLayers(tables) };
    })();
    colourFonts.set(fontPath, loaded);
    loaded.catch(() => colourFonts.delete(fontPath));
  }
  return loaded;
}

/** A TrueType subset of the COLRv0 colour font at `fontPath` drawing these code points (and the sequences they form) in colour. */
export async function subsetColourFont(fontPath: string, codePoints: Iterable<number>): Promise<Buffer> {
  const wanted = [...codePoints];
  const { face, glyphOfName, colour: { layers, colours } } = await colourFont(fontPath);
  // First the outlines harfbuzz keeps for the code points (their sequences included), then again with their layers.
  const kept = glyphNames(readTables(harfbuzzSubset(face, wanted, [])));
  const keptGlyphs = kept.flatMap((name) => (name === null ? [] : [glyphOfName.get(name)!]));
  const layerGlyphs = keptGlyphs.flatMap((glyph) => (layers.get(glyph) ?? []).map(([layer]) => layer));
  const subset = readTables(harfbuzzSubset(face, wanted, [...keptGlyphs, ...layerGlyphs]));
  const newGlyphOfOld = new Map(glyphNames(subset).flatMap((name, glyph) => (name === null ? [] : [[glyphOfName.get(name)!, glyph] as const])));
  const palette = new Map<number, number>();
  const newLayers: Array<[number, Array<[number, number]>]> = [];
  for (const [oldGlyph, newGlyph] of newGlyphOfOld) {
    const of = layers.get(oldGlyph);
    if (!of) continue;
    newLayers.push([
      newGlyph,
      of.map(([layer, index]) => {
        if (index !== FOREGROUND && !palette.has(index)) palette.set(index, palette.size);
        return [newGlyphOfOld.get(layer)!, index === FOREGROUND ? FOREGROUND : palette.get(index)!];
      }),
    ]);
  }
  newLayers.sort(([a], [b]) => a - b);
  const { COLR, CPAL } = writeColourTables(newLayers, [...palette.keys()].map((index) => colours[index]!));
  subset.set('COLR', COLR);
  subset.set('CPAL', CPAL);
  return writeTables(subset);
}
