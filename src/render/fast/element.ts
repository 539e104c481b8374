/**
 * Reads a stored element, which may hold anything ("preserved as supplied"),
 * into the fields the fast renderer draws, each checked and defaulted as the
 * editor would default it. Colours must match a small safe grammar, numbers
 * must be finite: nothing unchecked from the scene reaches the SVG.
 */
import { getLineHeight, isKnownFontFamily } from '../../domain/text/metrics.ts';

export type Point = readonly [number, number];

const TYPES = ['rectangle', 'diamond', 'ellipse', 'line', 'arrow', 'freedraw', 'text', 'image', 'frame', 'magicframe', 'embeddable', 'iframe'] as const;
type ElementType = (typeof TYPES)[number];
type FillStyle = 'solid' | 'hachure' | 'cross-hatch' | 'zigzag';
type StrokeStyle = 'solid' | 'dashed' | 'dotted';

interface Roundness {
  /** 1 legacy, 2 proportional, 3 adaptive; null when the stored roundness names no type. */
  type: number | null;
  value: number | null;
}

export interface FastElement {
  id: string;
  type: ElementType;
  index: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
  angle: number;
  strokeColor: string;
  backgroundColor: string;
  fillStyle: FillStyle;
  strokeWidth: number;
  strokeStyle: StrokeStyle;
  /** 0–1. */
  opacity: number;
  roundness: Roundness | null;
  frameId: string | null;
  containerId: string | null;
  /** Linear and freedraw elements: relative to x, y. */
  points: Point[];
  elbowed: boolean;
  startArrowhead: string | null;
  endArrowhead: string | null;
  text: string;
  fontSize: number;
  fontFamily: number;
  lineHeight: number;
  textAlign: 'left' | 'center' | 'right';
  name: string | null;
  link: string | null;
  /** Image elements: the file the editor would draw. */
  fileId: string | null;
  /** Text drawn bold or italic: customData.fontWeight "bold", customData.fontStyle "italic" (the editor has no such fields). */
  bold: boolean;
  italic: boolean;
}

const DEFAULT_STROKE_COLOR = '#1e1e1e';
const TRANSPARENT = 'transparent';
const DEFAULT_FONT_FAMILY = 5;
const DEFAULT_FONT_SIZE = 20;
const DEFAULT_LINE_HEIGHT = 1.25;

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:%|deg)?`;
const SEPARATOR = String.raw`(?:\s*[,/]\s*|\s+)`;
const FUNCTIONAL = new RegExp(String.raw`^(?:rgba?|hsla?)\(\s*${NUMBER}(?:${SEPARATOR}${NUMBER}){2,3}\s*\)$`, 'i');
const NAMED = /^[a-z]+$/i;
const MAX_COLOUR_LENGTH = 64;

/** The colour when it is a hex, rgb()/rgba()/hsl()/hsla() of numbers, or a plain colour name; otherwise the fallback. */
export function safeColour(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || value.length > MAX_COLOUR_LENGTH) return fallback;
  const colour = value.trim();
  return HEX.test(colour) || FUNCTIONAL.test(colour) || NAMED.test(colour) ? colour : fallback;
}

/** The editor's isTransparent: the keyword, or a #rgba / #rrggbbaa colour with zero alpha. */
export function isTransparent(colour: string): boolean {
  return (
    colour.toLowerCase() === TRANSPARENT ||
    (colour.length === 5 && colour[0] === '#' && colour[4] === '0') ||
    (colour.length === 9 && colour[0] === '#' && colour.slice(7) === '00')
  );
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const numberOr = (value: unknown, fallback: number) => (finite(value) ? value : fallback);
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

function readPoints(value: unknown): Point[] | null {
  if (!Array.isArray(value)) return [];
  const points: Point[] = [];
  for (const point of value) {
    if (!Array.isArray(point) || !finite(point[0]) || !finite(point[1])) return null;
    points.push([point[0], point[1]]);
  }
  return points;
}

function readRoundness(raw: Record<string, unknown>, type: ElementType): Roundness | null {
  const { roundness } = raw;
  if (roundness && typeof roundness === 'object') {
    const { type: roundnessType, value } = roundness as Record<string, unknown>;
    return { type: finite(roundnessType) ? roundnessType : null, value: finite(value) ? value : null };
  }
  if (roundness) return { type: null, value: null };
  // restore migrates the legacy strokeSharpness.
  if (raw.strokeSharpness === 'round') {
    const adaptive = type === 'rectangle' || type === 'image' || type === 'embeddable' || type === 'iframe';
    return { type: adaptive ? 3 : 2, value: null };
  }
  return null;
}

/** The drawable view of a stored element, or null when it is deleted, of an unknown type or unusable. */
export function readElement(raw: unknown): FastElement | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const element = raw as Record<string, unknown>;
  if (element.isDeleted === true || !TYPES.includes(element.type as ElementType)) return null;
  const type = element.type as ElementType;
  const points = readPoints(element.points);
  if (points === null) return null;
  if ((type === 'line' || type === 'arrow') && points.length < 2) return null;
  if (type === 'freedraw' && points.length < 1) return null;

  let x = numberOr(element.x, 0);
  let y = numberOr(element.y, 0);
  let width = numberOr(element.width, 0);
  let height = numberOr(element.height, 0);
  // restore flips a negative size into the position.
  if (width < 0) [x, width] = [x + width, -width];
  if (height < 0) [y, height] = [y + height, -height];

  const fontFamily = finite(element.fontFamily) ? element.fontFamily : DEFAULT_FONT_FAMILY;
  const familyLineHeight = isKnownFontFamily(fontFamily) ? getLineHeight(fontFamily) : DEFAULT_LINE_HEIGHT;
  const strokeWidth = numberOr(element.strokeWidth, 2);
  const fontSize = numberOr(element.fontSize, DEFAULT_FONT_SIZE);
  const lineHeight = numberOr(element.lineHeight, familyLineHeight);
  const fillStyle = typeof element.fillStyle === 'string' && element.fillStyle !== '' ? element.fillStyle : 'solid';
  return {
    id: typeof element.id === 'string' ? element.id : '',
    type,
    index: stringOrNull(element.index),
    x,
    y,
    width,
    height,
    angle: numberOr(element.angle, 0),
    strokeColor: safeColour(element.strokeColor, DEFAULT_STROKE_COLOR),
    backgroundColor: safeColour(element.backgroundColor, TRANSPARENT),
    // Rough.js draws an unknown fill style as hachure.
    fillStyle: oneOf(fillStyle, ['solid', 'hachure', 'cross-hatch', 'zigzag'], 'hachure'),
    strokeWidth: strokeWidth > 0 ? strokeWidth : 2,
    strokeStyle: oneOf(element.strokeStyle, ['solid', 'dashed', 'dotted'], 'solid'),
    opacity: Math.min(100, Math.max(0, numberOr(element.opacity, 100))) / 100,
    roundness: readRoundness(element, type),
    frameId: stringOrNull(element.frameId),
    containerId: stringOrNull(element.containerId),
    points,
    elbowed: element.elbowed === true,
    startArrowhead: stringOrNull(element.startArrowhead),
    // restore turns a missing end arrowhead into "arrow"; an explicit null stays.
    endArrowhead: element.endArrowhead === undefined ? 'arrow' : stringOrNull(element.endArrowhead),
    text: typeof element.text === 'string' ? element.text : '',
    fontSize: fontSize > 0 ? fontSize : DEFAULT_FONT_SIZE,
    fontFamily,
    lineHeight: lineHeight > 0 ? lineHeight : familyLineHeight,
    textAlign: oneOf(element.textAlign, ['left', 'center', 'right'], 'left'),
    name: stringOrNull(element.name),
    link: stringOrNull(element.link),
    fileId: stringOrNull(element.fileId),
    ...fontFace(element.customData),
  };
}

/** A text's weight and slant from its customData (what Drawbridge writes for a bold or italic label). */
function fontFace(customData: unknown): { bold: boolean; italic: boolean } {
  const data = customData !== null && typeof customData === 'object' ? (customData as Record<string, unknown>) : {};
  return { bold: data.fontWeight === 'bold', italic: data.fontStyle === 'italic' };
}

export const isLinear = (element: FastElement) => element.type === 'line' || element.type === 'arrow';
export const isFrameLike = (element: FastElement) => element.type === 'frame' || element.type === 'magicframe';
export const isIframeLike = (element: FastElement) => element.type === 'embeddable' || element.type === 'iframe';
