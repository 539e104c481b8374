/**
 * Containers: a node whose `parent` is set is laid out inside that parent. Each
 * container's children form a level of their own, laid out as a graph (nested
 * containers count as big nodes), innermost first; the container then takes the
 * size of its content plus padding and its header strip on top.
 *
 * An edge between nodes in different containers takes part in the layering of
 * the innermost level that holds both ends, as an edge between the two children
 * of that level it descends from (its label is placed there). Inside each
 * container it crosses, it is an edge of that container's level too: to a port
 * node on the container's last layer (leaving) or from one on its first layer
 * (entering), as ELK does with hierarchical ports. The port node's place becomes
 * the edge's port on the container's border one level up, so the pieces join
 * into one route that enters and leaves every container through its border and
 * runs between the boxes at every level.
 */
import { backEdgesInInputOrder } from './cycles.ts';
import { layoutLevel, type LevelEdge } from './level.ts';
import { simplify, type Point } from './routing.ts';
import type { Box, Direction } from './types.ts';

export const CONTAINER_PADDING = 20;
/** Size of the node standing for a container's port in its level. */
const PORT_SIZE = 2;
/** Room between a container's header label and an edge entering beside it. */
const PORT_CLEARANCE = 20;

export interface NestedNode {
  width: number;
  height: number;
  /** Index of the containing node, or -1 at the top level. */
  parent: number;
}

export interface NestedEdge {
  from: number;
  to: number;
  labelWidth: number;
  labelHeight: number;
}

export interface NestedLayout {
  /** Absolute box of every node. */
  boxes: Box[];
  /** Route of each edge; null for an edge between a container and a node inside it (routed afterwards). */
  routes: Array<Point[] | null>;
  labels: Array<Point | null>;
  /** Where along its top side (x, relative to the box) each container's header label fits clear of the edges entering there. */
  headerAlign: Array<HeaderAlign | null>;
}

export type HeaderAlign = 'left' | 'center' | 'right';

const ROOT = -1;

/** Ancestors of a node from its parent outwards. */
export function ancestorChain(parent: ArrayLike<number>, v: number): number[] {
  const chain: number[] = [];
  for (let p = parent[v]!; p !== ROOT; p = parent[p]!) chain.push(p);
  return chain;
}

/** One edge's piece in one level: between two children, or between a child and a port node of the level's container. */
interface Piece {
  edge: number;
  /** Local ends: a child, or a port node (index past the children). */
  from: number;
  to: number;
  /** The real nodes these ends stand for, or the container itself for a port node. */
  fromNode: number;
  toNode: number;
  labelled: boolean;
}

export function layoutNested(direction: Direction, nodes: NestedNode[], edges: NestedEdge[]): NestedLayout {
  const n = nodes.length;
  const parent = nodes.map((node) => node.parent);
  const childrenOf = new Map<number, number[]>([[ROOT, []]]);
  for (let v = 0; v < n; v++) {
    const p = parent[v]!;
    let list = childrenOf.get(p);
    if (!list) {
      list = [];
      childrenOf.set(p, list);
    }
    list.push(v);
  }
  const depth = new Int32Array(n);
  for (let v = 0; v < n; v++) depth[v] = ancestorChain(parent, v).length;
  const local = new Int32Array(n);
  for (const children of childrenOf.values()) children.forEach((v, i) => (local[v] = i));

  // Every edge's pieces: ports out of the containers holding its source, the edge in the common level, ports into the target's.
  const pieces = new Map<number, Piece[]>();
  const ports = new Map<number, Array<{ pin: number }>>();
  const addPiece = (level: number, piece: Piece): void => {
    const list = pieces.get(level) ?? [];
    list.push(piece);
    pieces.set(level, list);
  };
  const addPort = (container: number, pin: number): number => {
    const list = ports.get(container) ?? [];
    list.push({ pin });
    ports.set(container, list);
    return childrenOf.get(container)!.length + list.length - 1;
  };
  /** For each edge, the containers it leaves (innermost first) and enters (outermost first), each with the port node's local index. */
  const crossings: Array<{ leaves: Array<[number, number]>; enters: Array<[number, number]>; level: number } | null> = edges.map(() => null);
  const back = backEdgesByLevel(parent, childrenOf, local, edges);
  edges.forEach((edge, e) => {
    const [upperEnd, lowerEnd] = back[e] ? [edge.to, edge.from] : [edge.from, edge.to];
    const placed = levelEdgeOf(parent, upperEnd, lowerEnd);
    if (!placed) return;
    const leaves: Array<[number, number]> = [];
    const enters: Array<[number, number]> = [];
    for (let child = upperEnd; child !== placed.from; child = parent[child]!) {
      const container = parent[child]!;
      const port = addPort(container, 1);
      leaves.push([container, port]);
      addPiece(container, { edge: e, from: local[child]!, to: port, fromNode: child, toNode: container, labelled: false });
    }
    for (let child = lowerEnd; child !== placed.to; child = parent[child]!) {
      const container = parent[child]!;
      const port = addPort(container, -1);
      enters.unshift([container, port]);
      addPiece(container, { edge: e, from: port, to: local[child]!, fromNode: container, toNode: child, labelled: false });
    }
    addPiece(placed.level, { edge: e, from: local[placed.from]!, to: local[placed.to]!, fromNode: placed.from, toNode: placed.to, labelled: true });
    crossings[e] = { leaves, enters, level: placed.level };
  });

  const vertical = direction === 'TB' || direction === 'BT';
  const size = nodes.map((node) => ({ width: node.width, height: node.height }));
  const inner = new Map<number, { layout: ReturnType<typeof layoutLevel>; pieces: Piece[] }>();
  const contentOrigin = new Map<number, Point>();
  const headerAlign: Array<HeaderAlign | null> = nodes.map(() => null);
  /** Centre of each port node relative to its container's centre. */
  const portOffset = new Map<number, Point[]>();
  const levels = [...childrenOf.keys()].filter((c) => c !== ROOT).sort((a, b) => depth[b]! - depth[a]! || a - b);
  levels.push(ROOT);
  for (const level of levels) {
    const children = childrenOf.get(level)!;
    const levelPorts = ports.get(level) ?? [];
    const list = pieces.get(level) ?? [];
    const portOf = (piece: Piece, end: 'from' | 'to'): number | undefined => {
      // The port on a child container: where its port node for this edge sits, along the side it uses.
      const child = end === 'from' ? piece.fromNode : piece.toNode;
      const localEnd = end === 'from' ? piece.from : piece.to;
      if (localEnd >= children.length || !inner.has(child)) return undefined;
      const crossing = crossings[piece.edge]!;
      const entry = (end === 'from' ? crossing.leaves : crossing.enters).find(([c]) => c === child);
      if (!entry) return undefined;
      const [dx, dy] = portOffset.get(child)![entry[1] - childrenOf.get(child)!.length]!;
      return vertical ? dx : dy;
    };
    const laid = layoutLevel(
      direction,
      [
        ...children.map((v) => ({ width: size[v]!.width, height: size[v]!.height, hint: v })),
        ...levelPorts.map((port, i) => ({ width: PORT_SIZE, height: PORT_SIZE, hint: n + i, pin: port.pin })),
      ],
      list.map((piece): LevelEdge => {
        const edge = edges[piece.edge]!;
        const fromPort = portOf(piece, 'from');
        const toPort = portOf(piece, 'to');
        return {
          from: piece.from,
          to: piece.to,
          labelWidth: piece.labelled ? edge.labelWidth : 0,
          labelHeight: piece.labelled ? edge.labelHeight : 0,
          ...(fromPort === undefined ? {} : { fromPort }),
          ...(toPort === undefined ? {} : { toPort }),
        };
      }),
    );
    inner.set(level, { layout: laid, pieces: list });
    if (level === ROOT) continue;
    const header = nodes[level]!;
    const content = { width: laid.width, height: laid.height };
    // Ports on the side the header is on (the top) must stay clear of the label.
    const topSide = direction === 'TB' ? -1 : direction === 'BT' ? 1 : 0;
    const topPorts = levelPorts
      .map((port, i) => ({ port, box: laid.boxes[children.length + i]! }))
      .filter(({ port }) => topSide !== 0 && port.pin === topSide)
      .map(({ box }) => box.x + box.width / 2);
    const width = Math.max(header.width, content.width + 2 * CONTAINER_PADDING);
    const placement = placeHeader(header.width, width, (width - content.width) / 2, topPorts);
    size[level] = { width: placement.width, height: header.height + content.height + 2 * CONTAINER_PADDING };
    headerAlign[level] = placement.align;
    const origin: Point = [placement.contentLeft, header.height + CONTAINER_PADDING];
    contentOrigin.set(level, origin);
    portOffset.set(
      level,
      levelPorts.map((_, i) => {
        const box = laid.boxes[children.length + i]!;
        return [origin[0] + box.x + box.width / 2 - size[level]!.width / 2, origin[1] + box.y + box.height / 2 - size[level]!.height / 2];
      }),
    );
  }

  const boxes: Box[] = new Array<Box>(n);
  const levelRoutes = new Map<string, Point[]>();
  const labels: Array<Point | null> = new Array<Point | null>(edges.length).fill(null);
  const place = (level: number, originX: number, originY: number): void => {
    const { layout, pieces: list } = inner.get(level)!;
    const children = childrenOf.get(level)!;
    children.forEach((v, i) => {
      const box = layout.boxes[i]!;
      boxes[v] = { x: box.x + originX, y: box.y + originY, width: size[v]!.width, height: size[v]!.height };
    });
    list.forEach((piece, i) => {
      const route = layout.routes[i]!.map(([x, y]): Point => [x + originX, y + originY]);
      if (piece.labelled) {
        const label = layout.labels[i];
        labels[piece.edge] = label ? [label[0] + originX, label[1] + originY] : null;
      }
      levelRoutes.set(`${piece.edge}:${level}`, route);
    });
    for (const v of children) {
      if (!inner.has(v)) continue;
      const [ox, oy] = contentOrigin.get(v)!;
      place(v, boxes[v]!.x + ox, boxes[v]!.y + oy);
    }
  };
  place(ROOT, 0, 0);

  // Join the pieces: each port-node end runs on straight to its container's border.
  const toBorder = (point: Point, box: Box, pin: number): Point => {
    const last = (pin > 0) === (direction === 'TB' || direction === 'LR');
    if (vertical) return [point[0], last ? box.y + box.height : box.y];
    return [last ? box.x + box.width : box.x, point[1]];
  };
  const routes: Array<Point[] | null> = edges.map((_, e) => {
    const crossing = crossings[e];
    if (!crossing) return null;
    const common = crossing.level;
    const points: Point[] = [];
    for (const [container] of crossing.leaves) {
      const piece = levelRoutes.get(`${e}:${container}`)!;
      points.push(...piece, toBorder(piece[piece.length - 1]!, boxes[container]!, 1));
    }
    points.push(...levelRoutes.get(`${e}:${common}`)!);
    for (const [container] of crossing.enters) {
      const piece = levelRoutes.get(`${e}:${container}`)!;
      points.push(toBorder(piece[0]!, boxes[container]!, -1), ...piece);
    }
    const route = simplify(points);
    return back[e] ? route.reverse() : route;
  });
  return { boxes, routes, labels, headerAlign };
}

/**
 * Which edges point back against the flow, decided in the level where each is
 * laid out (between the two children it descends from), by a depth-first
 * search in the author's order there. An edge that points back has its target
 * as its upper end: it leaves the target's containers through their last layer
 * and enters the source's through their first, so its pieces join.
 */
function backEdgesByLevel(parent: number[], childrenOf: Map<number, number[]>, local: Int32Array, edges: NestedEdge[]): Uint8Array {
  const back = new Uint8Array(edges.length);
  const byLevel = new Map<number, { edges: number[]; from: number[]; to: number[] }>();
  edges.forEach((edge, e) => {
    const placed = levelEdgeOf(parent, edge.from, edge.to);
    if (!placed) return;
    const list = byLevel.get(placed.level) ?? { edges: [], from: [], to: [] };
    list.edges.push(e);
    list.from.push(local[placed.from]!);
    list.to.push(local[placed.to]!);
    byLevel.set(placed.level, list);
  });
  for (const [level, list] of byLevel) {
    const reversed = backEdgesInInputOrder(childrenOf.get(level)!.length, list.from, list.to);
    list.edges.forEach((e, i) => (back[e] = reversed[i]!));
  }
  return back;
}

/**
 * Where a container's header label goes: left, centred or right along the top,
 * whichever keeps clear of the ports there; if none does, the container widens
 * on the left to make room. Returns the container's width, the content's left.
 */
function placeHeader(
  headerWidth: number,
  width: number,
  contentLeft: number,
  portXs: number[],
): { align: HeaderAlign; width: number; contentLeft: number } {
  const clear = (from: number, to: number) => portXs.every((x) => x + contentLeft < from - PORT_CLEARANCE || x + contentLeft > to + PORT_CLEARANCE);
  if (clear((width - headerWidth) / 2, (width + headerWidth) / 2)) return { align: 'center', width, contentLeft };
  if (clear(0, headerWidth)) return { align: 'left', width, contentLeft };
  if (clear(width - headerWidth, width)) return { align: 'right', width, contentLeft };
  const leftmost = Math.min(...portXs) + contentLeft;
  const extra = headerWidth + PORT_CLEARANCE - leftmost;
  return { align: 'left', width: width + extra, contentLeft: contentLeft + extra };
}

/**
 * The level an edge is laid out in and the two children of that level it joins;
 * undefined when one end contains the other (that edge is only routed).
 */
function levelEdgeOf(parent: ArrayLike<number>, from: number, to: number): { level: number; from: number; to: number } | undefined {
  if (from === to) return { level: parent[from]!, from, to };
  const fromPath = [from, ...ancestorChain(parent, from)];
  const toPath = [to, ...ancestorChain(parent, to)];
  if (fromPath.includes(to) || toPath.includes(from)) return undefined;
  const toSet = new Set(toPath);
  for (let i = 0; i < fromPath.length; i++) {
    const candidate = fromPath[i]!;
    const level = parent[candidate]!;
    if (level === ROOT || toSet.has(level)) {
      const j = level === ROOT ? toPath.length - 1 : toPath.indexOf(level) - 1;
      return { level, from: candidate, to: toPath[j]! };
    }
  }
  return undefined;
}
