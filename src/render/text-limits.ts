/**
 * The text a render draws, cut to fixed limits before either renderer sees
 * the scene (docs/rendering.md, "Text limits"). Every line of text becomes an
 * SVG `<text>`, and both the editor's exporter and resvg take time that grows
 * faster than the lines of one element and the length of one line: a label of
 * 150,000 line breaks made a 36 MB SVG and no answer in 15 s. Text past the
 * limits is left out and the render says so (note `text_truncated`).
 *
 * One pass over the scene: each text is read up to its limits, and past
 * them only scanned for line breaks (to size what is left), so the work is
 * linear in the scene's size.
 */

export const TEXT_LIMITS = {
  /** Lines drawn of one text element, frame name or embed link. */
  linesPerText: 1_000,
  /** Characters (UTF-16 code units) drawn of one line. */
  charactersPerLine: 2_000,
  /** Lines drawn in the whole scene. */
  linesPerScene: 5_000,
  /** Characters drawn in the whole scene. */
  charactersPerScene: 100_000,
} as const;

export type TextLimits = { readonly [K in keyof typeof TEXT_LIMITS]: number };

/** Marks where text was cut: the last line drawn of a text with lines left out, the end of a shortened line. */
export const ELLIPSIS = '…';

/** Line breaks as the editor's exporter splits text into lines. */
const LINE_BREAK = /\r\n?|\n/g;

type Element = Record<string, unknown>;

interface Budget {
  lines: number;
  characters: number;
}

interface CutText {
  text: string;
  /** Lines in the text given, and lines kept. */
  linesBefore: number;
  linesKept: number;
}

/**
 * The scene's elements with their text cut to `limits`, and whether anything
 * was cut. Elements whose text is within the limits are returned as they
 * are; nothing is changed in place.
 */
export function limitSceneText(elements: readonly Element[], limits: TextLimits = TEXT_LIMITS): { elements: Element[]; truncated: boolean } {
  const budget: Budget = { lines: limits.linesPerScene, characters: limits.charactersPerScene };
  let truncated = false;
  const limited = elements.map((element) => {
    if (element.isDeleted === true) return element;
    const field = textField(element);
    const value = field === undefined ? undefined : element[field];
    if (field === undefined || typeof value !== 'string' || value === '') return element;
    const cut = cutText(value, limits, budget);
    if (cut === null) return element;
    truncated = true;
    if (field !== 'text') return { ...element, [field]: cut.text };
    if (cut.linesKept === 0) return { ...element, text: '', originalText: '', isDeleted: true };
    // The box shrinks with the text, so the image is sized to what is drawn.
    const height = typeof element.height === 'number' ? (element.height * cut.linesKept) / cut.linesBefore : element.height;
    return { ...element, text: cut.text, originalText: cut.text, height };
  });
  return { elements: limited, truncated };
}

/** Which field of an element is drawn as text: a text's text, a frame's name, an embed's link (its placeholder label). */
function textField(element: Element): 'text' | 'name' | 'link' | undefined {
  switch (element.type) {
    case 'text':
      return 'text';
    case 'frame':
    case 'magicframe':
      return 'name';
    case 'embeddable':
      return 'link';
    default:
      return undefined;
  }
}

/**
 * `text` cut to the per-text limits and what is left of the scene's budget
 * (which it spends), or null when all of it fits.
 */
function cutText(text: string, limits: TextLimits, budget: Budget): CutText | null {
  const maxLines = Math.min(limits.linesPerText, budget.lines);
  const kept: string[] = [];
  let shortened = false;
  let lastShortened = false;
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  while (start <= text.length) {
    if (kept.length === maxLines || budget.characters === 0) break;
    const found = LINE_BREAK.exec(text);
    const end = found ? found.index : text.length;
    const room = Math.min(limits.charactersPerLine, budget.characters);
    let line = text.slice(start, end);
    lastShortened = line.length > room;
    if (lastShortened) {
      line = shorten(line, room);
      shortened = true;
    }
    kept.push(line);
    budget.lines -= 1;
    budget.characters -= line.length;
    start = found ? LINE_BREAK.lastIndex : text.length + 1;
  }
  const allLinesKept = start > text.length;
  if (allLinesKept && !shortened) return null;
  const linesBefore = allLinesKept ? kept.length : kept.length + countLines(text, start);
  // A shortened last line already ends in the ellipsis.
  if (!allLinesKept && kept.length > 0 && !lastShortened) kept[kept.length - 1] = ELLIPSIS;
  return { text: kept.join('\n'), linesBefore, linesKept: kept.length };
}

/** The first `length` characters of `line`, ending in the ellipsis, without splitting a surrogate pair. */
function shorten(line: string, length: number): string {
  if (length <= 0) return '';
  let end = length - 1;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return line.slice(0, end) + ELLIPSIS;
}

/** Lines in `text` from `start` on (at least one). */
function countLines(text: string, start: number): number {
  let lines = 1;
  LINE_BREAK.lastIndex = start;
  while (LINE_BREAK.exec(text) !== null) lines += 1;
  return lines;
}
