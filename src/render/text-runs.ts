/**
 * The text an exported SVG draws, as the font code wants it: a run per
 * `<text>`, in document order, holding only the characters not drawn earlier
 * in the same font stack. Which face draws a character depends only on the
 * stack and the character, so the fonts chosen (and the order they are first
 * met in) are those of the full text, and a scene of a thousand labels is
 * looked up character by character once rather than a thousand times.
 */
import type { TextRun } from './embed-fonts.ts';

export function textRunsOf(root: Element): TextRun[] {
  const seen = new Map<string, Set<string>>();
  const runs: TextRun[] = [];
  for (const text of root.querySelectorAll('text')) {
    const fontFamily = text.getAttribute('font-family') ?? '';
    let drawn = seen.get(fontFamily);
    if (!drawn) seen.set(fontFamily, (drawn = new Set()));
    let fresh = '';
    for (const char of text.textContent ?? '') {
      if (drawn.has(char)) continue;
      drawn.add(char);
      fresh += char;
    }
    if (fresh !== '') runs.push({ fontFamily, text: fresh });
  }
  return runs;
}
