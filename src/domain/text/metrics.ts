/**
 * Text metrics as the Excalidraw editor (0.18) computes them, so that a label
 * Drawbridge sizes is the size the editor would give it, and the editor would
 * wrap it the same way when the label is edited or its shape resized.
 *
 * Mirrors the editor's packages/element textMeasurements.ts, textWrapping.ts
 * and textElement.ts. Where the editor asks canvas `measureText`, this reads
 * the advance widths and kerning of the editor's own fonts from
 * font-metrics.json (built by scripts/build-font-metrics.ts from the woff2
 * files the editor ships). Characters none of the family's fonts cover fall
 * back, in the browser, to system fonts we cannot know; their widths are
 * estimates chosen to err wide, so a label never overflows (see
 * `estimatedWidthEm`).
 */
import fs from 'node:fs';

/** The editor's FONT_FAMILY ids. */
export const FONT_FAMILY = {
  Virgil: 1,
  Helvetica: 2,
  Cascadia: 3,
  Excalifont: 5,
  Nunito: 6,
  'Lilita One': 7,
  'Comic Shanns': 8,
  'Liberation Sans': 9,
} as const;
export type FontFamilyId = (typeof FONT_FAMILY)[keyof typeof FONT_FAMILY];

export const DEFAULT_FONT_FAMILY: FontFamilyId = FONT_FAMILY.Excalifont;
export const DEFAULT_FONT_SIZE = 20;
/** Space the editor keeps between a container's text area and its bound text. */
export const BOUND_TEXT_PADDING = 5;
/**
 * How far a container's label moved to one side of its header sits from that
 * side. At the editor's padding (5 px) the title reads as squeezed into the
 * corner; the editor puts it back there only when a person edits the label or
 * resizes the container.
 */
export const HEADER_SIDE_INSET = 10;
const ARROW_LABEL_WIDTH_FRACTION = 0.7;
const ARROW_LABEL_FONT_SIZE_TO_MIN_WIDTH_RATIO = 11;

/** Unitless line heights from the editor's FONT_METADATA. */
const LINE_HEIGHT: Record<FontFamilyId, number> = {
  1: 1.25,
  2: 1.15,
  3: 1.2,
  5: 1.25,
  6: 1.35,
  7: 1.15,
  8: 1.25,
  9: 1.15,
};

/**
 * Estimates, in em, for characters no shipped font covers. Emoji fonts are
 * wider than an em (Noto Color Emoji ≈ 1.25, Segoe UI Emoji ≈ 1.33), so an
 * emoji counts 1.35; East Asian wide characters 1 em; anything else (Arabic,
 * Devanagari, Thai…, drawn by a system font) 0.6 em.
 */
const EMOJI_WIDTH_EM = 1.35;
const WIDE_WIDTH_EM = 1;
const OTHER_WIDTH_EM = 0.6;

export function isKnownFontFamily(id: number): id is FontFamilyId {
  return Object.hasOwn(LINE_HEIGHT, id);
}

/** The editor's unitless line height for a family. */
export function getLineHeight(fontFamily: number = DEFAULT_FONT_FAMILY): number {
  return LINE_HEIGHT[knownFamily(fontFamily)];
}

function knownFamily(id: number): FontFamilyId {
  if (!isKnownFontFamily(id)) throw new RangeError(`unknown font family ${id}`);
  return id;
}

// ---------------------------------------------------------------------------
// Font tables

interface FontTableJson {
  name: string;
  unitsPerEm: number;
  defaultAdvance: number;
  coverage: number[];
  advances: number[];
  kerning: number[];
}

interface FontMetricsJson {
  excalidrawVersion: string;
  families: Record<string, FontTableJson>;
  cjkFallback: FontTableJson;
}

interface FontTable {
  /** Advance per code point, in em. */
  advance: Map<number, number>;
  /** Kerning per pair (key `left * KERNING_KEY + right`), in em. */
  kerning: Map<number, number>;
}

const KERNING_KEY = 0x110000;
const COMBINING_MARK = /[\p{Mn}\p{Me}]/u;

function decodeTable(json: FontTableJson): FontTable {
  const em = (units: number) => units / json.unitsPerEm;
  const advance = new Map<number, number>();
  let codePoint = 0;
  for (let i = 0; i < json.coverage.length; i += 2) {
    codePoint += json.coverage[i]!;
    const end = codePoint + json.coverage[i + 1]!;
    for (; codePoint < end; codePoint++) advance.set(codePoint, em(json.defaultAdvance));
  }
  codePoint = 0;
  for (let i = 0; i < json.advances.length; i += 2) {
    codePoint += json.advances[i]!;
    advance.set(codePoint, em(json.advances[i + 1]!));
  }
  const kerning = new Map<number, number>();
  let left = 0;
  for (let i = 0; i < json.kerning.length; i += 3) {
    left += json.kerning[i]!;
    kerning.set(left * KERNING_KEY + json.kerning[i + 1]!, em(json.kerning[i + 2]!));
  }
  return { advance, kerning };
}

const metricsJson = JSON.parse(fs.readFileSync(new URL('./font-metrics.json', import.meta.url), 'utf8')) as FontMetricsJson;

const cjkFallback = decodeTable(metricsJson.cjkFallback);

function familyTable(id: number): FontTable {
  const json = metricsJson.families[String(id)];
  if (!json) throw new Error(`font-metrics.json has no table for family ${id}: rebuild it with scripts/build-font-metrics.ts`);
  return decodeTable(json);
}

/**
 * The fonts the browser tries, in order, for each family: the editor's
 * font string is "<family>, Xiaolai, Segoe UI Emoji" for Excalifont and
 * "<family>, Segoe UI Emoji" for the others. Helvetica is a local font the
 * editor does not ship; Liberation Sans is metric-compatible with it.
 */
const fontChains = new Map<FontFamilyId, FontTable[]>();
function fontChain(fontFamily: FontFamilyId): FontTable[] {
  let chain = fontChains.get(fontFamily);
  if (!chain) {
    const own = familyTable(fontFamily === FONT_FAMILY.Helvetica ? FONT_FAMILY['Liberation Sans'] : fontFamily);
    chain = fontFamily === FONT_FAMILY.Excalifont ? [own, cjkFallback] : [own];
    fontChains.set(fontFamily, chain);
  }
  return chain;
}

// ---------------------------------------------------------------------------
// Line width (what the editor's canvas `measureText(line).width` returns)

const EMOJI_SOURCE =
  '\\p{RI}\\p{RI}|[\\p{Extended_Pictographic}\\p{Emoji_Presentation}](?:\\p{Emoji_Modifier}|\\uFE0F\\u20E3?|[\\u{E0020}-\\u{E007E}]+\\u{E007F})?' +
  '(?:\\u200D(?:\\p{RI}\\p{RI}|[\\p{Emoji}](?:\\p{Emoji_Modifier}|\\uFE0F\\u20E3?|[\\u{E0020}-\\u{E007E}]+\\u{E007F})?))*';
/** An emoji cluster starting exactly here (the editor's emoji regex, plus keycaps such as 1️⃣). */
const EMOJI_CLUSTER_AT = new RegExp(`${EMOJI_SOURCE}|[0-9#*]\\uFE0F?\\u20E3`, 'uy');
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cc}\p{Default_Ignorable_Code_Point}]/u;
const EAST_ASIAN_WIDE: Array<[number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f1e6, 0x1f1ff],
  [0x20000, 0x3fffd],
];

function estimatedWidthEm(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  if (ZERO_WIDTH.test(char)) return 0;
  if (EAST_ASIAN_WIDE.some(([from, to]) => codePoint >= from && codePoint <= to)) return WIDE_WIDTH_EM;
  return OTHER_WIDTH_EM;
}

const EMOJI_START = /[\p{Extended_Pictographic}\p{Emoji_Presentation}\p{RI}]/u;
const IS_MARK = 1;
const MAY_START_EMOJI = 2;
const characterFlags = new Map<number, number>();

/** Whether a code point is a combining mark or may start an emoji cluster, memoised: regexes per character are slow. */
function flagsOf(codePoint: number): number {
  if (codePoint < 0xa9) return 0;
  let flags = characterFlags.get(codePoint);
  if (flags === undefined) {
    const char = String.fromCodePoint(codePoint);
    flags = (COMBINING_MARK.test(char) ? IS_MARK : 0) | (EMOJI_START.test(char) ? MAY_START_EMOJI : 0);
    characterFlags.set(codePoint, flags);
  }
  return flags;
}

function isKeycapBase(line: string, index: number): boolean {
  const next = line.charCodeAt(index + 1);
  return next === 0xfe0f || next === 0x20e3;
}

function lineWidthEm(line: string, chain: FontTable[]): number {
  let width = 0;
  let kernLeft = -1;
  let kernTable: FontTable | undefined;
  for (let i = 0; i < line.length; ) {
    let codePoint = line.codePointAt(i)!;
    const units = codePoint > 0xffff ? 2 : 1;
    const flags = flagsOf(codePoint);
    if ((flags & MAY_START_EMOJI) !== 0 || isKeycapBase(line, i)) {
      EMOJI_CLUSTER_AT.lastIndex = i;
      const cluster = EMOJI_CLUSTER_AT.exec(line)?.[0];
      // A lone pictograph the font has (©, ™ in Excalifont) is drawn by the font, not as an emoji.
      const isSingleCoveredCodePoint = cluster?.length === units && chain.some((table) => table.advance.has(codePoint));
      if (cluster && !isSingleCoveredCodePoint) {
        width += EMOJI_WIDTH_EM;
        kernTable = undefined;
        i += cluster.length;
        continue;
      }
    }
    const atLineStart = i === 0;
    i += units;
    // Canvas draws tabs and line breaks as spaces.
    if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0c || codePoint === 0x0d) codePoint = 0x20;
    // A combining mark sits on the character before it: no advance, and kerning reaches over it.
    if ((flags & IS_MARK) !== 0 && !atLineStart) continue;
    let table: FontTable | undefined;
    for (const candidate of chain) {
      if (candidate.advance.has(codePoint)) {
        table = candidate;
        break;
      }
    }
    if (!table) {
      width += estimatedWidthEm(codePoint);
      kernTable = undefined;
      continue;
    }
    if (table === kernTable) width += table.kerning.get(kernLeft * KERNING_KEY + codePoint) ?? 0;
    width += table.advance.get(codePoint)!;
    kernTable = table;
    kernLeft = codePoint;
  }
  return width;
}

/** Width of one line of text in px, as the editor's canvas measures it. */
export function getLineWidth(line: string, fontSize: number, fontFamily: number = DEFAULT_FONT_FAMILY): number {
  return lineWidthEm(line, fontChain(knownFamily(fontFamily))) * fontSize;
}

// ---------------------------------------------------------------------------
// Text dimensions (textMeasurements.ts)

function normalizeText(text: string): string {
  return text.replace(/\r?\n|\r/g, '\n').replace(/\t/g, '        ');
}

/**
 * The editor's text element size: width of the widest line, height = lines ×
 * fontSize × lineHeight. An empty line counts as one space wide, as in the editor.
 */
export function measureText(text: string, fontSize: number, fontFamily: number = DEFAULT_FONT_FAMILY): { width: number; height: number } {
  const lines = normalizeText(
    text
      .split('\n')
      .map((line) => line || ' ')
      .join('\n'),
  ).split('\n');
  const width = Math.max(0, ...lines.map((line) => getLineWidth(line, fontSize, fontFamily)));
  // Multiplied in the editor's order, so the floating-point result is identical.
  return { width, height: fontSize * getLineHeight(fontFamily) * lines.length };
}

// ---------------------------------------------------------------------------
// Wrapping (textWrapping.ts)

const classOf = (...sources: string[]) => `[${sources.join('')}]`;
const COMMON = { WHITESPACE: '\\s', HYPHEN: '-', OPENING: '<\\(\\[\\{', CLOSING: '>\\)\\]\\}.,:;!\\?…\\/' };
const CJK = {
  CHAR: '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}｀＇＾〃〰〆＃＆＊＋－ー／＼＝｜￤〒￢￣',
  OPENING: '（［｛〈《｟｢「『【〖〔〘〚＜〝',
  CLOSING: '）］｝〉》｠｣」』】〗〕〙〛＞。．，、〟‥？！：；・〜〞',
  CURRENCY: '￥￦￡￠＄',
};
const before = (...s: string[]) => `(?=${classOf(...s)})`;
const after = (...s: string[]) => `(?<=${classOf(...s)})`;
const notBefore = (...s: string[]) => `(?!${classOf(...s)})`;
const notAfter = (...s: string[]) => `(?<!${classOf(...s)})`;

/**
 * Where the editor may break a line: around emoji clusters (kept whole),
 * before whitespace, after whitespace and hyphens, around CJK characters
 * unless that would separate them from adjacent punctuation, and between a
 * closing and an opening bracket.
 */
const LINE_BREAK = new RegExp(
  [
    `(${EMOJI_SOURCE})`,
    before(COMMON.WHITESPACE),
    after(COMMON.WHITESPACE, COMMON.HYPHEN),
    notAfter(COMMON.OPENING, CJK.OPENING) + before(CJK.CHAR, CJK.CURRENCY),
    after(CJK.CHAR) + notBefore(COMMON.HYPHEN, COMMON.CLOSING, CJK.CLOSING),
    notAfter(COMMON.OPENING) + notAfter(CJK.OPENING) + before(CJK.OPENING),
    after(CJK.CLOSING) + notBefore(CJK.CLOSING) + notBefore(COMMON.CLOSING),
    after(COMMON.CLOSING) + notBefore(COMMON.CLOSING) + before(COMMON.OPENING),
  ].join('|'),
  'u',
);
const EMOJI = new RegExp(`(${EMOJI_SOURCE})`, 'u');
const WHITESPACE = /\s/;

interface Font {
  lineWidth(text: string): number;
  charWidth(char: string): number;
}

function fontOf(fontSize: number, fontFamily: number): Font {
  const chain = fontChain(knownFamily(fontFamily));
  const lineWidth = (text: string) => lineWidthEm(text, chain) * fontSize;
  // The editor measures a character on its own, so without kerning to its neighbours; so does this.
  return { lineWidth, charWidth: lineWidth };
}

function parseTokens(line: string): string[] {
  return line
    .normalize('NFC')
    .split(LINE_BREAK)
    .filter((token): token is string => Boolean(token));
}

/** A single UTF-16 code unit, as the editor tests it (an astral character is not "single"). */
function isSingleCharacter(token: string): boolean {
  return token.length === 1;
}

/**
 * Wraps text to lines no wider than maxWidth exactly as the editor does:
 * original line breaks are kept; a line that is too wide breaks between words
 * (and around CJK characters); a word wider than maxWidth is broken between
 * characters; an emoji is never broken. A line can still exceed maxWidth when
 * a single character (or emoji) is wider than it.
 */
export function wrapText(text: string, fontSize: number, maxWidth: number, fontFamily: number = DEFAULT_FONT_FAMILY): string {
  if (!Number.isFinite(maxWidth) || maxWidth < 0) return text;
  const font = fontOf(fontSize, fontFamily);
  const lines: string[] = [];
  for (const originalLine of text.split('\n')) {
    if (font.lineWidth(originalLine) <= maxWidth) lines.push(originalLine);
    else lines.push(...wrapLine(originalLine, font, maxWidth));
  }
  return lines.join('\n');
}

function wrapLine(line: string, font: Font, maxWidth: number): string[] {
  const lines: string[] = [];
  const tokens = parseTokens(line);
  let currentLine = '';
  let currentLineWidth = 0;
  for (let t = 0; t < tokens.length; ) {
    const token = tokens[t]!;
    const testLine = currentLine + token;
    const testLineWidth = isSingleCharacter(token) ? currentLineWidth + font.charWidth(token) : font.lineWidth(testLine);
    if (WHITESPACE.test(token) || testLineWidth <= maxWidth) {
      currentLine = testLine;
      currentLineWidth = testLineWidth;
      t++;
      continue;
    }
    if (!currentLine) {
      const wrappedWord = wrapWord(token, font, maxWidth);
      const trailingLine = wrappedWord[wrappedWord.length - 1] ?? '';
      lines.push(...wrappedWord.slice(0, -1));
      currentLine = trailingLine;
      currentLineWidth = font.lineWidth(trailingLine);
      t++;
    } else {
      lines.push(currentLine.trimEnd());
      currentLine = '';
      currentLineWidth = 0;
    }
  }
  if (currentLine) lines.push(trimLine(currentLine, font, maxWidth));
  return lines;
}

function wrapWord(word: string, font: Font, maxWidth: number): string[] {
  if (EMOJI.test(word)) return [word];
  const lines: string[] = [];
  let currentLine = '';
  let currentLineWidth = 0;
  for (const char of Array.from(word)) {
    const charWidth = font.charWidth(char);
    const testLineWidth = currentLineWidth + charWidth;
    if (testLineWidth <= maxWidth) {
      currentLine += char;
      currentLineWidth = testLineWidth;
      continue;
    }
    if (currentLine) lines.push(currentLine);
    currentLine = char;
    currentLineWidth = charWidth;
  }
  if (currentLine) lines.push(currentLine);
  return lines;
}

/** Drops the trailing whitespace of a last line that no longer fits, keeping what still does. */
function trimLine(line: string, font: Font, maxWidth: number): string {
  if (font.lineWidth(line) <= maxWidth) return line;
  const match = line.match(/^(.+?)(\s+)$/);
  let trimmedLine = match ? match[1]! : line.trimEnd();
  const whitespaces = match ? match[2]! : '';
  let trimmedLineWidth = font.lineWidth(trimmedLine);
  for (const whitespace of Array.from(whitespaces)) {
    const testLineWidth = trimmedLineWidth + font.charWidth(whitespace);
    if (testLineWidth > maxWidth) break;
    trimmedLine += whitespace;
    trimmedLineWidth = testLineWidth;
  }
  return trimmedLine;
}

// ---------------------------------------------------------------------------
// Containers (textElement.ts)

export type TextContainerType = 'rectangle' | 'ellipse' | 'diamond' | 'arrow';
export type ShapeContainerType = Exclude<TextContainerType, 'arrow'>;

/** Widest a bound text may be inside a container of this type and width (the editor's getBoundTextMaxWidth). */
export function getBoundTextMaxWidth(containerType: TextContainerType, containerWidth: number, fontSize: number = DEFAULT_FONT_SIZE): number {
  switch (containerType) {
    case 'arrow':
      return Math.max(ARROW_LABEL_WIDTH_FRACTION * containerWidth, fontSize * ARROW_LABEL_FONT_SIZE_TO_MIN_WIDTH_RATIO);
    case 'ellipse':
      return Math.round((containerWidth / 2) * Math.sqrt(2)) - BOUND_TEXT_PADDING * 2;
    case 'diamond':
      return Math.round(containerWidth / 2) - BOUND_TEXT_PADDING * 2;
    case 'rectangle':
      return containerWidth - BOUND_TEXT_PADDING * 2;
  }
}

/**
 * Tallest a bound text may be inside a container of this type and height
 * (the editor's getBoundTextMaxHeight). An arrow flatter than its label
 * padding allows the label's own height.
 */
export function getBoundTextMaxHeight(containerType: TextContainerType, containerHeight: number, boundTextHeight = 0): number {
  switch (containerType) {
    case 'arrow':
      return containerHeight - BOUND_TEXT_PADDING * 8 * 2 <= 0 ? boundTextHeight : containerHeight;
    case 'ellipse':
      return Math.round((containerHeight / 2) * Math.sqrt(2)) - BOUND_TEXT_PADDING * 2;
    case 'diamond':
      return Math.round(containerHeight / 2) - BOUND_TEXT_PADDING * 2;
    case 'rectangle':
      return containerHeight - BOUND_TEXT_PADDING * 2;
  }
}

/**
 * The smallest whole-pixel container of this type whose bound-text area
 * holds text of this size: getBoundTextMaxWidth(type, width) ≥ textWidth and
 * getBoundTextMaxHeight(type, height) ≥ textHeight, and neither holds one
 * pixel smaller.
 */
export function containerSizeForText(type: ShapeContainerType, textWidth: number, textHeight: number): { width: number; height: number } {
  return {
    width: smallestSize(textWidth, type, (size) => getBoundTextMaxWidth(type, size) >= textWidth),
    height: smallestSize(textHeight, type, (size) => getBoundTextMaxHeight(type, size) >= textHeight),
  };
}

export interface FittedText {
  /** The wrapped text (the text element's `text`; `originalText` is what was passed in). */
  text: string;
  textWidth: number;
  textHeight: number;
  /** The container's size. */
  width: number;
  height: number;
}

/**
 * Wraps a label for a container and sizes the container so that the editor,
 * re-wrapping the original text in it (as it does when the label is edited or
 * the shape resized), gets the same lines, and they fit.
 *
 * Wrapping at maxTextWidth and taking the smallest container for the result
 * is not enough: the editor adds up single characters' widths without their
 * kerning where it breaks words, so in about one case in twenty its re-wrap in
 * that container breaks differently. Instead the container grows from there
 * (and from minWidth) until wrapping in its own text area yields text that fits,
 * with LABEL_SLACK to spare: a line the editor's wrap lets run to the text
 * area's edge would sit 5 px (its padding) from the outline, too near once
 * drawn by hand. `sideRoom` is more width the text must leave free in the
 * text area, for a shape whose outline cuts in at the sides (a stadium's
 * round ends): without it the re-wrap in the wider box fills that room again.
 */
/** Room a fitted label's longest line leaves in its text area beyond the editor's padding: 1 px each side, so 6 px from the outline. */
const LABEL_SLACK = 2;

export function fitTextInContainer(
  originalText: string,
  type: ShapeContainerType,
  options: { fontSize: number; maxTextWidth: number; fontFamily?: number; minWidth?: number; minHeight?: number; sideRoom?: number },
): FittedText {
  const { fontSize, maxTextWidth, fontFamily = DEFAULT_FONT_FAMILY, minWidth = 0, minHeight = 0, sideRoom = 0 } = options;
  const preferred = measureText(wrapText(originalText, fontSize, maxTextWidth, fontFamily), fontSize, fontFamily);
  let width = Math.max(Math.ceil(minWidth), containerSizeForText(type, preferred.width, preferred.height).width);
  for (;;) {
    const areaWidth = getBoundTextMaxWidth(type, width);
    const text = wrapText(originalText, fontSize, areaWidth, fontFamily);
    const measured = measureText(text, fontSize, fontFamily);
    const needed = containerSizeForText(type, measured.width + LABEL_SLACK + sideRoom, measured.height);
    // Each round either stops or strictly widens the container, until nothing needs wrapping.
    if (needed.width <= width) {
      const height = Math.max(Math.ceil(minHeight), needed.height);
      return { text, textWidth: measured.width, textHeight: measured.height, width, height };
    }
    width = needed.width;
  }
}

function smallestSize(textSize: number, type: ShapeContainerType, fits: (size: number) => boolean): number {
  // Inverting the editor's formulas gives the answer up to floating-point rounding; the loops settle it.
  const needed = Math.ceil(textSize) + BOUND_TEXT_PADDING * 2;
  let size =
    type === 'ellipse' ? Math.ceil((needed - 0.5) * Math.SQRT2) : type === 'diamond' ? 2 * needed - 1 : needed;
  while (size > 0 && fits(size - 1)) size--;
  while (!fits(size)) size++;
  return size;
}
