/**
 * Where the new nodes go: explicit positions as given, the rest beside what
 * they connect to (after it in the direction the scene's arrows run), clear of
 * every shape, text, image and arrow already drawn.
 */
import type { Box } from '../layout/types.ts';
import { BINDING_GAP } from '../scene/elements.ts';
import { edgeLabelBlock } from '../scene/from-spec.ts';
import { isPlainObject } from '../payload.ts';
import type { Point } from '../scene/geometry.ts';
import type { SpecEdge } from '../spec/types.ts';
import type { NewNode } from './fragment.ts';
import { centreOf, elementBox, grow, interiorsMeet, LINEAR, polylineOf, type Scene, type Side } from './scene-index.ts';
import type { SceneElement } from './types.ts';

/** Clearance a placed node keeps from every shape, text and image already drawn. */
const PLACEMENT_MARGIN = 40;
/** Clearance a placed node keeps from the lines of arrows already drawn. */
const ARROW_CLEARANCE = 10;
/** The first distance tried between a new node and what it connects to, then ring by ring further out. */
const FIRST_GAP = 80;
/** The visible arrow a new edge keeps on each side of its label: the node it brings is placed farther out for a long label. */
export const LABEL_CLEARANCE = 24;
const RING_STEP = 60;
const RINGS = 8;
const LATERAL_STEPS = 6;
/** Placement cost added per side, in the order the sides are preferred. */
const SIDE_PENALTY = [0, 40, 40, 160] as const;
const COLUMN_STEP = 20;
const COLUMN_TRIES = 250;

/** Boxes bucketed by 256 px cells, so that a placement test looks only at its neighbourhood. */
class SpatialGrid<T> {
  private static readonly CELL = 256;
  private static readonly MAX_CELLS = 256;
  private readonly cells = new Map<number, T[]>();
  private readonly large: T[] = [];

  constructor(private readonly boxOf: (item: T) => Box) {}

  add(item: T): void {
    const span = this.span(this.boxOf(item));
    if ((span.x1 - span.x0 + 1) * (span.y1 - span.y0 + 1) > SpatialGrid.MAX_CELLS) {
      this.large.push(item);
      return;
    }
    for (let cx = span.x0; cx <= span.x1; cx++) {
      for (let cy = span.y0; cy <= span.y1; cy++) {
        const key = SpatialGrid.key(cx, cy);
        const list = this.cells.get(key);
        if (list) list.push(item);
        else this.cells.set(key, [item]);
      }
    }
  }

  /** Whether any item near `area` passes `test`. */
  some(area: Box, test: (item: T) => boolean): boolean {
    if (this.large.some(test)) return true;
    const span = this.span(area);
    for (let cx = span.x0; cx <= span.x1; cx++) {
      for (let cy = span.y0; cy <= span.y1; cy++) if (this.cells.get(SpatialGrid.key(cx, cy))?.some(test)) return true;
    }
    return false;
  }

  /** A small-integer key; cells 2¹⁵ apart share one, which only costs a few extra tests. */
  private static key(cx: number, cy: number): number {
    return ((cx & 0x7fff) << 15) | (cy & 0x7fff);
  }

  private span(box: Box) {
    const cell = SpatialGrid.CELL;
    return {
      x0: Math.floor(box.x / cell),
      x1: Math.floor((box.x + box.width) / cell),
      y0: Math.floor(box.y / cell),
      y1: Math.floor((box.y + box.height) / cell),
    };
  }
}

function union(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x1 = Math.min(x1, b.x);
    y1 = Math.min(y1, b.y);
    x2 = Math.max(x2, b.x + b.width);
    y2 = Math.max(y2, b.y + b.height);
  }
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

const boundsOfPoints = (points: Point[]): Box => union(points.map(([x, y]) => ({ x, y, width: 0, height: 0 })))!;

/** Whether the segment a–b passes through the box (Liang–Barsky clipping). */
function segmentMeetsBox(a: Point, b: Point, box: Box): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const edges: Array<[number, number]> = [
    [-dx, a[0] - box.x],
    [dx, box.x + box.width - a[0]],
    [-dy, a[1] - box.y],
    [dy, box.y + box.height - a[1]],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

function sideOf(from: Point, to: Point): Side {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'right' : 'left';
  return dy < 0 ? 'top' : 'bottom';
}

const OPPOSITE: Record<Side, Side> = { bottom: 'top', top: 'bottom', right: 'left', left: 'right' };
const ACROSS: Record<Side, [Side, Side]> = { bottom: ['right', 'left'], top: ['right', 'left'], right: ['bottom', 'top'], left: ['bottom', 'top'] };
const SIDE_ORDER: Side[] = ['bottom', 'right', 'top', 'left'];

interface Segment {
  a: Point;
  b: Point;
}

/** Where the new nodes go: explicit positions as given, the rest beside what they connect to, overlapping nothing. */
class Placer {
  private readonly obstacles = new SpatialGrid<Box>((box) => box);
  private readonly segments = new SpatialGrid<Segment>(({ a, b }) => ({ x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), width: Math.abs(a[0] - b[0]), height: Math.abs(a[1] - b[1]) }));
  /** Everything drawn so far, arrows included: the fallback spot lies beyond it. */
  private bounds: Box | null;
  /** Which way the scene's existing arrows run, per element and overall. */
  private readonly flowVotes = new Map<string, Map<Side, number>>();
  private readonly overallFlow = new Map<Side, number>();
  readonly placed = new Map<string, Box>();

  constructor(private readonly scene: Scene) {
    const extents: Box[] = [];
    for (const element of scene.live.values()) {
      if (LINEAR.has(element.type)) {
        const points = polylineOf(element);
        for (let i = 1; i < points.length; i++) this.segments.add({ a: points[i - 1]!, b: points[i]! });
        if (points.length > 0) extents.push(boundsOfPoints(points));
        if (element.type === 'arrow') this.countFlow(element);
      } else {
        const box = elementBox(element);
        this.obstacles.add(box);
        extents.push(box);
      }
    }
    this.bounds = union(extents);
  }

  private countFlow(arrow: SceneElement): void {
    const ends = [arrow.startBinding, arrow.endBinding].map((binding) => (isPlainObject(binding) && typeof binding.elementId === 'string' ? this.scene.live.get(binding.elementId) : undefined));
    if (!ends[0] || !ends[1] || ends[0] === ends[1]) return;
    const side = sideOf(centreOf(elementBox(ends[0])), centreOf(elementBox(ends[1])));
    for (const votes of [this.votesFor(ends[0].id), this.votesFor(ends[1].id), this.overallFlow]) votes.set(side, (votes.get(side) ?? 0) + 1);
  }

  private votesFor(id: string): Map<Side, number> {
    let votes = this.flowVotes.get(id);
    if (!votes) this.flowVotes.set(id, (votes = new Map()));
    return votes;
  }

  /** The direction arrows run around these elements (or in the whole scene): where a successor belongs. */
  private flowAround(ids: string[]): Side {
    const local = new Map<Side, number>();
    for (const id of ids) for (const [side, count] of this.flowVotes.get(id) ?? []) local.set(side, (local.get(side) ?? 0) + count);
    const votes = local.size > 0 ? local : this.overallFlow;
    let best: Side = 'bottom';
    for (const side of SIDE_ORDER) if ((votes.get(side) ?? 0) > (votes.get(best) ?? 0)) best = side;
    return best;
  }

  place(id: string, box: Box): void {
    this.placed.set(id, box);
    this.obstacles.add(box);
    this.bounds = union(this.bounds ? [this.bounds, box] : [box]);
  }

  isFree(box: Box): boolean {
    const clear = grow(box, PLACEMENT_MARGIN);
    if (this.obstacles.some(clear, (other) => interiorsMeet(clear, other))) return false;
    const near = grow(box, ARROW_CLEARANCE);
    return !this.segments.some(near, ({ a, b }) => segmentMeetsBox(a, b, near));
  }

  /**
   * A node connected to `anchors` (existing or placed ids): after them in the
   * direction their arrows run when it only follows them, before them when it
   * only leads to them, beside them when it does both.
   */
  besideAnchors(size: { width: number; height: number }, anchors: string[], role: 'successor' | 'predecessor' | 'between', label: { width: number; height: number }): Box {
    const boxes = anchors.map((id) => this.placed.get(id) ?? elementBox(this.scene.live.get(id)!));
    const around = union(boxes)!;
    const flow = this.flowAround(anchors.filter((id) => this.scene.live.has(id)));
    const sides: Side[] =
      role === 'between' ? [...ACROSS[flow], flow, OPPOSITE[flow]] : role === 'successor' ? [flow, ...ACROSS[flow], OPPOSITE[flow]] : [OPPOSITE[flow], ...ACROSS[flow], flow];
    const candidates: Array<{ box: Box; cost: number }> = [];
    sides.forEach((side, s) => {
      const vertical = side === 'bottom' || side === 'top';
      const lateralStep = (vertical ? size.width : size.height) / 2 + PLACEMENT_MARGIN / 2;
      // An arrow across this gap holds its label with LABEL_CLEARANCE of line on either side, clear of the binding gaps.
      const labelSpan = vertical ? label.height : label.width;
      const firstGap = labelSpan > 0 ? Math.max(FIRST_GAP, Math.ceil(labelSpan + 2 * (LABEL_CLEARANCE + BINDING_GAP))) : FIRST_GAP;
      for (let ring = 0; ring < RINGS; ring++) {
        const gap = firstGap + ring * RING_STEP;
        for (let k = -LATERAL_STEPS; k <= LATERAL_STEPS; k++) {
          const shift = k * lateralStep;
          const [cx, cy] = centreOf(around);
          const box: Box = {
            x: Math.round(side === 'right' ? around.x + around.width + gap : side === 'left' ? around.x - gap - size.width : cx - size.width / 2 + shift),
            y: Math.round(side === 'bottom' ? around.y + around.height + gap : side === 'top' ? around.y - gap - size.height : cy - size.height / 2 + shift),
            width: size.width,
            height: size.height,
          };
          candidates.push({ box, cost: gap - firstGap + FIRST_GAP + Math.abs(shift) + SIDE_PENALTY[s]! + (k < 0 ? 1 : 0) });
        }
      }
    });
    // A stable sort: among equal costs, the order generated wins, so placement is deterministic.
    candidates.sort((a, b) => a.cost - b.cost);
    const free = candidates.find(({ box }) => this.isFree(box));
    if (free) return free.box;
    return this.beyondEverything(size, around.y + around.height / 2 - size.height / 2);
  }

  /** A node with no connections: in a column right of the scene as it was, top-aligned, the first free spot down. */
  inColumn(size: { width: number; height: number }, column: { x: number; y: number }): Box {
    for (let k = 0; k < COLUMN_TRIES; k++) {
      const box = { x: column.x, y: column.y + k * COLUMN_STEP, width: size.width, height: size.height };
      if (this.isFree(box)) return box;
    }
    return this.beyondEverything(size, column.y);
  }

  /** Right of everything drawn so far: always free. */
  private beyondEverything(size: { width: number; height: number }, y: number): Box {
    const right = this.bounds ? this.bounds.x + this.bounds.width : 0;
    return { x: Math.round(right + FIRST_GAP), y: Math.round(y), width: size.width, height: size.height };
  }

  /** Where unconnected nodes start: right of the scene, aligned with its top. */
  columnStart(): { x: number; y: number } {
    return this.bounds ? { x: Math.round(this.bounds.x + this.bounds.width + FIRST_GAP), y: Math.round(this.bounds.y) } : { x: 0, y: 0 };
  }
}

/**
 * Explicitly positioned nodes first; then nodes without edges, in a column
 * right of the scene; then, repeatedly, the first node (in fragment order)
 * connected to something already there, beside it (a group of new nodes
 * connected only among themselves starts in the column).
 */
export function placeNodes(nodes: NewNode[], edges: SpecEdge[], scene: Scene): Map<string, Box> {
  const labels = new Map(edges.map((edge) => [edge, edge.label === null ? null : edgeLabelBlock(edge.label)]));
  const placed = new Map<string, Box>();
  for (const { node, size, position } of nodes) if (position) placed.set(node.id, { x: position.x, y: position.y, width: size.width, height: size.height });
  if (placed.size === nodes.length) return placed;
  const placer = new Placer(scene);
  for (const [id, box] of placed) placer.place(id, box);
  const column = placer.columnStart();
  const links = new Map<string, Array<{ other: string; incoming: boolean }>>();
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    for (const [self, other, incoming] of [[edge.to, edge.from, true], [edge.from, edge.to, false]] as const) {
      links.set(self, [...(links.get(self) ?? []), { other, incoming }]);
    }
  }
  const isThere = (id: string) => placer.placed.has(id) || scene.live.has(id);
  for (const { node, size, position } of nodes) if (!position && !links.has(node.id)) placer.place(node.id, placer.inColumn(size, column));
  const pending = nodes.filter((n) => !n.position && links.has(n.node.id));
  while (pending.length > 0) {
    const next = Math.max(0, pending.findIndex((n) => (links.get(n.node.id) ?? []).some((l) => isThere(l.other))));
    const { node, size } = pending.splice(next, 1)[0]!;
    const anchoring = (links.get(node.id) ?? []).filter((l) => isThere(l.other));
    const anchors = [...new Set(anchoring.map((l) => l.other))];
    const incoming = anchoring.some((l) => l.incoming);
    const outgoing = anchoring.some((l) => !l.incoming);
    const role = incoming && outgoing ? 'between' : incoming ? 'successor' : 'predecessor';
    // The largest label on an edge between this node and its anchors sets how far out it goes.
    const label = { width: 0, height: 0 };
    for (const edge of edges) {
      const block = labels.get(edge);
      if (!block || !((edge.from === node.id && anchors.includes(edge.to)) || (edge.to === node.id && anchors.includes(edge.from)))) continue;
      label.width = Math.max(label.width, block.width);
      label.height = Math.max(label.height, block.height);
    }
    const box = anchors.length > 0 ? placer.besideAnchors(size, anchors, role, label) : placer.inColumn(size, column);
    placer.place(node.id, box);
  }
  return placer.placed;
}
