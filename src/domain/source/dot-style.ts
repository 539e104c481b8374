/**
 * What a DOT node's, cluster's or edge's attributes make of its spec fields:
 * shapes, labels, colours, outlines, arrowheads, ranking hints. What the spec
 * cannot draw is warned about through the `warn` each function is given.
 */
import { DEFAULT_INK, graphvizColor, readableOn, readableShade } from './colors.ts';
import { escString, htmlText, type LabelNames, recordText } from './dot-labels.ts';

/** An attribute's value, where it was set (1-based line) and whether it was written as HTML (`<…>`). */
export interface Attr {
  value: string;
  line: number;
  html: boolean;
}
export type Attributes = Map<string, Attr>;

/** Records a warning; one per `key`, at the first line it is given. */
type Warn = (key: string, line: number, message: string) => void;

export interface StyleContext {
  warn: Warn;
  graphName: string;
  /** Whether a record's top-level fields sit side by side (rankdir TB or BT) rather than stacked. */
  recordsAcross: boolean;
}

type SpecShape = 'rectangle' | 'ellipse' | 'circle' | 'doublecircle' | 'diamond' | 'text' | 'cylinder' | 'hexagon' | 'parallelogram' | 'subroutine' | 'document' | 'start';

/** Graphviz shapes (lower case) and the spec shape each is drawn as; `drawn` says what a reader misses, and is warned. */
const SHAPES: Record<string, { shape: SpecShape; drawn?: string }> = {
  box: { shape: 'rectangle' },
  rect: { shape: 'rectangle' },
  rectangle: { shape: 'rectangle' },
  square: { shape: 'rectangle' },
  msquare: { shape: 'rectangle' },
  record: { shape: 'rectangle' },
  mrecord: { shape: 'rectangle' },
  ellipse: { shape: 'ellipse' },
  oval: { shape: 'ellipse' },
  egg: { shape: 'ellipse' },
  circle: { shape: 'circle' },
  mcircle: { shape: 'circle' },
  doublecircle: { shape: 'doublecircle' },
  point: { shape: 'start' },
  diamond: { shape: 'diamond' },
  mdiamond: { shape: 'diamond' },
  cylinder: { shape: 'cylinder' },
  hexagon: { shape: 'hexagon' },
  pentagon: { shape: 'hexagon' },
  septagon: { shape: 'hexagon' },
  octagon: { shape: 'hexagon' },
  doubleoctagon: { shape: 'hexagon', drawn: 'is drawn as a hexagon with one outline' },
  tripleoctagon: { shape: 'hexagon', drawn: 'is drawn as a hexagon with one outline' },
  parallelogram: { shape: 'parallelogram' },
  trapezium: { shape: 'parallelogram', drawn: 'is drawn as a parallelogram' },
  invtrapezium: { shape: 'parallelogram', drawn: 'is drawn as a parallelogram' },
  note: { shape: 'document' },
  component: { shape: 'subroutine' },
  plaintext: { shape: 'text' },
  plain: { shape: 'text' },
  none: { shape: 'text' },
  underline: { shape: 'text', drawn: 'is drawn as text without the line under it' },
};
/** Graphviz shapes with no likeness in the spec: drawn as rectangles, warned. */
const OTHER_GRAPHVIZ_SHAPES = new Set(
  ('tab folder box3d house invhouse triangle invtriangle star cds signature promoter rpromoter lpromoter rarrow larrow terminator utr primersite ' +
    'restrictionsite fivepoverhang threepoverhang noverhang assembly insulator ribosite rnastab proteasesite proteinstab epsf').split(' '),
);

type Head = 'arrow' | 'triangle' | 'bar' | 'dot' | 'circle' | 'diamond' | 'none';

/** Graphviz arrow shapes, filled and open (`o…`), and the spec arrowhead each is drawn as; `exact: false` is warned. */
const ARROW_SHAPES: Record<string, { filled: Head; open: Head; exact: boolean }> = {
  normal: { filled: 'arrow', open: 'triangle', exact: true },
  vee: { filled: 'arrow', open: 'arrow', exact: true },
  dot: { filled: 'dot', open: 'circle', exact: true },
  tee: { filled: 'bar', open: 'bar', exact: true },
  diamond: { filled: 'diamond', open: 'diamond', exact: true },
  none: { filled: 'none', open: 'none', exact: true },
  inv: { filled: 'triangle', open: 'triangle', exact: false },
  box: { filled: 'bar', open: 'bar', exact: false },
  crow: { filled: 'arrow', open: 'arrow', exact: false },
  curve: { filled: 'arrow', open: 'arrow', exact: false },
  icurve: { filled: 'arrow', open: 'arrow', exact: false },
};
/** Graphviz's older arrow names, as the shapes they stand for. */
const ARROW_ALIASES: Record<string, string> = { open: 'vee', halfopen: 'lvee', empty: 'onormal', invempty: 'oinv', ediamond: 'odiamond' };

/** The spec's default outline width; Graphviz's penwidth 1 is drawn at it. */
const DEFAULT_STROKE_WIDTH = 2;
const STROKE_WIDTH_RANGE = [0.5, 16] as const;
const MIN_LENGTH_RANGE = [0, 10] as const;

/** What a reader would see that the drawing leaves out, by attribute. */
export const NOT_DRAWN: Record<string, string> = {
  pos: 'fixed positions (pos) are not kept: Drawbridge lays the diagram out',
  image: 'images (image, <img>) are not drawn',
  URL: 'links (URL, href) are not kept',
  href: 'links (URL, href) are not kept',
  edgeURL: 'links (URL, href) are not kept',
  edgehref: 'links (URL, href) are not kept',
  headURL: 'links (URL, href) are not kept',
  headhref: 'links (URL, href) are not kept',
  tailURL: 'links (URL, href) are not kept',
  tailhref: 'links (URL, href) are not kept',
  labelURL: 'links (URL, href) are not kept',
  labelhref: 'links (URL, href) are not kept',
  headport: 'ports and compass points (node:port, headport, tailport) are not kept: edges end at the node',
  tailport: 'ports and compass points (node:port, headport, tailport) are not kept: edges end at the node',
  bgcolor: 'the background colour (bgcolor) is not drawn',
  layer: 'layers (layer, layers) are not kept: everything is drawn',
  layers: 'layers (layer, layers) are not kept: everything is drawn',
};

const BLACK = new Set(['black', '#000', '#000000', '#000000ff']);
const FILLED_STYLES = ['filled', 'radial', 'striped', 'wedged'];

function styleWords(attributes: Attributes): Set<string> {
  return new Set((attributes.get('style')?.value ?? '').split(',').map((word) => word.trim().toLowerCase()).filter(Boolean));
}

const isFilled = (style: Set<string>) => FILLED_STYLES.some((word) => style.has(word));

/** A Graphviz colour attribute as a CSS colour (a list as its first colour), or null with a warning when unknown. */
function colourOf(ctx: StyleContext, attr: Attr | undefined): string | null {
  if (attr === undefined || attr.value.trim() === '') return null;
  if (attr.value.includes(':')) ctx.warn('color-list', attr.line, 'colour lists (gradients, stripes, parallel lines) are drawn in their first colour');
  const colour = graphvizColor(attr.value);
  if (colour !== null) return colour;
  if (/^\s*\d+\s*$/.test(attr.value)) ctx.warn('color-scheme', attr.line, 'colours numbered in a colour scheme (colorscheme) are not known; left out');
  else ctx.warn(`color:${attr.value}`, attr.line, `the colour "${attr.value}" is not one Drawbridge knows; left out`);
  return null;
}

/** A line width from penwidth (or style bold, or the old setlinewidth(n)), scaled so Graphviz's 1 is the spec's default; undefined at the default. */
function strokeWidthOf(attributes: Attributes, style: Set<string>): number | undefined {
  const pen = attributes.get('penwidth')?.value;
  const old = /setlinewidth\(([\d.]+)\)/.exec(attributes.get('style')?.value ?? '')?.[1];
  const width = pen !== undefined ? Number(pen) : old !== undefined ? Number(old) : style.has('bold') ? 2 : 1;
  if (!Number.isFinite(width) || width < 0) return undefined;
  const scaled = Math.min(STROKE_WIDTH_RANGE[1], Math.max(STROKE_WIDTH_RANGE[0], width * DEFAULT_STROKE_WIDTH));
  return scaled === DEFAULT_STROKE_WIDTH ? undefined : scaled;
}

function strokeStyleOf(style: Set<string>): 'dashed' | 'dotted' | undefined {
  return style.has('dashed') ? 'dashed' : style.has('dotted') ? 'dotted' : undefined;
}

/** A label with what of its look it carries (bold, italic, colour from HTML markup; a box from an HTML table's border). */
export interface Label {
  text: string;
  bold: boolean;
  italic: boolean;
  color: string | null;
  boxed: boolean;
  /** A background the label draws itself (an HTML table's bgcolor). */
  fill: string | null;
}

/** A `label` attribute as text: HTML-like, a record's fields, or an escString. */
export function labelOf(ctx: StyleContext, attr: Attr | undefined, names: LabelNames, record = false): Label | undefined {
  if (attr === undefined) return undefined;
  const plain = (text: string): Label => ({ text, bold: false, italic: false, color: null, boxed: false, fill: null });
  if (attr.html) {
    const html = htmlText(attr.value);
    if (html.flattened) ctx.warn('html', attr.line, 'HTML-like labels are drawn as plain text: a line per line or table row, cells joined by " | "; fonts, cell colours and borders are left out');
    if (html.image) ctx.warn('image', attr.line, NOT_DRAWN.image!);
    const color = html.color === null ? null : colourOf(ctx, { ...attr, value: html.color });
    const fill = html.fill === null ? null : colourOf(ctx, { ...attr, value: html.fill });
    return { text: html.text, bold: html.bold, italic: html.italic, color, boxed: html.boxed, fill };
  }
  if (record) {
    const fields = recordText(attr.value, ctx.recordsAcross, names);
    if (fields.fields > 1 || fields.ports) ctx.warn('record', attr.line, 'record labels are drawn as text: side-by-side fields joined by " | ", stacked fields a line each; ports are dropped');
    return plain(fields.text);
  }
  return plain(trimLines(escString(attr.value, names)));
}

/** Spaces around a line (authors pad edge labels away from their line with them) and blank lines around the text: Drawbridge places labels itself. */
const trimLines = (text: string) => text.split('\n').map((line) => line.trim()).join('\n').replace(/^\n+|\n+$/g, '');

function fontLook(attributes: Attributes, label: Label | undefined): { bold?: true; italic?: true } {
  const font = attributes.get('fontname')?.value ?? '';
  return {
    ...(label?.bold || /bold|black|heavy/i.test(font) ? { bold: true as const } : {}),
    ...(label?.italic || /italic|oblique/i.test(font) ? { italic: true as const } : {}),
  };
}

/**
 * The label colour, kept apart from the outline's as Graphviz keeps it
 * (black unless `fontcolor` says otherwise), set only where it differs from
 * the spec's default (the outline colour). A label colour that would not be
 * readable on its fill (or the white page) is shaded until it is, and the
 * default black on a dark fill becomes white, warned.
 */
function textColourInto(ctx: StyleContext, spec: Record<string, unknown>, wanted: string | null, line: number): void {
  const fill = (spec.backgroundColor as string | undefined) ?? null;
  let text = wanted;
  if (!readableOn(text ?? DEFAULT_INK, fill)) {
    text = text === null ? '#ffffff' : readableShade(text, fill);
    ctx.warn('ink', line, 'label colours that would not be readable on their fill (or the white page) are shaded until they are');
  }
  const outline = spec.strokeColor as string | undefined;
  if (text === null) {
    if (outline !== undefined) spec.textColor = DEFAULT_INK;
  } else if (text !== outline) spec.textColor = text;
}

function shapeOf(ctx: StyleContext, attributes: Attributes, line: number): { name: string; shape: SpecShape } {
  const attr = attributes.get('shape');
  const name = (attr?.value ?? 'ellipse').toLowerCase();
  if (name === 'polygon') {
    const sides = Number(attributes.get('sides')?.value ?? 4);
    if (Number(attributes.get('skew')?.value ?? 0) !== 0) return { name, shape: 'parallelogram' };
    if (sides >= 5) return { name, shape: 'hexagon' };
    if (sides === 3) ctx.warn('shape:polygon', line, 'shape=polygon with 3 sides is drawn as a rectangle');
    return { name, shape: 'rectangle' };
  }
  const known = SHAPES[name];
  if (known) {
    if (known.drawn) ctx.warn(`shape:${name}`, attr?.line ?? line, `shape=${name} ${known.drawn}`);
    return { name, shape: known.shape };
  }
  if (OTHER_GRAPHVIZ_SHAPES.has(name)) ctx.warn(`shape:${name}`, attr?.line ?? line, `shape=${name} is drawn as a rectangle`);
  else ctx.warn(`shape:${name}`, attr?.line ?? line, `shape=${name} is not a Graphviz shape; drawn as a rectangle, as Graphviz draws it`);
  return { name, shape: 'rectangle' };
}

/** Attributes of a node or cluster whose effect a reader sees and the spec does not draw. */
function warnNotDrawn(ctx: StyleContext, attributes: Attributes): void {
  for (const [key, attr] of attributes) if (NOT_DRAWN[key]) ctx.warn(key, attr.line, NOT_DRAWN[key]!);
}

/** A node's spec fields other than id and parent. */
export function nodeFields(ctx: StyleContext, id: string, attributes: Attributes, line: number): Record<string, unknown> {
  const a = attributes;
  const read = shapeOf(ctx, a, line);
  const name = read.name;
  let shape: SpecShape | 'end' = read.shape;
  const style = styleWords(a);
  const label = labelOf(ctx, a.get('label'), { node: id, graph: ctx.graphName }, name === 'record' || name === 'mrecord');
  const filled = isFilled(style);
  // An HTML table draws its own border; plaintext filled is a filled box without an outline.
  let outlined = shape !== 'text';
  if (shape === 'text' && (label?.boxed || filled)) {
    shape = 'rectangle';
    outlined = Boolean(label?.boxed);
  }
  // A point with a ring around it (peripheries=2) is Graphviz's final state: the end marker.
  if (shape === 'start' && Number(a.get('peripheries')?.value ?? 1) > 1) shape = 'end';
  const spec: Record<string, unknown> = {};
  if (shape !== 'start' && shape !== 'end' && label !== undefined && label.text !== id) spec.label = label.text;
  if (shape !== 'rectangle') spec.shape = shape;
  const color = colourOf(ctx, a.get('color'));
  if (shape === 'start' || shape === 'end') {
    // A point is always filled: with its fillcolor, else its colour, else black.
    const fill = colourOf(ctx, a.get('fillcolor'));
    if (color !== null && !BLACK.has(color)) spec.strokeColor = color;
    if (fill !== null && fill !== color) spec.backgroundColor = fill;
  } else {
    const fill = filled ? (colourOf(ctx, a.get('fillcolor')) ?? color ?? 'lightgrey') : (label?.fill ?? null);
    if (fill !== null) {
      spec.backgroundColor = fill;
      spec.fillStyle = 'solid';
    }
    const peripheries = a.get('peripheries')?.value;
    const width = Number(a.get('penwidth')?.value ?? 1);
    if (!outlined || peripheries === '0' || width === 0) {
      if (shape !== 'text') spec.strokeColor = 'transparent';
    } else {
      if (color !== null && !BLACK.has(color)) spec.strokeColor = color;
      if (Number(peripheries ?? 1) > 1 && !SHAPES[name]?.drawn) ctx.warn('peripheries', a.get('peripheries')!.line, 'extra outlines (peripheries) are not drawn');
      const strokeWidth = strokeWidthOf(a, style);
      if (strokeWidth !== undefined) spec.strokeWidth = strokeWidth;
      const strokeStyle = strokeStyleOf(style);
      if (strokeStyle !== undefined) spec.strokeStyle = strokeStyle;
    }
    textColourInto(ctx, spec, label?.color ?? colourOf(ctx, a.get('fontcolor')), a.get('fontcolor')?.line ?? line);
    Object.assign(spec, fontLook(a, label));
  }
  if (style.has('invis')) spec.invisible = true;
  if (a.has('xlabel')) ctx.warn('xlabel', a.get('xlabel')!.line, 'external node labels (xlabel) are not drawn');
  warnNotDrawn(ctx, a);
  return spec;
}

/** A cluster's spec fields other than id, label and parent. `solidByDefault`: some cluster is dashed or dotted, so one without a style is drawn solid, as Graphviz draws it. */
export function clusterFields(ctx: StyleContext, attributes: Attributes, label: Label | undefined, solidByDefault: boolean, line: number): Record<string, unknown> {
  const a = attributes;
  const style = styleWords(a);
  const spec: Record<string, unknown> = {};
  const color = colourOf(ctx, a.get('color'));
  const bgcolor = colourOf(ctx, a.get('bgcolor'));
  const fill = isFilled(style) ? (colourOf(ctx, a.get('fillcolor')) ?? color ?? bgcolor ?? 'lightgrey') : bgcolor;
  if (fill !== null) {
    spec.backgroundColor = fill;
    spec.fillStyle = 'solid';
  }
  const outline = colourOf(ctx, a.get('pencolor')) ?? color;
  if (a.get('peripheries')?.value === '0' || Number(a.get('penwidth')?.value ?? 1) === 0) spec.strokeColor = 'transparent';
  else {
    if (outline !== null && !BLACK.has(outline)) spec.strokeColor = outline;
    const strokeWidth = strokeWidthOf(a, style);
    if (strokeWidth !== undefined) spec.strokeWidth = strokeWidth;
    const strokeStyle = strokeStyleOf(style) ?? (solidByDefault || style.has('solid') ? 'solid' : undefined);
    if (strokeStyle !== undefined) spec.strokeStyle = strokeStyle;
  }
  textColourInto(ctx, spec, label?.color ?? colourOf(ctx, a.get('fontcolor')), a.get('fontcolor')?.line ?? line);
  Object.assign(spec, fontLook(a, label));
  if (style.has('invis')) spec.invisible = true;
  warnNotDrawn(ctx, a);
  return spec;
}

/** Whether a cluster's own style draws its outline dashed or dotted. */
export const clusterIsDashed = (attributes: Attributes) => strokeStyleOf(styleWords(attributes)) !== undefined;

/** A Graphviz boolean: true, yes or a non-zero number. */
const truthy = (value: string) => /^(true|yes)$/i.test(value.trim()) || (/^-?\d+$/.test(value.trim()) && Number(value) !== 0);

/** The spec arrowhead for a Graphviz arrow name (up to four shapes, `o`/`l`/`r` modifiers); the first shape is the one at the tip. */
function arrowheadOf(ctx: StyleContext, attr: Attr | undefined): Head {
  if (attr === undefined) return 'arrow';
  const raw = attr.value.trim().toLowerCase();
  const name = ARROW_ALIASES[raw] ?? raw;
  const shapes: Array<{ open: boolean; half: boolean; shape: string }> = [];
  const pattern = /(o?)([lr]?)(normal|inv|dot|tee|diamond|crow|vee|box|none|icurve|curve)/y;
  let at = 0;
  while (at < name.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(name);
    if (!match) {
      ctx.warn(`arrow:${raw}`, attr.line, `the arrowhead "${attr.value}" is not one Graphviz draws; drawn as an arrow`);
      return 'arrow';
    }
    shapes.push({ open: match[1] === 'o', half: match[2] !== '', shape: match[3]! });
    at = pattern.lastIndex;
  }
  const drawn = shapes.filter((s) => s.shape !== 'none');
  if (drawn.length === 0) return 'none';
  if (drawn.length > 1) ctx.warn('arrow-multiple', attr.line, 'arrowheads of several shapes (such as "veevee") are drawn as their first shape');
  const first = drawn[0]!;
  const known = ARROW_SHAPES[first.shape];
  if (!known) return 'arrow';
  if (!known.exact) ctx.warn(`arrow:${first.shape}`, attr.line, `the arrowhead "${first.shape}" is drawn as ${known.filled === 'arrow' ? 'an' : 'a'} ${first.open ? known.open : known.filled}`);
  if (first.half) ctx.warn('arrow-half', attr.line, 'half arrowheads (l…, r…) are drawn whole');
  return first.open ? known.open : known.filled;
}

/** An edge's spec fields other than from and to. */
export function edgeFields(ctx: StyleContext, attributes: Attributes, names: LabelNames, directed: boolean): Record<string, unknown> {
  const a = attributes;
  const style = styleWords(a);
  const spec: Record<string, unknown> = {};
  const label = labelOf(ctx, a.get('label'), names);
  const xlabel = labelOf(ctx, a.get('xlabel'), names);
  if (label !== undefined && xlabel !== undefined && xlabel.text !== '') ctx.warn('xlabel', a.get('xlabel')!.line, 'an edge\'s external label (xlabel) is not drawn beside its label');
  const text = (label ?? xlabel)?.text;
  if (text !== undefined && text !== '') spec.label = text;
  // Drawn as free texts beside the ends; where Graphviz puts them (labelangle, labeldistance) Drawbridge chooses itself.
  for (const [attribute, field] of [
    ['headlabel', 'headLabel'],
    ['taillabel', 'tailLabel'],
  ] as const) {
    const end = labelOf(ctx, a.get(attribute), names);
    if (end !== undefined && /\S/.test(end.text)) spec[field] = end.text;
  }

  const dir = (a.get('dir')?.value ?? (directed ? 'forward' : 'none')).toLowerCase();
  const head = dir === 'forward' || dir === 'both' ? arrowheadOf(ctx, a.get('arrowhead')) : 'none';
  const tail = dir === 'back' || dir === 'both' ? arrowheadOf(ctx, a.get('arrowtail')) : 'none';
  if (head !== 'arrow') spec.arrowhead = head;
  if (tail !== 'none') spec.startArrowhead = tail;

  if (style.has('invis')) spec.style = 'invisible';
  else if (style.has('dashed')) spec.style = 'dashed';
  else if (style.has('dotted')) spec.style = 'dotted';
  if (style.has('tapered')) ctx.warn('tapered', a.get('style')!.line, 'tapered edges are drawn at one width');
  const strokeWidth = strokeWidthOf(a, style);
  if (strokeWidth !== undefined) spec.strokeWidth = strokeWidth;
  const color = colourOf(ctx, a.get('color'));
  if (color !== null && !BLACK.has(color)) spec.strokeColor = color;
  const fontcolor = colourOf(ctx, a.get('fontcolor'));
  if (text !== undefined && fontcolor !== null && !BLACK.has(fontcolor) && fontcolor !== color) ctx.warn('edge-fontcolor', a.get('fontcolor')!.line, 'edge label colours (fontcolor) are not drawn: a label takes its edge\'s colour');

  const constraint = a.get('constraint');
  if (constraint !== undefined && !truthy(constraint.value)) spec.constraint = false;
  const minlen = a.get('minlen');
  if (minlen !== undefined) {
    const value = Math.trunc(Number(minlen.value));
    if (Number.isFinite(value)) {
      const clamped = Math.min(MIN_LENGTH_RANGE[1], Math.max(MIN_LENGTH_RANGE[0], value));
      if (clamped !== value) ctx.warn('minlen', minlen.line, `minlen is kept within ${MIN_LENGTH_RANGE[0]}–${MIN_LENGTH_RANGE[1]} ranks`);
      if (clamped !== 1) spec.minLength = clamped;
    }
  }
  for (const [key, attr] of a) if (NOT_DRAWN[key]) ctx.warn(key, attr.line, NOT_DRAWN[key]!);
  return spec;
}

/** Whether a Graphviz boolean attribute is set true. */
export const isTrue = (attr: Attr | undefined) => attr !== undefined && truthy(attr.value);
