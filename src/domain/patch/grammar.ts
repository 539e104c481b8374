/**
 * The op grammar: which ops exist (the fields each takes are its schema's, in
 * schema.ts), the element types and fields an op may set with what each value must be, and the
 * OpContext through which an op reports what is wrong with it (INVALID_SPEC,
 * message `ops[i]: …`).
 */
import { ApiError } from '../../errors.ts';
import type { SceneElement, WriteStamp } from '../edit/types.ts';
import { isPlainObject, quote } from '../payload.ts';
import { CSS_COLOR } from '../scene/elements.ts';
import { FILL_STYLES } from '../spec/types.ts';
import { isKnownFontFamily } from '../text/metrics.ts';
import type { Draft } from './draft.ts';
import { FRAMES, isBoundText, isFiniteNumber } from './element-geometry.ts';

export type OpKind = 'add' | 'update' | 'move' | 'resize' | 'restyle' | 'delete';

export const STYLE_KEYS = ['strokeColor', 'backgroundColor', 'fillStyle', 'strokeWidth', 'strokeStyle', 'roughness', 'opacity', 'fontSize', 'fontFamily'] as const;

export const OP_KINDS: readonly OpKind[] = ['add', 'update', 'move', 'resize', 'restyle', 'delete'];

export type Check = (value: unknown) => string | null;

export const isPair = (value: unknown): boolean => Array.isArray(value) && value.length === 2 && value.every(isFiniteNumber);

const finite: Check = (v) => (isFiniteNumber(v) ? null : 'must be a finite number');
export const nonNegative: Check = (v) => (isFiniteNumber(v) && v >= 0 ? null : 'must be a number ≥ 0');
export const between =
  (min: number, max: number, { aboveMin = false, integer = false } = {}): Check =>
  (v) =>
    isFiniteNumber(v) && (aboveMin ? v > min : v >= min) && v <= max && (!integer || Number.isInteger(v))
      ? null
      : `must be ${integer ? 'an integer' : 'a number'} ${aboveMin ? 'above' : 'from'} ${min} ${aboveMin ? 'and at most' : 'to'} ${max}`;
const integer: Check = (v) => (Number.isSafeInteger(v) ? null : 'must be an integer');
const oneOf =
  (allowed: readonly (string | null)[]): Check =>
  (v) =>
    allowed.includes(v as string | null) ? null : `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
const booleanOrNull: Check = (v) => (v === null || typeof v === 'boolean' ? null : 'must be true, false or null');
const nonEmptyString: Check = (v) => (typeof v === 'string' && v !== '' ? null : 'must be a non-empty string (the editor deletes empty text)');
const stringOrNull: Check = (v) => (v === null || typeof v === 'string' ? null : 'must be a string or null');
const plainObject: Check = (v) => (isPlainObject(v) ? null : 'must be an object');
const arrayOrNull: Check = (v) => (v === null || Array.isArray(v) ? null : 'must be an array or null');
const onlyNull: Check = (v) => (v === null ? null : 'must be null (the editor resets it on load)');
const stringList: Check = (v) => (Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== '') ? null : 'must be an array of non-empty strings');
const numberList: Check = (v) => (Array.isArray(v) && v.every(isFiniteNumber) ? null : 'must be an array of numbers');
const colour: Check = (v) => (typeof v === 'string' && CSS_COLOR.test(v) ? null : 'must be a CSS colour such as "#1e1e1e" or "transparent"');
const fontFamily: Check = (v) => (isFiniteNumber(v) && isKnownFontFamily(v) ? null : 'must be a known font family: 1 Virgil, 2 Helvetica, 3 Cascadia, 5 Excalifont, 6 Nunito, 7 Lilita One, 8 Comic Shanns, 9 Liberation Sans');
const points: Check = (v) => (Array.isArray(v) && v.length >= 2 && v.every(isPair) ? null : 'must be an array of at least two [x, y] pairs of numbers');
const roundness: Check = (v) =>
  v === null || (isPlainObject(v) && [1, 2, 3].includes(v.type as number) && Object.keys(v).every((k) => k === 'type' || (k === 'value' && isFiniteNumber(v.value))))
    ? null
    : 'must be null or { "type": 1, 2 or 3, "value"?: number }';
const scale: Check = (v) => (Array.isArray(v) && v.length === 2 && v.every((s) => s === 1 || s === -1) ? null : 'must be [sx, sy], each 1 or -1');
const crop: Check = (v) =>
  v === null || (isPlainObject(v) && ['x', 'y', 'width', 'height', 'naturalWidth', 'naturalHeight'].every((k) => isFiniteNumber(v[k]))) ? null : 'must be null or { x, y, width, height, naturalWidth, naturalHeight }';

const ARROWHEADS = [null, 'arrow', 'bar', 'dot', 'circle', 'circle_outline', 'triangle', 'triangle_outline', 'diamond', 'diamond_outline', 'crowfoot_one', 'crowfoot_many', 'crowfoot_one_or_many'];
const STROKE_STYLES = ['solid', 'dashed', 'dotted'];

/** Sane ranges for the style numbers (the editor's own choices lie well inside them). */
export const STYLE_CHECKS: Record<(typeof STYLE_KEYS)[number], Check> = {
  strokeColor: colour,
  backgroundColor: colour,
  fillStyle: oneOf(FILL_STYLES),
  strokeWidth: between(0, 50, { aboveMin: true }),
  strokeStyle: oneOf(STROKE_STYLES),
  roughness: between(0, 5),
  opacity: between(0, 100),
  fontSize: between(1, 500),
  fontFamily,
};

/** Fields every element has, with what a value must be. */
export const COMMON_FIELDS: Record<string, Check> = {
  x: finite,
  y: finite,
  width: nonNegative,
  height: nonNegative,
  angle: finite,
  strokeColor: colour,
  backgroundColor: colour,
  fillStyle: STYLE_CHECKS.fillStyle,
  strokeWidth: STYLE_CHECKS.strokeWidth,
  strokeStyle: STYLE_CHECKS.strokeStyle,
  roughness: STYLE_CHECKS.roughness,
  opacity: STYLE_CHECKS.opacity,
  roundness,
  seed: integer,
  groupIds: stringList,
  frameId: stringOrNull,
  link: stringOrNull,
  locked: boolean,
  customData: plainObject,
};

/** The element types the editor (0.18) keeps, with the fields each adds to the common ones. */
export const TYPE_FIELDS: Record<string, Record<string, Check>> = {
  rectangle: {},
  ellipse: {},
  diamond: {},
  embeddable: {},
  iframe: {},
  text: {
    text: nonEmptyString,
    originalText: nonEmptyString,
    fontSize: STYLE_CHECKS.fontSize,
    fontFamily,
    textAlign: oneOf(['left', 'center', 'right']),
    verticalAlign: oneOf(['top', 'middle', 'bottom']),
    autoResize: boolean,
    lineHeight: between(0, 10, { aboveMin: true }),
  },
  arrow: {
    points,
    lastCommittedPoint: onlyNull,
    startArrowhead: oneOf(ARROWHEADS),
    endArrowhead: oneOf(ARROWHEADS),
    elbowed: boolean,
    fixedSegments: arrayOrNull,
    startIsSpecial: booleanOrNull,
    endIsSpecial: booleanOrNull,
  },
  line: { points, lastCommittedPoint: onlyNull, startArrowhead: oneOf(ARROWHEADS), endArrowhead: oneOf(ARROWHEADS) },
  freedraw: { points, pressures: numberList, simulatePressure: boolean, lastCommittedPoint: onlyNull },
  image: { fileId: stringOrNull, status: oneOf(['pending', 'saved', 'error']), scale, crop },
  frame: { name: stringOrNull },
  magicframe: { name: stringOrNull },
};
export const ELEMENT_TYPES = Object.keys(TYPE_FIELDS);

/** Fields that state a relation between elements: derived on add, refused by update. */
export const RELATION_FIELDS = new Set(['containerId', 'startBinding', 'endBinding', 'boundElements']);
/** Fields the server keeps (z-order and the version clock): assigned on add, refused by update. */
export const MANAGED_FIELDS = new Set(['index', 'version', 'versionNonce', 'updated']);

/** What a text may be bound to. */
export const TEXT_CONTAINERS = new Set(['rectangle', 'ellipse', 'diamond', 'arrow']);


export function describe(element: SceneElement): string {
  if (isBoundText(element)) return `the label of ${quote(element.containerId as string)}`;
  return `${/^[aeiou]/.test(element.type) ? 'an' : 'a'} ${element.type}`;
}

export function labelHint(key: string, type: string): string {
  if (key !== 'label' || type === 'text') return '';
  return type === 'arrow' || TEXT_CONTAINERS.has(type)
    ? '; a label is a text element of its own: change its "text", or add one with "containerId"'
    : '';
}

export function relationHint(key: string): string {
  switch (key) {
    case 'containerId':
      return 'delete the label and add a text with the new containerId';
    case 'boundElements':
      return 'they follow from the arrows’ bindings and the labels’ containerId';
    default:
      return 'delete the arrow and add one bound as wanted, or move it to unbind it';
  }
}

/** One op being applied: the draft and stamp it works with, and its index for error messages. */
export class OpContext {
  readonly draft: Draft;
  readonly stamp: WriteStamp;
  private readonly at: number;
  constructor(draft: Draft, stamp: WriteStamp, at: number) {
    this.draft = draft;
    this.stamp = stamp;
    this.at = at;
  }

  fail(message: string): never {
    throw new ApiError('INVALID_SPEC', `ops[${this.at}]: ${message}`);
  }

  /** The live element an op's "id" names. */
  target(id: unknown): SceneElement {
    if (typeof id !== 'string' || id === '') this.fail('"id" must be a non-empty string');
    const element = this.draft.get(id);
    if (!element) this.fail(`no element has id ${quote(id)}`);
    return element;
  }

  check(where: string, value: unknown, check: Check): void {
    const problem = check(value);
    if (problem !== null) this.fail(`${where} ${problem}`);
  }

  checkFrame(frameId: unknown, where: string): void {
    if (typeof frameId !== 'string') return;
    const frame = this.draft.get(frameId);
    if (!frame || !FRAMES.has(frame.type)) this.fail(`${where} ${quote(frameId)} names no frame`);
  }
}
