export type Point = [number, number];

export interface Outline {
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** A diamond drawn with round corners (the editor's `roundness`): its points are cut back. */
  rounded?: boolean;
}

/** Where the ray from `from` through `through` first meets the shape's outline, or null when it misses. */
export function rayHitsOutline(from: Point, through: Point, shape: Outline): Point | null {
  const [px, py] = from;
  const dx = through[0] - px;
  const dy = through[1] - py;
  if (dx === 0 && dy === 0) return null;
  const cx = shape.x + shape.width / 2;
  const cy = shape.y + shape.height / 2;
  let best: number | null = null;
  const consider = (t: number) => {
    if (t >= 0 && (best === null || t < best)) best = t;
  };
  if (shape.type === 'ellipse') {
    const a = shape.width / 2;
    const b = shape.height / 2;
    const ox = (px - cx) / a;
    const oy = (py - cy) / b;
    const vx = dx / a;
    const vy = dy / b;
    const qa = vx * vx + vy * vy;
    const qb = 2 * (ox * vx + oy * vy);
    const qc = ox * ox + oy * oy - 1;
    const disc = qb * qb - 4 * qa * qc;
    if (disc < 0) return null;
    consider((-qb - Math.sqrt(disc)) / (2 * qa));
    consider((-qb + Math.sqrt(disc)) / (2 * qa));
  } else {
    const corners: Point[] =
      shape.type === 'diamond'
        ? shape.rounded
          ? roundedDiamond(shape)
          : [
              [cx, shape.y],
              [shape.x + shape.width, cy],
              [cx, shape.y + shape.height],
              [shape.x, cy],
            ]
        : [
            [shape.x, shape.y],
            [shape.x + shape.width, shape.y],
            [shape.x + shape.width, shape.y + shape.height],
            [shape.x, shape.y + shape.height],
          ];
    for (let i = 0; i < corners.length; i++) {
      const [ax, ay] = corners[i]!;
      const [bx, by] = corners[(i + 1) % corners.length]!;
      const ex = bx - ax;
      const ey = by - ay;
      const denom = dx * ey - dy * ex;
      if (Math.abs(denom) < 1e-12) continue;
      const t = ((ax - px) * ey - (ay - py) * ex) / denom;
      const u = ((ax - px) * dy - (ay - py) * dx) / denom;
      if (u >= -1e-9 && u <= 1 + 1e-9) consider(t);
    }
  }
  if (best === null) return null;
  return [px + dx * best, py + dy * best];
}

/** Points along each round corner of a diamond's outline, for the polygon that follows it. */
const CORNER_STEPS = 8;

/**
 * The outline the editor draws for a diamond with round corners, as a polygon:
 * each corner a curve from a quarter of the way along one side, pulled
 * towards the point, to a quarter of the way along the next (its
 * deconstructDiamondElement). A wide diamond's side points lie a 32nd of its
 * width inside its box, 12 px on a 375 px one: an arrow ending on the box's
 * point stops short of the line by that much.
 */
function roundedDiamond(shape: Outline): Point[] {
  const [cx, cy] = [shape.x + shape.width / 2, shape.y + shape.height / 2];
  const [dx, dy] = [shape.width / 8, shape.height / 8];
  const points: Array<[Point, Point, Point]> = [
    [[cx - dx, shape.y + dy], [cx, shape.y], [cx + dx, shape.y + dy]],
    [[shape.x + shape.width - dx, cy - dy], [shape.x + shape.width, cy], [shape.x + shape.width - dx, cy + dy]],
    [[cx + dx, shape.y + shape.height - dy], [cx, shape.y + shape.height], [cx - dx, shape.y + shape.height - dy]],
    [[shape.x + dx, cy + dy], [shape.x, cy], [shape.x + dx, cy - dy]],
  ];
  return points.flatMap(([from, tip, to]) =>
    Array.from({ length: CORNER_STEPS + 1 }, (_, k): Point => {
      const t = k / CORNER_STEPS;
      // A cubic with both handles on the point.
      const [a, b, c] = [(1 - t) ** 3, 3 * (1 - t) * t, t ** 3];
      return [a * from[0] + b * tip[0] + c * to[0], a * from[1] + b * tip[1] + c * to[1]];
    }),
  );
}

/** The point `distance` back from `to` toward `from`. */
export function stepBack(from: Point, to: Point, distance: number): Point {
  const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
  if (length === 0 || distance <= 0) return to;
  const k = Math.min(distance, length / 2) / length;
  return [to[0] - (to[0] - from[0]) * k, to[1] - (to[1] - from[1]) * k];
}

const round2 = (v: number) => Math.round(v * 100) / 100;
export const roundPoint = (p: Point): Point => [round2(p[0]), round2(p[1])];

/**
 * Makes `label` the middle point of the polyline, inserting it on the segment it
 * lies on and padding the shorter side with collinear points, so that the
 * editor (which centres an arrow label on the middle point) puts it there. The
 * padding goes right beside the label, where the label hides it: split
 * further out, the arrow's last segment would shrink, and the editor draws an
 * arrowhead at most half as long as the last segment.
 */
export function centreOn(points: Point[], label: Point): Point[] {
  let at = -1;
  let bestDistance = Infinity;
  for (let i = 0; i + 1 < points.length; i++) {
    const d = distanceToSegment(label, points[i]!, points[i + 1]!);
    if (d < bestDistance) {
      bestDistance = d;
      at = i;
    }
  }
  if (at < 0) return points;
  const before = points.slice(0, at + 1);
  const after = points.slice(at + 1);
  // `count` points from the label towards `toward`, PAD_STEP apart (closer on a shorter segment).
  const beside = (toward: Point, count: number): Point[] => {
    const length = Math.hypot(toward[0] - label[0], toward[1] - label[1]);
    const step = Math.min(PAD_STEP, length / (count + 1));
    const [ux, uy] = length === 0 ? [0, 0] : [(toward[0] - label[0]) / length, (toward[1] - label[1]) / length];
    return Array.from({ length: count }, (_, k) => [label[0] + ux * step * (k + 1), label[1] + uy * step * (k + 1)] as Point);
  };
  const diff = before.length - after.length;
  const left = diff < 0 ? [...before, ...beside(before[before.length - 1]!, -diff).reverse()] : before;
  const right = diff > 0 ? [...beside(after[0]!, diff), ...after] : after;
  return [...left, label, ...right];
}

/** How far apart the collinear points padding an arrow beside its label lie. */
const PAD_STEP = 2;

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}
