/**
 * Routes for the edges the layered drawing leaves unfinished (an edge to a
 * container whose direction no layering allows, or one the layering could not
 * keep out of a container it has no end in): routed around the boxes in their
 * way, inside a container they start or end in. Ends spread over their node's side among
 * the other edges there; routes avoid running on top of routes already drawn.
 */
import { ancestorChain, CONTAINER_PADDING, type NestedEdge, type NestedLayout } from '../containers/containers.ts';
import { OccupiedSegments, routeAroundObstacles, type Heading } from './obstacle-router.ts';
import type { Point } from './routing.ts';
import type { Box, Direction } from '../types.ts';

type Side = 'top' | 'bottom' | 'left' | 'right';
const OUTWARD: Record<Side, Heading> = { right: 0, left: 1, bottom: 2, top: 3 };
const INWARD: Record<Side, Heading> = { right: 1, left: 0, bottom: 3, top: 2 };

interface EdgeEnd {
  edge: number;
  node: number;
  side: Side;
  /** Where along the side the other end lies, for ordering the ports. */
  towards: number;
  /** A fixed port (a container's side facing a child inside it), or undefined to be spread. */
  fixed?: Point;
  port?: Point;
}

/** Routes an edge from scratch around the boxes in its way (a container and something inside it). */
interface AroundJob {
  kind: 'around';
  edge: number;
  source: EdgeEnd;
  target: EdgeEnd;
}

class Hierarchy {
  private readonly children = new Map<number, number[]>();

  readonly parent: ArrayLike<number>;
  constructor(parent: ArrayLike<number>, count: number) {
    this.parent = parent;
    for (let v = 0; v < count; v++) {
      const list = this.children.get(parent[v]!) ?? [];
      list.push(v);
      this.children.set(parent[v]!, list);
    }
  }

  isContainer(v: number): boolean {
    return this.children.has(v);
  }

  /** Boxes a route may not enter when every node in `open` (and the top level) may be passed through. */
  obstaclesAround(open: Set<number>, boxes: Box[], roots: number[]): Box[] {
    const obstacles: Box[] = [];
    for (const container of roots) {
      for (const v of this.children.get(container) ?? []) if (!open.has(v)) obstacles.push(boxes[v]!);
    }
    return obstacles;
  }
}

export function routeCrossEdges(
  direction: Direction,
  boxes: Box[],
  parent: ArrayLike<number>,
  edges: NestedEdge[],
  layout: NestedLayout,
  /** Header height of each node (its given height): a container's label strip. */
  headers: ArrayLike<number>,
): void {
  const { routes, labels } = layout;
  const hierarchy = new Hierarchy(parent, boxes.length);
  const vertical = direction === 'TB' || direction === 'BT';
  const jobs: AroundJob[] = [];
  edges.forEach((edge, e) => {
    if (routes[e] !== null) return;
    const [source, target] = chooseSides(e, edge, boxes, parent, vertical);
    jobs.push({ kind: 'around', edge: e, source, target });
  });
  if (jobs.length === 0) return;
  // An invisible edge is routed only to be well formed: it takes no port from the arrows that are drawn, and no room.
  const drawn = jobs.filter((job) => !edges[job.edge]!.invisible);
  const hidden = jobs.filter((job) => edges[job.edge]!.invisible);
  const alone = assignPorts(drawn.flatMap((job) => [job.source, job.target]), boxes, edges, routes);
  for (const job of drawn) alignLonePorts(job.source, job.target, boxes, alone, hierarchy);
  for (const job of hidden) for (const end of [job.source, job.target]) end.port = end.fixed ?? sidePoint(boxes[end.node]!, end.side, 0.5);

  const occupied = new OccupiedSegments();
  routes.forEach((route, e) => {
    if (route && !edges[e]!.invisible) occupied.add(route);
  });

  for (const job of [...drawn, ...hidden]) {
    const edge = edges[job.edge]!;
    const best = routeFromScratch(job, edge, boxes, hierarchy, headers, occupied);
    routes[job.edge] = best.route;
    labels[job.edge] = best.label;
    if (!edge.invisible) occupied.add(best.route);
  }
}

interface Attempt {
  route: Point[];
  label: Point | null;
  /** Lower is better: label quality first, then length and bends. */
  rank: number;
}

/** A route around every box in the way, trying other sides when the first choice leaves its label no clear spot. */
function routeFromScratch(
  job: AroundJob,
  edge: NestedEdge,
  boxes: Box[],
  hierarchy: Hierarchy,
  headers: ArrayLike<number>,
  occupied: OccupiedSegments,
): Attempt {
  const { parent } = hierarchy;
  const sourceContainsTarget = ancestorChain(parent, edge.to).includes(edge.from);
  const targetContainsSource = ancestorChain(parent, edge.from).includes(edge.to);
  const open = new Set([edge.from, edge.to, ...ancestorChain(parent, edge.from), ...ancestorChain(parent, edge.to)]);
  const obstacles = hierarchy.obstaclesAround(open, boxes, [-1, ...open]);
  if (!sourceContainsTarget) obstacles.push(boxes[edge.from]!);
  if (!targetContainsSource) obstacles.push(boxes[edge.to]!);
  const window = sourceContainsTarget ? boxes[edge.from] : targetContainsSource ? boxes[edge.to] : undefined;
  const labelled = edge.labelWidth > 0 && edge.labelHeight > 0;
  const containers = [...open].filter((v) => hierarchy.isContainer(v)).map((v) => ({ box: boxes[v]!, header: headers[v]! }));

  const attempt = (start: Point, startSide: Side, end: Point, endSide: Side): Attempt => {
    const route = routeAroundObstacles({
      start,
      startHeading: sourceContainsTarget ? INWARD[startSide] : OUTWARD[startSide],
      end,
      endHeading: targetContainsSource ? OUTWARD[endSide] : INWARD[endSide],
      obstacles,
      occupied,
      ...(window ? { window } : {}),
    });
    if (!route) return { route: [start, end], label: null, rank: 3e9 };
    if (!labelled) return { route, label: null, rank: routeCost(route) };
    const label = placeLabel(route, edge, obstacles, containers);
    return { route, label: label.point, rank: label.rank * 1e9 + routeCost(route) };
  };
  let best = attempt(job.source.port!, job.source.side, job.target.port!, job.target.side);
  // A route that found no clear spot for its label (or no way at all) tries the other sides.
  if (best.rank >= 1e9) {
    for (const [startSide, endSide] of alternativeSides(sourceContainsTarget, targetContainsSource)) {
      const start = sourceContainsTarget ? containerPort(boxes[edge.from]!, boxes[edge.to]!, startSide) : sidePoint(boxes[edge.from]!, startSide, 0.5);
      const end = targetContainsSource ? containerPort(boxes[edge.to]!, boxes[edge.from]!, endSide) : sidePoint(boxes[edge.to]!, endSide, 0.5);
      const candidate = attempt(start, startSide, end, endSide);
      if (candidate.rank < best.rank) best = candidate;
    }
  }
  return best;
}

const ALL_SIDES: Side[] = ['bottom', 'right', 'left', 'top'];

function alternativeSides(sourceContainsTarget: boolean, targetContainsSource: boolean): Array<[Side, Side]> {
  if (sourceContainsTarget || targetContainsSource) {
    return (['bottom', 'right', 'left'] as Side[]).map((side) => [side, side]);
  }
  return ALL_SIDES.flatMap((a) => ALL_SIDES.map((b): [Side, Side] => [a, b]));
}

/** On a container's side, level with the child inside it. */
function containerPort(container: Box, child: Box, side: Side): Point {
  const [cx, cy] = centre(child);
  if (side === 'left') return [container.x, cy];
  if (side === 'right') return [container.x + container.width, cy];
  return [cx, container.y + container.height];
}

function routeCost(route: Point[]): number {
  let cost = 0;
  for (let i = 1; i < route.length; i++) cost += Math.abs(route[i]![0] - route[i - 1]![0]) + Math.abs(route[i]![1] - route[i - 1]![1]);
  return cost + 40 * (route.length - 2);
}

function centre(box: Box): Point {
  return [box.x + box.width / 2, box.y + box.height / 2];
}

function chooseSides(e: number, edge: NestedEdge, boxes: Box[], parent: ArrayLike<number>, vertical: boolean): [EdgeEnd, EdgeEnd] {
  const a = boxes[edge.from]!;
  const b = boxes[edge.to]!;
  if (ancestorChain(parent, edge.to).includes(edge.from)) {
    const { side, port } = containerSide(a, b, edge);
    return [
      { edge: e, node: edge.from, side, towards: 0, fixed: port },
      { edge: e, node: edge.to, side, towards: alongSide(side, port) },
    ];
  }
  if (ancestorChain(parent, edge.from).includes(edge.to)) {
    const { side, port } = containerSide(b, a, edge);
    return [
      { edge: e, node: edge.from, side, towards: alongSide(side, port) },
      { edge: e, node: edge.to, side, towards: 0, fixed: port },
    ];
  }
  const [fromSide, toSide] = facingSides(a, b, vertical);
  return [
    { edge: e, node: edge.from, side: fromSide, towards: alongSide(fromSide, centre(b)) },
    { edge: e, node: edge.to, side: toSide, towards: alongSide(toSide, centre(a)) },
  ];
}

/**
 * The container side nearest the child (never the header on top), with a port
 * level with the child's centre. A labelled edge takes the nearest side whose
 * gap leaves the label room beside the child, when there is one.
 */
function containerSide(container: Box, child: Box, edge: NestedEdge): { side: Side; port: Point } {
  const [cx, cy] = centre(child);
  const options: Array<{ side: Side; gap: number; port: Point; room: number }> = [
    { side: 'left', gap: child.x - container.x, port: [container.x, cy], room: edge.labelWidth / 2 },
    { side: 'right', gap: container.x + container.width - (child.x + child.width), port: [container.x + container.width, cy], room: edge.labelWidth / 2 },
    { side: 'bottom', gap: container.y + container.height - (child.y + child.height), port: [cx, container.y + container.height], room: edge.labelHeight / 2 },
  ];
  const labelled = edge.labelWidth > 0 && edge.labelHeight > 0;
  options.sort((p, q) => {
    if (labelled && p.gap >= p.room !== q.gap >= q.room) return p.gap >= p.room ? -1 : 1;
    return p.gap - q.gap;
  });
  const { side, port } = options[0]!;
  return { side, port };
}

function facingSides(a: Box, b: Box, vertical: boolean): [Side, Side] {
  const below = b.y >= a.y + a.height;
  const above = b.y + b.height <= a.y;
  const right = b.x >= a.x + a.width;
  const left = b.x + b.width <= a.x;
  const verticalPair = (): [Side, Side] | null => (below ? ['bottom', 'top'] : above ? ['top', 'bottom'] : null);
  const horizontalPair = (): [Side, Side] | null => (right ? ['right', 'left'] : left ? ['left', 'right'] : null);
  return (vertical ? (verticalPair() ?? horizontalPair()) : (horizontalPair() ?? verticalPair())) ?? ['bottom', 'top'];
}

function alongSide(side: Side, [x, y]: Point): number {
  return side === 'top' || side === 'bottom' ? x : y;
}

function sidePoint(box: Box, side: Side, t: number): Point {
  switch (side) {
    case 'top':
      return [box.x + t * box.width, box.y];
    case 'bottom':
      return [box.x + t * box.width, box.y + box.height];
    case 'left':
      return [box.x, box.y + t * box.height];
    case 'right':
      return [box.x + box.width, box.y + t * box.height];
  }
}

function sideOfPoint(box: Box, [x, y]: Point): Side | null {
  if (Math.abs(y - box.y) < 0.5) return 'top';
  if (Math.abs(y - (box.y + box.height)) < 0.5) return 'bottom';
  if (Math.abs(x - box.x) < 0.5) return 'left';
  if (Math.abs(x - (box.x + box.width)) < 0.5) return 'right';
  return null;
}

/**
 * Spreads the ends that share a node side over evenly spaced slots, in the
 * order of where their other ends lie, keeping clear of the slots nearest to the
 * ports that layered routes already use on that side.
 */
function assignPorts(ends: EdgeEnd[], boxes: Box[], edges: NestedEdge[], routes: Array<Point[] | null>): Set<EdgeEnd> {
  const groups = new Map<string, EdgeEnd[]>();
  for (const end of ends) {
    if (end.fixed) {
      end.port = end.fixed;
      continue;
    }
    const key = `${end.node}:${end.side}`;
    const group = groups.get(key) ?? [];
    group.push(end);
    groups.set(key, group);
  }
  const alone = new Set<EdgeEnd>();
  const used = new Map<string, number[]>();
  edges.forEach((edge, e) => {
    const route = routes[e];
    if (!route || route.length < 2 || edge.invisible) return;
    for (const [node, point] of [
      [edge.from, route[0]!],
      [edge.to, route[route.length - 1]!],
    ] as const) {
      const side = sideOfPoint(boxes[node]!, point);
      if (!side) continue;
      const key = `${node}:${side}`;
      const list = used.get(key) ?? [];
      list.push(alongSide(side, point));
      used.set(key, list);
    }
  });
  for (const [key, group] of groups) {
    group.sort((p, q) => p.towards - q.towards || p.edge - q.edge);
    const { node, side } = group[0]!;
    const box = boxes[node]!;
    const taken = used.get(key) ?? [];
    const slots = group.length + taken.length;
    const start = side === 'top' || side === 'bottom' ? box.x : box.y;
    const length = side === 'top' || side === 'bottom' ? box.width : box.height;
    const free: number[] = [];
    const claimed = new Set<number>();
    for (const position of taken) {
      let nearest = -1;
      for (let s = 0; s < slots; s++) {
        if (claimed.has(s)) continue;
        const at = start + (length * (s + 1)) / (slots + 1);
        if (nearest < 0 || Math.abs(at - position) < Math.abs(start + (length * (nearest + 1)) / (slots + 1) - position)) nearest = s;
      }
      claimed.add(nearest);
    }
    for (let s = 0; s < slots; s++) if (!claimed.has(s)) free.push((s + 1) / (slots + 1));
    group.forEach((end, i) => (end.port = sidePoint(box, side, free[i]!)));
    if (group.length === 1 && taken.length === 0) alone.add(group[0]!);
  }
  return alone;
}

/**
 * Two facing ends that each have their side to themselves slide to a common
 * line, when the sides overlap enough, so the route can run straight. A node's
 * end keeps to the middle three fifths of its side; a container's may lie
 * anywhere but its padding from the corners, and follows the node's (an arrow
 * from a node level with the foot of a tall container beside it runs straight
 * across to its border, as dot draws cpython-stack-resize's "previous").
 */
function alignLonePorts(source: EdgeEnd, target: EdgeEnd, boxes: Box[], alone: Set<EdgeEnd>, hierarchy: Hierarchy): void {
  if (!alone.has(source) || !alone.has(target)) return;
  const across = source.side === 'top' || source.side === 'bottom';
  if (across !== (target.side === 'top' || target.side === 'bottom')) return;
  const a = boxes[source.node]!;
  const b = boxes[target.node]!;
  const span = (box: Box, container: boolean): [number, number] => {
    const [start, length] = across ? [box.x, box.width] : [box.y, box.height];
    return container ? [start + CONTAINER_PADDING, start + length - CONTAINER_PADDING] : [start + length * 0.2, start + length * 0.8];
  };
  const [sourceHolds, targetHolds] = [hierarchy.isContainer(source.node), hierarchy.isContainer(target.node)];
  const [a0, a1] = span(a, sourceHolds);
  const [b0, b1] = span(b, targetHolds);
  const low = Math.max(a0, b0);
  const high = Math.min(a1, b1);
  if (low > high) return;
  const [at0, at1] = [alongSide(source.side, source.port!), alongSide(target.side, target.port!)];
  const middle = sourceHolds === targetHolds ? (at0 + at1) / 2 : sourceHolds ? at1 : at0;
  const at = Math.min(high, Math.max(low, middle));
  source.port = across ? [at, source.port![1]] : [source.port![0], at];
  target.port = across ? [at, target.port![1]] : [target.port![0], at];
}

/**
 * The label's centre: on the route, where the label box clears every obstacle;
 * preferably also clear of the borders and header strips of the containers the
 * edge runs in; preferably mid-way along the longest stretch.
 */
function placeLabel(
  route: Point[],
  edge: NestedEdge,
  obstacles: Box[],
  containers: Array<{ box: Box; header: number }>,
): { point: Point; rank: 0 | 1 | 2 } {
  const halfW = edge.labelWidth / 2;
  const halfH = edge.labelHeight / 2;
  const separate = (x: number, y: number, b: Box): boolean =>
    x + halfW <= b.x || x - halfW >= b.x + b.width || y + halfH <= b.y || y - halfH >= b.y + b.height;
  const clear = ([x, y]: Point): boolean => obstacles.every((b) => separate(x, y, b));
  const m = LABEL_CLEARANCE;
  const tidy = ([x, y]: Point): boolean =>
    containers.every(
      ({ box, header }) =>
        x + halfW + m <= box.x ||
        x - halfW - m >= box.x + box.width ||
        y + halfH + m <= box.y ||
        y - halfH - m >= box.y + box.height ||
        (x - halfW - m >= box.x && x + halfW + m <= box.x + box.width && y - halfH - m >= box.y + header && y + halfH + m <= box.y + box.height),
    );
  const segments = route
    .slice(1)
    .map((q, i) => ({ p: route[i]!, q, i, length: Math.abs(q[0] - route[i]![0]) + Math.abs(q[1] - route[i]![1]) }))
    .sort((s, t) => t.length - s.length || s.i - t.i);
  const candidates: Point[] = [];
  for (const { p, q } of segments) {
    for (const t of LABEL_STOPS) candidates.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
  }
  const overlap = ([x, y]: Point): number =>
    obstacles.reduce((sum, b) => {
      const w = Math.min(x + halfW, b.x + b.width) - Math.max(x - halfW, b.x);
      const h = Math.min(y + halfH, b.y + b.height) - Math.max(y - halfH, b.y);
      return w > 0 && h > 0 ? sum + w * h : sum;
    }, 0);
  const roomy = ([x, y]: Point): boolean => {
    const [before, after] = visibleAround(route, { x: x - halfW, y: y - halfH, width: 2 * halfW, height: 2 * halfH });
    return Math.min(before, after) >= LABEL_ARROW_ROOM;
  };
  const tidyAndClear = candidates.find((c) => clear(c) && tidy(c) && roomy(c)) ?? candidates.find((c) => clear(c) && tidy(c));
  if (tidyAndClear) return { point: tidyAndClear, rank: 0 };
  const clearOnly = candidates.find(clear);
  if (clearOnly) return { point: clearOnly, rank: 1 };
  // Nowhere fully clear (a label longer than the room its route has): the least overlap.
  let least = candidates[0]!;
  let leastOverlap = overlap(least);
  for (const c of candidates) {
    const o = overlap(c);
    if (o < leastOverlap) {
      least = c;
      leastOverlap = o;
    }
  }
  return { point: least, rank: 2 };
}

/**
 * How much of its route a label likes to leave in sight before and after it:
 * the 16 px a reader needs to see the line go into it and out of it, and the
 * few px the drawn arrow stops short of a shape's outline.
 */
const LABEL_ARROW_ROOM = 20;

/** The length of the route before it first enters `box`, and after it last leaves it (the whole length both ways when it never enters). */
function visibleAround(route: Point[], box: Box): [number, number] {
  let [enter, leave, walked] = [Infinity, -Infinity, 0];
  for (let i = 1; i < route.length; i++) {
    const [[x0, y0], [x1, y1]] = [route[i - 1]!, route[i]!];
    const length = Math.hypot(x1 - x0, y1 - y0);
    // The part of the segment inside the box, as fractions of it (Liang–Barsky).
    let [t0, t1] = [0, 1];
    for (const [p, q] of [[x0 - x1, x0 - box.x], [x1 - x0, box.x + box.width - x0], [y0 - y1, y0 - box.y], [y1 - y0, box.y + box.height - y0]] as const) {
      if (p === 0) {
        if (q < 0) t0 = 2;
      } else if (p < 0) t0 = Math.max(t0, q / p);
      else t1 = Math.min(t1, q / p);
    }
    if (t0 <= t1) {
      enter = Math.min(enter, walked + t0 * length);
      leave = Math.max(leave, walked + t1 * length);
    }
    walked += length;
  }
  return enter === Infinity ? [walked, walked] : [enter, walked - leave];
}

/** How far a label likes to keep from the border of a container it is near. */
const LABEL_CLEARANCE = 4;

/** Where along a segment to try a label, most central first. */
const LABEL_STOPS = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9, 0, 1];
