import type { ArrowheadName, EdgeStyle } from './types.ts';

export interface ShorthandEdge {
  from: string;
  to: string;
  label: string | null;
  startArrowhead: ArrowheadName;
  endArrowhead: ArrowheadName;
  style: EdgeStyle;
}

/** Longest first, so `<->` wins over `<-` and `-->` over `--`. */
const ARROWS: Array<[string, Omit<ShorthandEdge, 'from' | 'to' | 'label'>]> = [
  ['<->', { startArrowhead: 'arrow', endArrowhead: 'arrow', style: 'solid' }],
  ['-->', { startArrowhead: 'none', endArrowhead: 'arrow', style: 'dashed' }],
  ['->', { startArrowhead: 'none', endArrowhead: 'arrow', style: 'solid' }],
  ['<-', { startArrowhead: 'arrow', endArrowhead: 'none', style: 'solid' }],
  ['--', { startArrowhead: 'none', endArrowhead: 'none', style: 'solid' }],
];

/** Why a shorthand string was refused; the caller wraps it as MALFORMED_SHORTHAND. */
export class ShorthandError extends Error {}

function arrowAt(text: string, at: number): (typeof ARROWS)[number] | undefined {
  return ARROWS.find(([token]) => text.startsWith(token, at));
}

/**
 * Parses `FROM ARROW TO` with an optional `: LABEL` tail (docs/spec.md, "Grammar").
 * Endpoints are bare ids, or double-quoted when they hold spaces, arrow
 * characters or a colon (`\"` and `\\` escape inside quotes).
 */
export function parseShorthand(text: string): ShorthandEdge {
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const endpoint = (which: 'first' | 'second'): string => {
    skipSpace();
    if (text[at] === '"') {
      let value = '';
      at++;
      while (at < text.length && text[at] !== '"') {
        if (text[at] === '\\' && at + 1 < text.length) at++;
        value += text[at];
        at++;
      }
      if (text[at] !== '"') throw new ShorthandError('an opening quote is never closed');
      at++;
      if (value === '') throw new ShorthandError(`the ${which} endpoint is empty`);
      return value;
    }
    const start = at;
    while (at < text.length && !/\s/.test(text[at]!) && !(which === 'first' && arrowAt(text, at)) && !(which === 'second' && text[at] === ':')) at++;
    if (at === start) throw new ShorthandError(`the ${which === 'first' ? 'source' : 'target'} endpoint is missing`);
    return text.slice(start, at);
  };

  const from = endpoint('first');
  skipSpace();
  const arrow = arrowAt(text, at);
  if (!arrow) throw new ShorthandError('the arrow is missing (use ->, <-, <->, -- or -->)');
  at += arrow[0].length;
  const to = endpoint('second');
  skipSpace();
  let label: string | null = null;
  if (at < text.length) {
    if (text[at] !== ':') throw new ShorthandError(`unexpected text after the target: ${JSON.stringify(text.slice(at, at + 20))}`);
    label = text.slice(at + 1).trim();
    if (label === '') throw new ShorthandError('the label after ":" is empty');
  }
  return { from, to, label, ...arrow[1] };
}
