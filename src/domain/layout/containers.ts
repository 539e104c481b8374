/**
 * Containers: a node whose `parent` is set is laid out inside that parent. Each
 * container's children form a level of their own, laid out as a graph (nested
 * containers count as big nodes), innermost first; the container then takes the
 * size of its content plus padding and its header strip on top. An edge between
 * nodes in different containers takes part in the layering of the innermost level
 * that holds both ends (as an edge between the two children of that level it
 * descends from), so containers line up along the flow. Its layered route there
 * ends on the outer boxes level with the real end nodes inside them, and is
 * extended inwards at the end (cross-edges.ts).
 */
import { layoutLevel, type LevelEdge } from './level.ts';
import type { Point } from './routing.ts';
import type { Box, Direction } from './types.ts';

export const CONTAINER_PADDING = 20;

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
  /** Route of each edge drawn by its level's layered router; null for the ones that still need work. */
  routes: Array<Point[] | null>;
  labels: Array<Point | null>;
  /**
   * For an edge between nodes in different containers: its route between the two
   * children of the level that holds both ends (`outer`), to be extended inwards.
   */
  partial: Array<{ route: Point[]; from: number; to: number } | null>;
}

const ROOT = -1;

/** Ancestors of a node from its parent outwards. */
export function ancestorChain(parent: ArrayLike<number>, v: number): number[] {
  const chain: number[] = [];
  for (let p = parent[v]!; p !== ROOT; p = parent[p]!) chain.push(p);
  return chain;
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

  // Each edge joins the level of the innermost container holding both ends.
  const levelEdges = new Map<number, Array<{ edge: number; from: number; to: number; direct: boolean }>>();
  edges.forEach((edge, e) => {
    const placed = levelEdgeOf(parent, edge.from, edge.to);
    if (!placed) return;
    let list = levelEdges.get(placed.level);
    if (!list) {
      list = [];
      levelEdges.set(placed.level, list);
    }
    list.push({ edge: e, from: placed.from, to: placed.to, direct: placed.from === edge.from && placed.to === edge.to });
  });

  const size = nodes.map((node) => ({ width: node.width, height: node.height }));
  const inner = new Map<number, { layout: ReturnType<typeof layoutLevel>; edges: Array<{ edge: number; from: number; to: number; direct: boolean }> }>();
  /** Where a container's content starts, relative to its top-left corner: centred under the header, inside the padding. */
  const contentOrigin = (container: number): Point => {
    const content = inner.get(container)!.layout;
    return [(size[container]!.width - content.width) / 2, nodes[container]!.height + CONTAINER_PADDING];
  };
  // Top-left corner of each node relative to its parent's, known once the parent's level is laid out.
  const offsetInParent: Array<Point | undefined> = new Array<Point | undefined>(n);
  /** Centre of `inner` relative to the centre of `outer`, its ancestor. */
  const offsetFrom = (outer: number, inner: number): Point => {
    let dx = 0;
    let dy = 0;
    for (let v = inner; v !== outer; v = parent[v]!) {
      const [ox, oy] = offsetInParent[v]!;
      dx += ox;
      dy += oy;
    }
    return [dx + (size[inner]!.width - size[outer]!.width) / 2, dy + (size[inner]!.height - size[outer]!.height) / 2];
  };
  // A port on a container sits level with the node inside it that the edge really joins.
  const vertical = direction === 'TB' || direction === 'BT';
  const portFor = (outer: number, inner: number): number | undefined => {
    if (outer === inner) return undefined;
    const [dx, dy] = offsetFrom(outer, inner);
    return vertical ? dx : dy;
  };
  const levels = [...childrenOf.keys()].filter((c) => c !== ROOT).sort((a, b) => depth[b]! - depth[a]! || a - b);
  levels.push(ROOT);
  for (const level of levels) {
    const children = childrenOf.get(level)!;
    const local = new Map<number, number>();
    children.forEach((v, i) => local.set(v, i));
    const list = levelEdges.get(level) ?? [];
    const laid = layoutLevel(
      direction,
      children.map((v) => ({ width: size[v]!.width, height: size[v]!.height, hint: v })),
      list.map((le): LevelEdge => {
        const edge = edges[le.edge]!;
        const fromPort = portFor(le.from, edge.from);
        const toPort = portFor(le.to, edge.to);
        return {
          from: local.get(le.from)!,
          to: local.get(le.to)!,
          // A route drawn later still finds room for its label in the channel reserved here.
          labelWidth: edge.labelWidth,
          labelHeight: edge.labelHeight,
          ...(fromPort === undefined ? {} : { fromPort }),
          ...(toPort === undefined ? {} : { toPort }),
        };
      }),
    );
    inner.set(level, { layout: laid, edges: list });
    if (level !== ROOT) {
      size[level] = {
        width: Math.max(nodes[level]!.width, laid.width + 2 * CONTAINER_PADDING),
        height: nodes[level]!.height + laid.height + 2 * CONTAINER_PADDING,
      };
      const [originX, originY] = contentOrigin(level);
      children.forEach((v, i) => {
        const box = laid.boxes[i]!;
        offsetInParent[v] = [originX + box.x, originY + box.y];
      });
    }
  }

  const boxes: Box[] = new Array<Box>(n);
  const routes: Array<Point[] | null> = new Array<Point[] | null>(edges.length).fill(null);
  const labels: Array<Point | null> = new Array<Point | null>(edges.length).fill(null);
  const partial: NestedLayout['partial'] = new Array<NestedLayout['partial'][number]>(edges.length).fill(null);
  const place = (level: number, originX: number, originY: number): void => {
    const { layout, edges: list } = inner.get(level)!;
    const children = childrenOf.get(level)!;
    children.forEach((v, i) => {
      const box = layout.boxes[i]!;
      boxes[v] = { x: box.x + originX, y: box.y + originY, width: size[v]!.width, height: size[v]!.height };
    });
    list.forEach((le, i) => {
      const route = layout.routes[i]!.map(([x, y]): Point => [x + originX, y + originY]);
      const label = layout.labels[i];
      labels[le.edge] = label ? [label[0] + originX, label[1] + originY] : null;
      if (le.direct) routes[le.edge] = route;
      else partial[le.edge] = { route, from: le.from, to: le.to };
    });
    for (const v of children) {
      if (!inner.has(v)) continue;
      const [originX, originY] = contentOrigin(v);
      place(v, boxes[v]!.x + originX, boxes[v]!.y + originY);
    }
  };
  place(ROOT, 0, 0);
  return { boxes, routes, labels, partial };
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
