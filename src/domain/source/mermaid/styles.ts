/**
 * Mermaid's CSS styling (`classDef`, `class`, `:::`, `style`, `linkStyle`,
 * `classDef default`, `linkStyle default`) as the spec's colours and lines.
 *
 * Nodes: `fill` a solid background, `stroke` the outline colour, `color` the
 * text colour, `stroke-width` the outline width, `stroke-dasharray` a dashed
 * outline, `font-weight: bold` and `font-style: italic` a bold or italic
 * label. Mermaid writes a label in its own ink whatever the outline's colour,
 * so a node with an outline colour and no text colour gets the default ink
 * as its text colour (the spec would otherwise write it in the outline's);
 * on a fill too dark for that ink, white. A text colour that would not be
 * readable on its fill (white on a pale green) is shaded, darker on a light
 * fill and lighter on a dark one, just until it reads. Links: `stroke` the line's (and
 * head's) colour, `stroke-width` its width, `stroke-dasharray` dashes. Any
 * other property is warned about.
 */
import { STROKE_WIDTH_RANGE } from '../../spec/types.ts';
import { cssColor, DEFAULT_INK, readableOn, readableShade } from '../colors.ts';
import type { EdgeInput, NodeInput } from './spec-input.ts';

const [MIN_WIDTH, MAX_WIDTH] = STROKE_WIDTH_RANGE;

/** Declarations in order, later ones winning, as property → value; `!important` dropped. */
export function declarations(...lists: Array<string[] | string | undefined>): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of lists.flatMap((list) => (typeof list === 'string' ? list.split(';') : (list ?? [])))) {
    const at = rule.indexOf(':');
    if (at > 0) out.set(rule.slice(0, at).trim().toLowerCase(), rule.slice(at + 1).replace(/!important/i, '').trim());
  }
  return out;
}

/** Warns; `needle` is the text written in the source that the warning is about. */
type Report = (message: string, needle?: string) => void;

function colour(raw: string, report: Report): string | null {
  const value = cssColor(raw);
  if (value === null) report(`the colour "${raw}" is not one Drawbridge knows; left out`, raw);
  return value;
}

function width(raw: string, report: Report): number | null {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(px)?$/i.exec(raw);
  if (!match) {
    report(`the line width "${raw}" is not a width in pixels; left out`, raw);
    return null;
  }
  const value = Number(match[1]);
  const kept = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, value));
  if (kept !== value) report(`line widths are drawn between ${MIN_WIDTH} and ${MAX_WIDTH} px: ${raw} is drawn as ${kept}`, raw);
  return kept;
}

const dashed = (raw: string) => !/^(none|0+(\.0+)?(px)?([\s,]+0+(\.0+)?(px)?)*)$/i.test(raw.trim());

const NODE_TEXT_PROPERTIES = new Set(['font-weight', 'font-style']);

/** A node's look from its declarations. */
export function nodeLook(css: Map<string, string>, report: Report): Partial<NodeInput> {
  const look: Partial<NodeInput> = {};
  // A node styled to no size (`width:0px;height:0px`) is where its links meet: a bar, which draws no label.
  const none = (property: string) => css.has(property) && /^0*(\.0+)?(px)?$/i.test(css.get(property)!.trim());
  const junction = none('width') && none('height');
  if (junction) {
    look.shape = 'fork';
    report('a node styled to no size (width:0px; height:0px) is drawn as a bar where its links meet', 'width');
  }
  for (const [property, value] of css) {
    if (junction && (property === 'width' || property === 'height')) continue;
    if (property === 'fill') {
      const fill = colour(value, report);
      if (fill !== null && fill !== 'transparent') Object.assign(look, { backgroundColor: fill, fillStyle: 'solid' });
    } else if (property === 'stroke') {
      const stroke = colour(value, report);
      if (stroke !== null) look.strokeColor = stroke;
    } else if (property === 'color') {
      const text = colour(value, report);
      if (text !== null) look.textColor = text;
    } else if (property === 'stroke-width') {
      const kept = width(value, report);
      if (kept !== null) look.strokeWidth = kept;
    } else if (property === 'stroke-dasharray') {
      if (dashed(value)) look.strokeStyle = 'dashed';
    } else if (NODE_TEXT_PROPERTIES.has(property)) {
      if (property === 'font-weight') look.bold = /^(bold|bolder|[6-9]00)$/i.test(value);
      else look.italic = /^(italic|oblique)/i.test(value);
    } else {
      report(`the style property ${property} is not drawn`, property);
    }
  }
  const fill = look.backgroundColor ?? null;
  if (look.textColor === undefined) {
    if (!readableOn(DEFAULT_INK, fill)) {
      look.textColor = '#ffffff';
      report('a label on a fill too dark for the default ink, and without a text colour (color:), is written in white');
    } else if (look.strokeColor !== undefined) look.textColor = DEFAULT_INK;
  } else if (look.textColor !== null && !readableOn(look.textColor, fill)) {
    look.textColor = readableShade(look.textColor, fill);
    report('a text colour (color:) that would not be readable on its fill (or the white page) is shaded until it is');
  }
  if (look.bold === false) delete look.bold;
  if (look.italic === false) delete look.italic;
  return look;
}

/** A link's look from its declarations. */
export function edgeLook(css: Map<string, string>, report: Report): Partial<EdgeInput> {
  const look: Partial<EdgeInput> = {};
  for (const [property, value] of css) {
    if (property === 'stroke') {
      const stroke = colour(value, report);
      if (stroke !== null) look.strokeColor = stroke;
    } else if (property === 'stroke-width') {
      const kept = width(value, report);
      if (kept !== null) look.strokeWidth = kept;
    } else if (property === 'stroke-dasharray') {
      if (dashed(value)) look.style = 'dashed';
    } else if (property === 'color') {
      report('link label colours (linkStyle color) are not drawn', 'color');
    } else if (!(property === 'fill' && value === 'none')) {
      // Mermaid adds `fill:none` to every styled link itself.
      report(`the link style property ${property} is not drawn`, property);
    }
  }
  return look;
}
