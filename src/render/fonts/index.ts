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
import { withLooseSelectorLigatures } from './emoji-ligatures.ts';


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
const FAMILY_ALIASES: Readonly<Record<string, string>> = {
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

let families: Set<string> | undefined;

function editorFamilies(): Set<string> {
  families ??= new Set(editorFontFaces().map((face) => face.family));
  return families;
}

/** The editor family a stack name means: itself, the face standing in for a system name, or undefined. */
export function editorFamilyOf(name: string): string | undefined {
  return editorFamilies().has(name) ? name : FAMILY_ALIASES[name];
}

/** One face that may draw characters: one of the editor's, or a bundled one. */
interface Candidate {
  key: string;
  family: string;
  role: 'editor' | BundledFace['role'];
  ranges: [number, number][] | null;
  /** See BundledFace.shapedForResvg. */
  shapedForResvg: boolean;
  load(): Promise<TrueTypeFace>;
  /** The face once loaded, so that later questions about it are answered without waiting. */
  loaded?: TrueTypeFace;
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
  const bundled = bundledFaces().map((face): Candidate => {
    const load =
      face.role === 'colour-emoji'
        ? async () => {
            const ttf = await files.file(face.woff2, face.target);
            return { ...ttf, path: withLooseSelectorLigatures(ttf.path) };
          }
        : () => files.file(face.woff2, face.target);
    return { key: face.target, family: face.family, role: face.role, ranges: face.ranges, shapedForResvg: face.shapedForResvg, load };
  });
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

async function loadCandidate(candidate: Candidate): Promise<TrueTypeFace> {
  candidate.loaded ??= await candidate.load();
  return candidate.loaded;
}

/** Whether the candidate draws every one of the code points (loading its file only when its range holds them all). */
async function drawsAll(candidate: Candidate, codePoints: readonly number[]): Promise<boolean> {
  if (!codePoints.every((codePoint) => inRanges(candidate.ranges, codePoint))) return false;
  const face = candidate.loaded ?? (await loadCandidate(candidate));
  return codePoints.every((codePoint) => face.characters.has(codePoint));
}

interface Embedding {
  characters: Set<number>;
  /** Drawing what the family the stack names first lacks (for an SVG whose first family is a system font, only these are embedded). */
  fallback: boolean;
}

/** A face chosen for some characters, and what it draws. */
interface ChosenFace {
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

/** A face in a run's chain: the candidate, its rank (see FALLBACK_RANK; stack families rank below), the family it is embedded under. */
type Link = readonly [Candidate, number, string | null];

/** How one grapheme of a run is drawn: by one face, character by character (null: no face), or it is spaces. */
type Decision =
  | { whole: Link; characters: number[] }
  | { each: Array<[string, Link | null, number[]]> }
  | { spaces: Link | null; characters: number[] }
  | { joiner: true };

/** Chooses, for every character of every run, the face that draws it (see the module comment). */
export async function chooseFonts(runs: readonly TextRun[], fontsDirectory: string, emoji: EmojiStyle = 'colour'): Promise<FontChoice> {
  const { editor, scripts, emoji: emojiFaces } = catalogue(fontsDirectory);
  const emojiFace = emojiFaces[emoji];
  const chosen = new Map<string, ChosenFace>();
  const missing = new Set<number>();
  const familyOrder: string[] = [];
  const segments: Segment[][] = [];

  const choose = async ([candidate, rank, embedAs]: Link, characters: readonly number[], firstFamily: string | undefined): Promise<ChosenFace> => {
    const fallback = candidate.family !== firstFamily;
    let entry = chosen.get(candidate.key);
    if (!entry) chosen.set(candidate.key, (entry = { candidate, face: await loadCandidate(candidate), characters: new Set(), embedAs: new Map(), rank }));
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

  /** The faces a stack's characters are tried against, in order, with the stack's first family. */
  const chains = new Map<string, { chain: Link[]; emojiLink: Link; firstFamily: string | undefined }>();
  const chainFor = (stack: string) => {
    let found = chains.get(stack);
    if (found) return found;
    const names = stackNames(stack);
    const embeddedNames = names.filter((name) => (editorFamilyOf(name) !== undefined && !GENERIC_FAMILIES.has(name)) || name === EMOJI_FAMILY);
    const fallbackName = (family: string): string | null => (names.includes(family) ? family : (embeddedNames[0] ?? null));
    const chain: Link[] = [];
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
    for (const [family, faces] of editor) {
      if (named.has(family) || family === CJK_FALLBACK_FAMILY || family === DEFAULT_FAMILY) continue;
      for (const candidate of faces) chain.push([candidate, FALLBACK_RANK.editor, fallbackName(family)]);
    }
    found = { chain, emojiLink: [emojiFace, FALLBACK_RANK.emoji, fallbackName(EMOJI_FAMILY)], firstFamily: names[0] === undefined ? undefined : editorFamilyOf(names[0]) };
    chains.set(stack, found);
    return found;
  };

  const firstDrawing = async (chain: readonly Link[], codePoints: readonly number[], until = Number.POSITIVE_INFINITY): Promise<Link | null> => {
    for (const link of chain) {
      if (link[1] >= until) break;
      if (await drawsAll(link[0], codePoints)) return link;
    }
    return null;
  };

  /** How a grapheme of a stack is drawn; the same grapheme in the same stack is decided once. */
  const decisions = new Map<string, Decision>();
  const decide = async (stack: string, grapheme: string): Promise<Decision> => {
    const key = `${stack}\u0000${grapheme}`;
    let decision = decisions.get(key);
    if (decision) return decision;
    const { chain, emojiLink } = chainFor(stack);
    const all = [...grapheme].map((char) => char.codePointAt(0)!);
    const visible = all.filter((codePoint) => !isInvisible(codePoint));
    if (visible.length === 0 && /^\s+$/u.test(grapheme)) {
      // Spaces are drawn by the run's own font, as in a browser (so it embeds them).
      const spaces = all.filter((codePoint) => codePoint >= 0x20);
      decision = { spaces: spaces.length > 0 ? await firstDrawing(chain, spaces, FALLBACK_RANK.cjk) : null, characters: spaces };
    } else if (visible.length === 0) {
      decision = { joiner: true };
    } else if (isEmojiGrapheme(grapheme) && (await drawsAll(emojiFace, [visible[0]!]))) {
      decision = { whole: emojiLink, characters: all };
    } else {
      // The whole cluster from one face where one draws it (a base and its marks shape together), else each character.
      const whole = await firstDrawing(chain, visible);
      if (whole) {
        const joiners: number[] = [];
        for (const codePoint of all) if (isInvisible(codePoint) && codePoint > 0x20 && (await drawsAll(whole[0], [codePoint]))) joiners.push(codePoint);
        decision = { whole, characters: [...visible, ...joiners] };
      } else {
        const each: Array<[string, Link | null, number[]]> = [];
        for (const char of grapheme) {
          const codePoint = char.codePointAt(0)!;
          each.push([char, isInvisible(codePoint) ? null : await firstDrawing([...chain, emojiLink], [codePoint]), [codePoint]]);
        }
        decision = { each };
      }
    }
    decisions.set(key, decision);
    return decision;
  };

  for (const run of runs) {
    const { firstFamily } = chainFor(run.fontFamily);
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
      const decision = await decide(run.fontFamily, grapheme);
      if ('joiner' in decision) {
        // Joiners and selectors on their own go with what comes before them.
        if (runSegments.length > 0) runSegments.at(-1)!.text += grapheme;
        else leading += grapheme;
      } else if ('spaces' in decision) {
        if (decision.spaces) await choose(decision.spaces, decision.characters, firstFamily);
        append(grapheme, null);
      } else if ('whole' in decision) {
        append(grapheme, await choose(decision.whole, decision.characters, firstFamily));
      } else {
        for (const [char, link, codePoints] of decision.each) {
          if (link) append(char, await choose(link, codePoints, firstFamily));
          else if (isInvisible(codePoints[0]!)) append(char, runSegments.at(-1)?.face ?? null);
          else {
            missing.add(codePoints[0]!);
            append(char, null);
          }
        }
      }
    }
    if (leading !== '') runSegments.push({ text: leading, face: null });
  }
  const faces = [...chosen.values()].sort((a, b) => a.rank - b.rank || b.characters.size - a.characters.size);
  return { faces, segments, missing };
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
