/**
 * Where a label may wrap. The editor wraps a label between words and breaks a
 * word wider than its box between any two characters (`Configuratio⏎n`). A
 * generated label never breaks inside a word: its box is widened to hold the
 * widest word, up to a maximum; a word wider than that (an identifier, a path)
 * is broken beforehand only where a reader expects a break, after `/`, `_`,
 * `.`, `-` or `:` or before a capital that follows a lower-case letter, never
 * inside a lower-case run.
 */
import { FONT_FAMILY_EXCALIFONT, FONT_SIZE } from './elements.ts';
import { measureText } from '../text/metrics.ts';

/** How much wider than its usual wrap width a box may grow to keep a word whole. */
export const WIDEN_FOR_WORD = 1.75;

const widthOf = (text: string) => measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT).width;

/** The places a long word may break: after `/ _ . - :`, before a capital following a lower-case letter or digit. */
const BREAK_AFTER = /(?<=[/_.\-:])(?=[^/_.\-:\s])|(?<=[a-z0-9])(?=[A-Z])/u;

/** Splits a word into pieces no wider than `max` at its break places; a piece with no place left stays whole. */
function breakWord(word: string, max: number): string[] {
  const parts = word.split(BREAK_AFTER);
  const pieces: string[] = [];
  let current = '';
  for (const part of parts) {
    if (current !== '' && widthOf(current + part) > max) {
      pieces.push(current);
      current = part;
    } else current += part;
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/**
 * The label and the width to wrap it at: `base` widened to its widest word
 * (up to `base` × WIDEN_FOR_WORD), and any word wider than that broken at its
 * break places onto lines of their own. The label comes back unchanged unless
 * such a word had to be broken.
 */
export function wordSafeWrap(label: string, base: number): { label: string; wrapAt: number } {
  const max = Math.round(base * WIDEN_FOR_WORD);
  let widest = 0;
  let tooWide = false;
  for (const word of label.split(/\s+/)) {
    if (word === '') continue;
    const width = widthOf(word);
    widest = Math.max(widest, width);
    if (width > max) tooWide = true;
  }
  const wrapAt = Math.max(base, Math.min(max, Math.ceil(widest) + 1));
  if (!tooWide) return { label, wrapAt };
  const broken = label
    .split('\n')
    .map((line) =>
      line
        .split(/(\s+)/)
        .map((word) => (/\s/.test(word) || widthOf(word) <= max ? word : breakWord(word, max).join('\n')))
        .join(''),
    )
    .join('\n');
  return { label: broken, wrapAt: max };
}

/** Whether a line break between `a` and `b` lies inside a word, at one of its break places. */
const breaksAWord = (a: string, b: string) => /\S$/.test(a) && /^\S/.test(b) && BREAK_AFTER.test(`${a.slice(-1)}${b[0]}`);

/**
 * The label with every line break inside a word taken out: each break at a
 * break place, between two characters that are not spaces. The breaks
 * wordSafeWrap puts in are such breaks; an author's may be too, so a caller
 * keeps this only when wrapping it again gives back the label it had.
 */
export function joinedAtBreaks(label: string): string {
  const lines = label.split('\n');
  const out = [lines[0]!];
  for (const line of lines.slice(1)) {
    const previous = out[out.length - 1]!;
    if (breaksAWord(previous, line)) out[out.length - 1] = previous + line;
    else out.push(line);
  }
  return out.join('\n');
}
