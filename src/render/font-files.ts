/**
 * The editor's fonts as TrueType files. resvg reads only font files, and
 * harfbuzz subsets TrueType fastest (under a millisecond a face), so each
 * woff2 face the editor ships is decompressed once per editor version into
 * `<directory>/<version>/`, on first use.
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

export class EditorFontFiles {
  private readonly directory: string;
  private readonly prepared = new Map<string, Promise<TrueTypeFace>>();
  /** wawoff2 decodes into one shared wasm heap: concurrent calls corrupt each other's output, so they queue. */
  private decoding: Promise<unknown> = Promise.resolve();

  constructor(fontsDirectory: string) {
    this.directory = path.join(fontsDirectory, excalidrawVersion());
  }

  /** The TrueType file of one editor face, decompressed on first use (atomically: several workers may race). */
  face(face: EditorFontFace): Promise<TrueTypeFace> {
    let prepared = this.prepared.get(face.file);
    if (!prepared) {
      prepared = this.decompress(face);
      this.prepared.set(face.file, prepared);
      prepared.catch(() => this.prepared.delete(face.file));
    }
    return prepared;
  }

  /** Whether the face draws this code point: in its declared range, and in its glyphs. */
  async draws(face: EditorFontFace, codePoint: number): Promise<boolean> {
    return faceServes(face, codePoint) && (await this.face(face)).characters.has(codePoint);
  }

  private async decompress(face: EditorFontFace): Promise<TrueTypeFace> {
    const target = path.join(this.directory, face.file.replace(/\.woff2$/, '.ttf'));
    let ttf: Buffer;
    try {
      ttf = fs.readFileSync(target);
    } catch {
      const woff2 = fs.readFileSync(path.join(editorFontsDirectory(), face.file));
      const decoded = this.decoding.then(async () => Buffer.from(await wawoff2.decompress(woff2)));
      this.decoding = decoded.catch(() => undefined);
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


const byDirectory = new Map<string, EditorFontFiles>();

/** One EditorFontFiles per directory in this thread or process, so each face is read once. */
export function editorFontFiles(directory: string): EditorFontFiles {
  let files = byDirectory.get(directory);
  if (!files) byDirectory.set(directory, (files = new EditorFontFiles(directory)));
  return files;
}
