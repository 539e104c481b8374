/**
 * Relations written as Mermaid writes them, one string each.
 *
 * Class diagrams: `FROM ["m"] MARK TO ["n"] [: label]` with MARK one of
 * `<|--` (inheritance), `*--` (composition), `o--` (aggregation), `-->`
 * (association), `--` (link), `..>` (dependency), `..|>` (realisation), `..`
 * (dashed link), and the same marks at the other end (`--|>`, `--*`, `--o`,
 * `<--`, `<..`, `<|..`) or at both; the quoted texts are the ends'
 * multiplicities. Spaces around the mark are required (an id may end in `o`).
 *
 * ER diagrams: `FROM LEFT--RIGHT TO [: label]` (`..` for a non-identifying
 * relationship) with crow's-foot ends: `||` exactly one, `|o` / `o|` zero or
 * one, `}|` / `|{` one or more, `}o` / `o{` zero or more.
 */
import type { EditorHead, Relation } from './types.ts';

const QUOTED = String.raw`"(?:[^"\\]|\\[\s\S])+"`;
const ID = String.raw`(${QUOTED}|[^\s"]+)`;
const unquote = (id: string) => (id.startsWith('"') ? id.slice(1, -1).replace(/\\([\s\S])/g, '$1') : id);

const CLASS_LEFT: Record<string, EditorHead> = { '<|': 'triangle_outline', '*': 'diamond', o: 'diamond_outline', '<': 'arrow', '': 'none' };
const CLASS_RIGHT: Record<string, EditorHead> = { '|>': 'triangle_outline', '*': 'diamond', o: 'diamond_outline', '>': 'arrow', '': 'none' };
export const CLASS_RELATION_PATTERN = String.raw`^\s*${ID}\s+(?:"([^"]*)"\s+)?(<\||\*|o|<)?(--|\.\.)(\|>|\*|o|>)?\s+(?:"([^"]*)"\s+)?${ID}\s*(?::([\s\S]*))?$`;
const CLASS_RELATION = new RegExp(CLASS_RELATION_PATTERN, 'u');

/** A class relation as written, or null when the string is not one. */
export function parseClassRelation(text: string): Relation | null {
  const match = CLASS_RELATION.exec(text);
  if (!match) return null;
  const [, from, fromText, left, line, right, toText, to, label] = match;
  return {
    from: unquote(from!),
    to: unquote(to!),
    line: line === '..' ? 'dashed' : 'solid',
    startHead: CLASS_LEFT[left ?? '']!,
    endHead: CLASS_RIGHT[right ?? '']!,
    label: (label ?? '').trim(),
    fromText: fromText ?? '',
    toText: toText ?? '',
  };
}

export const CARDINALITIES = ['one', 'zeroOrOne', 'oneOrMore', 'zeroOrMore'] as const;
export type Cardinality = (typeof CARDINALITIES)[number];
const ER_LEFT: Record<string, Cardinality> = { '||': 'one', '|o': 'zeroOrOne', '}|': 'oneOrMore', '}o': 'zeroOrMore' };
const ER_RIGHT: Record<string, Cardinality> = { '||': 'one', 'o|': 'zeroOrOne', '|{': 'oneOrMore', 'o{': 'zeroOrMore' };
export const ER_RELATION_PATTERN = String.raw`^\s*${ID}\s*(\|\||\|o|\}\||\}o)(--|\.\.)(\|\||o\||\|\{|o\{)\s*${ID}\s*(?::([\s\S]*))?$`;
const ER_RELATION = new RegExp(ER_RELATION_PATTERN, 'u');

/**
 * A cardinality as the editor's crow's-foot head, and the text kept beside it: the editor's heads say
 * exactly one, many (zero or more) and one or more, so "zero or one" is the head of one with `0..1` beside it.
 */
export function cardinalityEnd(cardinality: Cardinality): { head: EditorHead; text: string } {
  switch (cardinality) {
    case 'one':
      return { head: 'crowfoot_one', text: '' };
    case 'zeroOrOne':
      return { head: 'crowfoot_one', text: '0..1' };
    case 'oneOrMore':
      return { head: 'crowfoot_one_or_many', text: '' };
    case 'zeroOrMore':
      return { head: 'crowfoot_many', text: '' };
  }
}

export interface ErRelationText {
  from: string;
  to: string;
  fromCardinality: Cardinality;
  toCardinality: Cardinality;
  identifying: boolean;
  label: string;
}

/** An ER relationship as written, or null when the string is not one. */
export function parseErRelation(text: string): ErRelationText | null {
  const match = ER_RELATION.exec(text);
  if (!match) return null;
  const [, from, left, line, right, to, label] = match;
  return {
    from: unquote(from!),
    to: unquote(to!),
    fromCardinality: ER_LEFT[left!]!,
    toCardinality: ER_RIGHT[right!]!,
    identifying: line === '--',
    label: (label ?? '').trim().replace(/^"([\s\S]*)"$/, '$1'),
  };
}
