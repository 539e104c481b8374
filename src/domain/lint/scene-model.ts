import {
  arcLengths,
  type Box,
  boxArea,
  boxContains,
  boxOfPoints,
  boxPolygon,
  diamondPolygon,
  ellipsePolygon,
  inflate,
  lengthInside,
  type Point,
  type Polygon,
  rotate,
  segmentToPolygon,
} from './geometry.ts';
import { quote } from '../payload.ts';
import { sequenceRole } from '../sequence/types.ts';
import { SpatialGrid, type WorkBudget } from './grid.ts';
import { SHAPE_CLEARANCE, TOUCH_SLACK } from './thresholds.ts';

type Element = Record<string, any>;

/** Something drawn with an area: a box, ellipse or diamond ("body"), an image, or text bound to nothing. */
export interface Shape {
  index: number;
  id: string;
  type: string;
  kind: 'body' | 'image' | 'text';
  outline: Polygon;
  box: Box;
  area: number;
  /** The radius of a rounded rectangle's corners as the editor draws them (0 when square, or turned). */
  cornerRadius: number;
  /** Its place in the scene's drawing order, and whether it is filled (so it hides what was drawn before it). */
  order: number;
  filled: boolean;
  /** The smallest body whose box holds this one's. */
  parent: Shape | null;
  /** A body holding another body: a VPC, a cluster. */
  isContainer: boolean;
  /** The node this is part of (an icon or caption grouped with it, or lying in a plain node), else itself. */
  owner: Shape;
  label: Text | null;
}

export interface Text {
  index: number;
  id: string;
  /** What was typed: `originalText`, else `text`. */
  content: string;
  /** The lines as drawn: `text`, wrapped to the box (the same as content when nothing was wrapped). */
  wrapped: string;
  /** How it is set: size (px), family (the editor's id), unitless line height, alignment. */
  font: { size: number; family: number; lineHeight: number; align: string };
  outline: Polygon;
  box: Box;
  /** The shape or arrow this text is bound to (its `containerId`). */
  boundTo: Shape | Path | null;
  /** The text as a shape, when it is bound to nothing. */
  shape: Shape | null;
  /** What the text belongs to: its node (for labels and a node's captions), its arrow, or itself. */
  ownerId: string;
}

export interface Path {
  index: number;
  id: string;
  type: 'arrow' | 'line';
  points: Point[];
  /** Distance along the path to each point. */
  lengths: number[];
  /** The shapes an arrow starts and ends at: bound, or else the smallest shape its free end touches. */
  ends: [Shape | null, Shape | null];
  label: Text | null;
  /** Whether an arrowhead is drawn at its start and at its end (an arrow without the fields has one at its end, as the editor restores it). */
  heads: [boolean, boolean];
  /** The kind of each of those arrowheads (`arrow`, `triangle`, …), null where none is drawn. */
  headKinds: [string | null, string | null];
  /** Its segments of non-zero length, in order. */
  segments: Segment[];
  /** Its place in the scene's drawing order. */
  order: number;
}

export interface Segment {
  index: number;
  path: Path;
  /** Position in the path: the segment from points[at] to points[at + 1]. */
  at: number;
  a: Point;
  b: Point;
  box: Box;
}

/** A scene as lint sees it: geometry, nesting and ownership, with grids to find what is near. */
export interface SceneModel {
  shapes: Shape[];
  texts: Text[];
  paths: Path[];
  segments: Segment[];
  shapeGrid: SpatialGrid;
  textGrid: SpatialGrid;
  segmentGrid: SpatialGrid;
}

const BODIES = new Set(['rectangle', 'ellipse', 'diamond', 'embeddable', 'iframe']);
const finite = (...values: unknown[]) => values.every((v) => typeof v === 'number' && Number.isFinite(v));

function outlineOf(e: Element): { outline: Polygon; box: Box } | null {
  if (!finite(e.x, e.y, e.width, e.height, e.x + e.width, e.y + e.height)) return null;
  const box = boxOfPoints([
    [e.x, e.y],
    [e.x + e.width, e.y + e.height],
  ]);
  const corners = e.type === 'ellipse' ? ellipsePolygon(box) : e.type === 'diamond' ? diamondPolygon(box) : boxPolygon(box);
  const angle = finite(e.angle) ? (e.angle as number) : 0;
  const outline = rotate(corners, angle, [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2]);
  return { outline, box: angle ? boxOfPoints(outline) : box };
}

/** The editor's corner radius (its getCornerRadius): a quarter of the shorter side, or for adaptive roundness at most 32 px. */
function cornerRadiusOf(e: Element): number {
  if (e.type !== 'rectangle' || (finite(e.angle) && e.angle !== 0) || !e.roundness) return 0;
  const side = Math.min(Math.abs(e.width), Math.abs(e.height));
  if (e.roundness.type === 1 || e.roundness.type === 2) return side * 0.25;
  if (e.roundness.type !== 3) return 0;
  const fixed = finite(e.roundness.value) && e.roundness.value > 0 ? e.roundness.value : 32;
  return side <= fixed / 0.25 ? side * 0.25 : fixed;
}

function pointsOf(e: Element): Point[] | null {
  if (!finite(e.x, e.y) || !Array.isArray(e.points) || e.points.length < 2) return null;
  if (!e.points.every((p: unknown) => Array.isArray(p) && finite(p[0], p[1], e.x + p[0], e.y + p[1]))) return null;
  const points: Point[] = e.points.map((p: number[]) => [e.x + p[0]!, e.y + p[1]!]);
  const box = boxOfPoints(points);
  return rotate(points, finite(e.angle) ? e.angle : 0, [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2]);
}


/** A lifeline (a rectangle of no width, so arrows bind to it) read as the vertical line it draws. */
function lifelinePoints(e: Element): Point[] | null {
  if (!finite(e.x, e.y, e.width, e.height)) return null;
  const x = e.x + e.width / 2;
  return [
    [x, e.y],
    [x, e.y + e.height],
  ];
}

/** Builds the model from live elements (deleted ones already dropped); elements without usable geometry are left out. */
/** The scene read for the layout checks; its grids spend every candidate they look at from `budget`. */
export function buildSceneModel(elements: Element[], budget?: WorkBudget): SceneModel {
  const byId = new Map(elements.map((e) => [e.id as string, e]));
  const shapes: Shape[] = [];
  const texts: Text[] = [];
  const paths: Path[] = [];
  const pathElements: Element[] = [];
  const textElements: Element[] = [];

  for (const [order, e] of elements.entries()) {
    const role = sequenceRole(e);
    // A sequence diagram's frame is a backdrop around messages, not a shape they could pass through.
    if (role === 'frame') continue;
    if (e.type === 'arrow' || e.type === 'line' || role === 'lifeline') {
      const points = role === 'lifeline' ? lifelinePoints(e) : pointsOf(e);
      if (!points) continue;
      const headKinds: [string | null, string | null] = e.type === 'arrow' ? [typeof e.startArrowhead === 'string' ? e.startArrowhead : null, e.endArrowhead === undefined ? 'arrow' : typeof e.endArrowhead === 'string' ? e.endArrowhead : null] : [null, null];
      const heads: [boolean, boolean] = [headKinds[0] !== null, headKinds[1] !== null];
      paths.push({ index: paths.length, id: e.id, type: role === 'lifeline' ? 'line' : e.type, points, lengths: arcLengths(points), ends: [null, null], label: null, heads, headKinds, segments: [], order });
      pathElements.push(e);
      continue;
    }
    const kind = BODIES.has(e.type) ? 'body' : e.type === 'image' ? 'image' : e.type === 'text' && !boundTarget(e, byId) ? 'text' : null;
    if (e.type === 'text') textElements.push(e);
    if (!kind) continue;
    const geometry = outlineOf(e);
    if (!geometry) continue;
    const shape: Shape = {
      index: shapes.length,
      id: e.id,
      type: e.type,
      kind,
      ...geometry,
      area: boxArea(geometry.box),
      cornerRadius: cornerRadiusOf(e),
      order,
      filled: typeof e.backgroundColor === 'string' && e.backgroundColor !== 'transparent' && e.fillStyle === 'solid',
      parent: null,
      isContainer: false,
      owner: null!,
      label: null,
    };
    shape.owner = shape;
    shapes.push(shape);
  }

  const extent = inflate(boxOfPoints([...shapes.flatMap((s) => boxCorners(s.box)), ...paths.flatMap((p) => p.points), ...textElements.flatMap(textCorners)]), 1);
  const shapeGrid = new SpatialGrid(
    extent,
    shapes.map((s) => s.box),
    budget,
  );
  nest(shapes, shapeGrid, byId);
  assignOwners(shapes, elements.filter((e) => BODIES.has(e.type)), byId);

  const shapesById = new Map(shapes.map((s) => [s.id, s]));
  const pathsById = new Map(paths.map((p) => [p.id, p]));
  for (const e of textElements) {
    const geometry = outlineOf(e);
    if (!geometry) continue;
    const shape = shapesById.get(e.id) ?? null;
    const boundTo = shape ? null : (shapesById.get(e.containerId) ?? pathsById.get(e.containerId) ?? null);
    const ownerId = shape ? shape.owner.id : boundTo && isShape(boundTo) ? boundTo.owner.id : (boundTo?.id ?? e.id);
    const wrapped = String(e.text ?? e.originalText ?? '');
    const font = {
      size: finite(e.fontSize) && e.fontSize > 0 ? e.fontSize : 20,
      family: finite(e.fontFamily) ? e.fontFamily : 0,
      lineHeight: finite(e.lineHeight) && e.lineHeight > 0 ? e.lineHeight : 1.25,
      align: typeof e.textAlign === 'string' ? e.textAlign : 'left',
    };
    const text: Text = { index: texts.length, id: e.id, content: String(e.originalText ?? wrapped), wrapped, font, ...geometry, boundTo, shape, ownerId };
    texts.push(text);
    if (boundTo) boundTo.label ??= text;
    if (shape) shape.label = text;
  }
  const textGrid = new SpatialGrid(
    extent,
    texts.map((t) => t.box),
    budget,
  );

  const segments: Segment[] = [];
  for (const path of paths) {
    for (let at = 0; at + 1 < path.points.length; at++) {
      const [a, b] = [path.points[at]!, path.points[at + 1]!];
      if (a[0] === b[0] && a[1] === b[1]) continue;
      const segment = { index: segments.length, path, at, a, b, box: boxOfPoints([a, b]) };
      segments.push(segment);
      path.segments.push(segment);
    }
  }
  const segmentGrid = new SpatialGrid(
    extent,
    segments.map((s) => s.box),
    budget,
  );

  for (const path of paths) {
    if (path.type !== 'arrow') continue;
    const e = pathElements[path.index]!;
    path.ends = [
      shapesById.get(e.startBinding?.elementId) ?? shapeAt(path.points[0]!, shapes, shapeGrid),
      shapesById.get(e.endBinding?.elementId) ?? shapeAt(path.points[path.points.length - 1]!, shapes, shapeGrid),
    ];
  }
  return { shapes, texts, paths, segments, shapeGrid, textGrid, segmentGrid };
}

const boxCorners = (box: Box): Point[] => [
  [box.x1, box.y1],
  [box.x2, box.y2],
];
const textCorners = (e: Element): Point[] => (finite(e.x, e.y, e.width, e.height) ? [[e.x, e.y], [e.x + e.width, e.y + e.height]] : []);

/** The live shape or arrow a text is bound to, if any. */
function boundTarget(text: Element, byId: Map<string, Element>): Element | undefined {
  const target = typeof text.containerId === 'string' ? byId.get(text.containerId) : undefined;
  return target && target.type !== 'text' ? target : undefined;
}

const innermostGroup = (byId: Map<string, Element>, id: string): string | undefined => {
  const group = byId.get(id)?.groupIds?.[0];
  return typeof group === 'string' ? group : undefined;
};

/**
 * Each shape's parent: the smallest body whose box holds it and is larger. A
 * body inside another of its own innermost group is a part of it (the dot of
 * an end marker in its ring), owned by it: that does not make it a container.
 */
function nest(shapes: Shape[], grid: SpatialGrid, byId: Map<string, Element>): void {
  for (const shape of shapes) {
    for (const i of grid.near(shape.box)) {
      const candidate = shapes[i]!;
      if (candidate.kind !== 'body' || candidate.area <= shape.area || !boxContains(candidate.box, shape.box)) continue;
      if (!shape.parent || candidate.area < shape.parent.area) shape.parent = candidate;
    }
  }
  for (const shape of shapes) {
    if (shape.kind !== 'body' || !shape.parent) continue;
    const group = innermostGroup(byId, shape.id);
    if (group !== undefined && group === innermostGroup(byId, shape.parent.id)) shape.owner = shape.parent.owner;
    else shape.parent.isContainer = true;
  }
}

/**
 * An image or free text belongs to a node when it shares its innermost group
 * with exactly one body (an icon grouped with its box), or else when it lies in
 * a body that holds no other body (a caption typed inside a box).
 */
function assignOwners(shapes: Shape[], bodies: Element[], byId: Map<string, Element>): void {
  const bodiesByGroup = new Map<string, string[]>();
  for (const body of bodies) for (const group of Array.isArray(body.groupIds) ? body.groupIds : []) bodiesByGroup.set(group, [...(bodiesByGroup.get(group) ?? []), body.id]);
  const shapesById = new Map(shapes.map((s) => [s.id, s]));
  for (const shape of shapes) {
    if (shape.kind === 'body') continue;
    const innermost = byId.get(shape.id)?.groupIds?.[0];
    const grouped = typeof innermost === 'string' ? bodiesByGroup.get(innermost) : undefined;
    const groupOwner = grouped?.length === 1 ? shapesById.get(grouped[0]!) : undefined;
    if (groupOwner) shape.owner = groupOwner;
    else if (shape.parent && !shape.parent.isContainer) shape.owner = shape.parent;
  }
}

/** The smallest shape within the clearance of a free arrow end: the shape a person sees the arrow end at. */
function shapeAt(point: Point, shapes: Shape[], grid: SpatialGrid): Shape | null {
  let best: Shape | null = null;
  for (const i of grid.near(inflate({ x1: point[0], y1: point[1], x2: point[0], y2: point[1] }, SHAPE_CLEARANCE))) {
    const shape = shapes[i]!;
    if (segmentToPolygon(point, point, shape.outline) <= SHAPE_CLEARANCE && (!best || shape.area < best.area)) best = shape;
  }
  return best;
}

/** The paths (of those accepted) running inside a convex area for more than the slack, in scene order. */
export function pathsThrough(model: SceneModel, area: Polygon, accept: (path: Path) => boolean): Path[] {
  const found = new Set<Path>();
  for (const i of model.segmentGrid.near(boxOfPoints(area))) {
    const s = model.segments[i]!;
    if (!found.has(s.path) && accept(s.path) && lengthInside(s.a, s.b, area) > TOUCH_SLACK) found.add(s.path);
  }
  return [...found].sort((a, b) => a.index - b.index);
}

export const isShape = (target: Shape | Path): target is Shape => 'owner' in target;

/** Ancestors of a shape, nearest first. */
export function ancestorsOf(shape: Shape): Shape[] {
  const out: Shape[] = [];
  for (let p = shape.parent; p; p = p.parent) out.push(p);
  return out;
}

/** The words of a text on one line, quoted and shortened. */
const words = (text: Text) => quote(text.content.replace(/\s+/g, ' ').trim());

/** How a message names a shape: its type, id and the words on it. */
export function describeShape(shape: Shape): string {
  return shape.label ? `${shape.type} "${shape.id}" (${words(shape.label)})` : `${shape.type} "${shape.id}"`;
}

export function describeText(text: Text): string {
  return `text "${text.id}" (${words(text)})`;
}
