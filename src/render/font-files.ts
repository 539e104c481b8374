/**
 * Fonts as TrueType files. resvg reads only font files, and harfbuzz subsets
 * TrueType fastest (under a millisecond a face), so each woff2 face a render
 * needs (the editor's, and the bundled fallbacks of src/render/fonts/) is
 * decompressed once into the fonts directory, on first use, and reused.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type EditorFontFace, editorFontsDirectory, excalidrawVersion, faceServes } from './editor-fonts.ts';

const require = createRequire(import.meta.url);
// wawoff2 and fontkit ship no type declarations; the members used are typed here.
const wawoff2 = require('wawoff2') as { decompress(woff2: Uint8Array): Promise<Uint8Array> };
const fontkit = require('fontkit') as {
  create(buffer: Buffer): { familyName: string; characterSet: number[]; name: { records: { preferredFamily?: Record<string, string> } } };
};

export interface TrueTypeFace {
  path: string;
  /** The family name inside the font file, which is what resvg matches on ("Comic Shanns Regular"): the typographic family where there is one. */
  internalFamily: string;
  /** The code points the face has glyphs for (some faces the editor declares without a unicode-range). */
  characters: ReadonlySet<number>;
}

/** wawoff2 decodes into one shared wasm heap: concurrent calls corrupt each other's output, so they queue (per process). */
let decoding: Promise<unknown> = Promise.resolve();

/** woff2 files decompressed to TrueType under one directory, each once per process (and once per directory on disk). */
export class TrueTypeFiles {
  private readonly prepared = new Map<string, Promise<TrueTypeFace>>();

  readonly directory: string;
  constructor(directory: string) {
    this.directory = directory;
  }

  /** The TrueType file of `woff2File`, kept at `<directory>/<target>` (written atomically: several workers may race). */
  file(woff2File: string, target: string): Promise<TrueTypeFace> {
    let prepared = this.prepared.get(target);
    if (!prepared) {
      prepared = this.decompress(woff2File, path.join(this.directory, target));
      this.prepared.set(target, prepared);
      prepared.catch(() => this.prepared.delete(target));
    }
    return prepared;
  }

  private async decompress(woff2File: string, target: string): Promise<TrueTypeFace> {
    let ttf: Buffer;
    try {
      ttf = fs.readFileSync(target);
    } catch {
      const woff2 = fs.readFileSync(woff2File);
      const decoded = decoding.then(async () => Buffer.from(await wawoff2.decompress(woff2)));
      decoding = decoded.catch(() => undefined);
      ttf = await decoded;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, ttf);
      fs.renameSync(temporary, target);
    }
    const font = fontkit.create(ttf);
    const internalFamily = font.name.records.preferredFamily?.en ?? font.familyName;
    return { path: target, internalFamily, characters: new Set(font.characterSet) };
  }
}

/** The editor's faces as TrueType, in `<fontsDirectory>/<editor version>/`. */
export class EditorFontFiles {
  readonly fontsDirectory: string;
  constructor(fontsDirectory: string) {
    this.fontsDirectory = fontsDirectory;
  }

  /** The TrueType file of one editor face, decompressed on first use. */
  face(face: EditorFontFace): Promise<TrueTypeFace> {
    return trueTypeFiles(this.fontsDirectory).file(path.join(editorFontsDirectory(), face.file), editorTrueTypeTarget(face.file));
  }

  /** Whether the face draws this code point: in its declared range, and in its glyphs. */
  async draws(face: EditorFontFace, codePoint: number): Promise<boolean> {
    return faceServes(face, codePoint) && (await this.face(face)).characters.has(codePoint);
  }
}

/** Where the TrueType copy of an editor face goes, relative to the fonts directory. */
export function editorTrueTypeTarget(file: string): string {
  return path.join(excalidrawVersion(), file.replace(/\.woff2$/, '.ttf'));
}

const filesByDirectory = new Map<string, TrueTypeFiles>();

/** One TrueTypeFiles per directory in this thread or process, so each face is read once. */
export function trueTypeFiles(directory: string): TrueTypeFiles {
  let files = filesByDirectory.get(directory);
  if (!files) filesByDirectory.set(directory, (files = new TrueTypeFiles(directory)));
  return files;
}

const editorByDirectory = new Map<string, EditorFontFiles>();

/** One EditorFontFiles per fonts directory in this thread or process. */
export function editorFontFiles(fontsDirectory: string): EditorFontFiles {
  let files = editorByDirectory.get(fontsDirectory);
  if (!files) editorByDirectory.set(fontsDirectory, (files = new EditorFontFiles(fontsDirectory)));
  return files;
}
