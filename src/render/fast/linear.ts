/**
 * Lines, arrows and freehand strokes. A line or arrow follows its outline
 * (straight, curved when rounded, elbowed), arrows get their heads, a closed
 * line is filled, and an arrow's label is cut out of the stroke beneath it as
 * the editor's exporter masks it.
 */
import { arrowheadMarkup } from './arrowheads.ts';
import { type FastElement, isTransparent, type Point } from './element.ts';
import { type Bounds, elementBounds, isLoop, linearSegments, type Segment } from './geometry.ts';
import { type Defs, elementTransform, fillOf, opacityAttribute, paintColour, strokeAttributes } from './paint.ts';
import { num, tag } from './xml.ts';

/** Room around an arrow kept visible by its label mask: enough for the largest head and a wide stroke. */
const MASK_MARGIN = 100;
/** perfect-freehand, at the editor's settings, draws a stroke about three times strokeWidth wide. */
const FREEDRAW_WIDTH_PER_STROKE_WIDTH = 3;

const xy = (p: Point) => `${num(p[0])} ${num(p[1])}`;

function segmentsPath(segments: readonly Segment[]): string {
  if (segments.length === 0) return '';
  const steps = segments.map((s) => (s.straight ? `L ${xy(s.to)}` : `C ${xy(s.c1)}, ${xy(s.c2)}, ${xy(s.to)}`));
  return `M ${xy(segments[0]!.from)} ${steps.join(' ')}`;
}

export interface LinearContext {
  offset: Point;
  opacity: number;
  defs: Defs;
  /** Fills the *_outline arrowheads. */
  background: string;
  /** The scene box of the arrow's bound label, masked out of the stroke. */
  label: Bounds | null;
}

export function linearMarkup(element: FastElement, { offset, opacity, defs, background, label }: LinearContext): string {
  const segments = linearSegments(element);
  const filled = element.type === 'line' && isLoop(element.points) && !isTransparent(element.backgroundColor);
  // An unrounded filled line is a polygon, closed; a rounded one is a curve, filled as drawn.
  const d = segmentsPath(segments) + (filled && !element.roundness ? ' Z' : '');
  let body = tag('path', { d, fill: filled ? fillOf(element, defs) : 'none', ...strokeAttributes(element) });
  if (element.type === 'arrow') {
    for (const [position, kind] of [['start', element.startArrowhead], ['end', element.endArrowhead]] as const) {
      if (kind !== null) body += arrowheadMarkup(element, segments, position, kind, background);
    }
  }
  const group = tag('g', { transform: elementTransform(element, offset), opacity: opacityAttribute(opacity), 'stroke-linecap': 'round' }, body);
  if (!label) return group;
  const [minX, minY, maxX, maxY] = elementBounds(element);
  const visible = { x: minX + offset[0] - MASK_MARGIN, y: minY + offset[1] - MASK_MARGIN, width: maxX - minX + 2 * MASK_MARGIN, height: maxY - minY + 2 * MASK_MARGIN };
  const hole = { x: label[0] + offset[0], y: label[1] + offset[1], width: label[2] - label[0], height: label[3] - label[1] };
  const mask = defs.add('mask', (id) =>
    tag('mask', { id, maskUnits: 'userSpaceOnUse', ...visible }, tag('rect', { ...visible, fill: '#fff' }) + tag('rect', { ...hole, fill: '#000' })),
  );
  return tag('g', { mask: `url(#${mask})` }, group);
}

/** A freehand stroke as a round-capped polyline (pressure ignored), filled underneath when it closes on itself. */
export function freedrawMarkup(element: FastElement, offset: Point, opacity: number, defs: Defs): string {
  const points = element.points.length === 1 ? [element.points[0]!, element.points[0]!] : element.points;
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${xy(p)}`).join(' ');
  const filled = isLoop(points) && !isTransparent(element.backgroundColor);
  const fill = filled ? tag('path', { d: `${d} Z`, fill: fillOf(element, defs), stroke: 'none' }) : '';
  const stroke = tag('path', {
    d,
    fill: 'none',
    stroke: paintColour(element.strokeColor),
    'stroke-width': element.strokeWidth * FREEDRAW_WIDTH_PER_STROKE_WIDTH,
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  });
  return tag('g', { transform: elementTransform(element, offset), opacity: opacityAttribute(opacity) }, fill + stroke);
}
