/**
 * Arrow ends that follow their shapes: re-attaching a bound end to its
 * shape's outline with the binding gap and a matching `focus`, and re-routing
 * an arrow whose shapes moved or changed size (kept orthogonal where it was,
 * re-drawn as a Z, or laid straight).
 */
import type { SceneElement } from '../edit/types.ts';
import { focusOf } from '../scene/factory.ts';
import { type Outline, type Point, rayHitsOutline, stepBack } from '../scene/geometry.ts';
import type { Draft } from './draft.ts';
import { absolutePoints, bindingOf, centreOf, type End, ENDS, gapOf, isInside, outlineOf, setAbsolutePoints } from './element-geometry.ts';
import { refitArrowLabel } from './label-layout.ts';

/** Below this, points count as on the same line. */
const EPSILON = 1e-6;
/** The shortest end segment a re-route keeps; shorter, it straightens the arrow instead. */
const MIN_END_SEGMENT = 1;

function axisOf(from: Point, to: Point): 'horizontal' | 'vertical' | null {
  const flatY = Math.abs(to[1] - from[1]) < EPSILON;
  const flatX = Math.abs(to[0] - from[0]) < EPSILON;
  if (flatY && !flatX) return 'horizontal';
  if (flatX && !flatY) return 'vertical';
  return null;
}

/** Whether every point lies on the line through the first and the last. */
function isStraight(pts: Point[]): boolean {
  const a = pts[0]!;
  const b = pts[pts.length - 1]!;
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (length < EPSILON) return pts.every((p) => Math.hypot(p[0] - a[0], p[1] - a[1]) < EPSILON);
  return pts.every((p) => Math.abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length < 0.01);
}

/**
 * Where an arrow end heading from `from` through `through` lands on a shape:
 * the gap short of its outline, or, leaving the shape from inside, the gap past it.
 */
function land(from: Point, through: Point, outline: Outline, gap: number): Point | null {
  const hit = rayHitsOutline(from, through, outline);
  if (!hit) return null;
  if (!isInside(from, outline)) return stepBack(from, hit, gap);
  const length = Math.hypot(through[0] - from[0], through[1] - from[1]);
  return [hit[0] + ((through[0] - from[0]) / length) * gap, hit[1] + ((through[1] - from[1]) / length) * gap];
}

/** The polyline laid straight from `start` to `end`, each point kept at its fraction of the length. */
function spread(pts: Point[], start: Point, end: Point): Point[] {
  const lengths = pts.slice(1).map((p, i) => Math.hypot(p[0] - pts[i]![0], p[1] - pts[i]![1]));
  const total = lengths.reduce((a, b) => a + b, 0);
  let walked = 0;
  return pts.map((_, i) => {
    if (i > 0) walked += lengths[i - 1]!;
    const t = total > 0 ? walked / total : i / (pts.length - 1);
    return [start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t];
  });
}

/** Re-routes an arrow whose bound ends' shapes changed; `transform` maps an old end to where its shape took it. */
export function reroute(draft: Draft, arrowId: string, ends: End[], transform: (p: Point) => Point): void {
  const arrow = draft.edit(arrowId);
  let pts = absolutePoints(arrow);
  if (pts.length < 2) return;
  draft.spendRouting(pts.length);
  for (const end of ends) pts = rerouteEnd(draft, arrow, pts, end, transform);
  setAbsolutePoints(arrow, pts);
  refitArrowLabel(draft, arrowId);
}

/**
 * One end follows its shape. A straight axis-parallel arrow stays on its
 * line while the line still meets the shape. Otherwise, when the end segment
 * is horizontal or vertical, the points on it up to the route's next turn
 * move across with the end, so the route stays orthogonal; a slanted end
 * segment is re-aimed at the shape's centre. When that fails (the end would
 * fold back past the turn), an orthogonal arrow is re-drawn as a Z from its
 * other end, and failing that laid straight between its shapes.
 */
function rerouteEnd(draft: Draft, arrow: SceneElement, pts: Point[], end: End, transform: (p: Point) => Point): Point[] {
  const binding = bindingOf(arrow, end)!;
  const outline = outlineOf(draft.get(binding.elementId)!);
  const gap = gapOf(binding);
  const n = pts.length;
  const k = end === 'start' ? 0 : n - 1;
  const step = end === 'start' ? 1 : -1;
  const far = n - 1 - k;
  const tip = pts[k]!;
  const neighbour = pts[k + step]!;
  const axis = axisOf(neighbour, tip);
  if (isStraight(pts)) {
    if (axis !== null && !isInside(pts[far]!, outline)) {
      const from = pts[far]!;
      const hit = rayHitsOutline(from, tip, outline);
      const newTip = hit && stepBack(from, hit, gap);
      if (newTip && (newTip[0] - from[0]) * (tip[0] - from[0]) + (newTip[1] - from[1]) * (tip[1] - from[1]) > 0 && Math.hypot(newTip[0] - from[0], newTip[1] - from[1]) >= MIN_END_SEGMENT) {
        setEnd(arrow, end, focusOf(from, newTip, draft.get(binding.elementId)!), gap);
        return spread(pts, end === 'start' ? newTip : pts[0]!, end === 'end' ? newTip : pts[n - 1]!);
      }
    }
    return elbow(draft, arrow, pts, end) ?? straighten(draft, arrow, pts);
  }
  if (axis !== null) {
    // The run: the end and the points after it on the same line, up to the corner where the route turns.
    const target = transform(tip);
    const across = axis === 'horizontal' ? 1 : 0;
    const along = axis === 'horizontal' ? 0 : 1;
    let corner = k + step;
    while (corner + step !== far && Math.abs(pts[corner + step]![across] - tip[across]) < EPSILON) corner += step;
    const moved = pts.map((p) => [p[0], p[1]] as Point);
    moved[corner]![across] = target[across];
    const from = moved[corner]!;
    const hit = rayHitsOutline(from, target, outline);
    const newTip = hit && stepBack(from, hit, gap);
    const was = tip[along] - from[along];
    const now = newTip ? newTip[along] - from[along] : 0;
    if (newTip && !isInside(from, outline) && Math.sign(now) === Math.sign(was) && Math.abs(now) >= MIN_END_SEGMENT) {
      moved[k] = newTip;
      for (let i = k + step; i !== corner; i += step) {
        moved[i]![across] = target[across];
        moved[i]![along] = from[along] + ((pts[i]![along] - from[along]) / was) * now;
      }
      setEnd(arrow, end, focusOf(from, newTip, draft.get(binding.elementId)!), gap);
      // Moved across onto another line, the route is re-drawn as a Z instead when that keeps clear.
      const others = otherSegments(draft, arrow);
      if (runsAlongAny(moved, others)) {
        const z = elbow(draft, arrow, pts, end);
        if (z && !runsAlongAny(z, others)) return z;
        setEnd(arrow, end, focusOf(from, newTip, draft.get(binding.elementId)!), gap);
      }
      return moved;
    }
    return elbow(draft, arrow, pts, end) ?? straighten(draft, arrow, pts);
  }
  if (!isInside(neighbour, outline)) {
    const hit = rayHitsOutline(neighbour, centreOf(outline), outline);
    if (hit) {
      const moved = [...pts];
      moved[k] = stepBack(neighbour, hit, gap);
      setEnd(arrow, end, 0, gap);
      return moved;
    }
  }
  return straighten(draft, arrow, pts);
}

/**
 * Re-routes an orthogonal arrow from its other end, which stays as it is:
 * out along that end's first segment to halfway, across, and into the
 * facing side of the shape at its centre line (a Z, as the layout draws
 * arrows between ranks). Null when the shape does not lie ahead of that end.
 */
function elbow(draft: Draft, arrow: SceneElement, pts: Point[], end: End): Point[] | null {
  const n = pts.length;
  const far = end === 'start' ? n - 1 : 0;
  const fixed = pts[far]!;
  const next = pts[far === 0 ? 1 : n - 2]!;
  const axis = axisOf(fixed, next);
  if (axis === null) return null;
  const binding = bindingOf(arrow, end)!;
  const box = outlineOf(draft.get(binding.elementId)!);
  const gap = gapOf(binding);
  const along = axis === 'vertical' ? 1 : 0;
  const direction = Math.sign(next[along] - fixed[along]);
  const entry = direction > 0 ? (along ? box.y : box.x) - gap : (along ? box.y + box.height : box.x + box.width) + gap;
  if ((entry - fixed[along]) * direction < 2 * MIN_END_SEGMENT) return null;
  const middle = (fixed[along] + entry) / 2;
  const [cx, cy] = centreOf(box);
  // Into the facing side at its centre line, or off it where another line already runs there.
  const others = otherSegments(draft, arrow);
  const [from, length] = along ? [box.x, box.width] : [box.y, box.height];
  const across = [0, -0.2, 0.2, -0.35, 0.35].map((f) => (along ? cx : cy) + f * length).find((at) => {
    const leg: [Point, Point] = along ? [[at, middle], [at, entry]] : [[middle, at], [entry, at]];
    return at > from && at < from + length && !others.some((segment) => runAlong(leg, segment));
  }) ?? (along ? cx : cy);
  const route: Point[] = along ? [fixed, [fixed[0], middle], [across, middle], [across, entry]] : [fixed, [middle, fixed[1]], [middle, across], [entry, across]];
  setEnd(arrow, end, 0, gap);
  return end === 'start' ? route.reverse() : route;
}

/** A line closer than this to another, along it, reads as the same line. */
const ALONGSIDE = 5;
/** Runs shorter than this may be shared (where lines meet). */
const SHARED_RUN = 10;

/** Past this many arrows at one shape (a hub), a re-route is not checked against them: the check stays cheap. */
const NEIGHBOUR_LIMIT = 64;

/** The segments of the other arrows and lines bound to this arrow's shapes: the ones a re-route could run along. */
function otherSegments(draft: Draft, arrow: SceneElement): Array<[Point, Point]> {
  const ids = new Set<string>();
  for (const end of ENDS) {
    const binding = bindingOf(arrow, end);
    const bound = binding ? (draft.relations().arrows.get(binding.elementId) ?? []) : [];
    // A hub's list alone is past the limit (each arrow is listed once per shape): no need to gather it.
    if (bound.length > NEIGHBOUR_LIMIT + 1) return [];
    for (const id of bound) ids.add(id);
  }
  ids.delete(arrow.id);
  if (ids.size > NEIGHBOUR_LIMIT) return [];
  const segments: Array<[Point, Point]> = [];
  for (const id of ids) {
    const element = draft.get(id);
    if (!element) continue;
    const pts = absolutePoints(element);
    for (let k = 0; k + 1 < pts.length; k++) segments.push([pts[k]!, pts[k + 1]!]);
  }
  return segments;
}

function runsAlongAny(pts: Point[], others: Array<[Point, Point]>): boolean {
  for (let k = 0; k + 1 < pts.length; k++) if (others.some((segment) => runAlong([pts[k]!, pts[k + 1]!], segment))) return true;
  return false;
}

/** Whether an axis-parallel leg runs along a segment (parallel, within ALONGSIDE, sharing more than SHARED_RUN). */
function runAlong([a, b]: [Point, Point], [c, d]: [Point, Point]): boolean {
  const axis = axisOf(a, b);
  if (axis === null || axisOf(c, d) !== axis) return false;
  const vertical = axis === 'vertical';
  const offAxis = (p: Point): number => (vertical ? p[0] : p[1]);
  const onAxis = (p: Point): number => (vertical ? p[1] : p[0]);
  if (Math.abs(offAxis(a) - offAxis(c)) > ALONGSIDE) return false;
  const overlap = Math.min(Math.max(onAxis(a), onAxis(b)), Math.max(onAxis(c), onAxis(d))) - Math.max(Math.min(onAxis(a), onAxis(b)), Math.min(onAxis(c), onAxis(d)));
  return overlap > SHARED_RUN;
}

/**
 * Lays an arrow straight: each bound end on its shape's outline, on the line
 * between the shapes' centres (a free end stays put), the other points
 * spread along it in their order.
 */
export function straighten(draft: Draft, arrow: SceneElement, pts: Point[]): Point[] {
  const n = pts.length;
  const shapes = ENDS.map((end) => {
    const binding = bindingOf(arrow, end);
    const shape = binding ? draft.get(binding.elementId) : undefined;
    return binding && shape ? { binding, outline: outlineOf(shape) } : null;
  });
  const anchors: Point[] = [shapes[0] ? centreOf(shapes[0].outline) : pts[0]!, shapes[1] ? centreOf(shapes[1].outline) : pts[n - 1]!];
  const ends: Point[] = [pts[0]!, pts[n - 1]!];
  ENDS.forEach((end, i) => {
    const bound = shapes[i];
    if (!bound) return;
    const from = anchors[1 - i]!;
    const gap = gapOf(bound.binding);
    // Shapes that overlap: leave this one on the side facing the other.
    const landed = isInside(from, bound.outline) ? land(anchors[i]!, from, bound.outline, gap) : land(from, anchors[i]!, bound.outline, gap);
    if (!landed) return;
    ends[i] = landed;
    setEnd(arrow, end, 0, gap);
  });
  return spread(pts, ends[0]!, ends[1]!);
}

/** Puts a bound end on its shape's outline, along its end segment when that is axis-parallel, else aimed at the centre. */
export function attachEnd(draft: Draft, arrow: SceneElement, pts: Point[], end: End): Point[] {
  const binding = bindingOf(arrow, end)!;
  const shape = draft.get(binding.elementId)!;
  const outline = outlineOf(shape);
  const gap = gapOf(binding);
  const k = end === 'start' ? 0 : pts.length - 1;
  const neighbour = pts[end === 'start' ? 1 : pts.length - 2]!;
  const moved = [...pts];
  const along = axisOf(neighbour, pts[k]!) !== null ? land(neighbour, pts[k]!, outline, gap) : null;
  if (along) {
    moved[k] = along;
    setEnd(arrow, end, focusOf(neighbour, along, shape), gap);
    return moved;
  }
  const centre = centreOf(outline);
  const aimed = isInside(neighbour, outline) ? land(centre, neighbour, outline, gap) : land(neighbour, centre, outline, gap);
  if (aimed) {
    moved[k] = aimed;
    setEnd(arrow, end, 0, gap);
  }
  return moved;
}

/** Records a re-attached end's focus and gap (an elbow arrow's fixed-point binding is left as it is). */
function setEnd(arrow: SceneElement, end: End, focus: number, gap: number): void {
  const binding = bindingOf(arrow, end)!;
  if (binding.fixedPoint !== undefined) return;
  arrow[`${end}Binding`] = { ...binding, focus, gap };
}
