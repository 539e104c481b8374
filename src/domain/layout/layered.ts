/**
 * The layered (Sugiyama) pipeline for one connected component, in the internal
 * top-to-bottom frame: break cycles, assign layers, wrap over-wide layers, add
 * dummy nodes, minimise crossings, place nodes, route edges, fold a drawing
 * that comes out too long into bands (fold.ts), draw self-loops.
 */
import { assignCompactCoordinates, assignHorizontalCoordinates, drawingWidth, straightenJogs, widestLayerSpan } from './coordinates.ts';
import { backEdgesInInputOrder } from './cycles.ts';
import { buildProperGraph, type ProperGraph } from './dummies.ts';
import { foldLongDrawing } from './fold.ts';
import { liftFirstSource, networkSimplexLayers } from './layering.ts';
import { orderLayers } from './ordering.ts';
import { assignPorts, LAYER_GAP, routeChannels, type Point } from './routing.ts';
import { wrapWideLayers } from './wrapping.ts';

/** Half the gap between two nodes side by side in a layer. */
export const NODE_HALF_GAP = 20;
const EDGE_HALF_GAP = 8;
/** Room on each side of an edge label, beyond which the next line or node keeps its gap. */
const LABEL_MARGIN = 6;
/** How far an unlabelled self-loop reaches out of its node: at least 24 px, so that it reads as a loop, not a hook. */
const LOOP_REACH = 32;
const LOOP_LABEL_GAP = 4;
/** A labelled loop taller than its node first steps this far out, then runs round its label. */
const LOOP_JOG = 12;
/** Keep Brandes–Köpf's placement unless it is this many times wider than the widest layer (and too wide for its height). */
const WIDTH_SLACK = 1.3;
const COMPACTION_SWEEPS = 30;
const JOG_PASSES = 4;

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
  /** Layers each edge spans at least (default 1 each). */
  minLength?: number[];
  loops: SelfLoop[];
  /** Target width / height in the internal frame, for wrapping over-wide layers. */
  aspect: number;
  /** false: never fold, however long the drawing (the spec's `layout.fold: "off"`). */
  fold?: boolean;
}

/**
 * The size of every proper-graph node in the internal frame. A dummy is a point
 * keeping an edge's half gap; a real node keeps a node's, and reaches right as
 * far as its self-loops; a label node is as wide as its label plus a margin on
 * each side (it sits on its edge's line) and keeps half a node's gap.
 */
export class NodeSizes {
  readonly width: Float64Array;
  readonly height: Float64Array;
  readonly leftExtent: Float64Array;
  readonly rightExtent: Float64Array;
  readonly halfGap: Float64Array;
  readonly isDummy: Uint8Array;

  constructor(total: number) {
    this.width = new Float64Array(total);
    this.height = new Float64Array(total);
    this.leftExtent = new Float64Array(total);
    this.rightExtent = new Float64Array(total);
    this.halfGap = new Float64Array(total).fill(EDGE_HALF_GAP);
    this.isDummy = new Uint8Array(total).fill(1);
  }

  node(v: number, width: number, height: number, loopReach = 0): void {
    this.width[v] = width;
    this.height[v] = height;
    this.leftExtent[v] = width / 2;
    this.rightExtent[v] = width / 2 + loopReach;
    this.halfGap[v] = NODE_HALF_GAP;
    this.isDummy[v] = 0;
  }

  label(d: number, labelWidth: number, labelHeight: number): void {
    this.width[d] = labelWidth + 2 * LABEL_MARGIN;
    this.height[d] = labelHeight;
    this.leftExtent[d] = this.width[d]! / 2;
    this.rightExtent[d] = this.width[d]! / 2;
    this.halfGap[d] = NODE_HALF_GAP / 2;
  }
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
  const reversed = backEdgesInInputOrder(n, input.from, input.to);
  const upper = new Int32Array(m);
  const lower = new Int32Array(m);
  const alone = new Uint8Array(m);
  for (let e = 0; e < m; e++) {
    upper[e] = reversed[e] ? input.to[e]! : input.from[e]!;
    lower[e] = reversed[e] ? input.from[e]! : input.to[e]!;
    alone[e] = input.labelWidth[e]! > 0 && input.labelHeight[e]! > 0 ? 1 : 0;
  }
  const edges = { upper, lower };
  const ranks = networkSimplexLayers(n, upper, lower, input.minLength);
  liftFirstSource(ranks, n, input.from, input.to, input.hint);
  const wrapped = wrapWideLayers(
    { nodeCount: n, width: input.width, height: input.height, hint: input.hint, edges, aspect: input.aspect },
    ranks,
  );
  // Labelled edges get a layer of their own between every two layers (ranks doubled, as dot does): the label is a node there.
  const labelLayers = alone.some((a) => a === 1);
  const layer = labelLayers ? wrapped.map((l) => 2 * l) : wrapped;
  const graph = buildProperGraph(n, layer, edges);
  const labelNode = labelNodes(graph, layer, upper, alone);
  const order = orderLayers(graph, input.hint);

  const total = graph.nodeCount;
  const sizes = new NodeSizes(total);
  const { width, height, leftExtent, rightExtent, halfGap, isDummy } = sizes;
  const loopReach = selfLoopReach(n, input.loops);
  for (let v = 0; v < n; v++) sizes.node(v, input.width[v]!, input.height[v]!, loopReach[v]!);
  for (let e = 0; e < m; e++) if (labelNode[e]! >= 0) sizes.label(labelNode[e]!, input.labelWidth[e]!, input.labelHeight[e]!);
  const ports = assignPorts(graph, order.position, width);
  const multiplicity = new Float64Array(graph.upper.length);
  for (const chain of graph.chains) for (const pe of chain) multiplicity[pe]!++;
  const up = edgesByNode(total, graph.lower);
  const down = edgesByNode(total, graph.upper);
  const horizontal = {
    layers: order.layers,
    position: order.position,
    edgeUpper: graph.upper,
    edgeLower: graph.lower,
    upperOffset: ports.bottom,
    lowerOffset: ports.top,
    multiplicity,
    upStart: up.start,
    upEdges: up.list,
    downStart: down.start,
    downEdges: down.list,
    isDummy,
    leftExtent,
    rightExtent,
    halfGap,
  };
  let x = assignHorizontalCoordinates(horizontal);
  const narrowest = widestLayerSpan(horizontal);
  const tall = estimatedHeight(graph.layerCount, graph.layerOf, height, labelLayers ? LAYER_GAP / 2 : LAYER_GAP);
  const wide = drawingWidth(horizontal, x);
  if (wide > WIDTH_SLACK * narrowest && wide > 1.5 * input.aspect * tall) {
    // Brandes–Köpf spreads bushy graphs far wider than their widest layer: trade some alignment for a compact drawing.
    x = assignCompactCoordinates(
      horizontal,
      x,
      COMPACTION_SWEEPS,
      Math.max(narrowest * 1.15, input.aspect * tall),
    );
  }
  straightenJogs(horizontal, x, JOG_PASSES);
  let minX = Infinity;
  for (let v = 0; v < total; v++) minX = Math.min(minX, x[v]! - leftExtent[v]!);
  for (let v = 0; v < total; v++) x[v]! -= minX;

  const overshoot = selfLoopOvershoot(n, input.loops, input.height);
  const extent = Float64Array.from(height, (h, v) => (v < n ? h + 2 * overshoot[v]! : h));
  const routing = routeChannels({ graph, order, x, ports, height, extent, labelNode, minChannel: labelLayers ? LAYER_GAP / 2 : LAYER_GAP });
  const left = new Float64Array(n);
  for (let v = 0; v < n; v++) left[v] = x[v]! - width[v]! / 2;
  // A long thin drawing folds into bands side by side.
  const channelEdges = new Int32Array(Math.max(0, graph.layerCount - 1));
  const channelBackEdges = new Int32Array(Math.max(0, graph.layerCount - 1));
  graph.chains.forEach((chain, e) => {
    for (const pe of chain) {
      channelEdges[graph.layerOf[graph.upper[pe]!]!]!++;
      if (reversed[e]) channelBackEdges[graph.layerOf[graph.upper[pe]!]!]!++;
    }
  });
  if (input.fold !== false) foldLongDrawing({
    layerTop: routing.layerTop,
    layerHeight: routing.layerHeight,
    channelEdges,
    channelBackEdges,
    left,
    top: routing.y,
    width: input.width,
    routes: routing.routes,
    labels: routing.labels,
    aspect: input.aspect,
  });
  const routes = routing.routes.map((route, e) => (reversed[e] ? route.slice().reverse() : route));
  const { loopRoutes, loopLabels } = drawSelfLoops(input.loops, left, routing.y, width, height);
  return { x: left, y: routing.y, routes, labels: routing.labels, loopRoutes, loopLabels };
}

/** Layer heights plus the minimum gaps: a lower bound on the drawing's height. */
function estimatedHeight(layerCount: number, layer: Int32Array, height: Float64Array, gap: number): number {
  const layerHeight = new Float64Array(layerCount);
  for (let v = 0; v < layer.length; v++) layerHeight[layer[v]!] = Math.max(layerHeight[layer[v]!]!, height[v]!);
  let total = (layerCount - 1) * gap;
  for (const h of layerHeight) total += h;
  return total;
}

/**
 * The node that carries each labelled edge's label (-1: none): its dummy on the
 * label layer (odd, ranks being doubled) nearest the middle of its span.
 */
function labelNodes(graph: ProperGraph, layer: Int32Array, upper: Int32Array, alone: Uint8Array): Int32Array {
  const node = new Int32Array(alone.length).fill(-1);
  graph.chains.forEach((chain, e) => {
    if (!alone[e]) return;
    const top = layer[upper[e]!]!;
    let middle = top + chain.length / 2;
    if (middle % 2 === 0) middle--;
    node[e] = graph.lower[chain[middle - top - 1]!]!;
  });
  return node;
}

/** The ids of the edges at each node (by the given end), in CSR form. */
function edgesByNode(nodeCount: number, end: Int32Array): { start: Int32Array; list: Int32Array } {
  const start = new Int32Array(nodeCount + 1);
  for (let e = 0; e < end.length; e++) start[end[e]! + 1]!++;
  for (let v = 0; v < nodeCount; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, nodeCount);
  const list = new Int32Array(end.length);
  for (let e = 0; e < end.length; e++) list[fill[end[e]!]!++] = e;
  return { start, list };
}

/**
 * Self-loops leave the right side of their node and come back to it, nested
 * when there are several. A label sits centred on its loop's outer leg (the
 * editor centres an arrow's label on its middle), clear of the node and of
 * the step a tall label's loop takes; the next loop reaches past it.
 */
function loopGeometry(loop: SelfLoop, reachedSoFar: number): { reach: number; outer: number } {
  const labelled = loop.labelWidth > 0 && loop.labelHeight > 0;
  const reach = reachedSoFar + (labelled ? Math.max(LOOP_REACH, loop.labelWidth / 2 + LOOP_LABEL_GAP + LOOP_JOG) : LOOP_REACH);
  return { reach, outer: labelled ? reach + loop.labelWidth / 2 + LOOP_LABEL_GAP : reach };
}

/** How far each node's self-loops (and their labels) reach out of its right side. */
export function selfLoopReach(n: number, loops: SelfLoop[]): Float64Array {
  const reach = new Float64Array(n);
  for (const loop of loops) reach[loop.node] = loopGeometry(loop, reach[loop.node]!).outer;
  return reach;
}

/**
 * How far each loop's legs leave its node's centre (`halfSpan`), how far its
 * outer part reaches above and below it (`around`, more than halfSpan when the
 * loop runs round a label taller than it, or round an inner loop that does),
 * and how far out it steps before it does (`jog`: outer loops less, so that no
 * two loops cross).
 */
function loopSpans(loops: SelfLoop[], height: ArrayLike<number>): Array<{ halfSpan: number; around: number; jog: number }> {
  const countOf = new Map<number, number>();
  for (const loop of loops) countOf.set(loop.node, (countOf.get(loop.node) ?? 0) + 1);
  const indexOf = new Map<number, number>();
  const spannedSoFar = new Map<number, number>();
  return loops.map((loop) => {
    const v = loop.node;
    const k = indexOf.get(v) ?? 0;
    indexOf.set(v, k + 1);
    const halfSpan = height[v]! * (0.1 + (0.3 * (k + 1)) / countOf.get(v)!);
    const labelHalf = loop.labelHeight > 0 ? loop.labelHeight / 2 + LOOP_LABEL_GAP : 0;
    const around = Math.max(halfSpan, labelHalf, (spannedSoFar.get(v) ?? 0) + 2 * LOOP_LABEL_GAP);
    spannedSoFar.set(v, Math.max(spannedSoFar.get(v) ?? 0, around));
    return { halfSpan, around, jog: (LOOP_JOG * (countOf.get(v)! - k)) / countOf.get(v)! };
  });
}

/** How far each node's self-loops (and their labels) reach above and below it: the room its layer and its containers keep for them. */
export function selfLoopOvershoot(n: number, loops: SelfLoop[], height: ArrayLike<number>): Float64Array {
  const over = new Float64Array(n);
  loopSpans(loops, height).forEach(({ around }, i) => {
    const v = loops[i]!.node;
    over[v] = Math.max(over[v]!, around - height[v]! / 2);
  });
  return over;
}

export function drawSelfLoops(
  loops: SelfLoop[],
  left: Float64Array,
  top: Float64Array,
  width: Float64Array,
  height: Float64Array,
): { loopRoutes: Point[][]; loopLabels: Array<Point | null> } {
  const reachedSoFar = new Map<number, number>();
  const spans = loopSpans(loops, height);
  const loopRoutes: Point[][] = [];
  const loopLabels: Array<Point | null> = [];
  loops.forEach((loop, i) => {
    const v = loop.node;
    const right = left[v]! + width[v]!;
    const centreY = top[v]! + height[v]! / 2;
    const { halfSpan, around, jog: step } = spans[i]!;
    const { reach, outer } = loopGeometry(loop, reachedSoFar.get(v) ?? 0);
    reachedSoFar.set(v, outer);
    if (around > halfSpan) {
      // Round a label taller than the loop (or an inner loop that is): out a step, then above and below it.
      const jog = right + step;
      loopRoutes.push([
        [right, centreY - halfSpan],
        [jog, centreY - halfSpan],
        [jog, centreY - around],
        [right + reach, centreY - around],
        [right + reach, centreY + around],
        [jog, centreY + around],
        [jog, centreY + halfSpan],
        [right, centreY + halfSpan],
      ]);
    } else {
      loopRoutes.push([
        [right, centreY - halfSpan],
        [right + reach, centreY - halfSpan],
        [right + reach, centreY + halfSpan],
        [right, centreY + halfSpan],
      ]);
    }
    loopLabels.push(loop.labelWidth > 0 && loop.labelHeight > 0 ? [right + reach, centreY] : null);
  });
  return { loopRoutes, loopLabels };
}
