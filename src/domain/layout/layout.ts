/**
 * The layout engine: boxes and links in, positions and routes out. A pure,
 * deterministic function (no clock, no randomness beyond fixed seeds).
 *
 * Pipeline: sanitise the input (unknown parents and parent cycles fall back to
 * the top level; edges naming unknown nodes are dropped) → without containers,
 * lay out each connected component with the layered engine (layered.ts) and
 * pack them (level.ts); with containers, lay out every leaf in one layered
 * drawing with each container as a cluster (clustered.ts) → route what is left
 * (an edge between a container and a node inside it, or between containers
 * side by side) around the boxes in its way (cross-edges.ts) → touch up the
 * routes (a decision's branches leave from distinct points: branches.ts;
 * heads on a small node spread: small-targets.ts; an arrow that would cross a
 * container's label row comes in by its target's side: side-entries.ts; two
 * arrows crossing in an X part the legs they would share: crossed-legs.ts) →
 * turn the result into ids.
 */
import { layoutClustered } from './containers/clustered.ts';
import type { NestedEdge, NestedLayout, NestedNode } from './containers/containers.ts';
import { spreadDiamondBranches } from './placement/branches.ts';
import { partCrossedLegs } from './routing/crossed-legs.ts';
import { routeCrossEdges } from './routing/cross-edges.ts';
import { backEdgesInInputOrder } from './layering/cycles.ts';
import { layoutLevel } from './level.ts';
import { headerAlign } from './containers/headers.ts';
import { layoutOwnDirections } from './containers/own-direction.ts';
import { lengthenHeadLegs } from './routing/head-legs.ts';
import { type Point, PORT_SPREAD } from './routing/routing.ts';
import { enterThroughSides } from './routing/side-entries.ts';
import { SMALL_NODE, spreadAtSmallTargets } from './routing/small-targets.ts';
import type { Direction, LayoutInput, LayoutOptions, LayoutResult } from './types.ts';

export type { LayoutInput, LayoutResult } from './types.ts';

const MIN_SIZE = 1;

export function layoutGraph(input: LayoutInput): LayoutResult {
  const own = layoutOwnDirections(input, layoutGraph);
  if (own) return own;
  const direction = input.direction ?? 'TB';
  const index = new Map<string, number>();
  const nodes = input.nodes.filter((node) => {
    if (index.has(node.id)) return false;
    index.set(node.id, index.size);
    return true;
  });
  const parent = nodes.map((node) => (node.parent != null && node.parent !== node.id ? (index.get(node.parent) ?? -1) : -1));
  breakParentCycles(parent);
  const nested: NestedNode[] = nodes.map((node, i) => ({
    width: Math.max(MIN_SIZE, finite(node.width)),
    height: Math.max(MIN_SIZE, finite(node.height)),
    parent: parent[i]!,
    ...(node.titleWidth !== undefined && Number.isFinite(node.titleWidth) ? { titleWidth: node.titleWidth } : {}),
    ...(node.round ? { round: true } : {}),
  }));
  const edges = input.edges.filter((edge) => index.has(edge.from) && index.has(edge.to));
  const nestedEdges: NestedEdge[] = edges.map((edge) => ({
    from: index.get(edge.from)!,
    to: index.get(edge.to)!,
    labelWidth: Math.max(0, finite(edge.labelWidth ?? 0)),
    labelHeight: Math.max(0, finite(edge.labelHeight ?? 0)),
    ...(edge.minLength !== undefined && Math.round(edge.minLength) !== 1 ? { minLength: Math.max(0, Math.round(edge.minLength)) } : {}),
    ...(edge.constraint === false ? { constraint: false } : {}),
    ...(edge.invisible ? { invisible: true } : {}),
    ...(edge.arrowheads && edge.arrowheads !== 'end' ? { arrowheads: edge.arrowheads } : {}),
  }));

  const sameRank = sameRankGroups(input.sameRank ?? [], index);
  widenForPorts(direction, nested, nestedEdges, sameRank);
  const options: LayoutOptions = { ...(input.fold === 'off' ? { fold: false } : {}), ...(sameRank.length > 0 ? { sameRank } : {}) };
  const laid = parent.some((p) => p >= 0) ? layoutClustered(direction, nested, nestedEdges, options) : layoutFlat(direction, nested, nestedEdges, options);
  routeCrossEdges(direction, laid.boxes, parent, nestedEdges, laid, nested.map((node) => node.height));
  // The passes that part and move drawn arrows see no invisible edge: it is drawn nowhere, so nothing moves away from it.
  const hidden = new Map<number, Point[] | null>();
  nestedEdges.forEach((edge, e) => {
    if (!edge.invisible) return;
    hidden.set(e, laid.routes[e]!);
    laid.routes[e] = null;
  });
  spreadDiamondBranches(
    direction,
    laid.boxes,
    nodes.map((node) => node.diamond === true),
    nestedEdges.map((edge) => edge.from),
    nestedEdges.map((edge) => edge.to),
    laid.routes,
    laid.labels,
  );
  spreadAtSmallTargets(
    direction,
    laid.boxes,
    nestedEdges.map((edge) => edge.from),
    nestedEdges.map((edge) => edge.to),
    nestedEdges.map((edge) => edge.labelWidth > 0 && edge.labelHeight > 0),
    laid.routes,
    parent,
  );
  enterThroughSides({
    direction,
    boxes: laid.boxes,
    parent,
    headers: nested.map((node) => node.height),
    from: nestedEdges.map((edge) => edge.from),
    to: nestedEdges.map((edge) => edge.to),
    labelled: nestedEdges.map((edge) => edge.labelWidth > 0 && edge.labelHeight > 0),
    routes: laid.routes,
  });
  partCrossedLegs(
    direction,
    laid.boxes,
    nestedEdges.map((edge) => edge.from),
    nestedEdges.map((edge) => edge.to),
    nestedEdges.map((edge) => edge.labelWidth > 0 && edge.labelHeight > 0),
    nodes.map((node) => node.diamond === true || node.round === true),
    laid.routes,
    parent,
  );
  lengthenHeadLegs(
    laid.boxes,
    nestedEdges.map((edge) => edge.from),
    nestedEdges.map((edge) => edge.to),
    nestedEdges.map((edge) => edge.arrowheads),
    nestedEdges.map((edge) => edge.labelWidth > 0 && edge.labelHeight > 0),
    laid.routes,
    parent,
  );
  placeHeaders(laid, parent, nested);
  for (const [e, route] of hidden) laid.routes[e] = route;

  const result: LayoutResult = { nodes: {}, edges: {} };
  nodes.forEach((node, i) => {
    const box = laid.boxes[i]!;
    const align = laid.headerAlign[i];
    result.nodes[node.id] = { x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height), ...(align ? { labelAlign: align } : {}) };
  });
  edges.forEach((edge, e) => {
    const points = laid.routes[e]!.map(([x, y]): [number, number] => [round(x), round(y)]);
    const label = laid.labels[e];
    result.edges[edge.id] = label ? { points, label: { x: round(label[0]), y: round(label[1]) } } : { points };
  });
  return result;
}

/** Where along its top each container's label goes (`headerAlign`), from the routes about it. */
function placeHeaders(laid: NestedLayout, parent: ArrayLike<number>, nested: NestedNode[]): void {
  const membersTop = new Map<number, number>();
  for (let v = 0; v < nested.length; v++) {
    const p = parent[v]!;
    if (p >= 0) membersTop.set(p, Math.min(membersTop.get(p) ?? Infinity, laid.boxes[v]!.y));
  }
  const routes = laid.routes.filter((route): route is Point[] => route !== null);
  for (const [v, top] of membersTop) {
    if (laid.headerAlign[v] !== 'center') continue;
    laid.headerAlign[v] = headerAlign(laid.boxes[v]!, nested[v]!, top, routes);
  }
}

/** A graph without containers: one level, laid out by the layered engine component by component. */
function layoutFlat(direction: LayoutInput['direction'], nodes: NestedNode[], edges: NestedEdge[], options: LayoutOptions): NestedLayout {
  const laid = layoutLevel(
    direction,
    nodes.map((node, i) => ({ width: node.width, height: node.height, hint: i, ...(node.round ? { round: true } : {}) })),
    edges,
    options,
  );
  return { boxes: laid.boxes, routes: laid.routes, labels: laid.labels, headerAlign: nodes.map(() => null) };
}

/** Same-rank groups as node indices: unknown ids and repeats dropped, groups of fewer than two left out. */
function sameRankGroups(groups: string[][], index: Map<string, number>): number[][] {
  const result: number[][] = [];
  for (const group of groups) {
    const members = [...new Set(group.map((id) => index.get(id)).filter((v): v is number => v !== undefined))];
    if (members.length >= 2) result.push(members);
  }
  return result;
}

function finite(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

/** Coordinates to 1/100 px: stable JSON, no float noise. */
function round(value: number): number {
  return Math.round(value * 100) / 100 + 0;
}

/** A parent chain that loops back on itself is cut where it first repeats. */
function breakParentCycles(parent: number[]): void {
  const state = new Uint8Array(parent.length);
  for (let start = 0; start < parent.length; start++) {
    const path: number[] = [];
    let v = start;
    while (v !== -1 && state[v] === 0) {
      state[v] = 1;
      path.push(v);
      v = parent[v]!;
    }
    if (v !== -1 && state[v] === 1) parent[v] = -1;
    for (const p of path) state[p] = 2;
  }
}

/** The room, across the flow, each arrow end on one side of a node takes: the editor's arrowheads, 17 px across, keep 9 px between them (at 18 px they touched, a comb). */
export const PORT_ROOM = 26;
/** How wide (across the flow) a node grows for its ports at most: a hub of hundreds of edges would be a wall. */
export const PORT_GROWTH_LIMIT = 640;

/**
 * A node that many edges enter (or leave) grows across the flow until their
 * ends, spread over the middle PORT_SPREAD of its side, lie PORT_ROOM apart
 * (up to PORT_GROWTH_LIMIT); containers and small nodes (SMALL_NODE) keep their size.
 * An edge between two nodes of one same-rank group runs across the flow, from
 * the side of one that faces the other: it counts for those sides, which lie
 * along the flow, so the node grows along it. A square node (a circle) grows
 * both ways, into a larger circle.
 */
function widenForPorts(direction: Direction, nodes: NestedNode[], edges: NestedEdge[], sameRank: number[][]): void {
  const isContainer = new Uint8Array(nodes.length);
  for (const node of nodes) if (node.parent >= 0) isContainer[node.parent] = 1;
  const rankGroup = new Int32Array(nodes.length).fill(-1);
  sameRank.forEach((group, g) => group.forEach((v) => (rankGroup[v] = g)));
  const isFlat = (edge: NestedEdge) => rankGroup[edge.from]! >= 0 && rankGroup[edge.from] === rankGroup[edge.to];
  const flat = new Int32Array(nodes.length);
  for (const edge of edges) {
    if (edge.from === edge.to || !isFlat(edge)) continue;
    flat[edge.from]!++;
    flat[edge.to]!++;
  }
  // The side each end takes: an edge the layout turns round (it closes a loop) ends on the other side.
  const links = edges.filter((edge) => edge.from !== edge.to && !isFlat(edge));
  const reversed = backEdgesInInputOrder(nodes.length, links.map((edge) => edge.from), links.map((edge) => edge.to));
  const upstream = new Int32Array(nodes.length);
  const downstream = new Int32Array(nodes.length);
  links.forEach((edge, e) => {
    const [upper, lower] = reversed[e] ? [edge.to, edge.from] : [edge.from, edge.to];
    downstream[upper]!++;
    upstream[lower]!++;
  });
  const [across, along] = direction === 'TB' || direction === 'BT' ? (['width', 'height'] as const) : (['height', 'width'] as const);
  const grown = (size: number, ends: number) => (ends > 1 ? Math.max(size, Math.min(PORT_GROWTH_LIMIT, Math.ceil((PORT_ROOM * (ends - 1)) / PORT_SPREAD))) : size);
  nodes.forEach((node, v) => {
    if (isContainer[v] || (node.width < SMALL_NODE && node.height < SMALL_NODE)) return;
    const square = node.width === node.height;
    node[across] = grown(node[across], Math.max(upstream[v]!, downstream[v]!));
    node[along] = grown(node[along], flat[v]!);
    // A circle grows into a larger circle, not an egg.
    if (square) node.width = node.height = Math.max(node.width, node.height);
  });
}
