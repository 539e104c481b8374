/**
 * Element geometry as the editor's exporter computes it: the outline of a
 * linear element (straight, curved or elbowed) as cubic segments, and each
 * element's rotated bounds (getElementBounds), in scene coordinates.
 */
import { type FastElement, isLinear, type Point } from './element.ts';

export type Bounds = [minX: number, minY: number, maxX: number, maxY: number];

/** A cubic Bézier segment; a straight one has its control points on its ends. */
export interface Segment {
  from: Point;
  c1: Point;
  c2: Point;
  to: Point;
  straight: boolean;
}

/** Rough's "loop" test for lines and freedraw (isPathALoop): at least 3 points, the last within 8 px of the first. */
const LOOP_DISTANCE = 8;
const ELBOW_CORNER_RADIUS = 16;

export function rotate([x, y]: Point, [cx, cy]: Point, angle: number): Point {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return [(x - cx) * cos - (y - cy) * sin + cx, (x - cx) * sin + (y - cy) * cos + cy];
}

export const distance = (a: Point, b: Point) => Math.hypot(b[0] - a[0], b[1] - a[1]);

export function isLoop(points: readonly Point[]): boolean {
  return points.length >= 3 && distance(points[0]!, points[points.length - 1]!) <= LOOP_DISTANCE;
}

function pointsBox(points: readonly Point[]): Bounds {
  // Loops, not Math.min(...spread): a long freedraw would overflow the call stack.
  const bounds: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) extend(bounds, [x, y, x, y]);
  return bounds;
}

function extend(bounds: Bounds, other: Bounds): void {
  bounds[0] = Math.min(bounds[0], other[0]);
  bounds[1] = Math.min(bounds[1], other[1]);
  bounds[2] = Math.max(bounds[2], other[2]);
  bounds[3] = Math.max(bounds[3], other[3]);
}

/** The local point an element turns about: the middle of its box, or of its points for linear and freedraw elements. */
export function localCentre(element: FastElement): Point {
  if (element.points.length > 0 && (isLinear(element) || element.type === 'freedraw')) {
    const [x1, y1, x2, y2] = pointsBox(element.points);
    return [(x1 + x2) / 2, (y1 + y2) / 2];
  }
  return [element.width / 2, element.height / 2];
}

const straight = (from: Point, to: Point): Segment => ({ from, c1: from, c2: to, to, straight: true });

/** Rough.js's curve through the points (Catmull-Rom with the ends doubled), as the editor draws a rounded line. */
function curveSegments(points: readonly Point[]): Segment[] {
  const p = [points[0]!, ...points, points[points.length - 1]!];
  const segments: Segment[] = [];
  for (let i = 1; i + 2 < p.length; i++) {
    const [before, from, to, after] = [p[i - 1]!, p[i]!, p[i + 1]!, p[i + 2]!];
    const c1: Point = [from[0] + (to[0] - before[0]) / 6, from[1] + (to[1] - before[1]) / 6];
    const c2: Point = [to[0] - (after[0] - from[0]) / 6, to[1] - (after[1] - from[1]) / 6];
    segments.push({ from, c1, c2, to, straight: false });
  }
  return segments;
}

/** The editor's heading test: does the vector from `from` to `to` point mostly left or right? */
function isHorizontal(to: Point, from: Point): boolean {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  return dx > Math.abs(dy) || dx <= -Math.abs(dy);
}

/** The editor's elbow arrow (generateElbowArrowShape): straight runs with corners rounded by up to 16 px. */
function elbowSegments(points: readonly Point[]): Segment[] {
  const segments: Segment[] = [];
  let at = points[0]!;
  const lineTo = (to: Point) => {
    segments.push(straight(at, to));
    at = to;
  };
  const towards = (point: Point, neighbour: Point, horizontal: boolean, corner: number): Point =>
    horizontal
      ? [point[0] + (neighbour[0] < point[0] ? -corner : corner), point[1]]
      : [point[0], point[1] + (neighbour[1] < point[1] ? -corner : corner)];
  for (let i = 1; i < points.length - 1; i++) {
    const [prev, point, next] = [points[i - 1]!, points[i]!, points[i + 1]!];
    const corner = Math.min(ELBOW_CORNER_RADIUS, distance(point, next) / 2, distance(point, prev) / 2);
    const enter = towards(point, prev, isHorizontal(point, prev), corner);
    const leave = towards(point, next, isHorizontal(next, point), corner);
    lineTo(enter);
    // The corner is a quadratic curve through `point`, written as a cubic.
    const c1: Point = [enter[0] + (2 / 3) * (point[0] - enter[0]), enter[1] + (2 / 3) * (point[1] - enter[1])];
    const c2: Point = [leave[0] + (2 / 3) * (point[0] - leave[0]), leave[1] + (2 / 3) * (point[1] - leave[1])];
    segments.push({ from: enter, c1, c2, to: leave, straight: false });
    at = leave;
  }
  lineTo(points[points.length - 1]!);
  return segments;
}

/** The outline of a line or arrow in local coordinates, as the editor draws it. */
export function linearSegments(element: FastElement): Segment[] {
  const { points } = element;
  if (element.type === 'arrow' && element.elbowed) return elbowSegments(points);
  if (element.roundness && points.length >= 3) return curveSegments(points);
  return points.slice(1).map((to, i) => straight(points[i]!, to));
}

/** Where a cubic's coordinate (one axis) has its extremes in (0, 1). */
function extremeTimes(p0: number, p1: number, p2: number, p3: number): number[] {
  const a = -p0 + 3 * p1 - 3 * p2 + p3;
  const b = 2 * (p0 - 2 * p1 + p2);
  const c = p1 - p0;
  const roots: number[] = [];
  if (Math.abs(a) < 1e-12) {
    if (Math.abs(b) > 1e-12) roots.push(-c / b);
  } else {
    const discriminant = b * b - 4 * a * c;
    if (discriminant >= 0) {
      const root = Math.sqrt(discriminant);
      roots.push((-b + root) / (2 * a), (-b - root) / (2 * a));
    }
  }
  return roots.filter((t) => t > 0 && t < 1);
}

export function pointOnSegment({ from, c1, c2, to }: Segment, t: number): Point {
  const u = 1 - t;
  const at = (i: 0 | 1) => u * u * u * from[i] + 3 * u * u * t * c1[i] + 3 * u * t * t * c2[i] + t * t * t * to[i];
  return [at(0), at(1)];
}

function segmentsBounds(segments: readonly Segment[]): Bounds {
  const points: Point[] = [];
  for (const segment of segments) {
    points.push(segment.from, segment.to);
    if (segment.straight) continue;
    const { from, c1, c2, to } = segment;
    for (const t of [...extremeTimes(from[0], c1[0], c2[0], to[0]), ...extremeTimes(from[1], c1[1], c2[1], to[1])]) {
      points.push(pointOnSegment(segment, t));
    }
  }
  return pointsBox(points);
}

function turnSegment(segment: Segment, centre: Point, angle: number): Segment {
  const turn = (p: Point) => rotate(p, centre, angle);
  return { ...segment, from: turn(segment.from), c1: turn(segment.c1), c2: turn(segment.c2), to: turn(segment.to) };
}

/** The element's rotated bounds in scene coordinates, as the editor's getElementBounds gives them (arrowheads aside). */
export function elementBounds(element: FastElement): Bounds {
  const { x, y, width: w, height: h, angle } = element;
  const centre = localCentre(element);
  let local: Bounds;
  if (isLinear(element)) {
    local = segmentsBounds(linearSegments(element).map((s) => turnSegment(s, centre, angle)));
  } else if (element.type === 'freedraw') {
    local = pointsBox(element.points.map((p) => rotate(p, centre, angle)));
  } else if (element.type === 'ellipse') {
    const halfWidth = Math.hypot((w / 2) * Math.cos(angle), (h / 2) * Math.sin(angle));
    const halfHeight = Math.hypot((h / 2) * Math.cos(angle), (w / 2) * Math.sin(angle));
    local = [centre[0] - halfWidth, centre[1] - halfHeight, centre[0] + halfWidth, centre[1] + halfHeight];
  } else {
    const corners: Point[] =
      element.type === 'diamond'
        ? [[w / 2, 0], [w, h / 2], [w / 2, h], [0, h / 2]]
        : [[0, 0], [w, 0], [w, h], [0, h]];
    local = pointsBox(corners.map((p) => rotate(p, centre, angle)));
  }
  return [local[0] + x, local[1] + y, local[2] + x, local[3] + y];
}

export function unionBounds(all: readonly Bounds[]): Bounds | null {
  if (all.length === 0) return null;
  const bounds: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const other of all) extend(bounds, other);
  return bounds;
}

export const isFiniteBounds = (bounds: Bounds) => bounds.every(Number.isFinite);
