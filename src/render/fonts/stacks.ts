/**
 * The fallback families a CSS font stack should name for a line of text, for
 * SVGs whose stacks name system fonts (the fast renderer's): the families the
 * SVG embeds for scripts and emoji (see embed-fonts.ts), and the colour emoji
 * fonts of ordinary systems. Pure: decided by the characters' scripts.
 */
import { CJK_FALLBACK_FAMILY } from '../editor-fonts.ts';
import { EMOJI_FAMILY } from './bundled.ts';
import { graphemes, isEmojiGrapheme } from './emoji.ts';

const SCRIPT_FALLBACKS: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef]/u, [CJK_FALLBACK_FAMILY]],
  [/\p{Script=Hangul}/u, [CJK_FALLBACK_FAMILY, 'Noto Sans KR']],
  [/\p{Script=Arabic}/u, ['Noto Sans Arabic']],
  [/\p{Script=Hebrew}/u, ['Noto Sans Hebrew']],
  [/\p{Script=Devanagari}/u, ['Noto Sans Devanagari']],
  [/\p{Script=Thai}/u, ['Noto Sans Thai']],
];
const SYSTEM_EMOJI_FAMILIES = ['Apple Color Emoji', 'Noto Color Emoji'];
const NOT_LATIN = /[^\u0000-\u024f]/u;

/**
 * A stack for `text`: unchanged for text in Latin scripts; otherwise its first family, the embedded fallback
 * families the text needs, the stack's other families, then the emoji fonts of ordinary systems and the
 * generic family. The embedded families come right after the first: Chromium draws a character from a
 * second face of an embedded family as a missing glyph when system fonts come before it in the stack.
 */
export function stackWithFallbacks(stack: string, text: string): string {
  if (!NOT_LATIN.test(text)) return stack;
  const embedded: string[] = [];
  for (const [script, names] of SCRIPT_FALLBACKS) if (script.test(text)) embedded.push(...names);
  const emoji = graphemes(text).some(isEmojiGrapheme);
  if (emoji) embedded.push(EMOJI_FAMILY);
  if (embedded.length === 0) return stack;
  const names = stack.split(',').map((name) => name.trim());
  return [...new Set([names[0]!, ...embedded, ...names.slice(1, -1), ...(emoji ? SYSTEM_EMOJI_FAMILIES : []), names.at(-1)!])].join(', ');
}
