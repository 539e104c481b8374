/**
 * Where the new nodes go: explicit positions as given, the rest beside what
 * they connect to (after it in the direction the scene's arrows run), clear of
 * every shape, text, image and arrow already drawn.
 */
import type { Box } from '../layout/types.ts';
import { BINDING_GAP } from '../scene/elements.ts';
import { edgeLabelBlock } from '../scene/node-plan.ts';
import { isPlainObject } from '../payload.ts';
import type { Point } from '../scene/geometry.ts';
import type { SpecEdge } from '../spec/types.ts';
import type { NewNode } from './fragment.ts';
import { CONTAINER_PADDING } from '../layout/containers/containers.ts';
import { centreOf, containersAround, elementBox, encloses, grow, interiorsMeet, isContainer, isNode, LINEAR, polylineOf, type Scene, shapesInside, type Side } from './scene-index.ts';
import type { SceneElement } from './types.ts';

/** Clearance a placed node keeps from every shape, text and image already drawn. */
const PLACEMENT_MARGIN = 40;
/** Clearance a grown container keeps from the shapes it did not already meet. */
const CONTAINER_CLEARANCE = 10;
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
/** Placement cost added where a shape stands between the new node and what it connects to. */
const BLOCKED_PENALTY = 400;
const COLUMN_STEP = 20;
const COLUMN_TRIES = 250;

/** Boxes bucketed by 256 px cells, so that a placement test looks only at its neighbourhood. */
class SpatialGrid<T> {
  private static readonly CELL = 256;
  private static readonly MAX_CELLS = 256;
  private readonly cells = new Map<number, T[]>();
  private readonly large: T[] = [];

  private readonly boxOf: (item: T) => Box;
  constructor(boxOf: (item: T) => Box) {
    this.boxOf = boxOf;
  }

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

interface Obstacle {
  id: string;
  box: Box;
}

interface Size {
  width: number;
  height: number;
}

type Role = 'successor' | 'predecessor' | 'between';

interface Candidate {
  box: Box;
  cost: number;
}

const NONE: ReadonlySet<string> = new Set();

/** What growing `before` into `after` adds to its width and height. */
const growthOf = (before: Box, after: Box) => after.width - before.width + (after.height - before.height);

/** Where the new nodes go: explicit positions as given, the rest beside what they connect to, overlapping nothing. */
class Placer {
  private readonly obstacles = new SpatialGrid<Obstacle>(({ box }) => box);
  private readonly segments = new SpatialGrid<Segment>(({ a, b }) => ({ x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), width: Math.abs(a[0] - b[0]), height: Math.abs(a[1] - b[1]) }));
  /** Everything drawn so far, arrows included: the fallback spot lies beyond it. */
  private bounds: Box | null;
  /** Which way the scene's existing arrows run, per element and overall. */
  private readonly flowVotes = new Map<string, Map<Side, number>>();
  private readonly overallFlow = new Map<Side, number>();
  readonly placed = new Map<string, Box>();
  /** Containers grown to hold new members, by id, at their new size. */
  readonly grown = new Map<string, Box>();

  private readonly scene: Scene;
  constructor(scene: Scene) {
    this.scene = scene;
    const extents: Box[] = [];
    for (const element of scene.live.values()) {
      if (LINEAR.has(element.type)) {
        const points = polylineOf(element);
        for (let i = 1; i < points.length; i++) this.segments.add({ a: points[i - 1]!, b: points[i]! });
        if (points.length > 0) extents.push(boundsOfPoints(points));
        if (element.type === 'arrow') this.countFlow(element);
      } else {
        const box = elementBox(element);
        this.obstacles.add({ id: element.id, box });
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
    this.obstacles.add({ id, box });
    this.bounds = union(this.bounds ? [this.bounds, box] : [box]);
  }

  /** Clear of every shape, text and image by PLACEMENT_MARGIN (but those in `inside`, the containers it goes into) and of every line. */
  isFree(box: Box, inside: ReadonlySet<string> = NONE): boolean {
    const clear = grow(box, PLACEMENT_MARGIN);
    if (this.obstacles.some(clear, (other) => !inside.has(other.id) && interiorsMeet(clear, other.box))) return false;
    const near = grow(box, ARROW_CLEARANCE);
    return !this.segments.some(near, ({ a, b }) => segmentMeetsBox(a, b, near));
  }

  /**
   * Whether an arrow between an anchor and `box` would have its label (drawn
   * at the middle of the gap between them) crossed by a line already drawn:
   * the label would read as that line's, and the two lines would run together.
   */
  labelCrossed(box: Box, anchors: string[], label: Size): boolean {
    if (label.width === 0 && label.height === 0) return false;
    return anchors.some((id) => {
      const near = grow(labelBoxBetween(this.boxOf(id), box, label), ARROW_CLEARANCE);
      return this.segments.some(near, ({ a, b }) => segmentMeetsBox(a, b, near));
    });
  }

  /**
   * A node connected to `anchors` (existing or placed ids): after them in the
   * direction their arrows run when it only follows them, before them when it
   * only leads to them, beside them when it does both.
   */
  besideAnchors(size: Size, anchors: string[], role: Role, label: Size): Box {
    const free = this.candidatesBeside(size, anchors, role, label).find(({ box }) => this.isFree(box) && !this.labelCrossed(box, anchors, label));
    if (free) return free.box;
    const around = union(anchors.map((id) => this.boxOf(id)))!;
    return this.beyondEverything(size, around.y + around.height / 2 - size.height / 2);
  }

  private boxOf(id: string): Box {
    return this.placed.get(id) ?? this.grown.get(id) ?? elementBox(this.scene.live.get(id)!);
  }

  /** Whether a shape (other than what lies in `from`) stands on the straight line between the centres of `from` and `to`: the arrow would have to go round it. */
  private blocksBetween(from: Box, to: Box): boolean {
    const [a, b] = [centreOf(from), centreOf(to)];
    const span = union([from, to])!;
    return this.obstacles.some(span, (other) => !interiorsMeet(other.box, from) && !interiorsMeet(other.box, to) && !this.grown.has(other.id) && !this.isContainerId(other.id) && segmentMeetsBox(a, b, other.box));
  }

  private readonly containerIds = new Map<string, boolean>();

  /** Whether this is a container (isContainer, asking the grid what lies inside): a line may cross one, so it blocks nothing. Remembered. */
  private isContainerId(id: string): boolean {
    let known = this.containerIds.get(id);
    if (known === undefined) {
      const element = this.scene.live.get(id);
      known = element !== undefined && isContainer(this.scene, element, (e) => this.holdsANode(e));
      this.containerIds.set(id, known);
    }
    return known;
  }

  private holdsANode(element: SceneElement): boolean {
    const box = elementBox(element);
    return this.obstacles.some(box, (other) => {
      const node = this.scene.live.get(other.id);
      return other.id !== element.id && node !== undefined && isNode(node) && encloses(box, other.box);
    });
  }

  /** A container and those around it, innermost first. */
  private chainOf(parentId: string): string[] {
    return [parentId, ...containersAround(this.scene, this.scene.live.get(parentId)!).map((e) => e.id)];
  }

  /** Spots beside `anchors`, cheapest first (see besideAnchors). */
  private candidatesBeside(size: Size, anchors: string[], role: Role, label: Size): Candidate[] {
    const boxes = anchors.map((id) => this.boxOf(id));
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
          const blocked = this.blocksBetween(around, box) ? BLOCKED_PENALTY : 0;
          candidates.push({ box, cost: gap - firstGap + FIRST_GAP + Math.abs(shift) + SIDE_PENALTY[s]! + blocked + (k < 0 ? 1 : 0) });
        }
      }
    });
    // A stable sort: among equal costs, the order generated wins, so placement is deterministic.
    return candidates.sort((a, b) => a.cost - b.cost);
  }

  /**
   * A node that goes into `parentId`: where there is room inside it (near its
   * anchors, or after what it holds), or else just outside, the container and
   * those around it grown to hold it (CONTAINER_PADDING clear) as long as no
   * container grows over anything it did not already meet. Null when no spot
   * is found: the caller then places the node freely and the containers grow
   * as they must.
   */
  intoContainer(size: Size, parentId: string, anchors: string[], role: Role, label: Size): Box | null {
    const chain = this.chainOf(parentId);
    const inside = new Set(chain);
    const parent = this.boxOf(parentId);
    const held = shapesInside(this.scene, this.scene.live.get(parentId)!).map((e) => e.id);
    const room = this.interior(parentId);
    const candidates: Candidate[] = [];
    // Inside, on a grid, nearest the anchors (or the top left) first.
    const [tx, ty] = anchors.length > 0 ? centreOf(union(anchors.map((id) => this.boxOf(id)))!) : [room.x, room.y];
    const anchorBoxes = anchors.map((id) => this.boxOf(id));
    for (let y = room.y; y + size.height <= room.y + room.height; y += COLUMN_STEP) {
      for (let x = room.x; x + size.width <= room.x + room.width; x += COLUMN_STEP) {
        const box = { x, y, width: size.width, height: size.height };
        if (anchorBoxes.some((anchor) => !holdsLabel(box, anchor, label))) continue;
        candidates.push({ box, cost: Math.abs(x + size.width / 2 - tx) + Math.abs(y + size.height / 2 - ty) });
      }
    }
    const outside = anchors.length > 0 ? this.candidatesBeside(size, anchors, role, label) : held.length > 0 ? this.candidatesBeside(size, held, 'successor', label) : [];
    if (outside.length === 0) outside.push({ box: { x: room.x, y: room.y, width: size.width, height: size.height }, cost: 0 });
    // Growing a container costs what it adds to its width and height.
    for (const candidate of outside) candidates.push({ box: candidate.box, cost: candidate.cost + 2 * growthOf(parent, this.holding(parentId, candidate.box)) });
    candidates.sort((a, b) => a.cost - b.cost);
    for (const { box } of candidates) {
      if (!this.isFree(box, inside) || this.labelCrossed(box, anchors, label)) continue;
      const grown = this.growChain(chain, box);
      if (!grown) continue;
      this.keep(grown);
      return box;
    }
    return null;
  }

  /** Where a new member may go in a container: inside its padding, below its header (its top-aligned label and icon). */
  private interior(id: string): Box {
    const box = this.boxOf(id);
    const top = this.headerBottom(id, box);
    return { x: box.x + CONTAINER_PADDING, y: top + CONTAINER_PADDING, width: Math.max(0, box.width - 2 * CONTAINER_PADDING), height: Math.max(0, box.y + box.height - CONTAINER_PADDING - top - CONTAINER_PADDING) };
  }

  /** The bottom of a container's header: its top-aligned label and its icon, as they would sit in `box`. */
  private headerBottom(id: string, box: Box): number {
    const original = elementBox(this.scene.live.get(id)!);
    let bottom = box.y;
    for (const part of [this.scene.labels.get(id), this.scene.live.get(`${id}-icon`)]) {
      if (!part || (part.type === 'text' && part.verticalAlign !== 'top')) continue;
      const own = elementBox(part);
      bottom = Math.max(bottom, box.y + (own.y - original.y) + own.height);
    }
    return bottom;
  }

  /** The box container `id` needs to hold `member` with its padding, its header above it. */
  private holding(id: string, member: Box): Box {
    const box = this.boxOf(id);
    const header = this.headerBottom(id, box) - box.y;
    const need = union([box, grow(member, CONTAINER_PADDING)])!;
    if (member.y - CONTAINER_PADDING - header < need.y) return union([need, { x: need.x, y: member.y - CONTAINER_PADDING - header, width: 0, height: 0 }])!;
    return need;
  }

  /** Grows `parentId` and the containers around it to hold `member`, whatever they meet. */
  growToHold(parentId: string, member: Box): void {
    this.keep(this.growChain(this.chainOf(parentId), member, true)!);
  }

  private keep(grown: Map<string, Box>): void {
    for (const [id, bigger] of grown) {
      this.grown.set(id, bigger);
      this.obstacles.add({ id, box: bigger });
    }
  }

  /** The containers of `chain` (innermost first) grown to hold `member`, each clear of anything it did not already meet (unless `force`); null if one would run into something. */
  private growChain(chain: string[], member: Box, force = false): Map<string, Box> | null {
    const grown = new Map<string, Box>();
    const inside = new Set(chain);
    let inner = member;
    for (const id of chain) {
      const before = this.boxOf(id);
      const after = this.holding(id, inner);
      if (after.x === before.x && after.y === before.y && after.width === before.width && after.height === before.height) break;
      const [was, now] = [grow(before, CONTAINER_CLEARANCE), grow(after, CONTAINER_CLEARANCE)];
      if (!force && this.obstacles.some(now, (other) => !inside.has(other.id) && interiorsMeet(now, other.box) && !interiorsMeet(was, other.box))) return null;
      grown.set(id, after);
      inner = after;
    }
    return grown;
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
 * connected only among themselves starts in the column). A node with a
 * parent goes into that container (Placer.intoContainer); the containers that
 * grew are returned with their new boxes.
 */
export function placeNodes(nodes: NewNode[], edges: SpecEdge[], scene: Scene): { nodes: Map<string, Box>; grown: Map<string, Box> } {
  const labels = new Map(edges.map((edge) => [edge, edge.label === null ? null : edgeLabelBlock(edge.label)]));
  const placer = new Placer(scene);
  /** Puts a node in its box; a node with a parent found no room there, so its containers grow to hold it whatever they meet. */
  const settle = (node: NewNode['node'], box: Box, holds: boolean) => {
    placer.place(node.id, box);
    if (node.parent !== null && !holds) placer.growToHold(node.parent, box);
  };
  for (const { node, size, position } of nodes) if (position) settle(node, { x: position.x, y: position.y, width: size.width, height: size.height }, false);
  const column = placer.columnStart();
  const links = new Map<string, Array<{ other: string; incoming: boolean }>>();
  for (const edge of edges) {
    if (edge.from === edge.to) continue;
    for (const [self, other, incoming] of [[edge.to, edge.from, true], [edge.from, edge.to, false]] as const) {
      links.set(self, [...(links.get(self) ?? []), { other, incoming }]);
    }
  }
  const none = { width: 0, height: 0 };
  const isThere = (id: string) => placer.placed.has(id) || scene.live.has(id);
  for (const { node, size, position } of nodes) {
    if (position || links.has(node.id)) continue;
    const inside = node.parent === null ? null : placer.intoContainer(size, node.parent, [], 'successor', none);
    settle(node, inside ?? placer.inColumn(size, column), inside !== null);
  }
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
    const inside = node.parent === null ? null : placer.intoContainer(size, node.parent, anchors, role, label);
    const box = inside ?? (anchors.length > 0 ? placer.besideAnchors(size, anchors, role, label) : placer.inColumn(size, column));
    settle(node, box, inside !== null);
  }
  return { nodes: placer.placed, grown: placer.grown };
}

/**
 * Whether an arrow between two boxes, side by side or one above the other,
 * holds its label with LABEL_CLEARANCE of line on either side, clear of the
 * binding gaps (as candidatesBeside spaces a node brought by a labelled edge).
 */
function holdsLabel(a: Box, b: Box, label: Size): boolean {
  if (label.width === 0 && label.height === 0) return true;
  const gapX = Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width));
  const gapY = Math.max(b.y - (a.y + a.height), a.y - (b.y + b.height));
  const across = gapX >= gapY;
  const needed = (across ? label.width : label.height) + 2 * (LABEL_CLEARANCE + BINDING_GAP);
  return (across ? gapX : gapY) >= needed;
}

/** Where the label of an arrow between two boxes, side by side or one above the other, sits: the middle of the gap between them. */
function labelBoxBetween(a: Box, b: Box, label: Size): Box {
  const gapX = Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width));
  const gapY = Math.max(b.y - (a.y + a.height), a.y - (b.y + b.height));
  const [ca, cb] = [centreOf(a), centreOf(b)];
  const cx = gapX >= gapY ? (Math.min(a.x + a.width, b.x + b.width) + Math.max(a.x, b.x)) / 2 : (ca[0] + cb[0]) / 2;
  const cy = gapX >= gapY ? (ca[1] + cb[1]) / 2 : (Math.min(a.y + a.height, b.y + b.height) + Math.max(a.y, b.y)) / 2;
  return { x: cx - label.width / 2, y: cy - label.height / 2, width: label.width, height: label.height };
}

