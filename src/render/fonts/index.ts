/**
 * Which font files draw a drawing's text: one decision for every renderer and
 * format (resvg's PNGs, Skia's PNG and PDF, the fonts embedded in SVGs).
 *
 * For each character of each run of text, the first face that draws it, in
 * this order: the families its CSS stack names (the editor's, or the editor's
 * face standing in for a system name such as Helvetica), Xiaolai (the editor's
 * CJK fallback), Liberation Sans, the bundled script fallbacks (Arabic,
 * Hebrew, Devanagari, Thai, Hangul), the editor's other families. Emoji (see
 * emoji.ts) go, whole sequences at a time, to the emoji face: Twemoji in
 * colour, or Noto Emoji in one colour for rasterisers that draw no colour font.
 */
import path from 'node:path';
import { CJK_FALLBACK_FAMILY, editorFontFaces, editorFontsDirectory } from '../editor-fonts.ts';
import { editorTrueTypeTarget, trueTypeFiles, type TrueTypeFace } from '../font-files.ts';
import { type BundledFace, bundledFaces, EMOJI_FAMILY } from './bundled.ts';
import { graphemes, isEmojiGrapheme, isInvisible } from './emoji.ts';

export { EMOJI_FAMILY } from './bundled.ts';

export interface TextRun {
  /** The CSS font stack, as written in the SVG's font-family attribute. */
  fontFamily: string;
  text: string;
}

export interface FontFile {
  path: string;
  /** The CSS family to register the file under ('Excalifont', 'Xiaolai', 'Noto Sans Arabic', 'Segoe UI Emoji'). */
  family: string;
  /** The family name inside the file, which is what resvg matches on. */
  internalFamily: string;
}

/** 'colour' for rasterisers and browsers that draw COLR fonts (Skia, Chromium, Firefox, Safari); 'monochrome' for resvg. */
export type EmojiStyle = 'colour' | 'monochrome';

/** Names in SVG font stacks that are not the editor's families, and the editor's face that stands in for them. */
export const FAMILY_ALIASES: Readonly<Record<string, string>> = {
  Helvetica: 'Liberation Sans',
  Arial: 'Liberation Sans',
  'sans-serif': 'Liberation Sans',
  'Cascadia Code': 'Cascadia',
  Consolas: 'Cascadia',
  'ui-monospace': 'Cascadia',
  monospace: 'Cascadia',
};
/** CSS generic families: never an @font-face name. */
const GENERIC_FAMILIES = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-serif', 'ui-sans-serif', 'ui-monospace', 'ui-rounded', 'emoji', 'math', 'fangsong']);
/** The face that draws what no stack names: the editor's sans-serif. */
export const DEFAULT_FAMILY = 'Liberation Sans';

/** The names of a CSS font stack, unquoted, in order. */
export function stackNames(stack: string): string[] {
  return stack
    .split(',')
    .map((name) => name.trim().replace(/^["']|["']$/g, ''))
    .filter((name) => name !== '');
}

function editorFamilies(): Set<string> {
  return new Set(editorFontFaces().map((face) => face.family));
}

/** The editor family a stack name means: itself, the face standing in for a system name, or undefined. */
export function editorFamilyOf(name: string): string | undefined {
  return editorFamilies().has(name) ? name : FAMILY_ALIASES[name];
}

/** One face that may draw characters: one of the editor's, or a bundled one. */
export interface Candidate {
  key: string;
  family: string;
  role: 'editor' | BundledFace['role'];
  ranges: [number, number][] | null;
  /** See BundledFace.shapedForResvg. */
  shapedForResvg: boolean;
  load(): Promise<TrueTypeFace>;
}

interface Catalogue {
  /** Per editor family, its faces as the browser tries them: the last declared first. */
  editor: Map<string, Candidate[]>;
  scripts: Candidate[];
  emoji: Record<EmojiStyle, Candidate>;
}

const catalogues = new Map<string, Catalogue>();

function catalogue(fontsDirectory: string): Catalogue {
  let found = catalogues.get(fontsDirectory);
  if (found) return found;
  const files = trueTypeFiles(fontsDirectory);
  const editor = new Map<string, Candidate[]>();
  for (const face of [...editorFontFaces()].reverse()) {
    const target = editorTrueTypeTarget(face.file);
    const candidate: Candidate = { key: face.file, family: face.family, role: 'editor', ranges: face.ranges, shapedForResvg: false, load: () => files.file(path.join(editorFontsDirectory(), face.file), target) };
    editor.set(face.family, [...(editor.get(face.family) ?? []), candidate]);
  }
  const bundled = bundledFaces().map(
    (face): Candidate => ({ key: face.target, family: face.family, role: face.role, ranges: face.ranges, shapedForResvg: face.shapedForResvg, load: () => files.file(face.woff2, face.target) }),
  );
  found = {
    editor,
    scripts: bundled.filter((face) => face.role === 'script'),
    emoji: { colour: bundled.find((face) => face.role === 'colour-emoji')!, monochrome: bundled.find((face) => face.role === 'monochrome-emoji')! },
  };
  catalogues.set(fontsDirectory, found);
  return found;
}

function inRanges(ranges: [number, number][] | null, codePoint: number): boolean {
  return ranges === null || ranges.some(([from, to]) => codePoint >= from && codePoint <= to);
}

async function draws(candidate: Candidate, codePoint: number): Promise<boolean> {
  return inRanges(candidate.ranges, codePoint) && (await candidate.load()).characters.has(codePoint);
}

export interface Embedding {
  characters: Set<number>;
  /** Drawing what the family the stack names first lacks (for an SVG whose first family is a system font, only these are embedded). */
  fallback: boolean;
}

/** A face chosen for some characters, and what it draws. */
export interface ChosenFace {
  candidate: Candidate;
  face: TrueTypeFace;
  /** Every character it draws for these runs (joiners and selectors of its sequences included). */
  characters: Set<number>;
  /**
   * For an SVG: the CSS family names to embed it under, each with its characters. A face drawing a run's
   * own family is embedded under that name; a fallback under its own name when the stack names it, else
   * under the stack's first family that is embedded (so the browser reaches it through the stack).
   * A face standing in for a system name (Helvetica → Liberation Sans) is embedded under that name.
   */
  embedAs: Map<string, Embedding>;
  /** Sort key: stack families first (in the order first named), then the fallbacks in order. */
  rank: number;
}

/** A stretch of a run drawn by one face (null: the run's own font, for spaces, or no face at all, for what none draws). */
export interface Segment {
  text: string;
  face: ChosenFace | null;
}

export interface FontChoice {
  /** The faces that draw something, in fallback order. */
  faces: ChosenFace[];
  /** Each run (in the order given) cut where the face drawing it changes. */
  segments: Segment[][];
  /** Characters no face draws (would be .notdef). */
  missing: Set<number>;
}

/** Ranks of the fallbacks; a stack family's rank is its place among the families first named (below these). */
const FALLBACK_RANK = { cjk: 1000, sans: 1001, script: 1002, editor: 2000, emoji: 3000 };

/** Chooses, for every character of every run, the face that draws it (see the module comment). */
export async function chooseFonts(runs: readonly TextRun[], fontsDirectory: string, emoji: EmojiStyle = 'colour'): Promise<FontChoice> {
  const { editor, scripts, emoji: emojiFaces } = catalogue(fontsDirectory);
  const chosen = new Map<string, ChosenFace>();
  const missing = new Set<number>();
  const familyOrder: string[] = [];

  const segments: Segment[][] = [];
  let firstFamily: string | undefined;
  const choose = async (candidate: Candidate, characters: number[], rank: number, embedAs: string | null): Promise<ChosenFace> => {
    const fallback = candidate.family !== firstFamily;
    let entry = chosen.get(candidate.key);
    if (!entry) chosen.set(candidate.key, (entry = { candidate, face: await candidate.load(), characters: new Set(), embedAs: new Map(), rank }));
    entry.rank = Math.min(entry.rank, rank);
    for (const codePoint of characters) entry.characters.add(codePoint);
    if (embedAs !== null) {
      let embedded = entry.embedAs.get(embedAs);
      if (!embedded) entry.embedAs.set(embedAs, (embedded = { characters: new Set(), fallback }));
      embedded.fallback &&= fallback;
      for (const codePoint of characters) embedded.characters.add(codePoint);
    }
    return entry;
  };

  for (const run of runs) {
    const names = stackNames(run.fontFamily);
    firstFamily = names[0] === undefined ? undefined : editorFamilyOf(names[0]);
    const embeddedNames = names.filter((name) => (editorFamilyOf(name) !== undefined && !GENERIC_FAMILIES.has(name)) || name === EMOJI_FAMILY);
    const fallbackName = (family: string): string | null => (names.includes(family) ? family : (embeddedNames[0] ?? null));
    // The chain of [candidate, rank, embedded as] this run's characters are tried against.
    const chain: Array<[Candidate, number, string | null]> = [];
    const named = new Set<string>();
    for (const name of names) {
      const family = editorFamilyOf(name);
      if (family === undefined || named.has(family)) continue;
      named.add(family);
      if (!familyOrder.includes(family)) familyOrder.push(family);
      // A face standing in for a system name (Helvetica) is embedded under that name: the same glyphs everywhere.
      const embedAs = GENERIC_FAMILIES.has(name) ? null : name;
      for (const candidate of editor.get(family) ?? []) chain.push([candidate, familyOrder.indexOf(family), embedAs]);
    }
    const fallbacks: Array<[string, number]> = [[CJK_FALLBACK_FAMILY, FALLBACK_RANK.cjk], [DEFAULT_FAMILY, FALLBACK_RANK.sans]];
    for (const [family, rank] of fallbacks) if (!named.has(family)) for (const candidate of editor.get(family) ?? []) chain.push([candidate, rank, fallbackName(family)]);
    for (const candidate of scripts) chain.push([candidate, FALLBACK_RANK.script, fallbackName(candidate.family)]);
    for (const [family, faces] of editor) if (!named.has(family) && family !== CJK_FALLBACK_FAMILY && family !== DEFAULT_FAMILY) for (const candidate of faces) chain.push([candidate, FALLBACK_RANK.editor, fallbackName(family)]);
    const emojiFace = emojiFaces[emoji];
    const runSegments: Segment[] = [];
    segments.push(runSegments);
    /** Joiners and selectors seen before the first face of the run: they go with it. */
    let leading = '';
    const append = (text: string, face: ChosenFace | null): void => {
      const last = runSegments.at(-1);
      if (last && last.face === face) last.text += text;
      else runSegments.push({ text: leading + text, face });
      leading = '';
    };

    for (const grapheme of graphemes(run.text)) {
      const all = [...grapheme].map((char) => char.codePointAt(0)!);
      const visible = all.filter((codePoint) => !isInvisible(codePoint));
      if (visible.length === 0) {
        // Spaces are drawn by the run's own font, as in a browser (so it embeds them); other invisible characters join their neighbour.
        const last = runSegments.at(-1);
        if (/^\s+$/u.test(grapheme)) {
          const spaces = all.filter((codePoint) => codePoint >= 0x20);
          for (const [candidate, rank, embedAs] of chain) {
            if (rank >= FALLBACK_RANK.cjk || spaces.length === 0) break;
            if (await everyDrawn(candidate, spaces)) {
              await choose(candidate, spaces, rank, embedAs);
              break;
            }
          }
          append(grapheme, null);
        }
        else if (last) last.text += grapheme;
        else leading += grapheme;
        continue;
      }
      if (isEmojiGrapheme(grapheme) && (await draws(emojiFace, visible[0]!))) {
        append(grapheme, await choose(emojiFace, all, FALLBACK_RANK.emoji, fallbackName(EMOJI_FAMILY)));
        continue;
      }
      // The whole cluster from one face where one draws it (a base and its marks shape together), else each character.
      let whole: [Candidate, number, string | null] | undefined;
      for (const link of chain) {
        if (await everyDrawn(link[0], visible)) {
          whole = link;
          break;
        }
      }
      if (whole) {
        const joiners = [];
        for (const codePoint of all) if (isInvisible(codePoint) && codePoint > 0x20 && (await draws(whole[0], codePoint))) joiners.push(codePoint);
        append(grapheme, await choose(whole[0], [...visible, ...joiners], whole[1], whole[2]));
        continue;
      }
      for (const char of grapheme) {
        const codePoint = char.codePointAt(0)!;
        let face: ChosenFace | null = null;
        if (!isInvisible(codePoint)) {
          for (const [candidate, rank, embedAs] of [...chain, [emojiFace, FALLBACK_RANK.emoji, fallbackName(EMOJI_FAMILY)] as const]) {
            if (await draws(candidate, codePoint)) {
              face = await choose(candidate, [codePoint], rank, embedAs);
              break;
            }
          }
          if (!face) missing.add(codePoint);
        }
        if (face || isInvisible(codePoint)) append(char, face ?? runSegments.at(-1)?.face ?? null);
        else append(char, null);
      }
    }
    if (leading !== '') runSegments.push({ text: leading, face: null });
  }
  const faces = [...chosen.values()].sort((a, b) => a.rank - b.rank || b.characters.size - a.characters.size);
  return { faces, segments, missing };
}

async function everyDrawn(candidate: Candidate, codePoints: number[]): Promise<boolean> {
  for (const codePoint of codePoints) if (!(await draws(candidate, codePoint))) return false;
  return true;
}

/**
 * The font files that draw these runs, in fallback order, each with the CSS
 * family to register it under. Emoji in colour (Twemoji, COLR) unless asked
 * for `monochrome` (Noto Emoji), for a rasteriser that draws no colour font.
 */
export async function fontFilesFor(runs: readonly TextRun[], fontsDirectory: string, options: { emoji?: EmojiStyle } = {}): Promise<FontFile[]> {
  const { faces } = await chooseFonts(runs, fontsDirectory, options.emoji ?? 'colour');
  return faces.map(({ candidate, face }) => ({ path: face.path, family: candidate.family, internalFamily: face.internalFamily }));
}
