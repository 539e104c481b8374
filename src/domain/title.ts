export const TITLE_MAX_LENGTH = 200;
export const UNTITLED = 'Untitled diagram';

// Bidirectional overrides let a title display differently from what it is.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
const CONTROL_CHARACTERS = /\p{Cc}/gu;

/**
 * Sanitises a user-supplied title or name: whitespace controls become spaces,
 * other control and bidi characters are removed, whitespace runs collapse to
 * one space, the ends are trimmed, and the result is cut to `max` code points.
 * May return '' — callers decide whether that is a default or an error.
 */
export function sanitizeTitle(input: string, max = TITLE_MAX_LENGTH): string {
  const cleaned = input
    .toWellFormed()
    .replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, ' ')
    .replace(CONTROL_CHARACTERS, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/\s+/gu, ' ')
    .trim();
  const codePoints = Array.from(cleaned);
  return codePoints.length <= max ? cleaned : codePoints.slice(0, max).join('').trimEnd();
}
