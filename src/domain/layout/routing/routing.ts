/**
 * Orthogonal edge routing for a layered drawing (internal top-to-bottom frame).
 *
 * Each node spreads its edges over ports along its bottom and top sides, in the
 * order of the nodes at their other ends, so edges at one node never cross.
 * Between two layers lies a node-free channel: an edge drops from its port to a
 * track (a horizontal line of its own), runs across, and drops into its target.
 * Tracks are ordered so that two edges cross only where their ends force it
 * (the order of the layers), and the channel grows to fit its tracks and the
 * labels that sit on its edges. Long edges run straight down their dummy slots.
 */
import type { ProperGraph } from '../layering/dummies.ts';
import { findReversedEdges } from '../layering/cycles.ts';
import { NumberHeap } from '../heap.ts';
import type { LayerOrder } from '../ordering/ordering.ts';
import type { Arrowheads } from '../types.ts';

export type Point = [number, number];

export const LAYER_GAP = 80;
/**
 * Tracks sit at least 18 px apart. A channel crowded with more than 30 tracks
 * packs them 16 px apart (two hand-drawn lines closer than that read as one);
 * past 640 px of tracks (41 of them), a wall of lines no spacing makes
 * readable, as close as that height allows, down to 6 px.
 */
const TRACK_SPACING = 18;
const CROWDED_TRACKS = 30;
const CROWDED_TRACK_SPACING = 16;
const CROWDED_CHANNEL_HEIGHT = 640;
const WALL_TRACK_SPACING = 6;

/** The least spacing of a channel's tracks, by how many it holds. */
function trackSpacing(count: number): number {
  if (count <= CROWDED_TRACKS) return TRACK_SPACING;
  return Math.max(WALL_TRACK_SPACING, Math.min(CROWDED_TRACK_SPACING, CROWDED_CHANNEL_HEIGHT / (count - 1)));
}
/** How far a channel's tracks keep from the layer above them. */
const CHANNEL_MARGIN = 20;
/**
 * How far they keep from the layer below, where the arrows come in (and from
 * the layer above, where an edge turned round to break a cycle has its head): the
 * editor draws an arrowhead at most half as long as the arrow's last segment
 * (25 px on a long one), and a run 20 px above its target left an 8 px head.
 */
export const HEAD_LEG = 36;
/** How far apart the ends on one side of a node lie, where the side has room: the editor's arrowheads are 17 px across. */
const PORT_SPACING = 26;
/** The share of a node's side, about its middle, that the ends on that side spread over. */
export const PORT_SPREAD = 0.8;
/** Two vertical legs closer than this read as one line: the tracks are ordered so that they never run side by side. */
const LEG_CLEARANCE = 18;
/** What running side by side costs, in crossings. */
const ALONGSIDE = 100;
const ALONGSIDE_WEIGHT = 20;

/**
 * Whether an edge, routed from its upper end down, has an arrowhead at that
 * upper end: its `from` end's (`start`, `both`), or, where the layout turned
 * the edge round to break a cycle, its `to` end's (`end`, the default, `both`).
 */
export function headAtUpperEnd(arrowheads: Arrowheads | undefined, reversed: boolean): boolean {
  const heads = arrowheads ?? 'end';
  return heads === 'both' || heads === (reversed ? 'end' : 'start');
}

export interface ChannelRoutingInput {
  graph: ProperGraph;
  order: LayerOrder;
  /** Centre x of every proper-graph node. */
  x: Float64Array;
  ports: PortOffsets;
  /** Height of every proper-graph node (dummies: 0, label nodes: their label's). */
  height: Float64Array;
  /** Height each proper-graph node needs in its layer when more than its own (a self-loop round a tall label): it is centred there. */
  extent?: Float64Array;
  /** The proper-graph node that carries each input edge's label (-1: unlabelled). */
  labelNode: Int32Array;
  /** The least height of a channel between two layers. */
  minChannel: number;
  /** Per input edge, 1 where an arrowhead lies at its upper end (headAtUpperEnd): the route leaves it a full leg there. */
  headsUp?: Uint8Array;
  /**
   * Per channel (below layer l), room kept free of tracks under layer l (`above`,
   * e.g. for container borders) and over layer l + 1 (`below`), and a least
   * height of its own (`least`, overriding minChannel where set, NaN elsewhere).
   */
  channels?: { above: Float64Array; below: Float64Array; least: Float64Array };
}

export interface ChannelRouting {
  /** Top y of every real node. */
  y: Float64Array;
  /** Top y and height of every layer. */
  layerTop: Float64Array;
  layerHeight: Float64Array;
  /** Each input edge's route from its upper end to its lower end. */
  routes: Point[][];
  /** Each input edge's label centre, when it has a label. */
  labels: Array<Point | null>;
}

/** A set of proper edges routed together: one edge, or the branches of a trunk that share an end point. */
interface Bundle {
  tops: number[];
  bottoms: number[];
  lo: number;
  hi: number;
  track: number;
}

export function routeChannels(input: ChannelRoutingInput): ChannelRouting {
  const { graph, x, height } = input;
  const { layers } = input.order;
  const { upper, lower, layerOf, realCount } = graph;
  const edgeCount = upper.length;

  const bottomX = new Float64Array(edgeCount);
  const topX = new Float64Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    bottomX[e] = x[upper[e]!]! + input.ports.bottom[e]!;
    topX[e] = x[lower[e]!]! + input.ports.top[e]!;
  }
  for (let e = 0; e < edgeCount; e++) {
    // An edge that is all but straight becomes straight: one of its ports moves by under a pixel.
    if (Math.abs(bottomX[e]! - topX[e]!) < 1 && lower[e]! >= realCount) topX[e] = bottomX[e]!;
    else if (Math.abs(bottomX[e]! - topX[e]!) < 1) bottomX[e] = topX[e]!;
  }

  const layerCount = layers.length;
  const layerHeight = new Float64Array(layerCount);
  for (let v = 0; v < graph.nodeCount; v++) layerHeight[layerOf[v]!] = Math.max(layerHeight[layerOf[v]!]!, height[v]!, input.extent?.[v] ?? 0);

  const channelEdges: number[][] = Array.from({ length: Math.max(0, layerCount - 1) }, () => []);
  for (let e = 0; e < edgeCount; e++) channelEdges[layerOf[upper[e]!]!]!.push(e);

  const trackOf = new Int32Array(edgeCount).fill(-1);
  const trackCount = new Int32Array(Math.max(0, layerCount - 1));
  for (let c = 0; c < layerCount - 1; c++) {
    const bundles = bundleChannel(channelEdges[c]!, graph, bottomX, topX);
    trackCount[c] = assignTracks(bundles);
    for (const bundle of bundles) for (const e of [...bundle.tops, ...bundle.bottoms]) trackOf[e] = bundle.track;
  }

  // Channels where an edge with a head at its upper end runs across right under that end's node: its head needs the room above the tracks.
  const headsUpTracks = new Uint8Array(Math.max(0, layerCount - 1));
  graph.chains.forEach((chain, e) => {
    const first = chain[0]!;
    if (input.headsUp?.[e] && upper[first]! < realCount && trackOf[first]! >= 0 && bottomX[first] !== topX[first]) headsUpTracks[layerOf[upper[first]!]!] = 1;
  });
  const layerTop = new Float64Array(layerCount);
  const trackZoneTop = new Float64Array(Math.max(0, layerCount - 1));
  const trackZoneHeight = new Float64Array(Math.max(0, layerCount - 1));
  let yCursor = 0;
  for (let l = 0; l < layerCount; l++) {
    layerTop[l] = yCursor;
    yCursor += layerHeight[l]!;
    if (l === layerCount - 1) break;
    const spacing = trackSpacing(trackCount[l]!);
    const tracksNeeded = Math.max(0, trackCount[l]! - 1) * spacing;
    const above = input.channels?.above[l] ?? 0;
    const below = input.channels?.below[l] ?? 0;
    const least = input.channels && !Number.isNaN(input.channels.least[l]) ? input.channels.least[l]! : input.minChannel;
    const lead = trackCount[l]! > 0 ? HEAD_LEG : CHANNEL_MARGIN;
    const tail = headsUpTracks[l] ? HEAD_LEG : CHANNEL_MARGIN;
    const channel = Math.max(least, tail + lead + tracksNeeded) + above + below;
    trackZoneTop[l] = yCursor + tail + above;
    trackZoneHeight[l] = channel - tail - lead - above - below;
    yCursor += channel;
  }

  const y = new Float64Array(realCount);
  for (let v = 0; v < realCount; v++) y[v] = layerTop[layerOf[v]!]! + (layerHeight[layerOf[v]!]! - height[v]!) / 2;

  // The tracks of a channel, centred in its zone, at least the spacing apart (more where the zone is roomy).
  const trackY = (e: number): number => {
    const c = layerOf[upper[e]!]!;
    const count = trackCount[c]!;
    const zone = trackZoneHeight[c]!;
    if (count <= 1) return trackZoneTop[c]! + zone / 2;
    const spacing = trackSpacing(count);
    const gap = Math.min(zone / (count - 1), Math.max(spacing, zone / (count + 1)));
    return trackZoneTop[c]! + (zone - (count - 1) * gap) / 2 + trackOf[e]! * gap;
  };

  const routes: Point[][] = [];
  const labels: Array<Point | null> = [];
  graph.chains.forEach((chain, e) => {
    const first = chain[0]!;
    const last = chain[chain.length - 1]!;
    const source = upper[first]!;
    const target = lower[last]!;
    const points: Point[] = [[bottomX[first]!, y[source]! + height[source]!]];
    for (const pe of chain) {
      if (trackOf[pe]! >= 0 && bottomX[pe] !== topX[pe]) {
        const ty = trackY(pe);
        points.push([bottomX[pe]!, ty], [topX[pe]!, ty]);
      }
    }
    points.push([topX[last]!, y[target]!]);
    routes.push(simplify(points));
    const d = input.labelNode[e]!;
    // The route runs straight down through its label node: the label sits on it, in the middle of its layer.
    labels.push(d >= 0 ? [x[d]!, layerTop[layerOf[d]!]! + layerHeight[layerOf[d]!]! / 2] : null);
  });
  return { y, layerTop, layerHeight, routes, labels };
}

export interface PortOffsets {
  /** Offset of each proper edge's port from its upper node's centre line, along that node's bottom side. */
  bottom: Float64Array;
  /** Offset along the lower node's top side. */
  top: Float64Array;
}

/**
 * Ports along the bottom and top of each node, ordered by the position of the
 * other end; dummies use their centre. A hidden proper edge (of an invisible
 * edge, drawn nowhere) takes no port: it leaves its node's middle, among the
 * drawn ones' ports.
 */
export function assignPorts(graph: ProperGraph, position: Int32Array, width: Float64Array, loopNodes?: ReadonlySet<number>, hidden?: Uint8Array): PortOffsets {
  const { upper, lower, realCount } = graph;
  const bottom = new Float64Array(upper.length);
  const top = new Float64Array(upper.length);
  const downEdges: number[][] = Array.from({ length: realCount }, () => []);
  const upEdges: number[][] = Array.from({ length: realCount }, () => []);
  for (let e = 0; e < upper.length; e++) {
    if (hidden?.[e]) continue;
    if (upper[e]! < realCount) downEdges[upper[e]!]!.push(e);
    if (lower[e]! < realCount) upEdges[lower[e]!]!.push(e);
  }
  const spread = (v: number, edges: number[], otherEnd: Int32Array, out: Float64Array): void => {
    if (edges.length === 0) return;
    const half = (width[v]! * PORT_SPREAD) / 2;
    edges.sort((a, b) => position[otherEnd[a]!]! - position[otherEnd[b]!]! || a - b);
    const last = edges.length - 1;
    const spacing = last > 0 ? Math.min(PORT_SPACING, (2 * half) / last) : 0;
    // A node with a self-loop on its right: its ends here keep away from the corner the loop's legs come round.
    const shift = loopNodes?.has(v) && last > 0 ? Math.min(LOOP_PORT_SHIFT, half - (last / 2) * spacing) : 0;
    edges.forEach((e, k) => (out[e] = (k - last / 2) * spacing - shift));
  };
  for (let v = 0; v < realCount; v++) {
    spread(v, downEdges[v]!, lower, bottom);
    spread(v, upEdges[v]!, upper, top);
  }
  return { bottom, top };
}

/**
 * How far the ends on a node's top and bottom move away from its right side
 * when a self-loop comes out there, where they have the room: on a circle or
 * an ellipse the loop's legs meet the outline round the corner, within 16 px
 * of the rightmost end (graphviz-fsm's LR_5, graphviz-nan's Target).
 */
const LOOP_PORT_SHIFT = 13;

/** Ports on one side keep at least this far apart when one slides to straighten an edge: their arrowheads stay apart. */
export const PORT_SLIDE_ROOM = 26;
/** Offsets up to this between an edge's two ports make a jog; a port slides to remove it. */
export const PORT_JOG_LIMIT = 16;

/**
 * Where the nodes' places leave an edge a few pixels out of line (a node with
 * two edges down has its ports 20 px apart, and the child straight under it
 * receives its edge in the middle of its top: a 10-px jog), one of its ports
 * slides along its side to line up, when it stays within the side's spread
 * (PORT_SPREAD) and PORT_SLIDE_ROOM from the other ports there: first the
 * upper end's, else the lower end's. A dummy's port stays (it is the route
 * itself). `ports` is changed in place.
 */
export function straightenPorts(graph: ProperGraph, x: ArrayLike<number>, width: ArrayLike<number>, ports: PortOffsets, hidden?: Uint8Array): void {
  const { upper, lower, realCount } = graph;
  const bottomOf: number[][] = Array.from({ length: realCount }, () => []);
  const topOf: number[][] = Array.from({ length: realCount }, () => []);
  for (let e = 0; e < upper.length; e++) {
    if (hidden?.[e]) continue;
    if (upper[e]! < realCount) bottomOf[upper[e]!]!.push(e);
    if (lower[e]! < realCount) topOf[lower[e]!]!.push(e);
  }
  const slides = (v: number, side: number[], offsets: Float64Array, e: number, to: number): boolean => {
    if (v >= realCount || Math.abs(to) > (width[v]! * PORT_SPREAD) / 2 + 1e-9) return false;
    if (side.some((f) => f !== e && Math.abs(offsets[f]! - to) < PORT_SLIDE_ROOM)) return false;
    offsets[e] = to;
    return true;
  };
  for (let e = 0; e < upper.length; e++) {
    const [u, v] = [upper[e]!, lower[e]!];
    if ((u >= realCount && v >= realCount) || hidden?.[e]) continue;
    const jog = x[v]! + ports.top[e]! - (x[u]! + ports.bottom[e]!);
    if (Math.abs(jog) < 0.5 || Math.abs(jog) > PORT_JOG_LIMIT) continue;
    if (!slides(u, bottomOf[u] ?? [], ports.bottom, e, ports.bottom[e]! + jog)) slides(v, topOf[v] ?? [], ports.top, e, ports.top[e]! - jog);
  }
}

/** Groups a channel's edges into bundles: edges leaving one dummy point together, or entering one together. */
function bundleChannel(edges: number[], graph: ProperGraph, bottomX: Float64Array, topX: Float64Array): Bundle[] {
  const { upper, lower, realCount } = graph;
  const bundles: Bundle[] = [];
  const byUpper = new Map<number, Bundle>();
  const byLower = new Map<number, Bundle>();
  for (const e of edges) {
    if (bottomX[e] === topX[e]) continue;
    const u = upper[e]!;
    const v = lower[e]!;
    let bundle = u >= realCount ? byUpper.get(u) : v >= realCount ? byLower.get(v) : undefined;
    if (!bundle) {
      bundle = { tops: [], bottoms: [], lo: Infinity, hi: -Infinity, track: 0 };
      bundles.push(bundle);
      if (u >= realCount) byUpper.set(u, bundle);
      else if (v >= realCount) byLower.set(v, bundle);
    }
    bundle.tops.push(e);
    bundle.bottoms.push(e);
    bundle.lo = Math.min(bundle.lo, bottomX[e]!, topX[e]!);
    bundle.hi = Math.max(bundle.hi, bottomX[e]!, topX[e]!);
  }
  for (const bundle of bundles) {
    (bundle as BundleWithPoints).topPoints = uniqueSorted(bundle.tops.map((e) => bottomX[e]!));
    (bundle as BundleWithPoints).bottomPoints = uniqueSorted(bundle.bottoms.map((e) => topX[e]!));
  }
  return bundles;
}

interface BundleWithPoints extends Bundle {
  topPoints: number[];
  bottomPoints: number[];
}

function uniqueSorted(values: number[]): number[] {
  values.sort((a, b) => a - b);
  return values.filter((v, i) => i === 0 || v !== values[i - 1]);
}

/** Whether a point of one list lies within LEG_CLEARANCE of a point of the other (both sorted). */
function near(a: number[], b: number[]): boolean {
  let j = 0;
  for (const p of a) {
    while (j < b.length && b[j]! < p - LEG_CLEARANCE) j++;
    if (j < b.length && b[j]! <= p + LEG_CLEARANCE) return true;
  }
  return false;
}

function countInside(points: number[], lo: number, hi: number): number {
  let count = 0;
  for (const p of points) if (p > lo && p < hi) count++;
  return count;
}

/**
 * Tracks: bundles whose spans overlap need different tracks, and the one placed
 * higher decides which vertical legs its horizontal run crosses. Where one order
 * of a pair crosses less, that order is a constraint; cycles among constraints
 * are broken; in a topological order of them (ties by leftmost span) each
 * bundle takes the first track below the bundles it must stay below that no
 * overlapping bundle holds. Returns the track count.
 */
function assignTracks(bundles: Bundle[]): number {
  const k = bundles.length;
  if (k === 0) return 0;
  const items = bundles as BundleWithPoints[];
  const sorted = items.map((_, i) => i).sort((a, b) => items[a]!.lo - items[b]!.lo || items[a]!.hi - items[b]!.hi || a - b);
  const from: number[] = [];
  const to: number[] = [];
  for (let ii = 0; ii < k; ii++) {
    const a = sorted[ii]!;
    const A = items[a]!;
    for (let jj = ii + 1; jj < k; jj++) {
      const b = sorted[jj]!;
      const B = items[b]!;
      // Runs that end within the clearance of each other are as good as overlapping: their legs would run alongside.
      if (B.lo > A.hi + LEG_CLEARANCE) break;
      // Cost of a above b: b's legs from the top cross a's run; a's legs to the bottom cross b's run.
      // A leg rising from a's run to the bottom next to a leg dropping from the top to b's run runs along it unless b is above.
      const aAlongside = near(A.bottomPoints, B.topPoints);
      const bAlongside = near(B.bottomPoints, A.topPoints);
      const aAbove = countInside(B.topPoints, A.lo, A.hi) + countInside(A.bottomPoints, B.lo, B.hi) + (aAlongside ? ALONGSIDE : 0);
      const bAbove = countInside(A.topPoints, B.lo, B.hi) + countInside(B.bottomPoints, A.lo, A.hi) + (bAlongside ? ALONGSIDE : 0);
      // Where cycles are broken (Eades et al. count edges), a constraint against running alongside weighs as many,
      // whatever crossings the other order also costs.
      const copies = aAlongside !== bAlongside ? ALONGSIDE_WEIGHT : 1;
      for (let c = 0; c < copies; c++) {
        if (aAbove < bAbove) {
          from.push(a);
          to.push(b);
        } else if (bAbove < aAbove) {
          from.push(b);
          to.push(a);
        }
      }
    }
  }
  const reversed = findReversedEdges(k, from, to);
  const outStart = new Int32Array(k + 1);
  for (let i = 0; i < from.length; i++) outStart[(reversed[i] ? to[i]! : from[i]!) + 1]!++;
  for (let i = 0; i < k; i++) outStart[i + 1]! += outStart[i]!;
  const fill = outStart.slice(0, k);
  const next = new Int32Array(from.length);
  const inDegree = new Int32Array(k);
  for (let i = 0; i < from.length; i++) {
    const a = reversed[i] ? to[i]! : from[i]!;
    const b = reversed[i] ? from[i]! : to[i]!;
    next[fill[a]!++] = b;
    inDegree[b]!++;
  }
  const rankInSorted = new Int32Array(k);
  sorted.forEach((item, r) => (rankInSorted[item] = r));
  const ready = new NumberHeap();
  for (let i = 0; i < k; i++) if (inDegree[i] === 0) ready.push(rankInSorted[i]!);
  const sequence: number[] = [];
  while (ready.size > 0) {
    const a = sorted[ready.pop()!]!;
    sequence.push(a);
    for (let j = outStart[a]!; j < outStart[a + 1]!; j++) {
      const b = next[j]!;
      if (--inDegree[b]! === 0) ready.push(rankInSorted[b]!);
    }
  }
  // First fit in that order: below every bundle it must stay below, on no track an overlapping bundle holds.
  const forcedBelow = new Int32Array(k);
  let tracks = 0;
  const taken: number[] = [];
  for (let i = 0; i < sequence.length; i++) {
    const a = sequence[i]!;
    const A = items[a]!;
    taken.length = 0;
    for (let j = 0; j < i; j++) {
      const B = items[sequence[j]!]!;
      if (B.lo <= A.hi + LEG_CLEARANCE && A.lo <= B.hi + LEG_CLEARANCE) taken.push(B.track);
    }
    taken.sort((p, q) => p - q);
    let track = forcedBelow[a]!;
    for (const t of taken) {
      if (t === track) track++;
      else if (t > track) break;
    }
    A.track = track;
    tracks = Math.max(tracks, track + 1);
    for (let j = outStart[a]!; j < outStart[a + 1]!; j++) forcedBelow[next[j]!] = Math.max(forcedBelow[next[j]!]!, track + 1);
  }
  return tracks;
}

/** Drops repeated points and the middle of three collinear points. */
export function simplify(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last[0] - p[0]) < 1e-9 && Math.abs(last[1] - p[1]) < 1e-9) continue;
    if (out.length >= 2) {
      const a = out[out.length - 2]!;
      const b = out[out.length - 1]!;
      const cross = (b[0] - a[0]) * (p[1] - b[1]) - (b[1] - a[1]) * (p[0] - b[0]);
      const forward = (b[0] - a[0]) * (p[0] - b[0]) + (b[1] - a[1]) * (p[1] - b[1]);
      if (Math.abs(cross) < 1e-9 && forward >= 0) out[out.length - 1] = p;
      else out.push(p);
    } else {
      out.push(p);
    }
  }
  return out;
}
