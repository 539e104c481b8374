export type Point = [number, number];

export interface Outline {
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
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
        ? [
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
    for (let i = 0; i < 4; i++) {
      const [ax, ay] = corners[i]!;
      const [bx, by] = corners[(i + 1) % 4]!;
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
 * lies on and padding the shorter side with collinear midpoints, so that the
 * editor (which centres an arrow label on the middle point) puts it there.
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
  const pad = (side: Point[], count: number, fromStart: boolean) => {
    const out = [...side];
    for (let k = 0; k < count; k++) {
      // Split the longest segment of this side.
      let longest = 0;
      let length = -1;
      for (let i = 0; i + 1 < out.length; i++) {
        const l = Math.hypot(out[i + 1]![0] - out[i]![0], out[i + 1]![1] - out[i]![1]);
        if (l > length) {
          length = l;
          longest = i;
        }
      }
      if (out.length < 2) {
        const anchor = fromStart ? out[0]! : out[out.length - 1]!;
        const mid: Point = [(anchor[0] + label[0]) / 2, (anchor[1] + label[1]) / 2];
        if (fromStart) out.push(mid);
        else out.unshift(mid);
        continue;
      }
      const a = out[longest]!;
      const b = out[longest + 1]!;
      out.splice(longest + 1, 0, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    }
    return out;
  };
  const diff = before.length - after.length;
  const left = diff < 0 ? pad(before, -diff, true) : before;
  const right = diff > 0 ? pad(after, diff, false) : after;
  return [...left, label, ...right];
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}
