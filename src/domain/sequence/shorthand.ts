/**
 * A message written as one string, with Mermaid's sequence arrows, so a line
 * of a Mermaid sequence diagram is a step as it stands:
 * `FROM ARROW TO` with an optional `: LABEL`, ids bare or double-quoted.
 *
 * | arrow | line | head |
 * |---|---|---|
 * | `->>` / `-->>` | solid / dashed | filled triangle (a call / a reply) |
 * | `->` / `-->` | solid / dashed | none |
 * | `-)` / `--)` | solid / dashed | open arrow (asynchronous) |
 * | `-x` / `--x` | solid / dashed | bar (a lost message: the editor has no cross head) |
 * | `<<->>` / `<<-->>` | solid / dashed | triangles at both ends |
 *
 * A `+` right after the arrow activates the target, a `-` ends the source's activation.
 */
import type { ArrowheadName } from '../spec/types.ts';
import type { Message, MessageLine } from './types.ts';

const ARROWS: Record<string, { line: MessageLine; end: ArrowheadName; start: ArrowheadName }> = {
  '<<-->>': { line: 'dashed', end: 'triangle', start: 'triangle' },
  '<<->>': { line: 'solid', end: 'triangle', start: 'triangle' },
  '-->>': { line: 'dashed', end: 'triangle', start: 'none' },
  '->>': { line: 'solid', end: 'triangle', start: 'none' },
  '-->': { line: 'dashed', end: 'none', start: 'none' },
  '->': { line: 'solid', end: 'none', start: 'none' },
  '--x': { line: 'dashed', end: 'bar', start: 'none' },
  '-x': { line: 'solid', end: 'bar', start: 'none' },
  '--)': { line: 'dashed', end: 'arrow', start: 'none' },
  '-)': { line: 'solid', end: 'arrow', start: 'none' },
};

const QUOTED = String.raw`"(?:[^"\\]|\\[\s\S])+"`;
const ARROW = Object.keys(ARROWS)
  .map((a) => a.replace(/[()]/g, '\\$&'))
  .join('|');
/** The grammar as an ECMAScript regular expression (for the JSON Schema); `parseMessageShorthand` reads it. */
export const MESSAGE_SHORTHAND_PATTERN = String.raw`^\s*(${QUOTED}|[^\s"]+?)\s*(${ARROW})([+-]?)\s*(${QUOTED}|[^\s":+-][^\s":]*)\s*(?::([\s\S]*))?$`;
const SHORTHAND = new RegExp(MESSAGE_SHORTHAND_PATTERN, 'u');

/** What a shorthand string says: a message's fields but those of an object only (create, destroy). */
export type ShorthandMessage = Pick<Message, 'from' | 'to' | 'label' | 'line' | 'startArrowhead' | 'endArrowhead' | 'activate' | 'deactivate'>;

const unquote = (id: string) => (id.startsWith('"') ? id.slice(1, -1).replace(/\\([\s\S])/g, '$1') : id);

/** The message a shorthand string says, or null when it is not one. */
export function parseMessageShorthand(text: string): ShorthandMessage | null {
  const match = SHORTHAND.exec(text);
  if (!match) return null;
  const [, from, arrow, mark, to, label] = match;
  const kind = ARROWS[arrow!]!;
  return {
    from: unquote(from!),
    to: unquote(to!),
    label: (label ?? '').trim(),
    line: kind.line,
    startArrowhead: kind.start,
    endArrowhead: kind.end,
    activate: mark === '+',
    deactivate: mark === '-',
  };
}
