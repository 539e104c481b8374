/**
 * Layout of a graph with containers, the way dot draws clusters: one layered
 * drawing of all the leaf nodes, where each container is a cluster, a block
 * of consecutive nodes on every layer it spans, drawn as a box around them.
 *
 * - Layers come from the whole graph (network simplex over the leaves), so an
 *   edge the author wrote forward runs forward even when it leaves a container
 *   and comes back into it (a producer and a consumer in one cluster, their
 *   queue in another: the queue sits beside the cluster, between them).
 * - A container's header label gets a layer of its own above its first layer
 *   (below its last when the flow runs upwards; in a left-to-right flow, a strip
 *   along the cluster's top side), with the header node first in the cluster's
 *   block, so no edge crosses it.
 * - Every cluster has a spine: one empty node per layer it spans, chained, so
 *   crossing minimisation counts an edge that would cut through a cluster and
 *   avoids it, and a layer where the cluster has no node still holds its block.
 * - An edge's dummy nodes belong to the innermost cluster of an end whose span
 *   holds their layer, so an edge leaves and enters containers through their
 *   borders, nearest the end it is closer to.
 * - x comes from dot's network simplex over an auxiliary graph: the edges pull
 *   their ends into line (long edges hardest), neighbours in a layer keep their
 *   gaps, and each cluster's two sides are variables its members keep padding
 *   from, so boxes never overlap and no foreign node lies inside one.
 * - y and the routes come from the channel router, with room for the borders;
 *   a long drawing folds into bands (fold.ts) where no container spans the cut.
 *
 * Edges with a container at an end go through doors (cluster-doors.ts); the
 * layers of the leaves are in cluster-ranking.ts, the x coordinates in
 * cluster-coordinates.ts. What no door can carry is left to the cross-edge
 * router. layoutClustered runs the phases in order, each a function here.
 */
import { ancestorChain, CONTAINER_PADDING, type HeaderAlign, type NestedEdge, type NestedLayout, type NestedNode } from './containers.ts';
import { clusterCoordinates } from './cluster-coordinates.ts';
import { fromBorder } from './cluster-doors.ts';
import { rankLeaves, type RankedLeaves } from './cluster-ranking.ts';
import { clusterChain, type Clusters, clusterSpans, type HeaderSide, indexClusters, isAncestorOrSelf, NO_LAYER } from './cluster-tree.ts';
import { buildProperGraph, type ProperGraph } from '../layering/dummies.ts';
import { flatGroups, roomForFlatLabels, sequenceFlatGroups } from '../layering/flat-edges.ts';
import { foldLongDrawing } from '../folding/fold.ts';
import { drawSelfLoops, hiddenProperEdges, NodeSizes, selfLoopOvershoot, selfLoopReach, type SelfLoop } from '../layered.ts';
import { toScene } from '../level.ts';
import { segmentCrossesBox } from '../metrics.ts';
import { type OrderClusters, orderLayers } from '../ordering/ordering.ts';
import { assignPorts, headAtUpperEnd, LAYER_GAP, routeChannels, simplify, straightenPorts, type Point } from '../routing/routing.ts';
import type { Box, Direction, LayoutOptions } from '../types.ts';

/** Room between a container's border and its content. */
const PAD = CONTAINER_PADDING;
/** Work (in boxes squared) the obstacle router may spend on routes the layering could not keep clear. */
const REROUTE_BUDGET = 2_000_000;
/** Width over length a folded drawing aims at (as a level's components do). */
const FOLD_ASPECT = 1.4;
/** The least room between a header layer and the layer it heads. */
const HEADER_CHANNEL = 20;


/** The edges by what draws them: the layering (between two leaves), or a self-loop beside its node or container. */
interface SortedEdges {
  linkEdges: number[];
  loops: SelfLoop[];
  loopEdges: number[];
  clusterLoops: SelfLoop[];
  clusterLoopEdges: number[];
}

/** The proper graph of the leaves, the headers and the clusters' spines, layer by layer. */
interface ClusterLayers {
  span: { lo: Int32Array; hi: Int32Array };
  layerOfLeaf: Int32Array;
  headerLayer: Int32Array;
  isLabelLayer: Uint8Array;
  layerCount: number;
  freeDoor: Uint8Array;
  headerNode: Int32Array;
  realCount: number;
  properGraph: ProperGraph;
  /** The graph the router sees: the spines' edges are only there for the ordering. */
  graph: ProperGraph;
  membership: Int32Array;
}

/** The layers ordered and the nodes placed across them, in the internal frame. */
interface PlacedLayers {
  labelNode: Int32Array;
  order: ReturnType<typeof orderLayers>;
  x: Float64Array;
  width: Float64Array;
  height: Float64Array;
  ports: ReturnType<typeof assignPorts>;
  clusterLeft: Float64Array;
  clusterRight: Float64Array;
}

/** A node's size in the internal frame, where the flow runs down. */
const innerSize = (node: NestedNode, swap: boolean): { w: number; h: number } => (swap ? { w: node.height, h: node.width } : { w: node.width, h: node.height });

export function layoutClustered(direction: Direction, nodes: NestedNode[], edges: NestedEdge[], options: LayoutOptions = {}): NestedLayout {
  const swap = direction === 'LR' || direction === 'RL';
  const headerSide: HeaderSide = swap ? 'strip' : direction === 'TB' ? 'start' : 'end';
  const clusters = indexClusters(nodes);
  const sorted = sortEdges(nodes, edges, clusters, swap);
  const ranked = rankLeaves(nodes, edges, clusters, sorted.linkEdges, options.sameRank ?? [], swap);
  const layers = layerClusters(headerSide, clusters, ranked);
  const placed = placeLayers(nodes, edges, swap, headerSide, clusters, sorted, ranked, layers);
  const drawn = routeAndFold(direction, nodes, edges, options, headerSide, clusters, sorted, ranked, layers, placed);
  return sceneLayout(direction, nodes, edges, clusters, sorted, ranked, placed, drawn);
}

/** Edges between two leaves are laid out; self-loops are drawn beside their node; the rest wait for the cross-edge router. */
function sortEdges(nodes: NestedNode[], edges: NestedEdge[], { isContainer, clusterOf, leafOf }: Clusters, swap: boolean): SortedEdges {
  const linkEdges: number[] = [];
  const loops: SelfLoop[] = [];
  const loopEdges: number[] = [];
  // A container's self-loops run out of its right side, as a node's do.
  const clusterLoops: SelfLoop[] = [];
  const clusterLoopEdges: number[] = [];
  edges.forEach((edge, e) => {
    const [labelWidth, labelHeight] = swap ? [edge.labelHeight, edge.labelWidth] : [edge.labelWidth, edge.labelHeight];
    if (edge.from === edge.to && isContainer[edge.from]) {
      clusterLoops.push({ node: clusterOf[edge.from]!, labelWidth, labelHeight });
      clusterLoopEdges.push(e);
      return;
    }
    if (isContainer[edge.from] || isContainer[edge.to]) return;
    if (edge.from === edge.to) {
      loops.push({ node: leafOf[edge.from]!, labelWidth, labelHeight, ...(nodes[edge.from]!.round ? { round: true } : {}) });
      loopEdges.push(e);
    } else linkEdges.push(e);
  });
  return { linkEdges, loops, loopEdges, clusterLoops, clusterLoopEdges };
}

/** Spans of the clusters over the leaves' layers, header layers inserted, then the proper graph with the clusters' spines. */
function layerClusters(headerSide: HeaderSide, clusters: Clusters, ranked: RankedLeaves): ClusterLayers {
  const { clusterParent, innermostFirst } = clusters;
  const C = clusters.clusterNode.length;
  const L = clusters.leafNode.length;
  const { base, doors, K, upper, lower, labelled, layoutCluster } = ranked;
  const m = upper.length;
  // Spans of the clusters over the leaves' layers, then header layers inserted.
  const span = clusterSpans(C, K, layoutCluster, clusterParent, innermostFirst, base);
  const { layerOfLeaf, headerLayer, isLabelLayer, layerCount } = insertHeaderLayers(headerSide, C, clusterParent, span, base, labelled);
  // A door's edge (one with a container at an end, from outside it) is drawn from the container's border on: what it runs
  // inside is not drawn, so its door may lie over the container's header or members and takes no room among them. A door
  // on the header's side lies on the header's row (when its edge's other end lies beyond that row, as it does unless the
  // author's hints rank it level), so its arrow ends on the border above the header.
  const freeDoor = new Uint8Array(K);
  doors.cluster.forEach((_, k) => {
    if (!doors.inner[k]) freeDoor[L + k] = 1;
  });
  for (const link of doors.links) {
    const [door, other] = headerSide === 'end' ? [link.upper, link.lower] : [link.lower, link.upper];
    const k = door - L;
    if (k < 0 || doors.inner[k] || doors.below[k] !== (headerSide === 'end')) continue;
    const row = headerLayer[doors.cluster[k]!]!;
    if (row < 0 || (headerSide === 'end' ? layerOfLeaf[other]! <= row : layerOfLeaf[other]! >= row)) continue;
    layerOfLeaf[door] = row;
  }
  for (let c = 0; c < C; c++) {
    span.lo[c] = NO_LAYER;
    span.hi[c] = -1;
  }
  const widen = (c: number, l: number): void => {
    for (let p = c; p >= 0; p = clusterParent[p]!) {
      span.lo[p] = Math.min(span.lo[p]!, l);
      span.hi[p] = Math.max(span.hi[p]!, l);
    }
  };
  for (let i = 0; i < K; i++) if (layoutCluster[i]! >= 0) widen(layoutCluster[i]!, layerOfLeaf[i]!);
  for (let c = 0; c < C; c++) if (headerLayer[c]! >= 0) widen(c, headerLayer[c]!);

  // Real nodes of the proper graph: leaves, headers, then the spines' nodes.
  const layer: number[] = Array.from(layerOfLeaf);
  const of: number[] = Array.from(layoutCluster);
  const headerNode = new Int32Array(C).fill(-1);
  for (let c = 0; c < C; c++) {
    if (headerLayer[c]! < 0) continue;
    headerNode[c] = layer.length;
    layer.push(headerLayer[c]!);
    of.push(c);
  }
  const spineUpper: number[] = [];
  const spineLower: number[] = [];
  for (let c = 0; c < C; c++) {
    let previous = -1;
    for (let l = span.lo[c]!; l <= span.hi[c]!; l++) {
      const s = layer.length;
      layer.push(l);
      of.push(c);
      if (previous >= 0) {
        spineUpper.push(previous);
        spineLower.push(s);
      }
      previous = s;
    }
  }
  const realCount = layer.length;
  const properGraph = buildProperGraph(
    realCount,
    Int32Array.from(layer),
    {
      upper: [...upper, ...spineUpper],
      lower: [...lower, ...spineLower],
    },
  );
  const total = properGraph.nodeCount;
  // The graph the router sees: the spines' edges are only there for the ordering.
  const routedEdges = m === 0 ? 0 : properGraph.chains[m - 1]![properGraph.chains[m - 1]!.length - 1]! + 1;
  const graph: ProperGraph = {
    ...properGraph,
    upper: properGraph.upper.subarray(0, routedEdges),
    lower: properGraph.lower.subarray(0, routedEdges),
    chains: properGraph.chains.slice(0, m),
  };

  // Dummies join the innermost cluster of an end whose span holds their layer, the nearer end first.
  const membership = Int32Array.from({ length: total }, (_, v) => (v < realCount ? of[v]! : -1));
  graph.chains.forEach((chain, i) => {
    const u = upper[i]!;
    const w = lower[i]!;
    const shared = new Set(clusterChain(layoutCluster[u]!, clusterParent));
    const commonCluster = clusterChain(layoutCluster[w]!, clusterParent).find((c) => shared.has(c)) ?? -1;
    const sourceSide = clusterChain(layoutCluster[u]!, clusterParent).filter((c) => c !== commonCluster && !isAncestorOrSelf(c, commonCluster, clusterParent));
    const targetSide = clusterChain(layoutCluster[w]!, clusterParent).filter((c) => c !== commonCluster && !isAncestorOrSelf(c, commonCluster, clusterParent));
    const top = layerOfLeaf[u]!;
    const bottom = layerOfLeaf[w]!;
    for (let k = 0; k + 1 < chain.length; k++) {
      const d = graph.lower[chain[k]!]!;
      const l = properGraph.layerOf[d]!;
      const inSpan = (c: number): boolean => span.lo[c]! <= l && l <= span.hi[c]!;
      const fromSource = sourceSide.find(inSpan);
      const fromTarget = targetSide.find(inSpan);
      const nearerSource = l - top <= bottom - l;
      membership[d] = (nearerSource ? (fromSource ?? fromTarget) : (fromTarget ?? fromSource)) ?? commonCluster;
    }
  });

  return { span, layerOfLeaf, headerLayer, isLabelLayer, layerCount, freeDoor, headerNode, realCount, properGraph, graph, membership };
}

/** The layers ordered (crossing minimisation, clusters kept in blocks), the nodes sized, and x from the coordinate solver. */
function placeLayers(nodes: NestedNode[], edges: NestedEdge[], swap: boolean, headerSide: HeaderSide, clusters: Clusters, sorted: SortedEdges, ranked: RankedLeaves, layers: ClusterLayers): PlacedLayers {
  const n = nodes.length;
  const { clusterParent, clusterNode, leafNode } = clusters;
  const C = clusterNode.length;
  const L = leafNode.length;
  const { loops, clusterLoops } = sorted;
  const { doors, flat, K, linkEdges, upper, alone } = ranked;
  const m = upper.length;
  const { layerOfLeaf, headerLayer, isLabelLayer, layerCount, freeDoor, headerNode, realCount, properGraph, graph, membership } = layers;
  const total = properGraph.nodeCount;
  const inner = (v: number) => innerSize(nodes[v]!, swap);
  const labelNode = labelNodes(graph, properGraph.layerOf, upper, alone, isLabelLayer, layerOfLeaf);
  const isHeader = new Uint8Array(total);
  for (let c = 0; c < C; c++) if (headerNode[c]! >= 0) isHeader[headerNode[c]!] = 1;
  const hint = Float64Array.from({ length: realCount }, (_, v) => (v < L ? leafNode[v]! : n + v));
  const isSpine = new Uint8Array(total);
  for (let v = K; v < realCount; v++) if (!isHeader[v]) isSpine[v] = 1;
  // The groups flat edges join are blocks within their container (for the ordering only).
  const groups = flat.length > 0 ? groupsWithin(membership, flatGroups(total, properGraph.layerOf, flat)) : null;
  const orderClusters: OrderClusters = { of: membership, parent: clusterParent, first: isHeader, spine: isSpine };
  const order = orderLayers(properGraph, hint, groups ? withFlatGroups(orderClusters, groups) : orderClusters);
  if (groups) sequenceFlatGroups(order, properGraph.layerOf, groups, flat);

  // Sizes in the internal frame.
  const sizes = new NodeSizes(total);
  const { width, height, leftExtent, rightExtent, halfGap, isDummy } = sizes;
  const loopReach = selfLoopReach(L, loops, Float64Array.from(leafNode, (v) => inner(v).h));
  for (let i = 0; i < L; i++) sizes.node(i, inner(leafNode[i]!).w, inner(leafNode[i]!).h, loopReach[i]!);
  for (let c = 0; c < C; c++) if (headerNode[c]! >= 0) sizes.node(headerNode[c]!, nodes[clusterNode[c]!]!.width, nodes[clusterNode[c]!]!.height);
  for (let v = K; v < realCount; v++) if (!isHeader[v]) halfGap[v] = 0;
  for (let i = 0; i < m; i++) {
    if (labelNode[i]! < 0) continue;
    const edge = edges[linkEdges[i]!]!;
    const [labelWidth, labelHeight] = swap ? [edge.labelHeight, edge.labelWidth] : [edge.labelWidth, edge.labelHeight];
    sizes.label(labelNode[i]!, labelWidth, labelHeight);
  }
  if (flat.length > 0) roomForFlatLabels(order, properGraph.layerOf, flat, rightExtent);

  const hidden = hiddenProperEdges(graph, linkEdges.map((e) => edges[e]!.invisible === true));
  const ports = assignPorts(graph, order.position, width, new Set(loops.map((loop) => loop.node)), hidden);

  // The header strip of a left-to-right cluster lies along its internal left side.
  const padLeft = Float64Array.from({ length: C }, (_, c) => PAD + (headerSide === 'strip' ? nodes[clusterNode[c]!]!.height : 0));
  const coordinates = clusterCoordinates({
    graph,
    layers: order.layers,
    ports,
    isDummy,
    isSpine,
    leftExtent,
    rightExtent,
    halfGap,
    membership,
    clusterParent,
    headerNode,
    headerWidth: Float64Array.from(clusterNode, (v) => (headerSide === 'strip' ? 0 : nodes[v]!.width)),
    padLeft,
    headerLayer: Uint8Array.from({ length: layerCount }, (_, l) => (headerLayer.includes(l) ? 1 : 0)),
    freeDoor,
    headerSide,
    clusterLoopReach: selfLoopReach(C, clusterLoops, Float64Array.from(clusterNode, (v) => inner(v).h)),
    // An inner door's run to the border passes the header's row: it keeps right of the header.
    clearOfHeader: doors.cluster.flatMap((c, k) =>
      doors.inner[k] && headerSide === (doors.below[k] ? 'end' : 'start') ? [{ node: L + k, cluster: c, gap: nodes[clusterNode[c]!]!.width + PAD }] : [],
    ),
  });
  const { x, left: clusterLeft, right: clusterRight } = coordinates;
  straightenPorts(graph, x, width, ports, hidden);
  return { labelNode, order, x, width, height, ports, clusterLeft, clusterRight };
}

/** y and the routes from the channel router, with room for the borders; a long drawing folded into bands; the clusters' boxes. */
function routeAndFold(
  direction: Direction,
  nodes: NestedNode[],
  edges: NestedEdge[],
  options: LayoutOptions,
  headerSide: HeaderSide,
  clusters: Clusters,
  sorted: SortedEdges,
  ranked: RankedLeaves,
  layers: ClusterLayers,
  placed: PlacedLayers,
) {
  const swap = direction === 'LR' || direction === 'RL';
  const { clusterParent, clusterNode, innermostFirst } = clusters;
  const C = clusterNode.length;
  const L = clusters.leafNode.length;
  const { loops } = sorted;
  const { K, linkEdges, reversed, labelled, layoutCluster } = ranked;
  const { span, headerLayer, layerCount, freeDoor, headerNode, realCount, properGraph, graph } = layers;
  const { labelNode, order, x, width, height, ports, clusterLeft, clusterRight } = placed;
  // Channels keep room under each cluster's last layer (over its first) for the borders nested there.
  const channels = channelRoom(headerSide, C, layerCount, span, clusterParent, headerLayer);
  // A loop round a tall label reaches above and below its node: its layer and its containers keep room for it.
  const overshoot = selfLoopOvershoot(L, loops, height);
  const extent = Float64Array.from(height, (h, v) => (v < L ? h + 2 * overshoot[v]! : h));
  const routeInput = { graph, order, x, ports, height, extent, labelNode, minChannel: labelled ? LAYER_GAP / 2 : LAYER_GAP, channels, headsUp: Uint8Array.from(linkEdges, (e, i) => (headAtUpperEnd(edges[e]!.arrowheads, reversed[i] === 1) ? 1 : 0)) };
  const extents = (laid: { y: Float64Array; routes: Point[][] }) =>
    clusterExtents(headerSide, C, K, freeDoor, realCount, innermostFirst, clusterParent, layoutCluster, headerNode, Float64Array.from(laid.y, (top, v) => (v < L ? top - overshoot[v]! : top)), extent, clusterLeft, clusterRight, laid.routes);
  let routing = routeChannels(routeInput);
  let clusterBoxes = extents(routing);
  if (headerSide === 'strip') {
    // Along the flow, a cluster is at least as long as its header; lengthen the channel after it if not.
    let grew = false;
    for (const c of innermostFirst) {
      const short = nodes[clusterNode[c]!]!.width - clusterBoxes[c]!.height;
      if (short <= 0) continue;
      const l = direction === 'LR' ? span.hi[c]! : span.lo[c]! - 1;
      if (l < 0 || l >= layerCount - 1) continue;
      if (direction === 'LR') channels.above[l]! += short;
      else channels.below[l]! += short;
      grew = true;
    }
    if (grew) {
      routing = routeChannels(routeInput);
      clusterBoxes = extents(routing);
    }
  }
  // A long drawing folds into bands, cut only where no container spans the cut; each container moves with its band.
  const nodeLeft = Float64Array.from({ length: realCount }, (_, v) => x[v]! - width[v]! / 2);
  const channelEdges = new Int32Array(Math.max(0, layerCount - 1));
  const channelBackEdges = new Int32Array(Math.max(0, layerCount - 1));
  graph.chains.forEach((chain, i) => {
    for (const pe of chain) {
      channelEdges[properGraph.layerOf[graph.upper[pe]!]!]!++;
      if (reversed[i]) channelBackEdges[properGraph.layerOf[graph.upper[pe]!]!]!++;
    }
  });
  const uncuttable = new Uint8Array(Math.max(0, layerCount - 1));
  for (let c = 0; c < C; c++) for (let l = span.lo[c]!; l < span.hi[c]!; l++) uncuttable[l] = 1;
  const fold = options.fold === false ? null : foldLongDrawing({
    layerTop: routing.layerTop,
    layerHeight: routing.layerHeight,
    channelEdges,
    channelBackEdges,
    left: nodeLeft,
    top: routing.y,
    width,
    routes: routing.routes,
    labels: routing.labels,
    aspect: swap ? 1 / FOLD_ASPECT : FOLD_ASPECT,
    downThePage: !swap,
    clusters: {
      minX: Math.min(...clusterLeft),
      maxX: Math.max(...clusterRight),
      uncuttable,
      borderUnder: channels.above,
      borderOver: channels.below,
    },
  });
  if (fold) {
    for (let v = 0; v < realCount; v++) x[v] = nodeLeft[v]! + width[v]! / 2;
    for (let c = 0; c < C; c++) {
      const band = fold.bandOfLayer[span.lo[c]!]!;
      clusterLeft[c]! += fold.dx[band]!;
      clusterRight[c]! += fold.dx[band]!;
    }
    clusterBoxes = extents(routing);
  }
  if (headerSide === 'strip') {
    // Whatever the channels could not give, the box takes (and the boxes around it with it).
    for (const c of innermostFirst) {
      const box = clusterBoxes[c]!;
      const short = nodes[clusterNode[c]!]!.width - box.height;
      if (short > 0) {
        if (direction === 'RL') box.y -= short;
        box.height += short;
      }
      const p = clusterParent[c]!;
      if (p < 0) continue;
      const outer = clusterBoxes[p]!;
      const top = Math.min(outer.y, box.y - PAD);
      const bottom = Math.max(outer.y + outer.height, box.y + box.height + PAD);
      outer.y = top;
      outer.height = bottom - top;
    }
  }

  return { routing, clusterBoxes };
}

/** Back to the scene's frame, the origin top left over everything drawn. */
function sceneLayout(
  direction: Direction,
  nodes: NestedNode[],
  edges: NestedEdge[],
  clusters: Clusters,
  sorted: SortedEdges,
  ranked: RankedLeaves,
  placed: PlacedLayers,
  { routing, clusterBoxes }: ReturnType<typeof routeAndFold>,
): NestedLayout {
  const n = nodes.length;
  const { isContainer, clusterNode, leafNode } = clusters;
  const C = clusterNode.length;
  const L = leafNode.length;
  const { loops, loopEdges, clusterLoops, clusterLoopEdges } = sorted;
  const { doors, linkEdges, upper, lower, reversed } = ranked;
  const { x, width, height } = placed;
  const leftOf = new Float64Array(L);
  for (let i = 0; i < L; i++) leftOf[i] = x[i]! - width[i]! / 2;
  const loopDrawing = drawSelfLoops(loops, leftOf, routing.y, width, height);
  const clusterLoopDrawing = drawSelfLoops(
    clusterLoops,
    Float64Array.from(clusterBoxes, (b) => b.x),
    Float64Array.from(clusterBoxes, (b) => b.y),
    Float64Array.from(clusterBoxes, (b) => b.width),
    Float64Array.from(clusterBoxes, (b) => b.height),
  );

  // Back to the scene's frame.
  const boxes: Box[] = new Array<Box>(n);
  const sceneBox = (bx: number, by: number, bw: number, bh: number): Box => {
    const [ax, ay] = toScene(direction, [bx, by]);
    const [cx, cy] = toScene(direction, [bx + bw, by + bh]);
    return { x: Math.min(ax, cx), y: Math.min(ay, cy), width: Math.abs(cx - ax), height: Math.abs(cy - ay) };
  };
  for (let i = 0; i < L; i++) {
    const v = leafNode[i]!;
    const box = sceneBox(leftOf[i]!, routing.y[i]!, width[i]!, height[i]!);
    boxes[v] = { x: box.x, y: box.y, width: nodes[v]!.width, height: nodes[v]!.height };
  }
  for (let c = 0; c < C; c++) {
    const b = clusterBoxes[c]!;
    boxes[clusterNode[c]!] = sceneBox(b.x, b.y, b.width, b.height);
  }
  const routes: Array<Point[] | null> = edges.map(() => null);
  const labels: Array<Point | null> = edges.map(() => null);
  linkEdges.forEach((e, i) => {
    let internal = routing.routes[i]!;
    // A door is inside its container, on its first (last) layer: the route stops at the border it crossed to get there.
    // An inner door's edge starts (ends) at its container's border straight above (below) the door.
    if (upper[i]! >= L) {
      const box = clusterBoxes[doors.cluster[upper[i]! - L]!]!;
      if (doors.inner[upper[i]! - L]) internal = [[internal[0]![0], box.y], ...internal];
      else internal = fromBorder(runOnToBorder(internal.slice().reverse(), box).reverse(), box);
    }
    if (lower[i]! >= L) {
      const box = clusterBoxes[doors.cluster[lower[i]! - L]!]!;
      if (doors.inner[lower[i]! - L]) internal = [...internal, [internal[internal.length - 1]![0], box.y + box.height]];
      else internal = fromBorder(runOnToBorder(internal, box).reverse(), box).reverse();
    }
    const route = simplify(internal).map((p) => toScene(direction, p));
    routes[e] = reversed[i] ? route.reverse() : route;
    const label = routing.labels[i];
    labels[e] = label ? toScene(direction, label) : null;
  });
  loopEdges.forEach((e, i) => {
    routes[e] = loopDrawing.loopRoutes[i]!.map((p) => toScene(direction, p));
    const label = loopDrawing.loopLabels[i];
    labels[e] = label ? toScene(direction, label) : null;
  });
  clusterLoopEdges.forEach((e, i) => {
    routes[e] = clusterLoopDrawing.loopRoutes[i]!.map((p) => toScene(direction, p));
    const label = clusterLoopDrawing.loopLabels[i];
    labels[e] = label ? toScene(direction, label) : null;
  });

  // Top-left origin over everything drawn.
  let minX = Infinity;
  let minY = Infinity;
  for (const box of boxes) {
    minX = Math.min(minX, box.x);
    minY = Math.min(minY, box.y);
  }
  for (const route of routes) for (const [px, py] of route ?? []) (minX = Math.min(minX, px)), (minY = Math.min(minY, py));
  labels.forEach((label, e) => {
    if (!label) return;
    minX = Math.min(minX, label[0] - edges[e]!.labelWidth / 2);
    minY = Math.min(minY, label[1] - edges[e]!.labelHeight / 2);
  });
  for (const box of boxes) {
    box.x -= minX;
    box.y -= minY;
  }
  const shift = (p: Point): Point => [p[0] - minX, p[1] - minY];
  const headerAlign: Array<HeaderAlign | null> = nodes.map((_, v) => (isContainer[v] ? 'center' : null));
  const shifted = routes.map((route) => route?.map(shift) ?? null);
  const shiftedLabels = labels.map((label) => (label ? shift(label) : null));
  dropRoutesThroughBoxes(nodes, edges, boxes, shifted, shiftedLabels);
  return { boxes, routes: shifted, labels: shiftedLabels, headerAlign };
}


/**
 * An edge between two layers can still cross a container it has no end in
 * (when no order of the layer keeps every such edge beside it): its route is
 * dropped, and the cross-edge router draws it around the boxes instead.
 */
function dropRoutesThroughBoxes(nodes: NestedNode[], edges: NestedEdge[], boxes: Box[], routes: Array<Point[] | null>, labels: Array<Point | null>): void {
  const parent = nodes.map((node) => node.parent);
  const ancestors = (v: number): number[] => ancestorChain(parent, v);
  // Each route around the boxes costs about the square of the boxes it may meet: past a budget, routes stay as drawn.
  let budget = REROUTE_BUDGET;
  edges.forEach((edge, e) => {
    const route = routes[e];
    if (!route || edge.from === edge.to || budget < boxes.length * boxes.length) return;
    const exempt = new Set([edge.from, edge.to, ...ancestors(edge.from), ...ancestors(edge.to)]);
    const blocked = boxes.some(
      (box, v) => !exempt.has(v) && route.some((p, k) => k + 1 < route.length && segmentCrossesBox(p[0], p[1], route[k + 1]![0], route[k + 1]![1], box)),
    );
    if (!blocked) return;
    budget -= boxes.length * boxes.length;
    routes[e] = null;
    labels[e] = null;
  });
}

/**
 * Inserts a layer for each cluster's header before its first layer ('start') or
 * after its last ('end'), nested headers one layer apart, outermost furthest out.
 */
function insertHeaderLayers(
  side: HeaderSide,
  C: number,
  parent: Int32Array,
  span: { lo: Int32Array; hi: Int32Array },
  base: Int32Array,
  labelled: boolean,
): { layerOfLeaf: Int32Array; headerLayer: Int32Array; isLabelLayer: Uint8Array; layerCount: number } {
  let baseCount = 0;
  for (const l of base) baseCount = Math.max(baseCount, l + 1);
  const headerLayer = new Int32Array(C).fill(-1);
  if (side === 'strip') {
    const isLabelLayer = Uint8Array.from({ length: baseCount }, (_, l) => (labelled && l % 2 === 1 ? 1 : 0));
    return { layerOfLeaf: base.slice(), headerLayer, isLabelLayer, layerCount: baseCount };
  }
  const edgeOf = side === 'start' ? span.lo : span.hi;
  // Nesting index: how many ancestors head (or foot) the same layer.
  const nest = new Int32Array(C);
  const slots = new Int32Array(baseCount);
  for (let c = 0; c < C; c++) {
    for (let p = parent[c]!; p >= 0; p = parent[p]!) if (edgeOf[p] === edgeOf[c]) nest[c]!++;
    slots[edgeOf[c]!] = Math.max(slots[edgeOf[c]!]!, nest[c]! + 1);
  }
  const newLayer = new Int32Array(baseCount);
  let shift = 0;
  for (let l = 0; l < baseCount; l++) {
    if (side === 'start') shift += slots[l]!;
    newLayer[l] = l + shift;
    if (side === 'end') shift += slots[l]!;
  }
  const layerCount = baseCount + shift;
  const isLabelLayer = new Uint8Array(layerCount);
  if (labelled) for (let l = 1; l < baseCount; l += 2) isLabelLayer[newLayer[l]!] = 1;
  for (let c = 0; c < C; c++) {
    const l = edgeOf[c]!;
    headerLayer[c] = side === 'start' ? newLayer[l]! - slots[l]! + nest[c]! : newLayer[l]! + slots[l]! - nest[c]!;
  }
  return { layerOfLeaf: Int32Array.from(base, (l) => newLayer[l]!), headerLayer, isLabelLayer, layerCount };
}

/** The dummy that carries each labelled edge's label: on a label layer, nearest the middle of its span (-1: unlabelled). */
function labelNodes(graph: ProperGraph, layerOf: Int32Array, upper: Int32Array, alone: Uint8Array, isLabelLayer: Uint8Array, layerOfLeaf: Int32Array): Int32Array {
  const node = new Int32Array(alone.length).fill(-1);
  graph.chains.forEach((chain, e) => {
    if (!alone[e] || chain.length < 2) return;
    const top = layerOfLeaf[upper[e]!]!;
    const bottom = top + chain.length;
    const middle = (top + bottom) / 2;
    let best = -1;
    let bestDistance = Infinity;
    for (let k = 0; k + 1 < chain.length; k++) {
      const d = graph.lower[chain[k]!]!;
      if (!isLabelLayer[layerOf[d]!]) continue;
      const distance = Math.abs(layerOf[d]! - middle);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = d;
      }
    }
    node[e] = best;
  });
  return node;
}

/** Room in the channels for the borders of clusters that end (or, without a header layer there, begin) at a layer. */
function channelRoom(
  side: HeaderSide,
  C: number,
  layerCount: number,
  span: { lo: Int32Array; hi: Int32Array },
  parent: Int32Array,
  headerLayer: Int32Array,
): { above: Float64Array; below: Float64Array; least: Float64Array } {
  const channelCount = Math.max(0, layerCount - 1);
  const above = new Float64Array(channelCount);
  const below = new Float64Array(channelCount);
  const least = new Float64Array(channelCount).fill(Number.NaN);
  for (let c = 0; c < C; c++) {
    // How many clusters, this one and those inside it, have their border in the same channel.
    let nestedHi = 1;
    let nestedLo = 1;
    for (let p = parent[c]!; p >= 0; p = parent[p]!) {
      if (span.hi[p] === span.hi[c]) nestedHi++;
      if (span.lo[p] === span.lo[c]) nestedLo++;
    }
    if (side !== 'end' && span.hi[c]! < channelCount) above[span.hi[c]!] = Math.max(above[span.hi[c]!]!, PAD * nestedHi);
    if (side !== 'start' && span.lo[c]! > 0) below[span.lo[c]! - 1] = Math.max(below[span.lo[c]! - 1]!, PAD * nestedLo);
    const h = headerLayer[c]!;
    if (side === 'start' && h < channelCount) least[h] = HEADER_CHANNEL;
    if (side === 'end' && h > 0) least[h - 1] = HEADER_CHANNEL;
  }
  return { above, below, least };
}

/** Each cluster's box in the internal frame: its sides from the coordinates, its ends from its members (and header). */
function clusterExtents(
  side: HeaderSide,
  C: number,
  /** Leaves and doors: the nodes that belong to one cluster each. */
  K: number,
  /** 1 for a door from outside its container (cluster-doors.ts). */
  freeDoor: Uint8Array,
  realCount: number,
  innermostFirst: number[],
  parent: Int32Array,
  memberOf: Int32Array,
  headerNode: Int32Array,
  y: Float64Array,
  height: Float64Array,
  left: Float64Array,
  right: Float64Array,
  /** The routes between leaves: a header row comes down to the members only as far as no route runs across the box above them. */
  routes: readonly Point[][],
): Box[] {
  const top = new Float64Array(C).fill(Infinity);
  const bottom = new Float64Array(C).fill(-Infinity);
  for (let i = 0; i < K; i++) {
    const c = memberOf[i]!;
    if (c < 0) continue;
    // A door from outside lies on the header's row: the header's side of the box follows what the box holds, and the door's
    // route runs on to wherever that border comes to (runOnToBorder).
    const onHeaderRow = freeDoor[i] === 1 && side !== 'strip' && headerNode[c]! >= 0 && headerNode[c]! < realCount;
    if (!(onHeaderRow && side === 'start')) top[c] = Math.min(top[c]!, y[i]! - PAD);
    if (!(onHeaderRow && side === 'end')) bottom[c] = Math.max(bottom[c]!, y[i]! + height[i]! + PAD);
  }
  for (const c of innermostFirst) {
    const h = headerNode[c]!;
    // The header's row starts the box, or ends it; where what the box holds sits further in (short members in a tall layer), the header comes down to it.
    if (h >= 0 && h < realCount) {
      if (side === 'start') {
        let lowest = Number.isFinite(top[c]!) ? top[c]! - height[h]! : y[h]!;
        for (const across of runsAcross(routes, left[c]!, right[c]!, y[h]!, top[c]!)) lowest = Math.min(lowest, across - ROW_CLEARANCE - height[h]!);
        top[c] = Math.max(y[h]!, lowest);
      }
      if (side === 'end') {
        const headerEnd = y[h]! + height[h]!;
        let highest = Number.isFinite(bottom[c]!) ? bottom[c]! + height[h]! : headerEnd;
        for (const across of runsAcross(routes, left[c]!, right[c]!, bottom[c]!, headerEnd)) highest = Math.max(highest, across + ROW_CLEARANCE + height[h]!);
        bottom[c] = Math.min(headerEnd, highest);
      }
    }
    const p = parent[c]!;
    if (p < 0) continue;
    top[p] = Math.min(top[p]!, top[c]! - PAD);
    bottom[p] = Math.max(bottom[p]!, bottom[c]! + PAD);
  }
  return Array.from({ length: C }, (_, c) => ({ x: left[c]!, y: top[c]!, width: right[c]! - left[c]!, height: bottom[c]! - top[c]! }));
}

/** A route ending at a door that its container's box no longer reaches (the header came down to the members) runs on straight to the border. */
function runOnToBorder(route: Point[], box: Box): Point[] {
  const [x, y] = route[route.length - 1]!;
  const border = y < box.y ? box.y : y > box.y + box.height ? box.y + box.height : null;
  return border === null ? route : [...route, [x, border]];
}

/** How far a header row keeps from a route running across its box. */
const ROW_CLEARANCE = 16;

/** Where routes run across the band from x1 to x2, between y1 and y2 (exclusive): the heights of their sideways runs there. */
function runsAcross(routes: readonly Point[][], x1: number, x2: number, y1: number, y2: number): number[] {
  const heights: number[] = [];
  for (const route of routes) {
    for (let i = 1; i < route.length; i++) {
      const [[ax, ay], [bx, by]] = [route[i - 1]!, route[i]!];
      if (Math.abs(ay - by) < 0.5 && ay > y1 && ay < y2 && Math.max(ax, bx) > x1 && Math.min(ax, bx) < x2) heights.push(ay);
    }
  }
  return heights;
}

/** The flat edges' groups whose members all sit directly in one cluster (or at the top level); null when none does. */
function groupsWithin(membership: ArrayLike<number>, group: Int32Array | null): Int32Array | null {
  if (!group) return null;
  const home = new Map<number, number>();
  group.forEach((g, v) => {
    if (g >= 0) home.set(g, home.has(g) && home.get(g) !== membership[v] ? -2 : membership[v]!);
  });
  const kept = Int32Array.from(group, (g) => (g >= 0 && home.get(g) !== -2 ? g : -1));
  return kept.some((g) => g >= 0) ? kept : null;
}

/** The ordering's clusters with the flat edges' groups (each within one cluster) as blocks inside them. */
function withFlatGroups(clusters: OrderClusters, group: Int32Array): OrderClusters {
  const index = new Map<number, number>();
  const parent = Array.from(clusters.parent);
  group.forEach((g, v) => {
    if (g < 0 || index.has(g)) return;
    index.set(g, parent.length);
    parent.push(clusters.of[v]!);
  });
  const of = Int32Array.from(clusters.of, (c, v) => (group[v]! >= 0 ? index.get(group[v]!)! : c));
  return { ...clusters, of, parent: Int32Array.from(parent) };
}
