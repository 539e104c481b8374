/**
 * The text an exported SVG draws, as the font code wants it: a run per
 * `<text>`, in document order, holding only the grapheme clusters not drawn
 * earlier in the same font stack. Which face draws a cluster depends only on
 * the stack and the cluster (an emoji sequence such as 👩‍💻 or 🙋‍♂️ is one
 * cluster, drawn by one glyph), so the fonts chosen (and the order they are
 * first met in) are those of the full text, and a scene of a thousand labels
 * is looked up once per cluster rather than a thousand times.
 */
import type { TextRun } from './embed-fonts.ts';
import { graphemes } from './fonts/emoji.ts';

/** Printable ASCII and white space: each character is its own cluster, no segmenter needed. */
const PLAIN = /^[\t\n\r\x20-\x7e]*$/;

export function textRunsOf(root: Element): TextRun[] {
  const seen = new Map<string, Set<string>>();
  const runs: TextRun[] = [];
  for (const text of root.querySelectorAll('text')) {
    const fontFamily = text.getAttribute('font-family') ?? '';
    let drawn = seen.get(fontFamily);
    if (!drawn) seen.set(fontFamily, (drawn = new Set()));
    let fresh = '';
    const content = text.textContent ?? '';
    for (const cluster of PLAIN.test(content) ? content : graphemes(content)) {
      if (drawn.has(cluster)) continue;
      drawn.add(cluster);
      fresh += cluster;
    }
    if (fresh !== '') runs.push({ fontFamily, text: fresh });
  }
  return runs;
}
