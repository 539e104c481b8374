/**
 * One level of the hierarchy (the top level, or the children of one container):
 * split into connected components, lay each out in the internal frame, turn it
 * to the requested direction, and pack the components across the flow in
 * rows of a balanced block (in a left-to-right or right-to-left drawing of two
 * flows or more, columns: each flow a band down the page, as dagre stacks a
 * drawing's separate parts across its flow).
 */
import { layoutComponent, type SelfLoop } from './layered.ts';
import type { Point } from './routing/routing.ts';
import type { Arrowheads, Box, Direction, LayoutOptions } from './types.ts';

const COMPONENT_GAP = 60;
/** Components that fit in this width together go in one row. */
const SINGLE_ROW_WIDTH = 800;
/** So do components whose row is at most this many times as wide as its tallest is high (a tall one beside a wide one). */
const SINGLE_ROW_ASPECT = 2.5;
/** Target width / height of a packed level and of a wrapped component, in scene terms. */
const TARGET_ASPECT = 1.4;

export interface LevelNode {
  width: number;
  height: number;
  /** Input order, for deterministic tie-breaks that follow the spec. */
  hint: number;
  /** A circle or an ellipse (LayoutNode's). */
  round?: boolean;
}

export interface LevelEdge {
  from: number;
  to: number;
  labelWidth: number;
  labelHeight: number;
  /** Layers the edge spans at least (0: its ends may share one); absent: 1. */
  minLength?: number;
  /** false: the edge takes no part in ranking; absent: true. */
  constraint?: boolean;
  /** true: the edge is not drawn. */
  invisible?: boolean;
  /** The ends that carry an arrowhead (LayoutEdge's); absent: the `to` end. */
  arrowheads?: Arrowheads;
}

export interface LevelLayout {
  /** Boxes relative to the level's top-left corner (0, 0). */
  boxes: Box[];
  /** Null for an edge whose ends share a layer: left to the cross-edge router. */
  routes: Array<Point[] | null>;
  labels: Array<Point | null>;
  width: number;
  height: number;
}

interface PlacedComponent {
  nodes: number[];
  edges: number[];
  boxes: Box[];
  routes: Array<Point[] | null>;
  labels: Array<Point | null>;
  width: number;
  height: number;
}

export function layoutLevel(direction: Direction, nodes: LevelNode[], edges: LevelEdge[], options: LayoutOptions = {}): LevelLayout {
  const components = connectedComponents(nodes, edges, options.sameRank ?? []);
  const placed = components.map((component) => layoutOneComponent(direction, nodes, edges, component, options));
  // Lone nodes (no edge at all) after the drawing proper, and together.
  const ordered = [...placed.filter((c) => !isLone(c)), ...placed.filter(isLone)];
  // Two flows or more in a sideways drawing stack down the page, across their flow, each a band of its own: pack the
  // turned components in rows, and turn the rows into columns. Nodes without edges, in a level of lone nodes or beside one
  // flow, make a balanced block in rows, whatever the direction: a column of them is only taller.
  if (!transposed(direction) || placed.filter((c) => !isLone(c)).length < 2) return packComponents(nodes.length, edges.length, ordered, TARGET_ASPECT);
  return turn(packComponents(nodes.length, edges.length, ordered.map(turn), 1 / TARGET_ASPECT));
}

const swapPoint = ([x, y]: Point): Point => [y, x];

/** A component mirrored in its diagonal (x for y). */
function turn<T extends { boxes: Box[]; routes: Array<Point[] | null>; labels: Array<Point | null>; width: number; height: number }>(c: T): T {
  return {
    ...c,
    boxes: c.boxes.map((box) => ({ x: box.y, y: box.x, width: box.height, height: box.width })),
    routes: c.routes.map((route) => route?.map(swapPoint) ?? null),
    labels: c.labels.map((label) => (label ? swapPoint(label) : null)),
    width: c.height,
    height: c.width,
  };
}

/** A component that is one node without edges. */
const isLone = (c: PlacedComponent) => c.nodes.length === 1 && c.edges.length === 0;

/** Components of the graph, nodes in input order; a same-rank group lies in one component. */
function connectedComponents(nodes: LevelNode[], edges: LevelEdge[], sameRank: number[][]): Component[] {
  const parent = nodes.map((_, i) => i);
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]!]!;
      v = parent[v]!;
    }
    return v;
  };
  const join = (u: number, v: number): void => {
    const a = find(u);
    const b = find(v);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  };
  for (const edge of edges) join(edge.from, edge.to);
  for (const group of sameRank) for (const v of group) join(group[0]!, v);
  const byRoot = new Map<number, Component>();
  const order = nodes.map((_, i) => i).sort((a, b) => nodes[a]!.hint - nodes[b]!.hint || a - b);
  for (const v of order) {
    const root = find(v);
    let component = byRoot.get(root);
    if (!component) {
      component = { nodes: [], edges: [], sameRank: [] };
      byRoot.set(root, component);
    }
    component.nodes.push(v);
  }
  edges.forEach((edge, e) => byRoot.get(find(edge.from))!.edges.push(e));
  for (const group of sameRank) byRoot.get(find(group[0]!))!.sameRank.push(group);
  return [...byRoot.values()];
}

interface Component {
  nodes: number[];
  edges: number[];
  /** The level's same-rank groups within this component. */
  sameRank: number[][];
}

const transposed = (direction: Direction): boolean => direction === 'LR' || direction === 'RL';

/** Internal frame → scene frame. */
export function toScene(direction: Direction, [x, y]: Point): Point {
  switch (direction) {
    case 'TB':
      return [x, y];
    case 'BT':
      return [x, -y];
    case 'LR':
      return [y, x];
    case 'RL':
      return [-y, x];
  }
}

function layoutOneComponent(
  direction: Direction,
  nodes: LevelNode[],
  edges: LevelEdge[],
  component: Component,
  options: LayoutOptions,
): PlacedComponent {
  const swap = transposed(direction);
  const local = new Map<number, number>();
  component.nodes.forEach((v, i) => local.set(v, i));
  const width = component.nodes.map((v) => (swap ? nodes[v]!.height : nodes[v]!.width));
  const height = component.nodes.map((v) => (swap ? nodes[v]!.width : nodes[v]!.height));
  const linkEdges: number[] = [];
  const loopEdges: number[] = [];
  for (const e of component.edges) (edges[e]!.from === edges[e]!.to ? loopEdges : linkEdges).push(e);
  const labelSize = (e: number): [number, number] => {
    const { labelWidth, labelHeight } = edges[e]!;
    return swap ? [labelHeight, labelWidth] : [labelWidth, labelHeight];
  };
  const loops: SelfLoop[] = loopEdges.map((e) => {
    const [labelWidth, labelHeight] = labelSize(e);
    return { node: local.get(edges[e]!.from)!, labelWidth, labelHeight, ...(nodes[edges[e]!.from]!.round ? { round: true } : {}) };
  });
  const layout = layoutComponent({
    width,
    height,
    hint: component.nodes.map((v) => nodes[v]!.hint),
    from: linkEdges.map((e) => local.get(edges[e]!.from)!),
    to: linkEdges.map((e) => local.get(edges[e]!.to)!),
    labelWidth: linkEdges.map((e) => labelSize(e)[0]),
    labelHeight: linkEdges.map((e) => labelSize(e)[1]),
    ...(linkEdges.some((e) => (edges[e]!.minLength ?? 1) !== 1) ? { minLength: linkEdges.map((e) => edges[e]!.minLength ?? 1) } : {}),
    ...(linkEdges.some((e) => edges[e]!.constraint === false) ? { constraint: linkEdges.map((e) => edges[e]!.constraint !== false) } : {}),
    ...(linkEdges.some((e) => edges[e]!.invisible) ? { invisible: linkEdges.map((e) => edges[e]!.invisible === true) } : {}),
    ...(linkEdges.some((e) => edges[e]!.arrowheads) ? { arrowheads: linkEdges.map((e) => edges[e]!.arrowheads) } : {}),
    ...(component.sameRank.length > 0 ? { sameRank: component.sameRank.map((group) => group.map((v) => local.get(v)!)) } : {}),
    loops,
    aspect: swap ? 1 / TARGET_ASPECT : TARGET_ASPECT,
    downThePage: !swap,
    ...(options.fold === false ? { fold: false } : {}),
  });

  const boxes: Box[] = component.nodes.map((v, i) => {
    const [ax, ay] = toScene(direction, [layout.x[i]!, layout.y[i]!]);
    const [bx, by] = toScene(direction, [layout.x[i]! + width[i]!, layout.y[i]! + height[i]!]);
    return { x: Math.min(ax, bx), y: Math.min(ay, by), width: nodes[v]!.width, height: nodes[v]!.height };
  });
  const routeOf = new Map<number, Point[] | null>();
  const labelOf = new Map<number, Point | null>();
  linkEdges.forEach((e, i) => {
    routeOf.set(e, layout.routes[i]?.map((p) => toScene(direction, p)) ?? null);
    const label = layout.labels[i];
    labelOf.set(e, label ? toScene(direction, label) : null);
  });
  loopEdges.forEach((e, i) => {
    routeOf.set(e, layout.loopRoutes[i]!.map((p) => toScene(direction, p)));
    const label = layout.loopLabels[i];
    labelOf.set(e, label ? toScene(direction, label) : null);
  });
  const routes = component.edges.map((e) => routeOf.get(e)!);
  const labels = component.edges.map((e) => labelOf.get(e) ?? null);

  // Normalise to a top-left origin over everything drawn: boxes, routes and labels.
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const include = (x0: number, y0: number, x1: number, y1: number): void => {
    minX = Math.min(minX, x0);
    minY = Math.min(minY, y0);
    maxX = Math.max(maxX, x1);
    maxY = Math.max(maxY, y1);
  };
  for (const box of boxes) include(box.x, box.y, box.x + box.width, box.y + box.height);
  for (const route of routes) for (const [px, py] of route ?? []) include(px, py, px, py);
  labels.forEach((label, i) => {
    if (!label) return;
    const { labelWidth, labelHeight } = edges[component.edges[i]!]!;
    include(label[0] - labelWidth / 2, label[1] - labelHeight / 2, label[0] + labelWidth / 2, label[1] + labelHeight / 2);
  });
  for (const box of boxes) {
    box.x -= minX;
    box.y -= minY;
  }
  const shift = (p: Point): Point => [p[0] - minX, p[1] - minY];
  return {
    nodes: component.nodes,
    edges: component.edges,
    boxes,
    routes: routes.map((route) => route?.map(shift) ?? null),
    labels: labels.map((label) => (label ? shift(label) : null)),
    width: maxX - minX,
    height: maxY - minY,
  };
}

/** Shelf packing in the given order, rows about as wide as a block of the target aspect would be; the lone nodes (last) start a row unless they all fit in the one they come to. */
function packComponents(nodeCount: number, edgeCount: number, placed: PlacedComponent[], aspect: number): LevelLayout {
  let area = 0;
  let widest = 0;
  for (const c of placed) {
    area += (c.width + COMPONENT_GAP) * (c.height + COMPONENT_GAP);
    widest = Math.max(widest, c.width);
  }
  let total = 0;
  let tallest = 0;
  for (const c of placed) {
    total += c.width + (total > 0 ? COMPONENT_GAP : 0);
    tallest = Math.max(tallest, c.height);
  }
  // A few small components, or a row no wider than SINGLE_ROW_ASPECT times its height, simply sit side by side; many fill rows of a balanced block.
  const rowWidth = total <= SINGLE_ROW_ASPECT * tallest ? total : Math.max(widest, Math.sqrt(area * aspect), Math.min(total, SINGLE_ROW_WIDTH));
  const boxes: Box[] = new Array<Box>(nodeCount);
  const routes: Array<Point[] | null> = new Array<Point[] | null>(edgeCount).fill(null);
  const labels: Array<Point | null> = new Array<Point | null>(edgeCount).fill(null);
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  const firstLone = placed.findIndex(isLone);
  let loneWidth = 0;
  if (firstLone >= 0) for (const c of placed.slice(firstLone)) loneWidth += c.width + COMPONENT_GAP;
  placed.forEach((c, k) => {
    // The lone nodes stay together: beside the drawing if they all fit there, else from a row of their own.
    const breakForLone = k === firstLone && x + loneWidth - COMPONENT_GAP > rowWidth;
    if (x > 0 && (x + c.width > rowWidth || breakForLone)) {
      y += rowHeight + COMPONENT_GAP;
      x = 0;
      rowHeight = 0;
    }
    c.nodes.forEach((v, i) => {
      const box = c.boxes[i]!;
      boxes[v] = { x: box.x + x, y: box.y + y, width: box.width, height: box.height };
    });
    c.edges.forEach((e, i) => {
      routes[e] = c.routes[i]?.map(([px, py]): Point => [px + x, py + y]) ?? null;
      const label = c.labels[i];
      labels[e] = label ? [label[0] + x, label[1] + y] : null;
    });
    width = Math.max(width, x + c.width);
    rowHeight = Math.max(rowHeight, c.height);
    x += c.width + COMPONENT_GAP;
  });
  return { boxes, routes, labels, width, height: y + rowHeight };
}
