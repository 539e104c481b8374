/**
 * The scene an edit starts from, as the merge reads it: its elements indexed
 * by id (live ones, labels by container, every id ever used), and the box
 * geometry that placing new nodes and routing new arrows both work in.
 */
import type { Box } from '../layout/types.ts';
import type { Point } from '../scene/geometry.ts';
import type { SceneElement } from './types.ts';

export interface Scene {
  elements: readonly SceneElement[];
  /** Every element id, deleted ones included: a new element may reuse none of them. */
  ids: Set<string>;
  /** The elements not deleted, by id. */
  live: Map<string, SceneElement>;
  /** Each live shape's label: the first live text whose containerId names it. */
  labels: Map<string, SceneElement>;
}

export function indexScene(elements: readonly SceneElement[]): Scene {
  const ids = new Set<string>();
  const live = new Map<string, SceneElement>();
  const labels = new Map<string, SceneElement>();
  for (const element of elements) {
    ids.add(element.id);
    if (element.isDeleted === true || live.has(element.id)) continue;
    live.set(element.id, element);
  }
  for (const element of live.values()) {
    const container = element.containerId;
    if (element.type === 'text' && typeof container === 'string' && !labels.has(container)) labels.set(container, element);
  }
  return { elements, ids, live, labels };
}

/** Elements drawn as polylines rather than boxes. */
export const LINEAR = new Set(['arrow', 'line']);

export const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** An element's axis-aligned bounding box (a rotated element's, for one with an angle). */
export function elementBox(element: SceneElement): Box {
  let x = num(element.x);
  let y = num(element.y);
  let width = num(element.width);
  let height = num(element.height);
  if (width < 0) [x, width] = [x + width, -width];
  if (height < 0) [y, height] = [y + height, -height];
  const angle = num(element.angle);
  if (Math.sin(angle) !== 0) {
    const cos = Math.abs(Math.cos(angle));
    const sin = Math.abs(Math.sin(angle));
    const rotatedWidth = width * cos + height * sin;
    const rotatedHeight = width * sin + height * cos;
    x += (width - rotatedWidth) / 2;
    y += (height - rotatedHeight) / 2;
    width = rotatedWidth;
    height = rotatedHeight;
  }
  return { x, y, width, height };
}

/** A linear element's points in scene coordinates. */
export function polylineOf(element: SceneElement): Point[] {
  const points: Point[] = [];
  if (!Array.isArray(element.points)) return points;
  const x = num(element.x);
  const y = num(element.y);
  for (const p of element.points as unknown[]) if (Array.isArray(p) && p.length >= 2) points.push([x + num(p[0]), y + num(p[1])]);
  return points;
}

/** Which side of a box: where a node is placed relative to another, or where an arrow meets it. */
export type Side = 'bottom' | 'right' | 'top' | 'left';

/** The side of a box a point (on or near its outline) is nearest to. */
export function nearestSide(box: Box, [x, y]: Point): Side {
  const distances: Array<[Side, number]> = [
    ['top', Math.abs(y - box.y)],
    ['bottom', Math.abs(y - (box.y + box.height))],
    ['left', Math.abs(x - box.x)],
    ['right', Math.abs(x - (box.x + box.width))],
  ];
  return distances.reduce((best, d) => (d[1] < best[1] ? d : best))[0];
}

export const grow = (box: Box, by: number): Box => ({ x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by });
export const interiorsMeet = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
export const centreOf = (box: Box): Point => [box.x + box.width / 2, box.y + box.height / 2];

export const encloses = (outer: Box, inner: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

/** A node of the drawing: a shape or a free text (not a label, a line or an image). */
export const isNode = (element: SceneElement) => !LINEAR.has(element.type) && element.type !== 'image' && typeof element.containerId !== 'string';

/** The nodes whose box lies inside this element's box, itself left out. */
export function shapesInside(scene: Scene, element: SceneElement): SceneElement[] {
  const box = elementBox(element);
  return [...scene.live.values()].filter((other) => other !== element && isNode(other) && encloses(box, elementBox(other)));
}

/**
 * A rectangle that holds other nodes, or whose label sits at its top (a
 * container drawn from a spec, still empty). `holdsANode` answers the first
 * question; by default it looks at the whole scene.
 */
export function isContainer(scene: Scene, element: SceneElement, holdsANode = (e: SceneElement) => shapesInside(scene, e).length > 0): boolean {
  if (element.type !== 'rectangle') return false;
  if (scene.labels.get(element.id)?.verticalAlign === 'top') return true;
  return holdsANode(element);
}

/** The containers around this one, innermost first: rectangles that enclose its box. */
export function containersAround(scene: Scene, element: SceneElement): SceneElement[] {
  const box = elementBox(element);
  const area = (e: SceneElement) => elementBox(e).width * elementBox(e).height;
  return [...scene.live.values()].filter((other) => other !== element && other.type === 'rectangle' && encloses(elementBox(other), box) && isContainer(scene, other)).sort((a, b) => area(a) - area(b));
}
