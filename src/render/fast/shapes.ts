/**
 * Closed shapes (rectangle, diamond, ellipse) with the editor's outlines
 * (_generateElementShape), frames as the exporter outlines them, and the
 * placeholders drawn instead of images and embeds.
 */
import { getLineHeight, wrapText } from '../../domain/text/metrics.ts';
import type { FastElement, Point } from './element.ts';
import { cornerRadius, type Defs, elementTransform, fillOf, opacityAttribute, paintColour, strokeAttributes } from './paint.ts';
import { type TextBlock, textMarkup } from './text.ts';
import { num, tag } from './xml.ts';

const FRAME_STYLE = { stroke: '#bbb', strokeWidth: 2, radius: 8 };
const PLACEHOLDER = { fill: '#f1f3f5', stroke: '#adb5bd', dash: '6 4', glyphShare: 0.4, minGlyph: 6 };
const HELVETICA = 2;
/** Links are cut before wrapping: a placeholder label only needs what fits. */
const MAX_LINK_LENGTH = 500;
/** The editor's restore (sanitize-url) turns script-capable links into about:blank, whatever whitespace or controls hide the scheme. */
const UNSAFE_LINK = /^(?:javascript|vbscript|data):/i;
const IGNORED_IN_SCHEME = /[\s\u0000-\u001F\u007F-\u009F]/g;

/** The editor's rounded rectangle: quadratic corners of getCornerRadius. */
function roundedRectPath(width: number, height: number, r: number): string {
  const [w, h] = [num(width), num(height)];
  const [rr, wr, hr] = [num(r), num(width - r), num(height - r)];
  return `M ${rr} 0 L ${wr} 0 Q ${w} 0, ${w} ${rr} L ${w} ${hr} Q ${w} ${h}, ${wr} ${h} L ${rr} ${h} Q 0 ${h}, 0 ${hr} L 0 ${rr} Q 0 0, ${rr} 0 Z`;
}

/** The editor's diamond (getDiamondPoints, with its off-by-one top and side) and its rounded variant. */
function diamondPath(element: FastElement): string {
  const { width, height } = element;
  const [topX, topY] = [Math.floor(width / 2) + 1, 0];
  const [rightX, rightY] = [width, Math.floor(height / 2) + 1];
  const [bottomX, bottomY] = [topX, height];
  const [leftX, leftY] = [0, rightY];
  const p = (x: number, y: number) => `${num(x)} ${num(y)}`;
  if (!element.roundness) return `M ${p(topX, topY)} L ${p(rightX, rightY)} L ${p(bottomX, bottomY)} L ${p(leftX, leftY)} Z`;
  const v = cornerRadius(Math.abs(topX - leftX), element);
  const h = cornerRadius(Math.abs(rightY - topY), element);
  return [
    `M ${p(topX + v, topY + h)} L ${p(rightX - v, rightY - h)}`,
    `C ${p(rightX, rightY)}, ${p(rightX, rightY)}, ${p(rightX - v, rightY + h)}`,
    `L ${p(bottomX + v, bottomY - h)}`,
    `C ${p(bottomX, bottomY)}, ${p(bottomX, bottomY)}, ${p(bottomX - v, bottomY - h)}`,
    `L ${p(leftX + v, leftY + h)}`,
    `C ${p(leftX, leftY)}, ${p(leftX, leftY)}, ${p(leftX + v, leftY - h)}`,
    `L ${p(topX - v, topY + h)}`,
    `C ${p(topX, topY)}, ${p(topX, topY)}, ${p(topX + v, topY + h)}`,
  ].join(' ');
}

export function shapeMarkup(element: FastElement, offset: Point, opacity: number, defs: Defs): string {
  const { width, height } = element;
  const paint = { transform: elementTransform(element, offset), opacity: opacityAttribute(opacity), fill: fillOf(element, defs), ...strokeAttributes(element) };
  if (element.type === 'ellipse') return tag('ellipse', { cx: width / 2, cy: height / 2, rx: width / 2, ry: height / 2, ...paint });
  if (element.type === 'diamond') return tag('path', { d: diamondPath(element), ...paint });
  if (element.roundness) return tag('path', { d: roundedRectPath(width, height, cornerRadius(Math.min(width, height), element)), ...paint });
  return tag('rect', { width, height, ...paint });
}

/** A frame's outline as the exporter draws it: a grey rectangle with fixed rounded corners, whatever the frame's own style. */
export function frameMarkup(element: FastElement, offset: Point): string {
  const { stroke, strokeWidth, radius } = FRAME_STYLE;
  return tag('rect', { transform: elementTransform(element, offset), width: element.width, height: element.height, rx: radius, ry: radius, fill: 'none', stroke, 'stroke-width': strokeWidth });
}

/** A landscape glyph (hills and a sun) centred in a w × h box. */
function pictureGlyph(width: number, height: number): string {
  const size = Math.min(width, height) * PLACEHOLDER.glyphShare;
  if (size < PLACEHOLDER.minGlyph) return '';
  const [left, top] = [(width - size) / 2, (height - size) / 2];
  const at = (u: number, v: number) => `${num(left + u * size)} ${num(top + v * size)}`;
  const stroke = { fill: 'none', stroke: PLACEHOLDER.stroke, 'stroke-width': Math.max(1, size / 16), 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
  const hills = tag('path', { d: `M ${at(0, 1)} L ${at(0.35, 0.45)} L ${at(0.6, 0.8)} L ${at(0.75, 0.6)} L ${at(1, 1)} Z`, ...stroke });
  const sun = tag('circle', { cx: left + 0.78 * size, cy: top + 0.2 * size, r: 0.12 * size, ...stroke });
  return hills + sun;
}

function placeholderBox(element: FastElement): string {
  const { width, height } = element;
  const radius = element.roundness ? cornerRadius(Math.min(width, height), element) : 0;
  return tag('rect', { width, height, rx: radius || undefined, ry: radius || undefined, fill: PLACEHOLDER.fill, stroke: PLACEHOLDER.stroke, 'stroke-width': 1, 'stroke-dasharray': PLACEHOLDER.dash });
}

/** An image's stand-in: the scene carries no files, and the fast preview never references any. */
export function imagePlaceholderMarkup(element: FastElement, offset: Point, opacity: number): string {
  return tag('g', { transform: elementTransform(element, offset), opacity: opacityAttribute(opacity) }, placeholderBox(element) + pictureGlyph(element.width, element.height));
}

/**
 * An image drawn from a data: URL the caller vouches for (catalog icons), fitted
 * into the element's box as the editor does; the caller never passes a URL a
 * scene supplied.
 */
export function imageMarkup(element: FastElement, href: string, offset: Point, opacity: number): string {
  const image = tag('image', { href, x: 0, y: 0, width: element.width, height: element.height, preserveAspectRatio: 'xMidYMid meet' });
  return tag('g', { transform: elementTransform(element, offset), opacity: opacityAttribute(opacity) }, image);
}

/** An embed's stand-in: the image placeholder with, instead of the picture, its link as plain text, sized and centred as the editor labels embeds. */
export function embedPlaceholderMarkup(element: FastElement, offset: Point, opacity: number): string {
  const label = embedLabel(element);
  const box = tag('g', { transform: elementTransform(element, offset) }, placeholderBox(element) + (label ? '' : pictureGlyph(element.width, element.height)));
  return tag('g', { opacity: opacityAttribute(opacity) }, box + (label ? textMarkup(label, offset) : ''));
}

/** The editor's createPlaceholderEmbeddableLabel, for an embed with a link. */
function embedLabel(element: FastElement): TextBlock | null {
  if (!element.link) return null;
  const link = UNSAFE_LINK.test(element.link.replace(IGNORED_IN_SCHEME, '')) ? 'about:blank' : element.link.slice(0, MAX_LINK_LENGTH);
  const { width, height } = element;
  const fontSize = Math.max(Math.min(width / 2, width / link.length), width / 30);
  if (!(fontSize > 0)) return null;
  const text = wrapText(link, fontSize, width - 20, HELVETICA);
  const lines = text.split('\n').length;
  const lineHeight = getLineHeight(HELVETICA);
  const blockHeight = lines * fontSize * lineHeight;
  return {
    x: element.x,
    y: element.y + (height - blockHeight) / 2,
    width,
    height: blockHeight,
    angle: element.angle,
    text,
    fontSize,
    fontFamily: HELVETICA,
    lineHeight,
    textAlign: 'center',
    color: paintColour(element.strokeColor) === 'none' ? 'black' : element.strokeColor,
  };
}
