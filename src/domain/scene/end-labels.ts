/**
 * An edge's head and tail labels (DOT's headlabel and taillabel: a
 * multiplicity, the name of a port): free texts beside the arrow's ends,
 * placed after the arrows are drawn where they cover no shape, no line and no
 * other text. Where every spot beside an end does (the middle arrow of a fan
 * of thirty, lines 26 px apart), the text goes just inside the shape the
 * arrow ends at, on the line's continuation, when that shape has room there
 * (a person types a port's name there too). The editor binds one label to an arrow, at its middle; these
 * are texts of their own, so they stay where they are when a person moves
 * the arrow.
 */
import { segmentCrossesBox } from '../layout/metrics.ts';
import type { ExcalidrawElement } from './elements.ts';
import type { Point } from './geometry.ts';

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** How far the text keeps from its own line: clear of the arrowhead's wings (the editor's arrowhead is 17 px across). */
const END_LABEL_ACROSS = 10;
/** How far back from the end point (on the outline, less the binding gap) the text's near side starts. */
const END_LABEL_BACK = 4;
/** Clearance kept from other lines and shapes. */
const CLEARANCE = 4;
/** Another arrow's line this near the text makes it read as that arrow's too: the text prefers a side without one. */
const NEIGHBOUR_DISTANCE = 14;
/** What a spot costs for each thing it covers and each other arrow beside it; a step back or out costs 2, the left-hand side 1. */
const COVER_COST = 1000;
const NEAR_COST = 20;
/** Steps back along the arrow tried before the text gives way to what it covers. */
const SLIDE_STEP = 8;
const SLIDE_STEPS = 8;
/** The sides tried at each step back, nearest the line first: [side, steps further out]. */
const SPOTS: Array<[number, number]> = [0, 1, 2, 3].flatMap((out): Array<[number, number]> => [
  [1, out],
  [-1, out],
]);
const CELL = 128;
/** Inside the end shape: how far past the arrow's end the text's near side starts, and how far it keeps from the shape's outline. */
const INSIDE_PAST = 10;
export const INSIDE_MARGIN = 6;
/** The share of the end shape's depth, from where the arrow enters, that a text inside it keeps to. */
export const INSIDE_DEPTH = 0.4;

interface Obstacle {
  box: Box;
  /** A segment (a to b) rather than a filled box. */
  segment?: [Point, Point];
  /** The element's id: the end node itself still counts as a shape, containers around the end do not; the text's own arrow is no neighbour. */
  id?: string;
}

/** Lines, shapes and texts of a scene, found by area. */
export class SceneObstacles {
  private readonly cells = new Map<string, Obstacle[]>();
  /** Boxes, ellipses and diamonds by id: the shape an arrow ends at, which a label may go inside. */
  private readonly bodies = new Map<string, { box: Box; type: 'rectangle' | 'ellipse' | 'diamond' }>();

  constructor(elements: Iterable<ExcalidrawElement>) {
    for (const element of elements) this.addElement(element);
  }

  addElement(element: ExcalidrawElement): void {
    if (element.isDeleted === true) return;
    const x = Number(element.x);
    const y = Number(element.y);
    if (element.type === 'arrow' || element.type === 'line') {
      const points = (element.points as Point[]).map(([px, py]): Point => [x + px, y + py]);
      for (let i = 1; i < points.length; i++) this.add({ box: boxOf([points[i - 1]!, points[i]!]), segment: [points[i - 1]!, points[i]!], id: element.id });
    } else {
      const box = { x1: x, y1: y, x2: x + Number(element.width), y2: y + Number(element.height) };
      this.add({ box, id: element.id });
      if (element.type === 'rectangle' || element.type === 'ellipse' || element.type === 'diamond') this.bodies.set(element.id, { box, type: element.type });
    }
  }

  /** The extent of the shape `id` along a unit direction (0 when it is no box, ellipse or diamond). */
  depthOf(id: string, [dx, dy]: Point): number {
    const body = this.bodies.get(id);
    return body ? Math.abs(dx) * (body.box.x2 - body.box.x1) + Math.abs(dy) * (body.box.y2 - body.box.y1) : 0;
  }

  /** Whether the box lies inside the shape `id` (a box, ellipse or diamond), `margin` clear of its outline. */
  holds(id: string, box: Box, margin: number): boolean {
    const body = this.bodies.get(id);
    if (!body) return false;
    const outer = body.box;
    const [cx, cy] = [(outer.x1 + outer.x2) / 2, (outer.y1 + outer.y2) / 2];
    const [a, b] = [(outer.x2 - outer.x1) / 2 - margin, (outer.y2 - outer.y1) / 2 - margin];
    if (a <= 0 || b <= 0) return false;
    const corners: Point[] = [[box.x1, box.y1], [box.x2, box.y1], [box.x1, box.y2], [box.x2, box.y2]];
    const fits = ([x, y]: Point) => {
      const [u, v] = [Math.abs(x - cx) / a, Math.abs(y - cy) / b];
      return body.type === 'ellipse' ? u * u + v * v <= 1 : body.type === 'diamond' ? u + v <= 1 : u <= 1 && v <= 1;
    };
    return corners.every(fits);
  }

  add(obstacle: Obstacle): void {
    for (const key of cellsOf(obstacle.box)) (this.cells.get(key) ?? this.cells.set(key, []).get(key)!).push(obstacle);
  }

  /**
   * What the box would cover: shapes and texts it overlaps and lines through
   * it (`covered`; shapes that hold `end`, the containers around it, count
   * only by their outline), and other arrows' lines that pass within
   * NEIGHBOUR_DISTANCE of it (`near`: beside them, a reader cannot tell whose
   * label it is). With `insideEnd` the box lies within the end shape, whose
   * body does not count.
   */
  covered(box: Box, end: Point, endNode: string, arrow: string, insideEnd = false): { covered: number; near: number } {
    const seen = new Set<Obstacle>();
    let count = 0;
    let near = 0;
    for (const key of cellsOf(grow(box, NEIGHBOUR_DISTANCE))) {
      for (const obstacle of this.cells.get(key) ?? []) {
        if (seen.has(obstacle)) continue;
        seen.add(obstacle);
        if (insideEnd && obstacle.id === endNode && !obstacle.segment) continue;
        if (obstacle.segment) {
          if (segmentMeetsBox(obstacle.segment, grow(box, CLEARANCE))) count++;
          else if (obstacle.id !== arrow && segmentMeetsBox(obstacle.segment, grow(box, NEIGHBOUR_DISTANCE))) near++;
        } else if (obstacle.id !== endNode && inside(end, obstacle.box)) {
          // A container around the end: only its outline counts, so a text across it covers it, one wholly inside or outside does not.
          if (overlap(box, grow(obstacle.box, CLEARANCE)) && !within(box, obstacle.box, CLEARANCE)) count++;
        } else if (overlap(box, grow(obstacle.box, CLEARANCE))) count++;
      }
    }
    return { covered: count, near };
  }
}

/**
 * Where a text of the given size goes beside the end of an arrow: `end` is
 * the arrow's end point, `previous` the point before it. The text sits beside
 * the last stretch, its near side END_LABEL_ACROSS from the line and
 * END_LABEL_BACK before the end, on the right of an arrow going down or
 * above one going across; where that covers something, or lies beside
 * another arrow, the other side, then further out and further back. Where
 * every one of those covers something, the first spot just inside the end
 * shape, on the line's continuation, that covers nothing; at worst the spot
 * covering least.
 */
export function endLabelBox(end: Point, previous: Point, size: { width: number; height: number }, obstacles: SceneObstacles, ends: { node: string; arrow: string }): { x: number; y: number } {
  const length = Math.hypot(end[0] - previous[0], end[1] - previous[1]);
  const [dx, dy] = length > 0 ? [(end[0] - previous[0]) / length, (end[1] - previous[1]) / length] : [0, 1];
  // The side across the line: right of a line going down, above one going right.
  const [nx, ny] = [dy, -dx];
  const along = Math.abs(dx) * size.width + Math.abs(dy) * size.height;
  const across = Math.abs(nx) * size.width + Math.abs(ny) * size.height;
  let best: { x: number; y: number; cost: number } | null = null;
  for (let step = 0; step < SLIDE_STEPS; step++) {
    for (const [side, out] of SPOTS) {
      const back = END_LABEL_BACK + along / 2 + step * SLIDE_STEP;
      const off = END_LABEL_ACROSS + out * SLIDE_STEP + across / 2;
      const cx = end[0] - dx * back + nx * side * off;
      const cy = end[1] - dy * back + ny * side * off;
      const box = { x1: cx - size.width / 2, y1: cy - size.height / 2, x2: cx + size.width / 2, y2: cy + size.height / 2 };
      const { covered, near } = obstacles.covered(box, end, ends.node, ends.arrow);
      const cost = covered * COVER_COST + near * NEAR_COST + (step + out) * 2 + (side === 1 ? 0 : 1);
      if (!best || cost < best.cost) best = { x: box.x1, y: box.y1, cost };
    }
    if (best && best.cost < NEAR_COST) break;
  }
  if (best!.cost >= COVER_COST) return insideSpot(end, [dx, dy], size, along, obstacles, ends) ?? { x: best!.x, y: best!.y };
  return { x: best!.x, y: best!.y };
}

/**
 * A spot inside the end shape, past the arrow's end along its last stretch,
 * that covers nothing and keeps to the shape's outer 40 % (deeper in, it
 * would read as the shape's own name); null when the shape has no such room.
 */
function insideSpot(end: Point, [dx, dy]: Point, size: { width: number; height: number }, along: number, obstacles: SceneObstacles, ends: { node: string; arrow: string }): { x: number; y: number } | null {
  const depth = obstacles.depthOf(ends.node, [dx, dy]) * INSIDE_DEPTH;
  for (let step = 0; step < SLIDE_STEPS; step++) {
    const past = INSIDE_PAST + along / 2 + step * SLIDE_STEP;
    if (past + along / 2 > depth) return null;
    const [cx, cy] = [end[0] + dx * past, end[1] + dy * past];
    const box = { x1: cx - size.width / 2, y1: cy - size.height / 2, x2: cx + size.width / 2, y2: cy + size.height / 2 };
    if (obstacles.holds(ends.node, box, INSIDE_MARGIN) && obstacles.covered(box, end, ends.node, ends.arrow, true).covered === 0) return { x: box.x1, y: box.y1 };
  }
  return null;
}

const boxOf = (points: Point[]): Box => ({
  x1: Math.min(...points.map((p) => p[0])),
  y1: Math.min(...points.map((p) => p[1])),
  x2: Math.max(...points.map((p) => p[0])),
  y2: Math.max(...points.map((p) => p[1])),
});
const grow = (box: Box, by: number): Box => ({ x1: box.x1 - by, y1: box.y1 - by, x2: box.x2 + by, y2: box.y2 + by });
const overlap = (a: Box, b: Box) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
const inside = ([x, y]: Point, box: Box) => x > box.x1 && x < box.x2 && y > box.y1 && y < box.y2;
/** The box lies within `outer`, `margin` clear of its outline. */
const within = (box: Box, outer: Box, margin: number) => box.x1 >= outer.x1 + margin && box.x2 <= outer.x2 - margin && box.y1 >= outer.y1 + margin && box.y2 <= outer.y2 - margin;

function* cellsOf(box: Box): Generator<string> {
  for (let cx = Math.floor(box.x1 / CELL); cx <= Math.floor(box.x2 / CELL); cx++) {
    for (let cy = Math.floor(box.y1 / CELL); cy <= Math.floor(box.y2 / CELL); cy++) yield `${cx},${cy}`;
  }
}

/** Whether the segment passes through the box (the layout's own test, on a box given by its corners). */
const segmentMeetsBox = ([a, b]: [Point, Point], box: Box) => segmentCrossesBox(a[0], a[1], b[0], b[1], { x: box.x1, y: box.y1, width: box.x2 - box.x1, height: box.y2 - box.y1 });
