/**
 * Which characters are drawn as emoji: the grapheme clusters (Intl.Segmenter)
 * a browser shows in an emoji font — an emoji-presentation character, or any
 * emoji made so by a variation selector, a keycap, a skin tone, a ZWJ
 * sequence, a flag or a tag sequence.
 */

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}/u;
/** U+FE0F (emoji variation selector), U+20E3 (keycap), skin tones, ZWJ between pictographs, regional indicators, tags. */
const EMOJI_SEQUENCE = /\uFE0F|\u20E3|\p{Emoji_Modifier}|\p{Extended_Pictographic}\u200D|\p{Regional_Indicator}|[\u{E0020}-\u{E007F}]/u;
const TEXT_PRESENTATION = '\uFE0E';

export function graphemes(text: string): string[] {
  return [...segmenter.segment(text)].map(({ segment }) => segment);
}

/** Whether a grapheme cluster is drawn as an emoji (a single '#' or '©' is text; '#️⃣' and '©️' are emoji). */
export function isEmojiGrapheme(grapheme: string): boolean {
  if (grapheme.includes(TEXT_PRESENTATION)) return false;
  return EMOJI_PRESENTATION.test(grapheme) || EMOJI_SEQUENCE.test(grapheme);
}

/** Characters that join or vary others and draw nothing of their own: no face needs a glyph for them. */
export function isInvisible(codePoint: number): boolean {
  return (
    codePoint <= 0x20 ||
    (codePoint >= 0x7f && codePoint <= 0xa0) ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0x2028 && codePoint <= 0x202e) ||
    (codePoint >= 0x2060 && codePoint <= 0x206f) ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    codePoint === 0xfeff ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef)
  );
}
