/**
 * Routing the new edges: each arrow leaves and enters its boxes by the sides
 * that face each other, its ends spread along a shared side, and runs around
 * the boxes in its way (or directly, past a fixed work budget), then is drawn
 * and bound at both ends as sceneFromSpec draws one.
 */
import { OccupiedSegments, type Heading, ROUTE_MARGIN, routeAroundObstacles } from '../layout/routing/obstacle-router.ts';
import type { Box } from '../layout/types.ts';
import { edgeLabelBlock } from '../scene/node-plan.ts';
import { arrowElement, arrowLabelElement, attachEnds, endLabelElements, focusOf, midpointOf } from '../scene/factory.ts';
import { SceneObstacles } from '../scene/end-labels.ts';
import { endLabelIds } from '../spec/parse.ts';
import { addBound, type ExcalidrawElement } from '../scene/elements.ts';
import { centreOn, type Point, roundPoint } from '../scene/geometry.ts';
import type { SpecEdge } from '../spec/types.ts';
import type { Merge } from './merge.ts';
import { centreOf, elementBox, grow, interiorsMeet, LINEAR, nearestSide, polylineOf, type Scene, type Side } from './scene-index.ts';

/** How far a fallback loop runs out beside two boxes that overlap. */
const LOOP_REACH = 40;

const round = (value: number) => Math.round(value * 100) / 100;

/** An arrow end's element, reduced to what the geometry needs (a normalised, unrotated box). */
type Endpoint = ExcalidrawElement & Box;

/** The move out of a box through this side. */
const LEAVING: Record<Side, Heading> = { right: 0, left: 1, bottom: 2, top: 3 };
/** The move into a box through this side. */
const ENTERING: Record<Side, Heading> = { left: 0, right: 1, top: 2, bottom: 3 };

/** The sides an arrow leaves the source by and enters the target by: across the wider gap between them; null when the boxes overlap. */
function facingSides(source: Box, target: Box): [Side, Side] | null {
  const gapX = Math.max(target.x - (source.x + source.width), source.x - (target.x + target.width));
  const gapY = Math.max(target.y - (source.y + source.height), source.y - (target.y + target.height));
  if (gapX <= 0 && gapY <= 0) return null;
  if (gapY >= gapX) return target.y > source.y ? ['bottom', 'top'] : ['top', 'bottom'];
  return target.x > source.x ? ['right', 'left'] : ['left', 'right'];
}

function pointOnSide(box: Box, side: Side, along: number): Point {
  switch (side) {
    case 'bottom':
      return [along, box.y + box.height];
    case 'top':
      return [along, box.y];
    case 'right':
      return [box.x + box.width, along];
    case 'left':
      return [box.x, along];
  }
}

interface EdgePlan {
  edge: SpecEdge;
  source: Endpoint;
  target: Endpoint;
  sides: [Side, Side];
  /** The boxes overlap: the route loops out to the right and back. */
  overlapping: boolean;
  ports: [Point, Point];
}

/**
 * Sides and ports for every new edge. Ends sharing a side of a box are spread
 * over its middle three fifths, ordered by where their other ends lie, so that
 * they neither coincide nor cross.
 */
function planEdges(edges: SpecEdge[], endpoint: (id: string) => Endpoint, taken: (id: string, side: Side) => number[]): EdgePlan[] {
  const plans = edges.map((edge) => {
    const source = endpoint(edge.from);
    const target = endpoint(edge.to);
    const facing = edge.from === edge.to ? null : facingSides(source, target);
    const sides: [Side, Side] = edge.from === edge.to ? ['right', 'top'] : (facing ?? ['right', 'right']);
    return { edge, source, target, sides, overlapping: edge.from !== edge.to && facing === null, ports: [[0, 0], [0, 0]] as [Point, Point] };
  });
  const bySide = new Map<string, Array<{ plan: EdgePlan; end: 0 | 1; key: number; order: number }>>();
  plans.forEach((plan, order) => {
    ([0, 1] as const).forEach((end) => {
      const self = end === 0 ? plan.source : plan.target;
      const other = end === 0 ? plan.target : plan.source;
      const side = plan.sides[end];
      const [ox, oy] = centreOf(other);
      const key = side === 'top' || side === 'bottom' ? ox : oy;
      const slot = `${self.id}\u0000${side}`;
      bySide.set(slot, [...(bySide.get(slot) ?? []), { plan, end, key, order }]);
    });
  });
  const alone = new Set<string>();
  for (const ends of bySide.values()) {
    ends.sort((a, b) => a.key - b.key || a.order - b.order || a.end - b.end);
    const first = ends[0]!;
    const box = first.end === 0 ? first.plan.source : first.plan.target;
    const side = first.plan.sides[first.end];
    const [from, length] = side === 'top' || side === 'bottom' ? [box.x, box.width] : [box.y, box.height];
    // Slots for these ends and the arrows already there; each arrow already there keeps the slot nearest it.
    const existing = taken(box.id, side);
    const slots = Array.from({ length: ends.length + existing.length }, (_, i) => round(from + length * (0.2 + (0.6 * (i + 1)) / (ends.length + existing.length + 1))));
    for (const at of existing) {
      let nearest = 0;
      slots.forEach((slot, i) => (Math.abs(slot - at) < Math.abs(slots[nearest]! - at) ? (nearest = i) : 0));
      slots.splice(nearest, 1);
    }
    ends.forEach(({ plan, end }, i) => {
      plan.ports[end] = pointOnSide(box, side, slots[i]!);
      if (ends.length === 1 && existing.length === 0) alone.add(`${plans.indexOf(plan)}:${end}`);
    });
  }
  plans.forEach((plan, i) => straighten(plan, alone.has(`${i}:0`), alone.has(`${i}:1`)));
  return plans;
}

/** The middle three fifths of a box's side, where arrow ends go. */
function portRange(box: Box, side: Side): [number, number] {
  const [from, length] = side === 'top' || side === 'bottom' ? [box.x, box.width] : [box.y, box.height];
  return [from + 0.2 * length, from + 0.8 * length];
}

/** Lines up the ports of an arrow between facing sides, where one end has its side to itself, so that it runs straight. */
function straighten(plan: EdgePlan, sourceAlone: boolean, targetAlone: boolean): void {
  if (plan.overlapping || plan.source.id === plan.target.id) return;
  const axis = plan.sides[0] === 'top' || plan.sides[0] === 'bottom' ? 0 : 1;
  const [sourceLo, sourceHi] = portRange(plan.source, plan.sides[0]);
  const [targetLo, targetHi] = portRange(plan.target, plan.sides[1]);
  const lo = Math.max(sourceLo, targetLo);
  const hi = Math.min(sourceHi, targetHi);
  if (lo > hi) return;
  const at = (end: 0 | 1, value: number) => {
    const box = end === 0 ? plan.source : plan.target;
    plan.ports[end] = pointOnSide(box, plan.sides[end], value);
  };
  const source = plan.ports[0][axis];
  const target = plan.ports[1][axis];
  if (sourceAlone && targetAlone) {
    const middle = round(Math.min(hi, Math.max(lo, (source + target) / 2)));
    at(0, middle);
    at(1, middle);
  } else if (targetAlone && source >= lo && source <= hi) at(1, source);
  else if (sourceAlone && target >= lo && target <= hi) at(0, target);
}

const strictlyInside = (p: Point, box: Box) => p[0] > box.x && p[0] < box.x + box.width && p[1] > box.y && p[1] < box.y + box.height;

/** Out to the right of both boxes and back: for boxes that overlap, or when no route exists. */
function loopRoute(plan: EdgePlan): Point[] {
  const out = Math.max(plan.source.x + plan.source.width, plan.target.x + plan.target.width) + LOOP_REACH;
  const start = pointOnSide(plan.source, 'right', plan.source.y + plan.source.height / 2);
  const end = pointOnSide(plan.target, 'right', plan.target.y + plan.target.height / 2);
  return start[1] === end[1] ? [start, [out, start[1]], end] : [start, [out, start[1]], [out, end[1]], end];
}

/** Between facing sides: out, across halfway, and in (a straight line when the ports line up); a loop from a box to itself. */
function directRoute(plan: EdgePlan): Point[] {
  const [start, end] = plan.ports;
  if (plan.source.id === plan.target.id) {
    const [out, up] = [start[0] + LOOP_REACH, end[1] - LOOP_REACH];
    return [start, [out, start[1]], [out, up], [end[0], up], end];
  }
  if (start[0] === end[0] || start[1] === end[1]) return [start, end];
  const vertical = plan.sides[0] === 'top' || plan.sides[0] === 'bottom';
  const middle = vertical ? (start[1] + end[1]) / 2 : (start[0] + end[0]) / 2;
  return vertical ? [start, [start[0], middle], [end[0], middle], end] : [start, [middle, start[1]], [middle, end[1]], end];
}

/**
 * The obstacle search costs about the square of the boxes near the route; past
 * these (per route, and summed over the merge) routes are drawn directly. A
 * budget in boxes, not in time, keeps the result deterministic.
 */
const ROUTE_BOXES_LIMIT = 300;
const ROUTE_WORK_BUDGET = 600_000;

function routeEdge(plan: EdgePlan, obstacles: Box[], occupied: OccupiedSegments, budget: { work: number }): Point[] {
  if (plan.overlapping) return loopRoute(plan);
  const [start, end] = plan.ports;
  // A box holding an end (a frame, a shape drawn behind) would wall it in.
  const around = obstacles.filter((box) => !strictlyInside(start, box) && !strictlyInside(end, box));
  const near = grow({ x: Math.min(start[0], end[0]), y: Math.min(start[1], end[1]), width: Math.abs(start[0] - end[0]), height: Math.abs(start[1] - end[1]) }, 4 * ROUTE_MARGIN);
  let boxes = 0;
  for (const box of around) if (interiorsMeet(box, near)) boxes++;
  if (boxes > ROUTE_BOXES_LIMIT || budget.work + boxes * boxes > ROUTE_WORK_BUDGET) return directRoute(plan);
  budget.work += boxes * boxes;
  const route = routeAroundObstacles({ start, startHeading: LEAVING[plan.sides[0]], end, endHeading: ENTERING[plan.sides[1]], obstacles: around, occupied });
  return route ?? directRoute(plan);
}

/** The arrow (and its label) along a route, its ends on the outlines with the binding gap, as sceneFromSpec draws one. */
function addArrow(merge: Merge, plan: EdgePlan, route: Point[], obstacles: SceneObstacles | null): void {
  const { edge, source, target } = plan;
  let points = attachEnds(route, source, target);
  const extent = (ps: Point[]) => Math.max(...ps.map((p) => p[0])) - Math.min(...ps.map((p) => p[0])) + Math.max(...ps.map((p) => p[1])) - Math.min(...ps.map((p) => p[1]));
  // The editor's restore drops an arrow with no extent.
  if (extent(points.map(roundPoint)) === 0) points = attachEnds(loopRoute(plan), source, target);
  const startFocus = focusOf(points[1]!, points[0]!, source);
  const endFocus = focusOf(points[points.length - 2]!, points[points.length - 1]!, target);
  const label = edge.label === null ? null : edgeLabelBlock(edge.label);
  const finalPoints = (label ? centreOn(points, midpointOf(points)) : points).map(roundPoint);
  const arrow = merge.create(arrowElement(edge, finalPoints, { start: startFocus, end: endFocus }, 0, merge.now));
  merge.bind(edge.from, { id: edge.id, type: 'arrow' });
  if (edge.to !== edge.from) merge.bind(edge.to, { id: edge.id, type: 'arrow' });
  if (label) {
    const text = merge.create(arrowLabelElement(edge.id, label, finalPoints, 0, merge.now));
    addBound(arrow, { id: text.id, type: 'text' });
  }
  if (obstacles) {
    obstacles.addElement(arrow);
    if (label) obstacles.addElement(merge.get(`${edge.id}-label`)!);
    for (const text of endLabelElements(edge, finalPoints, obstacles, 0, merge.now)) merge.create(text);
  }
}

export function addEdges(merge: Merge, scene: Scene, edges: SpecEdge[]): void {
  if (edges.length === 0) return;
  const endpoint = (id: string): Endpoint => {
    const element = merge.get(id)!;
    return { id, type: element.type, ...elementBox({ ...element, angle: 0 }) };
  };
  // Where arrows already bound to a shape meet each of its sides.
  const ends = new Map<string, number[]>();
  for (const element of scene.live.values()) {
    if (element.type !== 'arrow') continue;
    const points = polylineOf(element);
    for (const [binding, point] of [
      [element.startBinding, points[0]],
      [element.endBinding, points[points.length - 1]],
    ] as const) {
      const id = (binding as { elementId?: string } | null)?.elementId;
      const shape = id ? merge.get(id) : undefined;
      if (!shape || !point) continue;
      const box = elementBox({ ...shape, angle: 0 });
      const side = nearestSide(box, point);
      const key = `${id}\u0000${side}`;
      ends.set(key, [...(ends.get(key) ?? []), side === 'top' || side === 'bottom' ? point[0] : point[1]]);
    }
  }
  const plans = planEdges(edges, endpoint, (id, side) => ends.get(`${id}\u0000${side}`) ?? []);
  const obstacles: Box[] = [];
  const occupied = new OccupiedSegments();
  // As the merge has them: a container that grew to hold a new node is in the way at its new size.
  for (const element of [...[...scene.live.keys()].map((id) => merge.get(id)!), ...merge.created]) {
    if (!LINEAR.has(element.type)) obstacles.push(elementBox(element));
    else occupied.add(polylineOf(element));
  }
  const budget = { work: 0 };
  // Head and tail labels keep clear of everything drawn so far, the new arrows included.
  const around = edges.some((edge) => endLabelIds(edge).length > 0) ? new SceneObstacles([...[...scene.live.keys()].map((id) => merge.get(id)!), ...merge.created]) : null;
  for (const plan of plans) {
    const route = routeEdge(plan, obstacles, occupied, budget);
    occupied.add(route);
    addArrow(merge, plan, route, around);
  }
}
