/**
 * A stored element as the editor would draw it: every field the editor
 * defaults, when missing or not of its kind, given the editor's default.
 * Scenes are stored as supplied, and the editor's own `restoreElements`
 * (which the faithful renderer runs too) leaves some fields as they came: a
 * text without `fontSize` keeps none, and its exporter then writes
 * `font-size="undefinedpx"` and `y="NaN"`. Both renderers read a scene
 * through this first, so neither sees a field the editor would not have.
 *
 * The defaults are the editor's (Excalidraw 0.18): DEFAULT_ELEMENT_PROPS,
 * restore.ts's, and a new text's font size and family. A field of the wrong
 * kind (a string where a number goes) is treated as missing, so no NaN or
 * `undefined` can come of it.
 */
import { DEFAULT_FONT_FAMILY, DEFAULT_FONT_SIZE, getLineHeight, isKnownFontFamily, measureText } from '../text/metrics.ts';

type Element = Record<string, unknown>;

/**
 * Past this size a number is no drawing's: the exporters square and multiply
 * coordinates, and 1e300 becomes Infinity, then NaN. Such a number counts as missing.
 */
export const MAX_DRAWABLE_MAGNITUDE = 1e9;

const finite = (value: unknown): value is number => typeof value === 'number' && Math.abs(value) <= MAX_DRAWABLE_MAGNITUDE;
const positive = (value: unknown): value is number => finite(value) && value > 0;
const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);
const isPoint = (point: unknown) => Array.isArray(point) && finite(point[0]) && finite(point[1]);

/** A fractional index as the editor's fractional-indexing library validates one (validateOrderKey), in base 62. */
function isOrderKey(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[A-Za-z][0-9A-Za-z]*$/.test(value) || value === `A${'0'.repeat(26)}`) return false;
  const head = value.charCodeAt(0);
  const integerLength = value[0]! >= 'a' ? head - 'a'.charCodeAt(0) + 2 : 'Z'.charCodeAt(0) - head + 2;
  return value.length >= integerLength && !(value.length > integerLength && value.endsWith('0'));
}

/** DEFAULT_ELEMENT_PROPS and the rest of restoreElementWithProperties: what every element has. */
function commonFields(element: Element): Element {
  return {
    x: finite(element.x) ? element.x : 0,
    y: finite(element.y) ? element.y : 0,
    width: finite(element.width) ? element.width : 0,
    height: finite(element.height) ? element.height : 0,
    angle: finite(element.angle) ? element.angle : 0,
    strokeColor: nonEmptyString(element.strokeColor) ? element.strokeColor : '#1e1e1e',
    backgroundColor: nonEmptyString(element.backgroundColor) ? element.backgroundColor : 'transparent',
    fillStyle: nonEmptyString(element.fillStyle) ? element.fillStyle : 'solid',
    strokeWidth: positive(element.strokeWidth) ? element.strokeWidth : 2,
    strokeStyle: nonEmptyString(element.strokeStyle) ? element.strokeStyle : 'solid',
    roughness: finite(element.roughness) ? element.roughness : 1,
    opacity: finite(element.opacity) ? element.opacity : 100,
    seed: Number.isSafeInteger(element.seed) ? element.seed : 1,
    groupIds: Array.isArray(element.groupIds) ? element.groupIds.filter((id) => typeof id === 'string') : [],
    frameId: stringOrNull(element.frameId),
    boundElements: Array.isArray(element.boundElements) ? element.boundElements.filter((bound) => bound !== null && typeof bound === 'object') : [],
    roundness: element.roundness !== null && typeof element.roundness === 'object' ? element.roundness : null,
    isDeleted: element.isDeleted === true,
    // restore derives a missing fractional index, but throws on some malformed ones.
    index: isOrderKey(element.index) ? element.index : null,
  };
}

/** A text's fields: a new text's font size and family; the line height as restore detects it (from the height, else the family's). */
function textFields(element: Element): Element {
  const text = typeof element.text === 'string' ? element.text : '';
  const fontSize = positive(element.fontSize) ? element.fontSize : DEFAULT_FONT_SIZE;
  const fontFamily = finite(element.fontFamily) ? element.fontFamily : DEFAULT_FONT_FAMILY;
  const lines = text.split(/\r\n?|\n/).length;
  const lineHeight = positive(element.lineHeight)
    ? element.lineHeight
    : positive(element.height)
      ? element.height / lines / fontSize
      : getLineHeight(isKnownFontFamily(fontFamily) ? fontFamily : DEFAULT_FONT_FAMILY);
  // A text without a usable size is measured, as the editor sizes text it lays out: left at 0 × 0,
  // the editor's restore would drop it as invisibly small, and the text would vanish from the picture.
  const measured = finite(element.width) && finite(element.height) ? null : measureText(text, fontSize, isKnownFontFamily(fontFamily) ? fontFamily : DEFAULT_FONT_FAMILY);
  return {
    ...(measured === null ? {} : { width: finite(element.width) ? element.width : measured.width, height: finite(element.height) ? element.height : measured.height }),
    text,
    originalText: nonEmptyString(element.originalText) ? element.originalText : text,
    fontSize,
    fontFamily,
    lineHeight,
    textAlign: oneOf(element.textAlign, ['left', 'center', 'right'], 'left'),
    verticalAlign: oneOf(element.verticalAlign, ['top', 'middle', 'bottom'], 'top'),
    containerId: stringOrNull(element.containerId),
    autoResize: typeof element.autoResize === 'boolean' ? element.autoResize : true,
  };
}

const samePoint = (a: unknown, b: unknown) => (a as number[])[0] === (b as number[])[0] && (a as number[])[1] === (b as number[])[1];

/**
 * Points as restore gives a line or arrow with fewer than two (a segment across
 * its box), and a freedraw none (too small to draw, as the editor judges).
 * A point repeating the one before draws nothing, and the editor's exporter
 * turns the direction it lacks into NaN: such points are left out, and a line
 * left with a single point has no direction for arrowheads either.
 */
function pointFields(element: Element, width: number, height: number): Element {
  const points = Array.isArray(element.points) && element.points.every(isPoint) ? element.points : null;
  if (element.type === 'freedraw') {
    const pressures = Array.isArray(element.pressures) && element.pressures.every(finite) ? element.pressures : [];
    return {
      points: points ?? [],
      pressures,
      simulatePressure: typeof element.simulatePressure === 'boolean' ? element.simulatePressure : pressures.length === 0,
    };
  }
  const given = points && points.length >= 2 ? points : [[0, 0], [width, height]];
  const distinct = given.filter((point, i) => i === 0 || !samePoint(point, given[i - 1]));
  if (distinct.length >= 2) return { points: distinct };
  return { points: [distinct[0], distinct[0]], startArrowhead: null, endArrowhead: null };
}

const CROP_FIELDS = ['x', 'y', 'width', 'height', 'naturalWidth', 'naturalHeight'];
const isCrop = (crop: unknown) => crop !== null && typeof crop === 'object' && CROP_FIELDS.every((field) => finite((crop as Element)[field]));

/** The element with the editor's defaults wherever it has no usable value; other fields as stored. */
export function withEditorDefaults(element: Element): Element {
  const common = commonFields(element);
  const filled: Element = { ...element, ...common };
  switch (element.type) {
    case 'text':
      return { ...filled, ...textFields(element) };
    case 'line':
    case 'arrow':
    case 'freedraw':
      return { ...filled, ...pointFields(element, common.width as number, common.height as number) };
    case 'image':
      return {
        ...filled,
        fileId: stringOrNull(element.fileId),
        scale: Array.isArray(element.scale) && element.scale.length === 2 && element.scale.every(finite) ? element.scale : [1, 1],
        crop: isCrop(element.crop) ? element.crop : null,
      };
    case 'frame':
    case 'magicframe':
      return { ...filled, name: stringOrNull(element.name) };
    default:
      return filled;
  }
}

/** Every element of a scene through withEditorDefaults; anything that is not an element object is left out. */
export function sceneWithEditorDefaults(elements: readonly unknown[]): Element[] {
  return elements.filter((element): element is Element => element !== null && typeof element === 'object' && !Array.isArray(element)).map(withEditorDefaults);
}
