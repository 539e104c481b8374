/**
 * Plane geometry for lint: axis-aligned boxes, convex outlines (counter-clockwise
 * polygons) and segments. Pure; coordinates are the scene's, y pointing down.
 */
export type Point = readonly [number, number];
export type Polygon = readonly Point[];

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export const boxOfPoints = (points: readonly Point[]): Box => {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    x1 = Math.min(x1, x);
    y1 = Math.min(y1, y);
    x2 = Math.max(x2, x);
    y2 = Math.max(y2, y);
  }
  return { x1, y1, x2, y2 };
};

export const inflate = (box: Box, by: number): Box => ({ x1: box.x1 - by, y1: box.y1 - by, x2: box.x2 + by, y2: box.y2 + by });
export const boxContains = (outer: Box, inner: Box) => outer.x1 <= inner.x1 && outer.y1 <= inner.y1 && outer.x2 >= inner.x2 && outer.y2 >= inner.y2;
export const boxArea = (box: Box) => (box.x2 - box.x1) * (box.y2 - box.y1);
/** A box's corners, counter-clockwise (positive shoelace area), the order every polygon here keeps. */
export const boxPolygon = (box: Box): Point[] => [
  [box.x1, box.y1],
  [box.x2, box.y1],
  [box.x2, box.y2],
  [box.x1, box.y2],
];

const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Points turned by `angle` radians (clockwise on screen, as the editor turns elements) about `centre`. */
export function rotate(points: Point[], angle: number, centre: Point): Point[] {
  if (!angle) return points;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  return points.map(([x, y]) => {
    const [dx, dy] = [x - centre[0], y - centre[1]];
    return [centre[0] + dx * cos - dy * sin, centre[1] + dx * sin + dy * cos] as Point;
  });
}

/** An ellipse inscribed in `box`, as a polygon whose sides stay within 0.25 px of the curve. */
export function ellipsePolygon(box: Box): Point[] {
  const [rx, ry] = [(box.x2 - box.x1) / 2, (box.y2 - box.y1) / 2];
  const radius = Math.max(rx, ry, 1);
  const sides = Math.min(128, Math.max(16, Math.ceil(Math.PI / Math.acos(Math.max(0, 1 - 0.25 / radius)))));
  const [cx, cy] = [box.x1 + rx, box.y1 + ry];
  return Array.from({ length: sides }, (_, i) => [cx + rx * Math.cos((2 * Math.PI * i) / sides), cy + ry * Math.sin((2 * Math.PI * i) / sides)] as Point);
}

/** The diamond the editor draws in `box`: its corners at the middles of the box's sides. */
export const diamondPolygon = (box: Box): Point[] => {
  const [cx, cy] = [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2];
  return [
    [cx, box.y1],
    [box.x2, cy],
    [cx, box.y2],
    [box.x1, cy],
  ];
};

function pointInPolygon(p: Point, polygon: Polygon, tolerance = 1e-9): boolean {
  for (let i = 0; i < polygon.length; i++) {
    const [a, b] = [polygon[i]!, polygon[(i + 1) % polygon.length]!];
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length > 0 && cross(a, b, p) / length < -tolerance) return false;
  }
  return true;
}

/**
 * The parameters [t0, t1] (0 at `a`, 1 at `b`) of the part of segment ab inside
 * the convex polygon, or null when it stays outside (Cyrus–Beck clipping).
 */
export function clipSegment(a: Point, b: Point, polygon: Polygon): [number, number] | null {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  let [t0, t1] = [0, 1];
  for (let i = 0; i < polygon.length; i++) {
    const [p, q] = [polygon[i]!, polygon[(i + 1) % polygon.length]!];
    const [ex, ey] = [q[0] - p[0], q[1] - p[1]];
    const inside = ex * (a[1] - p[1]) - ey * (a[0] - p[0]);
    const rate = ex * dy - ey * dx;
    if (rate === 0) {
      if (inside < 0) return null;
    } else if (rate > 0) t0 = Math.max(t0, -inside / rate);
    else t1 = Math.min(t1, -inside / rate);
    if (t0 > t1) return null;
  }
  return [t0, t1];
}

/** How much of segment ab lies inside the convex polygon, in px. */
export function lengthInside(a: Point, b: Point, polygon: Polygon): number {
  const inside = clipSegment(a, b, polygon);
  return inside ? (inside[1] - inside[0]) * Math.hypot(b[0] - a[0], b[1] - a[1]) : 0;
}

function pointToSegment(p: Point, a: Point, b: Point): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

function segmentsCross(a: Point, b: Point, c: Point, d: Point): boolean {
  const [d1, d2, d3, d4] = [cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d)];
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function segmentToSegment(a: Point, b: Point, c: Point, d: Point): number {
  if (segmentsCross(a, b, c, d)) return 0;
  return Math.min(pointToSegment(a, c, d), pointToSegment(b, c, d), pointToSegment(c, a, b), pointToSegment(d, a, b));
}

/** Distance from segment ab to the filled convex polygon: 0 when it touches or enters it. */
export function segmentToPolygon(a: Point, b: Point, polygon: Polygon): number {
  if (clipSegment(a, b, polygon)) return 0;
  let best = Infinity;
  for (let i = 0; i < polygon.length; i++) best = Math.min(best, segmentToSegment(a, b, polygon[i]!, polygon[(i + 1) % polygon.length]!));
  return best;
}

/** Whether two convex polygons overlap by more than `slack` px in every direction (separating axes). */
export function polygonsOverlap(p: Polygon, q: Polygon, slack: number): boolean {
  for (const polygon of [p, q]) {
    for (let i = 0; i < polygon.length; i++) {
      const [a, b] = [polygon[i]!, polygon[(i + 1) % polygon.length]!];
      const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
      if (length === 0) continue;
      const [nx, ny] = [(a[1] - b[1]) / length, (b[0] - a[0]) / length];
      const [pMin, pMax] = project(p, nx, ny);
      const [qMin, qMax] = project(q, nx, ny);
      if (Math.min(pMax, qMax) - Math.max(pMin, qMin) <= slack) return false;
    }
  }
  return true;
}

function project(polygon: Polygon, nx: number, ny: number): [number, number] {
  let [min, max] = [Infinity, -Infinity];
  for (const [x, y] of polygon) {
    const v = x * nx + y * ny;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return [min, max];
}

export const polygonInside = (inner: Polygon, outer: Polygon) => inner.every((p) => pointInPolygon(p, outer, 0.5));

/** Cumulative lengths along a polyline: entry i is the distance from the first point to point i. */
export function arcLengths(points: readonly Point[]): number[] {
  const lengths = [0];
  for (let i = 1; i < points.length; i++) lengths.push(lengths[i - 1]! + Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1]));
  return lengths;
}

/** How far inside the convex polygon the point lies: its distance to the nearest side's line, negative when outside. */
export function depthInside(p: Point, polygon: Polygon): number {
  let depth = Infinity;
  for (let i = 0; i < polygon.length; i++) {
    const [a, b] = [polygon[i]!, polygon[(i + 1) % polygon.length]!];
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (length > 0) depth = Math.min(depth, cross(a, b, p) / length);
  }
  return depth;
}
