/**
 * Strokes and fills as the editor's rough.js options give them
 * (generateRoughOptions), without the hand-drawn jitter, and the <defs> a
 * document collects: fill patterns, frame clips, arrow-label masks. Ids are
 * numbered in the order first asked for, so the same scene gets the same ids.
 */
import { type FastElement, isTransparent, type Point } from './element.ts';
import { localCentre } from './geometry.ts';
import { type Attributes, num, placement, tag } from './xml.ts';

/** Rough.js's hachure: lines at hachureAngle −41° (+90° in its scanning), strokeWidth × 4 apart, strokeWidth / 2 thick. */
const HACHURE_ROTATION = -49;
/** Thinner strokes would make patterns of sub-pixel tiles, costly to rasterise and invisible anyway. */
const MIN_HACHURE_GAP = 2;

export class Defs {
  private readonly entries: string[] = [];
  private readonly byKey = new Map<string, string>();
  private readonly counters = new Map<string, number>();

  /** The id of the definition `build` makes; one definition per key. */
  define(prefix: 'fill' | 'clip' | 'mask', key: string, build: (id: string) => string): string {
    const known = this.byKey.get(`${prefix}:${key}`);
    if (known) return known;
    const id = this.add(prefix, build);
    this.byKey.set(`${prefix}:${key}`, id);
    return id;
  }

  /** The id of a new definition that `build` makes. */
  add(prefix: 'fill' | 'clip' | 'mask', build: (id: string) => string): string {
    const count = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, count);
    const id = `fast-${prefix}-${count}`;
    this.entries.push(build(id));
    return id;
  }

  /** The <defs> element, with `extra` (markup already built) after the definitions; '' when there is nothing. */
  markup(extra = ''): string {
    const children = this.entries.join('') + extra;
    return children === '' ? '' : tag('defs', {}, children);
  }
}

/** The editor's stroke-dasharray for a stroke style (getDashArrayDashed / getDashArrayDotted). */
function dashArray(style: FastElement['strokeStyle'], strokeWidth: number): string | undefined {
  if (style === 'dashed') return `${num(8)} ${num(8 + strokeWidth)}`;
  if (style === 'dotted') return `${num(1.5)} ${num(6 + strokeWidth)}`;
  return undefined;
}

export function paintColour(colour: string): string {
  return isTransparent(colour) ? 'none' : colour;
}

/** Dashed and dotted strokes are half a pixel wider in the editor, to look as heavy as its doubled solid strokes. */
export function strokeWidthOf(element: FastElement): number {
  return element.strokeStyle === 'solid' ? element.strokeWidth : element.strokeWidth + 0.5;
}

export function strokeAttributes(element: FastElement): Attributes {
  return {
    stroke: paintColour(element.strokeColor),
    'stroke-width': strokeWidthOf(element),
    'stroke-dasharray': dashArray(element.strokeStyle, element.strokeWidth),
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  };
}

/** The element's fill: none, its background colour, or a pattern of lines in that colour for the sketchy fill styles. */
export function fillOf(element: FastElement, defs: Defs): string {
  const colour = element.backgroundColor;
  if (isTransparent(colour)) return 'none';
  if (element.fillStyle === 'solid') return colour;
  const crossed = element.fillStyle === 'cross-hatch';
  const gap = Math.max(MIN_HACHURE_GAP, element.strokeWidth * 4);
  const key = `${crossed ? 'cross' : 'hachure'}|${colour}|${element.strokeWidth}`;
  const id = defs.define('fill', key, (id) => {
    const line = (x1: number, y1: number, x2: number, y2: number) =>
      tag('line', { x1, y1, x2, y2, stroke: colour, 'stroke-width': element.strokeWidth / 2 });
    const lines = line(0, gap / 2, gap, gap / 2) + (crossed ? line(gap / 2, 0, gap / 2, gap) : '');
    return tag('pattern', { id, patternUnits: 'userSpaceOnUse', width: gap, height: gap, patternTransform: `rotate(${HACHURE_ROTATION})` }, lines);
  });
  return `url(#${id})`;
}

/** The editor's getCornerRadius for a side of length `side`. */
export function cornerRadius(side: number, element: FastElement): number {
  const type = element.roundness?.type;
  if (type === 1 || type === 2) return side * 0.25;
  if (type === 3) {
    const fixed = element.roundness?.value ?? 32;
    return side <= fixed / 0.25 ? side * 0.25 : fixed;
  }
  return 0;
}

export function opacityAttribute(opacity: number): number | undefined {
  return opacity === 1 ? undefined : opacity;
}

/** The transform that puts an element's local drawing in the document, turned about its centre as the editor turns it. */
export function elementTransform(element: FastElement, offset: Point): string {
  const [cx, cy] = localCentre(element);
  return placement(element.x + offset[0], element.y + offset[1], element.angle, cx, cy);
}
