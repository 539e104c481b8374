/**
 * Text as the editor measures and places it: a text element's font, its size
 * with its own line height, and a label wrapped and positioned in its
 * container (a shape too small for it grows; an arrow's label sits on its middle).
 */
import type { SceneElement } from '../edit/types.ts';
import { FONT_FAMILY_EXCALIFONT, FONT_SIZE } from '../scene/elements.ts';
import { boundTextArea } from '../scene/factory.ts';
import type { Point } from '../scene/geometry.ts';
import {
  BOUND_TEXT_PADDING,
  getBoundTextMaxHeight,
  getBoundTextMaxWidth,
  getLineHeight,
  getLineWidth,
  isKnownFontFamily,
  type ShapeContainerType,
  wrapText,
} from '../text/metrics.ts';
import type { Draft } from './draft.ts';
import { absolutePoints, isFiniteNumber, num, outlineOf } from './element-geometry.ts';
import { labelOf } from './references.ts';

/** Where the editor centres an arrow's label: its middle point, or the middle of its middle segment. */
function middleOf(pts: Point[]): Point | null {
  if (pts.length < 2) return null;
  if (pts.length % 2 === 1) return pts[(pts.length - 1) / 2]!;
  const a = pts[pts.length / 2 - 1]!;
  const b = pts[pts.length / 2]!;
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

export function textContainerType(type: string): ShapeContainerType {
  return type === 'ellipse' || type === 'diamond' ? type : 'rectangle';
}

/** The editor's computeContainerDimensionForBoundText: the container size a text size needs. */
function containerDimensionFor(textSize: number, type: ShapeContainerType): number {
  const size = Math.ceil(textSize);
  const padding = BOUND_TEXT_PADDING * 2;
  if (type === 'ellipse') return Math.round(((size + padding) / Math.sqrt(2)) * 2);
  if (type === 'diamond') return 2 * (size + padding);
  return size + padding;
}

/** A text's size as the editor measures it, with the element's own line height. */
export function measure(text: string, fontSize: number, family: number, lineHeight: number): { width: number; height: number } {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const width = Math.max(0, ...lines.map((line) => getLineWidth(line || ' ', fontSize, family)));
  return { width, height: fontSize * lineHeight * lines.length };
}

interface TextStyle {
  fontSize: number;
  fontFamily: number;
  lineHeight: number;
  original: string;
}

/** A text element's font and original text, or null when the editor's metrics cannot measure it. */
export function textStyleOf(e: SceneElement): TextStyle | null {
  const family = num(e.fontFamily, FONT_FAMILY_EXCALIFONT);
  if (!isKnownFontFamily(family)) return null;
  const original = typeof e.originalText === 'string' && e.originalText !== '' ? e.originalText : typeof e.text === 'string' ? e.text : '';
  if (original === '') return null;
  const lineHeight = isFiniteNumber(e.lineHeight) && e.lineHeight > 0 ? e.lineHeight : getLineHeight(family);
  return { fontSize: num(e.fontSize, FONT_SIZE) || FONT_SIZE, fontFamily: family, lineHeight, original };
}

/**
 * Wraps and places a label in its container as the editor does: wrapped at
 * the container's text width, positioned by its alignment (an arrow's label
 * centred on the arrow's middle); a shape too small for it grows.
 */
export function fitLabel(draft: Draft, labelId: string): void {
  const label = draft.edit(labelId);
  const container = draft.get(label.containerId as string);
  if (!container) return;
  const style = textStyleOf(label);
  if (container.type === 'arrow') {
    if (style) {
      const maxWidth = getBoundTextMaxWidth('arrow', num(container.width), style.fontSize);
      label.text = wrapText(style.original, style.fontSize, maxWidth, style.fontFamily);
      Object.assign(label, measure(label.text as string, style.fontSize, style.fontFamily, style.lineHeight));
    }
    const middle = middleOf(absolutePoints(container));
    if (middle) {
      label.x = middle[0] - num(label.width) / 2;
      label.y = middle[1] - num(label.height) / 2;
    }
    return;
  }
  const type = textContainerType(container.type);
  if (style) {
    const maxWidth = getBoundTextMaxWidth(type, num(container.width));
    label.text = wrapText(style.original, style.fontSize, maxWidth, style.fontFamily);
    const size = measure(label.text as string, style.fontSize, style.fontFamily, style.lineHeight);
    label.width = size.width;
    label.height = size.height;
    if (size.height > getBoundTextMaxHeight(type, num(container.height))) draft.edit(container.id).height = containerDimensionFor(size.height, type);
    if (size.width > maxWidth) draft.edit(container.id).width = containerDimensionFor(size.width, type);
  }
  const area = boundTextArea(type, outlineOf(draft.get(container.id)!));
  const width = num(label.width);
  const height = num(label.height);
  label.x = label.textAlign === 'left' ? area.x : label.textAlign === 'right' ? area.x + (area.width - width) : area.x + (area.width / 2 - width / 2);
  label.y = label.verticalAlign === 'top' ? area.y : label.verticalAlign === 'bottom' ? area.y + (area.height - height) : area.y + (area.height / 2 - height / 2);
}

export function refitArrowLabel(draft: Draft, arrowId: string): void {
  const label = labelOf(draft, arrowId);
  if (label) fitLabel(draft, label.id);
}
