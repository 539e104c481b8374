/**
 * The layered (Sugiyama) pipeline for one connected component, in the internal
 * top-to-bottom frame: break cycles, assign layers, wrap over-wide layers, add
 * dummy nodes, minimise crossings, place nodes, route edges, draw self-loops.
 */
import { assignCompactCoordinates, assignHorizontalCoordinates, drawingWidth, widestLayerSpan } from './coordinates.ts';
import { findReversedEdges } from './cycles.ts';
import { buildProperGraph } from './dummies.ts';
import { networkSimplexLayers } from './layering.ts';
import { orderLayers } from './ordering.ts';
import { assignPorts, LAYER_GAP, routeChannels, type Point } from './routing.ts';
import { wrapWideLayers } from './wrapping.ts';

const NODE_HALF_GAP = 20;
const EDGE_HALF_GAP = 8;
const LOOP_REACH = 20;
const LOOP_LABEL_GAP = 4;
/** Keep Brandes–Köpf's placement unless it is this many times wider than the widest layer (and too wide for its height). */
const WIDTH_SLACK = 1.3;
const COMPACTION_SWEEPS = 30;

export interface ComponentInput {
  /** Node sizes in the internal frame. */
  width: ArrayLike<number>;
  height: ArrayLike<number>;
  /** Input order of each node: ties go to the earlier one. */
  hint: ArrayLike<number>;
  /** Edges between different nodes. */
  from: ArrayLike<number>;
  to: ArrayLike<number>;
  labelWidth: ArrayLike<number>;
  labelHeight: ArrayLike<number>;
  /** Requested port offsets from the centre of `from` / `to` along their side (NaN: spread evenly). */
  fromPort: ArrayLike<number>;
  toPort: ArrayLike<number>;
  loops: SelfLoop[];
  /** Target width / height in the internal frame, for wrapping over-wide layers. */
  aspect: number;
}

export interface SelfLoop {
  node: number;
  labelWidth: number;
  labelHeight: number;
}

export interface ComponentLayout {
  /** Top-left corner of every node. */
  x: Float64Array;
  y: Float64Array;
  routes: Point[][];
  labels: Array<Point | null>;
  loopRoutes: Point[][];
  loopLabels: Array<Point | null>;
}

export function layoutComponent(input: ComponentInput): ComponentLayout {
  const n = input.width.length;
  const m = input.from.length;
  const reversed = findReversedEdges(n, input.from, input.to);
  const upper = new Int32Array(m);
  const lower = new Int32Array(m);
  const alone = new Uint8Array(m);
  for (let e = 0; e < m; e++) {
    upper[e] = reversed[e] ? input.to[e]! : input.from[e]!;
    lower[e] = reversed[e] ? input.from[e]! : input.to[e]!;
    alone[e] = input.labelWidth[e]! > 0 && input.labelHeight[e]! > 0 ? 1 : 0;
  }
  const edges = { upper, lower, alone };
  const ranks = networkSimplexLayers(n, upper, lower);
  const { layer, wrapped } = wrapWideLayers(
    { nodeCount: n, width: input.width, height: input.height, hint: input.hint, edges, aspect: input.aspect },
    ranks,
  );
  const graph = buildProperGraph(n, layer, edges, wrapped);
  const order = orderLayers(graph, input.hint);

  const total = graph.nodeCount;
  const width = new Float64Array(total);
  const height = new Float64Array(total);
  const leftExtent = new Float64Array(total);
  const rightExtent = new Float64Array(total);
  const halfGap = new Float64Array(total).fill(EDGE_HALF_GAP);
  const isDummy = new Uint8Array(total).fill(1);
  const loopReach = selfLoopReach(n, input.loops);
  for (let v = 0; v < n; v++) {
    width[v] = input.width[v]!;
    height[v] = input.height[v]!;
    leftExtent[v] = width[v]! / 2;
    rightExtent[v] = width[v]! / 2 + loopReach[v]!;
    halfGap[v] = NODE_HALF_GAP;
    isDummy[v] = 0;
  }
  const up = csr(total, graph.lower, graph.upper);
  const down = csr(total, graph.upper, graph.lower);
  // A pinned port belongs to the end of the input edge; in the proper graph that is the first or last proper edge.
  const pinnedBottom = new Float64Array(graph.upper.length).fill(Number.NaN);
  const pinnedTop = new Float64Array(graph.upper.length).fill(Number.NaN);
  graph.chains.forEach((chain, e) => {
    const [upperPin, lowerPin] = reversed[e] ? [input.toPort[e]!, input.fromPort[e]!] : [input.fromPort[e]!, input.toPort[e]!];
    pinnedBottom[chain[0]!] = upperPin;
    pinnedTop[chain[chain.length - 1]!] = lowerPin;
  });
  const ports = assignPorts(graph, order.position, width, pinnedBottom, pinnedTop);
  const horizontal = {
    layers: order.layers,
    position: order.position,
    upStart: up.start,
    upList: up.list,
    downStart: down.start,
    downList: down.list,
    isDummy,
    leftExtent,
    rightExtent,
    halfGap,
  };
  let x = assignHorizontalCoordinates(horizontal);
  const narrowest = widestLayerSpan(horizontal);
  const tall = estimatedHeight(graph.layerCount, layer, height, n);
  const wide = drawingWidth(horizontal, x);
  if (wide > WIDTH_SLACK * narrowest && wide > 1.5 * input.aspect * tall) {
    // Brandes–Köpf spreads bushy graphs far wider than their widest layer: trade some alignment for a compact drawing.
    x = assignCompactCoordinates(
      { ...horizontal, edgeUpper: graph.upper, edgeLower: graph.lower, upperOffset: ports.bottom, lowerOffset: ports.top },
      x,
      COMPACTION_SWEEPS,
      Math.max(narrowest * 1.15, input.aspect * tall),
    );
  }
  let minX = Infinity;
  for (let v = 0; v < total; v++) minX = Math.min(minX, x[v]! - leftExtent[v]!);
  for (let v = 0; v < total; v++) x[v]! -= minX;

  const routing = routeChannels({ graph, order, x, ports, height, labelWidth: input.labelWidth, labelHeight: input.labelHeight });
  const left = new Float64Array(n);
  for (let v = 0; v < n; v++) left[v] = x[v]! - width[v]! / 2;
  const routes = routing.routes.map((route, e) => (reversed[e] ? route.slice().reverse() : route));
  const { loopRoutes, loopLabels } = drawSelfLoops(input.loops, left, routing.y, width, height);
  return { x: left, y: routing.y, routes, labels: routing.labels, loopRoutes, loopLabels };
}

/** Layer heights plus the minimum gaps: a lower bound on the drawing's height. */
function estimatedHeight(layerCount: number, layer: Int32Array, height: Float64Array, realCount: number): number {
  const layerHeight = new Float64Array(layerCount);
  for (let v = 0; v < realCount; v++) layerHeight[layer[v]!] = Math.max(layerHeight[layer[v]!]!, height[v]!);
  let total = (layerCount - 1) * LAYER_GAP;
  for (const h of layerHeight) total += h;
  return total;
}

function csr(nodeCount: number, from: Int32Array, to: Int32Array): { start: Int32Array; list: Int32Array } {
  const start = new Int32Array(nodeCount + 1);
  for (let e = 0; e < from.length; e++) start[from[e]! + 1]!++;
  for (let v = 0; v < nodeCount; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, nodeCount);
  const list = new Int32Array(from.length);
  for (let e = 0; e < from.length; e++) list[fill[from[e]!]!++] = to[e]!;
  return { start, list };
}

/** How far each node's self-loops (and their labels) reach out of its right side. */
function selfLoopReach(n: number, loops: SelfLoop[]): Float64Array {
  const reach = new Float64Array(n);
  for (const loop of loops) {
    reach[loop.node] = reach[loop.node]! + LOOP_REACH + (loop.labelWidth > 0 ? LOOP_LABEL_GAP * 2 + loop.labelWidth : 0);
  }
  return reach;
}

/**
 * Self-loops leave the right side of their node and come back to it, nested
 * when there are several, each label just outside its own loop.
 */
function drawSelfLoops(
  loops: SelfLoop[],
  left: Float64Array,
  top: Float64Array,
  width: Float64Array,
  height: Float64Array,
): { loopRoutes: Point[][]; loopLabels: Array<Point | null> } {
  const countOf = new Map<number, number>();
  for (const loop of loops) countOf.set(loop.node, (countOf.get(loop.node) ?? 0) + 1);
  const indexOf = new Map<number, number>();
  const reachSoFar = new Map<number, number>();
  const loopRoutes: Point[][] = [];
  const loopLabels: Array<Point | null> = [];
  for (const loop of loops) {
    const v = loop.node;
    const k = indexOf.get(v) ?? 0;
    indexOf.set(v, k + 1);
    const count = countOf.get(v)!;
    const right = left[v]! + width[v]!;
    const centreY = top[v]! + height[v]! / 2;
    const halfSpan = height[v]! * (0.1 + (0.3 * (k + 1)) / count);
    const reach = (reachSoFar.get(v) ?? 0) + LOOP_REACH;
    loopRoutes.push([
      [right, centreY - halfSpan],
      [right + reach, centreY - halfSpan],
      [right + reach, centreY + halfSpan],
      [right, centreY + halfSpan],
    ]);
    if (loop.labelWidth > 0) {
      loopLabels.push([right + reach + LOOP_LABEL_GAP + loop.labelWidth / 2, centreY]);
      reachSoFar.set(v, reach + LOOP_LABEL_GAP * 2 + loop.labelWidth);
    } else {
      loopLabels.push(null);
      reachSoFar.set(v, reach);
    }
  }
  return { loopRoutes, loopLabels };
}
