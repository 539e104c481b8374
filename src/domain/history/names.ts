/**
 * How a history summary names an element: a shape by its label, a text by
 * its text, an arrow by the shapes at its ends, else by its type ("a
 * rectangle"). Names are one line of at most MAX_NAME characters.
 */
import type { SceneElement } from '../edit/types.ts';
import { endId, type End, isArrow, type SceneSides, type Side } from './scene-sides.ts';

export const MAX_NAME = 24;

/** A text as a name: whitespace collapsed, at most MAX_NAME characters; null when blank. */
export function shortName(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  return flat.length <= MAX_NAME ? flat : `${flat.slice(0, MAX_NAME - 1).trimEnd()}…`;
}

const TYPE_NOUNS: Record<string, string> = { freedraw: 'drawing', embeddable: 'embed', iframe: 'embed', magicframe: 'frame' };

/** "a rectangle", "an ellipse". */
export function typeName(type: string): string {
  const noun = TYPE_NOUNS[type] ?? type;
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** The name of the element with this id on one side of the delta. */
export function nameOf(sides: SceneSides, side: Side, id: string): string {
  const element = sides.get(side, id);
  return element === undefined ? 'an element' : nameElement(sides, side, element, 0);
}

// Depth bounds the walk from a label to its container and from an arrow to its ends, which a malformed scene could loop.
function nameElement(sides: SceneSides, side: Side, element: SceneElement, depth: number): string {
  if (depth > 2) return typeName(element.type);
  if (isArrow(element)) return arrowName(sides, side, element, depth);
  if (element.type === 'text' && sides.isLabel(side, element)) return nameElement(sides, side, sides.get(side, element.containerId as string)!, depth + 1);
  if (element.type === 'text') return shortName(element.text) ?? 'a text';
  return shortName(sides.label(side, element.id)?.text) ?? typeName(element.type);
}

function arrowName(sides: SceneSides, side: Side, arrow: SceneElement, depth: number): string {
  const end = (key: End): string | null => {
    const id = endId(arrow, key);
    const target = id === null ? undefined : sides.get(side, id);
    return target === undefined ? null : nameElement(sides, side, target, depth + 1);
  };
  const from = end('startBinding');
  const to = end('endBinding');
  if (from !== null && to !== null) return `an arrow from ${from} to ${to}`;
  if (from !== null) return `an arrow from ${from}`;
  if (to !== null) return `an arrow to ${to}`;
  const label = shortName(sides.label(side, arrow.id)?.text);
  return label === null ? 'an arrow' : `the arrow ${label}`;
}
