/**
 * The layered (Sugiyama) pipeline for one connected component, in the internal
 * top-to-bottom frame: break cycles, assign layers, wrap over-wide layers, add
 * dummy nodes, minimise crossings, place nodes, route edges, fold a drawing
 * that comes out too long into bands (fold.ts), draw self-loops.
 */
import { assignCompactCoordinates, assignHorizontalCoordinates, drawingWidth, pullLabelsBetweenEnds, straightenChains, straightenJogs, widestLayerSpan } from './placement/coordinates.ts';
import { backEdgesInInputOrder } from './layering/cycles.ts';
import { buildProperGraph, type ProperGraph } from './layering/dummies.ts';
import { type FlatEdge, flatGroups, groupsAsClusters, roomForFlatLabels, sequenceFlatGroups } from './layering/flat-edges.ts';
import { FOLD_MIN_LENGTH, FOLD_MIN_LENGTH_DOWN, foldLongDrawing } from './folding/fold.ts';
import { constrainedLayers, liftFirstSource, networkSimplexLayers, sameRankRepresentatives } from './layering/layering.ts';
import { orderLayers } from './ordering/ordering.ts';
import { assignPorts, headAtUpperEnd, LAYER_GAP, routeChannels, straightenPorts, type Point } from './routing/routing.ts';
import type { Arrowheads } from './types.ts';
import { wrapWideLayers } from './folding/wrapping.ts';

/** Half the gap between two nodes side by side in a layer. */
export const NODE_HALF_GAP = 20;
const EDGE_HALF_GAP = 8;
/** Room on each side of an edge label, beyond which the next line or node keeps its gap. */
const LABEL_MARGIN = 6;
/** How far an unlabelled self-loop reaches out of its node: at least 24 px, so that it reads as a loop, not a hook. */
const LOOP_REACH = 32;
const LOOP_LABEL_GAP = 4;
/**
 * How far, as a share of its node's height, the outer unlabelled self-loop's
 * legs on a circle or an ellipse leave the middle of its side (a box's reach
 * 0.4): on a wide ellipse the outline turns to face down within a few pixels
 * of the middle, and the arrows ending on its top and bottom reach it there.
 */
const ROUND_LOOP_SPAN = 0.2;
/**
 * How far such a loop reaches out: its legs, near the side's middle, meet the
 * outline only a few pixels in, and the editor draws an arrowhead at most
 * half as long as the last leg (full size, 25 px, from 50 px).
 */
const ROUND_LOOP_REACH = 44;
/** How far a labelled loop's label keeps from its node, beyond the gap. */
const LOOP_JOG = 12;
/**
 * A loop round a label taller than its span first steps this far out, then
 * runs round its label: its head comes in along that step, and the editor
 * draws an arrowhead at most half as long as the last leg (at 12 px out, the
 * head was 4 px long, a hook with no point). Each loop inside it steps
 * LOOP_JOG further, so that no two cross.
 */
const LOOP_STEP = 36;
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
  /** Layers each edge spans at least (default 1 each; 0: its ends may share a layer). */
  minLength?: number[];
  /** false for an edge that takes no part in ranking (default: every edge does). */
  constraint?: boolean[];
  /** Groups of nodes kept on one layer each. */
  sameRank?: number[][];
  /** true for an edge that is not drawn (default: every edge is). */
  invisible?: boolean[];
  /** The ends of each edge that carry an arrowhead (default: its `to` end). */
  arrowheads?: Array<Arrowheads | undefined>;
  loops: SelfLoop[];
  /** Target width / height in the internal frame, for wrapping over-wide layers. */
  aspect: number;
  /** The flow runs down the page (TB, BT), not across it (LR, RL). */
  downThePage: boolean;
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
  /** On a circle or an ellipse: its legs keep near the middle of the side. */
  round?: boolean;
}

export interface ComponentLayout {
  /** Top-left corner of every node. */
  x: Float64Array;
  y: Float64Array;
  /** Each edge's route from its source; null for one whose ends share a layer, left to the cross-edge router. */
  routes: Array<Point[] | null>;
  labels: Array<Point | null>;
  loopRoutes: Point[][];
  loopLabels: Array<Point | null>;
}

export function layoutComponent(input: ComponentInput): ComponentLayout {
  const n = input.width.length;
  const ranked = rankComponent(input);
  // The edges between two layers are drawn here; one whose ends share a layer is left to the cross-edge router.
  const { laid, upper, lower, reversed } = ranked;
  const m = laid.length;
  const labelWidth = Float64Array.from(laid, (e) => input.labelWidth[e]!);
  const labelHeight = Float64Array.from(laid, (e) => input.labelHeight[e]!);
  const alone = new Uint8Array(m);
  for (let i = 0; i < m; i++) alone[i] = labelWidth[i]! > 0 && labelHeight[i]! > 0 ? 1 : 0;
  const edges = { upper, lower };
  const wrapped = ranked.wrappable
    ? wrapWideLayers(
        // Layers run across the page in a flow down it (1,600 px fit a wide screen), down the page in a flow across it.
        { nodeCount: n, width: input.width, height: input.height, hint: input.hint, edges, aspect: input.aspect, fitsWithin: input.downThePage ? FOLD_MIN_LENGTH : FOLD_MIN_LENGTH_DOWN },
        ranked.layer,
      )
    : ranked.layer;
  // Labelled edges get a layer of their own between every two layers (ranks doubled, as dot does): the label is a node there.
  const labelLayers = alone.some((a) => a === 1);
  const layer = labelLayers ? wrapped.map((l) => 2 * l) : wrapped;
  const graph = buildProperGraph(n, layer, edges);
  const labelNode = labelNodes(graph, layer, upper, alone);
  const flat = flatEdges(input, laid);
  const groups = flat.length > 0 ? flatGroups(graph.nodeCount, graph.layerOf, flat) : null;
  const order = groups ? orderLayers(graph, input.hint, groupsAsClusters(groups)) : orderLayers(graph, input.hint);
  if (groups) sequenceFlatGroups(order, graph.layerOf, groups, flat);

  const total = graph.nodeCount;
  const sizes = new NodeSizes(total);
  const { width, height, leftExtent, rightExtent, halfGap, isDummy } = sizes;
  const loopReach = selfLoopReach(n, input.loops, input.height);
  for (let v = 0; v < n; v++) sizes.node(v, input.width[v]!, input.height[v]!, loopReach[v]!);
  for (let e = 0; e < m; e++) if (labelNode[e]! >= 0) sizes.label(labelNode[e]!, labelWidth[e]!, labelHeight[e]!);
  if (flat.length > 0) roomForFlatLabels(order, graph.layerOf, flat, rightExtent);
  const hidden = hiddenProperEdges(graph, laid.map((e) => input.invisible?.[e] === true));
  const ports = assignPorts(graph, order.position, width, new Set(input.loops.map((loop) => loop.node)), hidden);
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
  pullLabelsBetweenEnds(horizontal, x, labelNode.filter((v) => v >= 0), JOG_PASSES);
  straightenJogs(horizontal, x, JOG_PASSES);
  straightenChains(horizontal, x, graph.chains, JOG_PASSES);
  let minX = Infinity;
  for (let v = 0; v < total; v++) minX = Math.min(minX, x[v]! - leftExtent[v]!);
  for (let v = 0; v < total; v++) x[v]! -= minX;

  const overshoot = selfLoopOvershoot(n, input.loops, input.height);
  const extent = Float64Array.from(height, (h, v) => (v < n ? h + 2 * overshoot[v]! : h));
  straightenPorts(graph, x, width, ports, hidden);
  const routing = routeChannels({ graph, order, x, ports, height, extent, labelNode, minChannel: labelLayers ? LAYER_GAP / 2 : LAYER_GAP, headsUp: Uint8Array.from(laid, (e, i) => (headAtUpperEnd(input.arrowheads?.[e], reversed[i] === 1) ? 1 : 0)) });
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
    downThePage: input.downThePage,
  });
  const routes = new Array<Point[] | null>(input.from.length).fill(null);
  const labels = new Array<Point | null>(input.from.length).fill(null);
  laid.forEach((e, i) => {
    routes[e] = reversed[i] ? routing.routes[i]!.slice().reverse() : routing.routes[i]!;
    labels[e] = routing.labels[i]!;
  });
  const { loopRoutes, loopLabels } = drawSelfLoops(input.loops, left, routing.y, width, height);
  return { x: left, y: routing.y, routes, labels, loopRoutes, loopLabels };
}

/** Per proper edge, 1 where it belongs to an invisible edge (`invisible`, per chain): it is drawn nowhere. */
export function hiddenProperEdges(graph: ProperGraph, invisible: boolean[]): Uint8Array | undefined {
  if (!invisible.includes(true)) return undefined;
  const hidden = new Uint8Array(graph.upper.length);
  graph.chains.forEach((chain, i) => {
    if (invisible[i]) for (const pe of chain) hidden[pe] = 1;
  });
  return hidden;
}

/** The edges left out of the layered drawing (their ends share a layer), with their label's length along them. */
function flatEdges(input: ComponentInput, laid: number[]): FlatEdge[] {
  if (laid.length === input.from.length) return [];
  const drawn = new Set(laid);
  const flat: FlatEdge[] = [];
  for (let e = 0; e < input.from.length; e++) {
    if (drawn.has(e)) continue;
    const labelled = input.labelWidth[e]! > 0 && input.labelHeight[e]! > 0;
    flat.push({ from: input.from[e]!, to: input.to[e]!, labelWidth: labelled ? input.labelWidth[e]! : 0, invisible: input.invisible?.[e] === true });
  }
  return flat;
}

interface ComponentRanking {
  /** Layer of every node (before wrapping). */
  layer: Int32Array;
  /** The edges drawn between layers (indices into the input's edges, in order), and for each its upper and lower end, and whether that turns it against its own direction. */
  laid: number[];
  upper: Int32Array;
  lower: Int32Array;
  reversed: Uint8Array;
  /** Whether over-wide layers may be re-layered (no same-rank group or flat edge to keep). */
  wrappable: boolean;
}

/**
 * Cycle breaking and layering: a depth-first search in the author's order and
 * network simplex, the flow starting at the author's first source. With the
 * author's hints on ranks (a same-rank group, an edge of minLength 0 or one
 * that does not constrain), the same over the graph whose same-rank groups are
 * one node each and without the edges that do not constrain; such an edge then
 * points the way its ends lie, and one whose ends share a layer is left out of
 * the layered drawing.
 */
function rankComponent(input: ComponentInput): ComponentRanking {
  const n = input.width.length;
  const m = input.from.length;
  const { from, to } = input;
  const minLength = input.minLength ?? [];
  const constraint = input.constraint ?? [];
  const sameRank = input.sameRank ?? [];
  const hinted = sameRank.length > 0 || minLength.some((length) => length === 0) || constraint.some((c) => !c);
  const all = Array.from({ length: m }, (_, e) => e);
  if (!hinted) {
    const reversed = backEdgesInInputOrder(n, from, to);
    const upper = Int32Array.from(all, (e) => (reversed[e] ? to[e]! : from[e]!));
    const lower = Int32Array.from(all, (e) => (reversed[e] ? from[e]! : to[e]!));
    const layer = networkSimplexLayers(n, upper, lower, input.minLength);
    liftFirstSource(layer, n, from, to, input.hint);
    return { layer, laid: all, upper, lower, reversed, wrappable: true };
  }
  const representative = sameRankRepresentatives(n, sameRank);
  // An edge that does not constrain, or joins one group, is a self-loop to cycle breaking: never reversed, never ranked.
  const rankFrom = Int32Array.from(all, (e) => representative[from[e]!]!);
  const rankTo = Int32Array.from(all, (e) => (constraint[e] === false ? rankFrom[e]! : representative[to[e]!]!));
  const back = backEdgesInInputOrder(n, rankFrom, rankTo);
  const ranking = all.filter((e) => rankFrom[e] !== rankTo[e]);
  const layer = constrainedLayers(
    n,
    ranking.map((e) => (back[e] ? rankTo[e]! : rankFrom[e]!)),
    ranking.map((e) => (back[e] ? rankFrom[e]! : rankTo[e]!)),
    ranking.map((e) => minLength[e] ?? 1),
    ranking.map(() => 1),
    representative,
    all.filter((e) => constraint[e] === false).map((e) => [from[e]!, to[e]!] as const),
  );
  const laid = all.filter((e) => layer[from[e]!] !== layer[to[e]!]);
  const reversed = Uint8Array.from(laid, (e) => (layer[from[e]!]! > layer[to[e]!]! ? 1 : 0));
  const upper = Int32Array.from(laid, (e, i) => (reversed[i] ? to[e]! : from[e]!));
  const lower = Int32Array.from(laid, (e, i) => (reversed[i] ? from[e]! : to[e]!));
  return { layer, laid, upper, lower, reversed, wrappable: false };
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
function loopGeometry(loop: SelfLoop, reachedSoFar: number, span: LoopSpan): { reach: number; outer: number } {
  const labelled = loop.labelWidth > 0 && loop.labelHeight > 0;
  const clear = span.around > span.halfSpan ? span.jog : LOOP_JOG;
  const reach = reachedSoFar + (labelled ? Math.max(LOOP_REACH, loop.labelWidth / 2 + LOOP_LABEL_GAP + clear) : loop.round ? ROUND_LOOP_REACH : LOOP_REACH);
  return { reach, outer: labelled ? reach + loop.labelWidth / 2 + LOOP_LABEL_GAP : reach };
}

/**
 * How far each node's self-loops (and their labels) reach out of its right
 * side, given its height (a container's: its header's, the least it can be).
 */
export function selfLoopReach(n: number, loops: SelfLoop[], height: ArrayLike<number>): Float64Array {
  const reach = new Float64Array(n);
  const spans = loopSpans(loops, height);
  loops.forEach((loop, i) => (reach[loop.node] = loopGeometry(loop, reach[loop.node]!, spans[i]!).outer));
  return reach;
}

interface LoopSpan {
  halfSpan: number;
  around: number;
  jog: number;
}

/**
 * How far each loop's legs leave its node's centre (`halfSpan`), how far its
 * outer part reaches above and below it (`around`, more than halfSpan when the
 * loop runs round a label taller than it, or round an inner loop that does),
 * and how far out it steps before it does (`jog`: outer loops less, so that no
 * two loops cross).
 */
function loopSpans(loops: SelfLoop[], height: ArrayLike<number>): LoopSpan[] {
  const countOf = new Map<number, number>();
  for (const loop of loops) countOf.set(loop.node, (countOf.get(loop.node) ?? 0) + 1);
  const indexOf = new Map<number, number>();
  const spannedSoFar = new Map<number, number>();
  const legsSoFar = new Map<number, number>();
  return loops.map((loop) => {
    const v = loop.node;
    const k = indexOf.get(v) ?? 0;
    indexOf.set(v, k + 1);
    const labelHalf = loop.labelHeight > 0 ? loop.labelHeight / 2 + LOOP_LABEL_GAP : 0;
    const boxSpan = height[v]! * (0.1 + (0.3 * (k + 1)) / countOf.get(v)!);
    // A labelled loop keeps a box's span on a round node too (its label needs the room); an outer loop's legs stay outside the inner ones'.
    const roundSpan = Math.max((height[v]! * ROUND_LOOP_SPAN * (k + 1)) / countOf.get(v)!, (legsSoFar.get(v) ?? -Infinity) + 2 * LOOP_LABEL_GAP);
    const halfSpan = loop.round && labelHalf === 0 ? roundSpan : boxSpan;
    legsSoFar.set(v, halfSpan);
    const around = Math.max(halfSpan, labelHalf, (spannedSoFar.get(v) ?? 0) + 2 * LOOP_LABEL_GAP);
    spannedSoFar.set(v, Math.max(spannedSoFar.get(v) ?? 0, around));
    return { halfSpan, around, jog: LOOP_STEP + LOOP_JOG * (countOf.get(v)! - 1 - k) };
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
    const { reach, outer } = loopGeometry(loop, reachedSoFar.get(v) ?? 0, spans[i]!);
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
