/**
 * The font files the Excalidraw editor ships (woff2, in its package's
 * dist/prod/fonts), each with the CSS family it is registered under and the
 * `unicode-range` the editor declares for it. Read from the installed
 * package, so an upgrade of the editor brings its fonts along.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface EditorFontFace {
  /** The CSS family name the editor uses in its font strings ("Excalifont", "Lilita One"). */
  family: string;
  /** Path relative to the fonts directory: "Excalifont/Excalifont-Regular-….woff2". */
  file: string;
  /** Declared unicode-range as inclusive [from, to] pairs; null: the whole font. */
  ranges: [number, number][] | null;
}

/** Font directories in the editor's bundle → the CSS family the editor registers them under. */
const FAMILY_OF_DIRECTORY: Readonly<Record<string, string>> = {
  Virgil: 'Virgil',
  Cascadia: 'Cascadia',
  Excalifont: 'Excalifont',
  Nunito: 'Nunito',
  Lilita: 'Lilita One',
  ComicShanns: 'Comic Shanns',
  Liberation: 'Liberation Sans',
  Assistant: 'Assistant',
  Xiaolai: 'Xiaolai',
};

/** The editor's CJK fallback family, listed after every family in its font strings. */
export const CJK_FALLBACK_FAMILY = 'Xiaolai';

let distDirectory: string | undefined;

/** Where the installed editor package's bundle is (resolved once per process). */
export function excalidrawDistDirectory(): string {
  distDirectory ??= path.dirname(createRequire(import.meta.url).resolve('@excalidraw/excalidraw'));
  return distDirectory;
}

export function editorFontsDirectory(): string {
  return path.join(excalidrawDistDirectory(), 'fonts');
}

let version: string | undefined;

/** The editor package's version, read from its package.json once per process (every render's cache key holds it). */
export function excalidrawVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(excalidrawDistDirectory(), '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

export function parseUnicodeRange(descriptor: string): [number, number][] {
  return descriptor.split(',').map((part) => {
    const [start, end] = part.trim().replace(/^U\+/i, '').split('-');
    const from = Number.parseInt(start!, 16);
    return [from, end === undefined ? from : Number.parseInt(end, 16)];
  });
}

/** Parses the editor's bundle for each woff2 file's declared unicode-range (null: the whole font). */
export function declaredUnicodeRanges(distDirectory = excalidrawDistDirectory()): Map<string, [number, number][] | null> {
  const ranges = new Map<string, [number, number][] | null>();
  for (const name of fs.readdirSync(distDirectory).filter((f) => f.endsWith('.js'))) {
    const source = fs.readFileSync(path.join(distDirectory, name), 'utf8');
    const fileOfVariable = new Map<string, string>();
    for (const match of source.matchAll(/var ([\w$]+)\s*=\s*"\.\/fonts\/([^"]+\.woff2)"/g)) {
      fileOfVariable.set(match[1]!, match[2]!);
    }
    const face = /uri:\s*([\w$]+)(?:,\s*descriptors:\s*\{\s*unicodeRange:\s*"([^"]+)")?/g;
    for (const match of source.matchAll(face)) {
      const file = fileOfVariable.get(match[1]!);
      if (file) ranges.set(file, match[2] ? parseUnicodeRange(match[2]) : null);
    }
  }
  if (ranges.size === 0) throw new Error(`no font faces found in ${distDirectory}: has the bundle's format changed?`);
  return ranges;
}

let faces: EditorFontFace[] | undefined;

/** Every face the editor registers, in its declaration order (a later face wins where ranges overlap, as in CSS). */
export function editorFontFaces(): readonly EditorFontFace[] {
  faces ??= [...declaredUnicodeRanges().entries()].flatMap(([file, ranges]) => {
    const family = FAMILY_OF_DIRECTORY[file.split('/')[0]!];
    return family === undefined ? [] : [{ family, file, ranges }];
  });
  return faces;
}

export function faceServes(face: EditorFontFace, codePoint: number): boolean {
  return face.ranges === null || face.ranges.some(([from, to]) => codePoint >= from && codePoint <= to);
}
