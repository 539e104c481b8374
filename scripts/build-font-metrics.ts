/**
 * Builds src/domain/text/font-metrics.json: the advance widths (and kerning)
 * of the fonts the Excalidraw editor ships, read once from its woff2 files so
 * that measuring a label at request time is a table lookup, not font parsing.
 *
 *   node --import tsx scripts/build-font-metrics.ts
 *
 * What goes in, per font family the editor ships (Excalifont and the older
 * Virgil, Cascadia, Nunito, Lilita One, Comic Shanns, Liberation Sans) and for
 * Xiaolai, Excalifont's CJK fallback:
 * - which code points each font face serves: the face's cmap intersected with
 *   the `unicode-range` the editor registers it with (read from its bundle);
 *   where ranges overlap the face declared last wins, as in CSS;
 * - the advance of each code point as fontkit lays it out alone, in font units;
 * - kerning, as the difference between laying out a pair and its two halves.
 *   The editor measures with canvas `measureText`, which shapes with the
 *   font's default features (kern, liga, calt), so pairs in one face kern;
 *   pairs split across faces do not, since the browser shapes them as separate
 *   runs. A combining mark after another character takes no advance (its
 *   recorded advance applies only when it leads a run) and kerning skips over
 *   marks (the lookups ignore them), so pairs are recorded between non-marks.
 *   Monospaced faces and faces without positioning or ligature features
 *   cannot kern and are skipped.
 *
 * Table format (all numbers in font units, code points delta-encoded to keep
 * the file small), per font: { unitsPerEm, defaultAdvance,
 * coverage: [Δstart, length, …], advances: [Δcodepoint, advance, …] (only
 * where the advance differs from defaultAdvance), kerning: [Δleft, right,
 * adjustment, …] sorted by left then right }. Deltas count from the end of the
 * previous range, or from the previous code point.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { declaredUnicodeRanges, excalidrawDistDirectory, excalidrawVersion } from '../src/render/editor-fonts.ts';

interface FontkitRun {
  advanceWidth: number;
  glyphs: unknown[];
}
export interface FontkitFont {
  unitsPerEm: number;
  characterSet: number[];
  availableFeatures: string[];
  post: { isFixedPitch: number };
  layout(text: string): FontkitRun;
}
interface Fontkit {
  openSync(file: string): FontkitFont;
}

// fontkit ships no type declarations; the few members used here are typed above.
const fontkit = createRequire(import.meta.url)('fontkit') as Fontkit;

/** Font directories in the editor's bundle, keyed by the editor's FONT_FAMILY ids. */
export const SHIPPED_FAMILIES = {
  1: 'Virgil',
  3: 'Cascadia',
  5: 'Excalifont',
  6: 'Nunito',
  7: 'Lilita',
  8: 'ComicShanns',
  9: 'Liberation',
} as const;
export const CJK_FALLBACK_DIRECTORY = 'Xiaolai';

const KERNING_FEATURES = ['kern', 'liga', 'clig', 'calt', 'rlig'];
/** Faces with more code points than this only kern within Latin (below U+0250), to keep the build fast. */
const FULL_PAIR_SCAN_LIMIT = 400;
const LATIN_END = 0x250;
const COMBINING_MARK = /[\p{Mn}\p{Me}]/u;

export interface FontFaceFile {
  file: string;
  font: FontkitFont;
  /** Code points this face serves in the editor (cmap ∩ unicode-range). */
  codePoints: number[];
}

function isNonCharacter(codePoint: number): boolean {
  return (codePoint & 0xfffe) === 0xfffe || (codePoint >= 0xfdd0 && codePoint <= 0xfdef);
}

/**
 * Opens a family's faces in the editor's declaration order, each with the
 * code points it serves. With `serving`, opens only the faces whose declared
 * range holds one of those code points (Xiaolai alone is some 200 files).
 */
export function loadFamilyFaces(directory: string, serving?: readonly number[]): FontFaceFile[] {
  const distDirectory = excalidrawDistDirectory();
  const declared = declaredUnicodeRanges(distDirectory);
  const faces = [...declared.entries()]
    .filter(([file]) => file.startsWith(`${directory}/`))
    .map(([file, ranges]) => ({ file, inRange: (cp: number) => ranges === null || ranges.some(([from, to]) => cp >= from && cp <= to) }))
    .filter(({ inRange }) => serving === undefined || serving.some(inRange))
    .map(({ file, inRange }) => {
      const font = fontkit.openSync(path.join(distDirectory, 'fonts', file));
      const codePoints = font.characterSet.filter((cp) => !isNonCharacter(cp) && inRange(cp));
      return { file, font, codePoints: [...new Set(codePoints)].sort((a, b) => a - b) };
    });
  if (faces.length === 0 && serving === undefined) throw new Error(`no faces of ${directory} are registered in the editor's bundle`);
  // A later face wins where unicode-ranges overlap: drop the code point from earlier faces.
  const claimed = new Set<number>();
  for (const face of [...faces].reverse()) {
    face.codePoints = face.codePoints.filter((cp) => !claimed.has(cp));
    face.codePoints.forEach((cp) => claimed.add(cp));
  }
  return faces;
}

export interface FontTable {
  unitsPerEm: number;
  defaultAdvance: number;
  coverage: number[];
  advances: number[];
  kerning: number[];
}

function advanceOf(font: FontkitFont, codePoint: number): number {
  return font.layout(String.fromCodePoint(codePoint)).advanceWidth;
}

function canKern(font: FontkitFont): boolean {
  return !font.post.isFixedPitch && font.availableFeatures.some((feature) => KERNING_FEATURES.includes(feature));
}

function pairCandidates(face: FontFaceFile): number[] {
  const bases = face.codePoints.filter((cp) => !COMBINING_MARK.test(String.fromCodePoint(cp)));
  return bases.length <= FULL_PAIR_SCAN_LIMIT ? bases : bases.filter((cp) => cp < LATIN_END);
}

function kerningPairs(face: FontFaceFile, advances: Map<number, number>): [number, number, number][] {
  if (!canKern(face.font)) return [];
  const candidates = pairCandidates(face);
  const pairs: [number, number, number][] = [];
  for (const left of candidates) {
    for (const right of candidates) {
      const pairWidth = face.font.layout(String.fromCodePoint(left, right)).advanceWidth;
      const adjustment = pairWidth - advances.get(left)! - advances.get(right)!;
      if (adjustment !== 0) pairs.push([left, right, adjustment]);
    }
  }
  return pairs;
}

export function buildFontTable(faces: FontFaceFile[], options: { kerning: boolean }): FontTable {
  const unitsPerEm = faces[0]!.font.unitsPerEm;
  if (faces.some((face) => face.font.unitsPerEm !== unitsPerEm)) throw new Error('faces of one family disagree on unitsPerEm');
  const advances = new Map<number, number>();
  for (const face of faces) for (const cp of face.codePoints) advances.set(cp, advanceOf(face.font, cp));
  const kerning = options.kerning ? faces.flatMap((face) => kerningPairs(face, advances)) : [];
  return encodeTable(unitsPerEm, advances, kerning);
}

function mostCommon(values: Iterable<number>): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

function encodeTable(unitsPerEm: number, advances: Map<number, number>, kerning: [number, number, number][]): FontTable {
  const codePoints = [...advances.keys()].sort((a, b) => a - b);
  const defaultAdvance = mostCommon(advances.values());
  const coverage: number[] = [];
  let rangeEnd = 0;
  for (let i = 0; i < codePoints.length; ) {
    const start = codePoints[i]!;
    let length = 1;
    while (codePoints[i + length] === start + length) length++;
    coverage.push(start - rangeEnd, length);
    rangeEnd = start + length;
    i += length;
  }
  const exceptions: number[] = [];
  let previous = 0;
  for (const cp of codePoints) {
    const advance = advances.get(cp)!;
    if (advance === defaultAdvance) continue;
    exceptions.push(cp - previous, advance);
    previous = cp;
  }
  const encodedKerning: number[] = [];
  let previousLeft = 0;
  for (const [left, right, adjustment] of kerning.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    encodedKerning.push(left - previousLeft, right, adjustment);
    previousLeft = left;
  }
  return { unitsPerEm, defaultAdvance, coverage, advances: exceptions, kerning: encodedKerning };
}

/** Width of a run by the table's model (advances plus kerning between non-marks), in font units. */
function modelWidth(text: string, advances: Map<number, number>, kerning: Map<string, number>): number {
  const codePoints = Array.from(text, (c) => c.codePointAt(0)!);
  const bases = codePoints.filter((cp) => !COMBINING_MARK.test(String.fromCodePoint(cp)));
  const advance = codePoints.reduce((sum, cp, i) => sum + (i > 0 && COMBINING_MARK.test(String.fromCodePoint(cp)) ? 0 : advances.get(cp)!), 0);
  return bases.reduce((sum, cp, i) => sum + (kerning.get(`${cp},${bases[i + 1]}`) ?? 0), advance);
}

/**
 * Checks the table's model against fontkit's layout of random strings drawn
 * from each face; returns the largest difference in font units.
 */
function largestModelError(faces: FontFaceFile[], table: FontTable, samples: number): number {
  const advances = new Map<number, number>();
  for (const face of faces) for (const cp of face.codePoints) advances.set(cp, advanceOf(face.font, cp));
  const kerning = new Map<string, number>();
  let left = 0;
  for (let i = 0; i < table.kerning.length; i += 3) {
    left += table.kerning[i]!;
    kerning.set(`${left},${table.kerning[i + 1]}`, table.kerning[i + 2]!);
  }
  let seed = 1;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  let worst = 0;
  for (const face of faces) {
    const pool = face.codePoints.length <= FULL_PAIR_SCAN_LIMIT ? face.codePoints : face.codePoints.filter((cp) => cp < LATIN_END);
    if (pool.length === 0) continue;
    for (let n = 0; n < samples; n++) {
      const length = 2 + Math.floor(random() * 14);
      const text = String.fromCodePoint(...Array.from({ length }, () => pool[Math.floor(random() * pool.length)]!));
      let laidOut: number;
      try {
        laidOut = face.font.layout(text).advanceWidth;
      } catch {
        continue; // fontkit trips over mark anchors some subset files lack; such strings say nothing about the model
      }
      worst = Math.max(worst, Math.abs(laidOut - modelWidth(text, advances, kerning)));
    }
  }
  return worst;
}

function main(): void {
  const output = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/domain/text/font-metrics.json');
  const families: Record<string, FontTable & { name: string }> = {};
  for (const [id, directory] of Object.entries(SHIPPED_FAMILIES)) {
    const started = Date.now();
    const faces = loadFamilyFaces(directory);
    const table = buildFontTable(faces, { kerning: true });
    const error = largestModelError(faces, table, 2000);
    // Excalifont is what Drawbridge generates: its model must be exact.
    if (directory === 'Excalifont' && error > 1e-9) throw new Error(`Excalifont's pair model is off by ${error} units`);
    families[id] = { name: directory, ...table };
    console.log(
      `${directory}: ${faces.length} faces, ${faces.reduce((n, f) => n + f.codePoints.length, 0)} code points, ` +
        `${table.kerning.length / 3} kerning pairs, model error ≤ ${error} units, ${Date.now() - started} ms`,
    );
  }
  const xiaolai = buildFontTable(loadFamilyFaces(CJK_FALLBACK_DIRECTORY), { kerning: false });
  const document = {
    generatedBy: 'scripts/build-font-metrics.ts — do not edit by hand',
    excalidrawVersion: excalidrawVersion(),
    families,
    cjkFallback: { name: CJK_FALLBACK_DIRECTORY, ...xiaolai },
  };
  fs.writeFileSync(output, `${JSON.stringify(document)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), output)} (${fs.statSync(output).size} bytes)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
