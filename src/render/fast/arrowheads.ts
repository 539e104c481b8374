/**
 * Arrowheads as the editor shapes them (getArrowheadPoints,
 * getArrowheadShapes): aimed along the end of the drawn outline, as long as
 * the head's size or half the last segment (a quarter for diamonds), whichever
 * is shorter. Unknown names draw like the editor's default branch (two lines).
 */
import { drawnArrowheadSize } from '../../domain/scene/arrowhead-size.ts';
import type { FastElement, Point } from './element.ts';
import { distance, pointOnSegment, rotate, type Segment } from './geometry.ts';
import { paintColour, strokeWidthOf } from './paint.ts';
import { num, tag } from './xml.ts';

/** Every arrowhead the editor offers in 0.18.1. */
export const ARROWHEADS = [
  'arrow',
  'bar',
  'dot',
  'circle',
  'circle_outline',
  'triangle',
  'triangle_outline',
  'diamond',
  'diamond_outline',
  'crowfoot_one',
  'crowfoot_many',
  'crowfoot_one_or_many',
] as const;

function headAngle(kind: string): number {
  const degrees = kind === 'bar' ? 90 : kind === 'arrow' ? 20 : 25;
  return (degrees * Math.PI) / 180;
}

const pathOf = (points: readonly Point[], close: boolean) =>
  points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${num(p[0])} ${num(p[1])}`).join(' ') + (close ? ' Z' : '');

const isFinitePoint = (p: Point) => Number.isFinite(p[0]) && Number.isFinite(p[1]);

/**
 * The head at one end of an arrow, in the arrow's local coordinates;
 * `background` fills the *_outline heads, as the editor fills them with the canvas colour.
 */
export function arrowheadMarkup(element: FastElement, segments: readonly Segment[], position: 'start' | 'end', kind: string, background: string): string {
  const segment = position === 'start' ? segments[0] : segments[segments.length - 1];
  if (!segment) return '';
  const tip = position === 'start' ? segment.from : segment.to;
  // The editor aims the head from the point 70% of the way along the end segment.
  const inner = pointOnSegment(segment, 0.7);
  const length = distance(inner, tip);
  if (!(length > 0)) return '';
  const direction: Point = [(tip[0] - inner[0]) / length, (tip[1] - inner[1]) / length];

  const { points } = element;
  const [end, neighbour] = position === 'end' ? [points[points.length - 1]!, points[points.length - 2]!] : [points[0]!, points[1]!];
  const size = drawnArrowheadSize(kind, distance(end, neighbour));
  const base: Point = [tip[0] - direction[0] * size, tip[1] - direction[1] * size];
  if (!isFinitePoint(base)) return '';
  const angle = headAngle(kind);

  const colour = paintColour(element.strokeColor);
  const strokeWidth = strokeWidthOf(element);
  const solid = (fill: string) => ({ fill, stroke: colour, 'stroke-width': strokeWidth });
  const lines = (...pairs: [Point, Point][]) => {
    const all = pairs.flat();
    if (!all.every(isFinitePoint)) return '';
    // As in the editor: a dotted arrow's line heads stay dotted (a little finer), a dashed arrow's are solid.
    const dash = element.strokeStyle === 'dotted' ? `1.5 ${num(4 + element.strokeWidth)}` : undefined;
    const d = pairs.map(([a, b]) => `M ${num(a[0])} ${num(a[1])} L ${num(b[0])} ${num(b[1])}`).join(' ');
    return tag('path', { d, fill: 'none', stroke: colour, 'stroke-width': strokeWidth, 'stroke-dasharray': dash });
  };
  const polygon = (corners: Point[], fill: string) => (corners.every(isFinitePoint) ? tag('path', { d: pathOf(corners, true), ...solid(fill) }) : '');

  if (kind === 'dot' || kind === 'circle' || kind === 'circle_outline') {
    const diameter = Math.max(0, size + element.strokeWidth - 2);
    return tag('circle', { cx: tip[0], cy: tip[1], r: diameter / 2, ...solid(kind === 'circle_outline' ? background : colour) });
  }
  if (kind === 'crowfoot_many' || kind === 'crowfoot_one_or_many') {
    const many: [Point, Point][] = [[rotate(tip, base, -angle), base], [rotate(tip, base, angle), base]];
    // "One or many" adds the bar of crowfoot_one, which has the same size and angle.
    return kind === 'crowfoot_many' ? lines(...many) : lines(...many, [rotate(base, tip, -angle), rotate(base, tip, angle)]);
  }
  const left = rotate(base, tip, -angle);
  const right = rotate(base, tip, angle);
  if (kind === 'triangle' || kind === 'triangle_outline') return polygon([tip, left, right], kind === 'triangle' ? colour : background);
  if (kind === 'diamond' || kind === 'diamond_outline') {
    // The far corner lies twice the size back along the stored end segment.
    const far = rotate([tip[0] + size * 2, tip[1]], tip, Math.atan2(neighbour[1] - tip[1], neighbour[0] - tip[0]));
    return polygon([tip, left, far, right], kind === 'diamond' ? colour : background);
  }
  if (kind === 'crowfoot_one') return lines([left, right]);
  return lines([left, tip], [right, tip]);
}

