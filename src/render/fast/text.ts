/**
 * Text as the editor's SVG exporter lays it out (renderElementToSvg, "text"):
 * one <text> per stored line, lineHeight × fontSize apart, the first baseline
 * placed by the font's ascender and descender (getVerticalOffset), drawn in
 * system fonts rather than the editor's own, with the families the SVG embeds
 * for other scripts and emoji named after them.
 */
import { getLineWidth } from '../../domain/text/metrics.ts';
import { stackWithFallbacks } from '../fonts/stacks.ts';
import { isTransparent, type Point } from './element.ts';
import type { Bounds } from './geometry.ts';
import { placement, tag, text } from './xml.ts';

export const MONOSPACE_STACK = 'Cascadia Code, Consolas, ui-monospace, monospace';
export const SANS_STACK = 'Liberation Sans, Helvetica, Arial, sans-serif';
/** Cascadia (3) and Comic Shanns (8) are the editor's code fonts. */
const MONOSPACE_FAMILIES = new Set([3, 8]);
const HELVETICA = 2;

interface FontMetrics {
  unitsPerEm: number;
  ascender: number;
  descender: number;
}

/** The editor's FONT_METADATA metrics per FONT_FAMILY id; an unknown family is measured as Virgil (1), as the editor does. */
const FONT_METRICS: Record<number, FontMetrics> = {
  1: { unitsPerEm: 1000, ascender: 886, descender: -374 },
  2: { unitsPerEm: 2048, ascender: 1577, descender: -471 },
  3: { unitsPerEm: 2048, ascender: 1900, descender: -480 },
  5: { unitsPerEm: 1000, ascender: 886, descender: -374 },
  6: { unitsPerEm: 1000, ascender: 1011, descender: -353 },
  7: { unitsPerEm: 1000, ascender: 923, descender: -220 },
  8: { unitsPerEm: 1000, ascender: 750, descender: -250 },
  9: { unitsPerEm: 2048, ascender: 1854, descender: -434 },
};

/** The editor's FRAME_STYLE for frame names. */
const FRAME_NAME = { color: '#999999', fontSize: 14, lineHeight: 1.25, offsetY: 3 };
/** Frame names are cut before measuring: the editor's truncation loop is quadratic in the name's length. */
const MAX_FRAME_NAME_LENGTH = 300;

const LTR_CHARS = 'A-Za-z\xC0-\xD6\xD8-\xF6\xF8-\u02B8\u0300-\u0590\u0800-\u1FFF\u2C00-\uFB1C\uFDFE-\uFE6F\uFEFD-\uFFFF';
const RTL_CHARS = '\u0591-\u07FF\uFB1D-\uFDFD\uFE70-\uFEFC';
/** The editor's isRTL: the first strongly directional character is right-to-left. */
const STARTS_RTL = new RegExp(`^[^${LTR_CHARS}]*[${RTL_CHARS}]`);

/** A block of text to draw: a text element, or a label the renderer adds (frame names, embed links). */
export interface TextBlock {
  x: number;
  y: number;
  width: number;
  height: number;
  angle: number;
  text: string;
  fontSize: number;
  fontFamily: number;
  lineHeight: number;
  textAlign: 'left' | 'center' | 'right';
  color: string;
  bold?: boolean;
  italic?: boolean;
}

/** The stack a line is drawn in: system fonts standing in for the editor's family, and the fallbacks the SVG embeds for other scripts and emoji (fonts/stacks.ts). */
function fontStack(fontFamily: number, line = ''): string {
  return stackWithFallbacks(MONOSPACE_FAMILIES.has(fontFamily) ? MONOSPACE_STACK : SANS_STACK, line);
}

/** Distance from a line's top to its baseline (the editor's getVerticalOffset). */
function verticalOffset(fontFamily: number, fontSize: number, lineHeightPx: number): number {
  const { unitsPerEm, ascender, descender } = FONT_METRICS[fontFamily] ?? FONT_METRICS[1]!;
  const fontSizeEm = fontSize / unitsPerEm;
  const lineGap = (lineHeightPx - fontSizeEm * ascender + fontSizeEm * descender) / 2;
  return fontSizeEm * ascender + lineGap;
}

/** The lines of a block, one <text> each, in a group placed at the block's position (offset into the document). */
export function textMarkup(block: TextBlock, offset: Point): string {
  if (block.text === '') return '';
  const lines = block.text.split(/\r\n?|\n/);
  const lineHeightPx = block.fontSize * block.lineHeight;
  const baseline = verticalOffset(block.fontFamily, block.fontSize, lineHeightPx);
  const x = block.textAlign === 'center' ? block.width / 2 : block.textAlign === 'right' ? block.width : 0;
  const rtl = STARTS_RTL.test(block.text);
  const anchor = block.textAlign === 'center' ? 'middle' : block.textAlign === 'right' || rtl ? 'end' : 'start';
  const children = lines.map((line, i) =>
    tag(
      'text',
      {
        x,
        y: i * lineHeightPx + baseline,
        'font-family': fontStack(block.fontFamily, line),
        'font-size': `${block.fontSize}px`,
        ...(block.bold ? { 'font-weight': 'bold' } : {}),
        ...(block.italic ? { 'font-style': 'italic' } : {}),
        fill: isTransparent(block.color) ? 'none' : block.color,
        'text-anchor': anchor,
        style: 'white-space: pre;',
        'xml:space': 'preserve',
        direction: rtl ? 'rtl' : 'ltr',
        'dominant-baseline': 'alphabetic',
      },
      text(line),
    ),
  );
  const transform = placement(block.x + offset[0], block.y + offset[1], block.angle, block.width / 2, block.height / 2);
  return tag('g', { transform }, children.join(''));
}

/** The name the editor's exporter writes above a frame (addFrameLabelsAsTextElements), cut with "..." to the frame's width. */
export function frameLabel(frame: { x: number; y: number; width: number; type: string; name: string | null }): TextBlock {
  const title = (frame.name ?? (frame.type === 'frame' ? 'Frame' : 'AI Frame')).slice(0, MAX_FRAME_NAME_LENGTH);
  const lines = title.split(/\r\n?|\n/);
  const height = lines.length * FRAME_NAME.fontSize * FRAME_NAME.lineHeight;
  let width = Math.max(...lines.map((line) => getLineWidth(line || ' ', FRAME_NAME.fontSize, HELVETICA)));
  let label = title;
  if (width > frame.width) {
    width = frame.width;
    // The editor measures the whole name on one line and keeps the longest prefix that fits with "...".
    if (getLineWidth(title, FRAME_NAME.fontSize, HELVETICA) > frame.width) {
      for (let i = title.length; i > 0; i--) {
        const cut = `${title.slice(0, i)}...`;
        if (getLineWidth(cut, FRAME_NAME.fontSize, HELVETICA) <= frame.width) {
          label = cut;
          break;
        }
      }
    }
  }
  return {
    x: frame.x,
    y: frame.y - FRAME_NAME.offsetY - height,
    width,
    height,
    angle: 0,
    text: label,
    fontSize: FRAME_NAME.fontSize,
    fontFamily: HELVETICA,
    lineHeight: FRAME_NAME.lineHeight,
    textAlign: 'left',
    color: FRAME_NAME.color,
  };
}

export function textBounds(block: TextBlock): Bounds {
  return [block.x, block.y, block.x + block.width, block.y + block.height];
}
