import { fractionalIndex, stableInt } from './determinism.ts';

/** The editor's defaults for new elements (Excalidraw 0.18). */
const DEFAULT_STROKE = '#1e1e1e';
export const FONT_SIZE = 20;
export const FONT_FAMILY_EXCALIFONT = 5;
export const LINE_HEIGHT = 1.25;
/** Distance kept between an arrow's end and the shape it is bound to. */
export const BINDING_GAP = 4;

export type ExcalidrawElement = Record<string, unknown> & { id: string; type: string };
export type BoundRef = { id: string; type: 'text' | 'arrow' };

export interface Style {
  strokeColor?: string | null;
  backgroundColor?: string | null;
  fillStyle?: string | null;
  strokeStyle?: 'solid' | 'dashed' | 'dotted';
  strokeWidth?: number | null;
}

/** Everything every element carries; seeds and nonces derive from the id, so output is deterministic. */
export function baseElement(
  id: string,
  type: string,
  box: { x: number; y: number; width: number; height: number },
  order: number,
  updated: number,
  style: Style = {},
): ExcalidrawElement {
  return {
    id,
    type,
    x: box.x,
    y: box.y,
    width: box.width,
    height: box.height,
    angle: 0,
    strokeColor: style.strokeColor ?? DEFAULT_STROKE,
    backgroundColor: style.backgroundColor ?? 'transparent',
    fillStyle: style.fillStyle ?? 'solid',
    strokeWidth: style.strokeWidth ?? 2,
    strokeStyle: style.strokeStyle ?? 'solid',
    roughness: 1,
    opacity: 100,
    groupIds: [],
    frameId: null,
    index: fractionalIndex(order),
    roundness: null,
    seed: stableInt(id),
    version: 1,
    versionNonce: stableInt(`${id}#nonce`),
    isDeleted: false,
    boundElements: [],
    updated,
    link: null,
    locked: false,
  };
}

/** Adds a back-reference (shape → its label or arrows). Empty lists stay `[]`, as the editor's restore makes them. */
export function addBound(element: ExcalidrawElement, ref: BoundRef): void {
  (element.boundElements as BoundRef[]).push(ref);
}

/** What a colour field may hold: the spec parser's rule (hex, a CSS name, rgb()/hsl()). */
export const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|(rgb|rgba|hsl|hsla)\([0-9.,%\s]{1,60}\))$/;

const INDEX_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Length of a fractional index key's integer part, head included (fractional-indexing's getIntegerLength). */
function indexIntegerLength(head: string): number {
  if (head >= 'a' && head <= 'z') return head.charCodeAt(0) - 'a'.charCodeAt(0) + 2;
  if (head >= 'A' && head <= 'Z') return 'Z'.charCodeAt(0) - head.charCodeAt(0) + 2;
  return 0;
}

/** Whether a value is a well-formed fractional index key, as the editor's generateKeyBetween accepts it. */
export function isIndexKey(key: unknown): key is string {
  if (typeof key !== 'string' || key === '') return false;
  const length = indexIntegerLength(key[0]!);
  if (length === 0 || key.length < length || (key.length > length && key.endsWith('0'))) return false;
  for (let i = 1; i < key.length; i++) if (!INDEX_DIGITS.includes(key[i]!)) return false;
  return true;
}

/**
 * The key of element `id` appended after `key`: the next integer key (indexKeyAfter) with a fraction of three
 * digits drawn from the id, so it still sorts after `key` and before the key after it. The store keeps no
 * tombstones, so the next integer key is often the one an element deleted a moment ago had, whose tombstone an
 * open editor still holds; two elements at one key make the editor re-index one of them and save that, a change
 * nobody made. Two ids share a fraction once in about 230,000 pairs; the same id always gets the same one.
 */
export function indexKeyFor(id: string, after: string | null): string {
  const hash = stableInt(id);
  const fraction = [Math.floor(hash / 62 / 62) % 62, Math.floor(hash / 62) % 62, 1 + (hash % 61)].map((digit) => INDEX_DIGITS[digit]).join('');
  return indexKeyAfter(after) + fraction;
}

/**
 * The key the editor's generateKeyBetween(key, null) returns: the next integer
 * key, so an element appended after `key` sorts last. Null gives the first key.
 */
function indexKeyAfter(key: string | null): string {
  if (key === null) return 'a0';
  const integer = key.slice(0, indexIntegerLength(key[0]!));
  const head = integer[0]!;
  const digits = integer.slice(1).split('');
  for (let i = digits.length - 1; i >= 0; i--) {
    const next = INDEX_DIGITS.indexOf(digits[i]!) + 1;
    if (next < INDEX_DIGITS.length) {
      digits[i] = INDEX_DIGITS[next]!;
      return head + digits.join('');
    }
    digits[i] = '0';
  }
  if (head === 'Z') return 'a0';
  // Past the largest integer key the editor appends a midpoint digit instead.
  if (head === 'z') return `${key}V`;
  const nextHead = String.fromCharCode(head.charCodeAt(0) + 1);
  if (nextHead > 'a') digits.push('0');
  else digits.pop();
  return nextHead + digits.join('');
}
