/**
 * Folding a long drawing (internal top-to-bottom frame): a chain of many layers
 * would come out as a thin column (a thin row, left to right). It is cut
 * between layers into bands of about equal length, placed side by side, and
 * the edge cut by a fold runs out of its band's end, along the gap between
 * the bands and into the start of the next (as ELK wraps graphs). Cuts go
 * only where a single edge crosses, not a loop's edge drawn back against the
 * flow: the drawing reads band after band, like lines of text. Where two or
 * more cross, all but one would run round a whole band (foundationdb's load
 * balancing: both branches of a decision ran out to the end of the first row
 * and back along the second), and Mermaid's one long line reads better.
 */
import { HEAD_LEG, simplify, type Point } from '../routing/routing.ts';

/** Fold when the drawing is longer than this many times its width (scene aspect beyond 3:1)… */
const FOLD_AT = 3;
/** …and longer than this along the flow: a drawing that fits a wide screen stays straight. */
export const FOLD_MIN_LENGTH = 1600;
/**
 * A flow down the page folds into columns only past this length: pages scroll
 * down, and a tall narrow drawing scaled to a page's width keeps its text
 * readable where a long row would not (greptimedb's 2,300-px region migration
 * read better as Mermaid's one column than as two).
 */
export const FOLD_MIN_LENGTH_DOWN = 3200;
/** A band is at least this long: a run of boxes that reads as one line, not a zigzag of one or two. */
export const BAND_MIN_LENGTH = 800;
/** Room between an edge running around a band and what it passes, and between such edges. */
const MARGIN = 20;
const TRACK = 16;
/** At most this many edges may cross a cut (written for the nesting below, which keeps several from crossing each other). */
const MAX_CUT_EDGES = 1;

export interface FoldInput {
  layerTop: Float64Array;
  layerHeight: Float64Array;
  /** How many proper edges run through the channel under each layer, and how many of them belong to edges drawn back against the flow. */
  channelEdges: Int32Array;
  channelBackEdges: Int32Array;
  /** Left x, top y and width of every real node (moved in place). */
  left: Float64Array;
  top: Float64Array;
  width: ArrayLike<number>;
  /** Routes from their upper end down (moved in place), and label points. */
  routes: Point[][];
  labels: Array<Point | null>;
  /** The width over the length the folded drawing aims at. */
  aspect: number;
  /** The flow runs down the page (top to bottom or bottom to top), not across it. */
  downThePage: boolean;
  /** Containers: the x range their boxes reach, the channels no cut may use (a container spans them), and the room their borders take under (over) each layer. */
  clusters?: { minX: number; maxX: number; uncuttable: Uint8Array; borderUnder: Float64Array; borderOver: Float64Array };
}

export interface Fold {
  /** The band of every layer, and how far each band moved. */
  bandOfLayer: Int32Array;
  dx: number[];
  dy: number[];
}

export function foldLongDrawing(input: FoldInput): Fold | null {
  const { layerTop, layerHeight, left, top, width, routes, labels } = input;
  const layerCount = layerTop.length;
  if (layerCount < 4) return null;
  let minX = Infinity;
  let maxX = -Infinity;
  for (let v = 0; v < left.length; v++) {
    minX = Math.min(minX, left[v]!);
    maxX = Math.max(maxX, left[v]! + width[v]!);
  }
  for (const route of routes) for (const [x] of route) (minX = Math.min(minX, x)), (maxX = Math.max(maxX, x));
  if (input.clusters) {
    minX = Math.min(minX, input.clusters.minX);
    maxX = Math.max(maxX, input.clusters.maxX);
  }
  const drawingWidth = Math.max(1, maxX - minX);
  const length = layerTop[layerCount - 1]! + layerHeight[layerCount - 1]!;
  if (length <= FOLD_AT * drawingWidth || length <= (input.downThePage ? FOLD_MIN_LENGTH_DOWN : FOLD_MIN_LENGTH)) return null;

  // As many bands as bring the drawing near its target shape, fewer if the cuts allowed leave a band too short.
  let cuts: number[] = [];
  const mostBands = Math.floor(length / BAND_MIN_LENGTH);
  for (let bands = Math.min(mostBands, Math.max(2, Math.round(Math.sqrt((input.aspect * length) / drawingWidth)))); bands >= 2 && cuts.length === 0; bands--) {
    const candidate = chooseCuts(input, bands, length);
    if (candidate.length === bands - 1 && balanced(input, candidate, length / bands)) cuts = candidate;
  }
  if (cuts.length === 0) return null;

  // Band j runs from the top of layer start[j] to the bottom of layer end[j]; it moves right by dx[j] and up by dy[j].
  const start = [0, ...cuts.map((l) => l + 1)];
  const end = [...cuts, layerCount - 1];
  const bandTop = start.map((l) => layerTop[l]!);
  const bandBottom = end.map((l) => layerTop[l]! + layerHeight[l]!);
  const crossing = cuts.map((l) => input.channelEdges[l]!);
  const most = Math.max(...crossing);
  const gap = 2 * MARGIN + TRACK * (most - 1);
  // Container borders under a cut's layer (over the next) push the runs round the fold further out.
  const under = (l: number): number => input.clusters?.borderUnder[l] ?? 0;
  const over = (l: number): number => input.clusters?.borderOver[l] ?? 0;
  const overRoom = Math.max(0, ...cuts.map(over));
  // Every band starts at the same height, under the room the edges coming round into it need: the innermost
  // run keeps a head's leg (HEAD_LEG) above the band, as a channel's tracks keep it above the layer they reach.
  const headroom = MARGIN + HEAD_LEG + TRACK * (most - 1) + overRoom;
  const dx = start.map((_, j) => j * (drawingWidth + gap));
  const dy = start.map((_, j) => headroom - bandTop[j]!);
  const bandOf = (y: number): number => {
    let j = 0;
    while (j < cuts.length && y > bandBottom[j]! + 0.5) j++;
    return j;
  };
  const move = ([x, y]: Point, j: number): Point => [x + dx[j]!, y + dy[j]!];

  for (let v = 0; v < left.length; v++) {
    const j = bandOf(top[v]!);
    left[v]! += dx[j]!;
    top[v]! += dy[j]!;
  }
  labels.forEach((label, e) => {
    if (label) labels[e] = move(label, bandOf(label[1]));
  });

  // A leg that runs on through several bands gets a point where it enters each.
  routes.forEach((route, e) => {
    const split: Point[] = [route[0]!];
    for (let k = 1; k < route.length; k++) {
      const [x0, y0] = route[k - 1]!;
      const [x1, y1] = route[k]!;
      if (x0 === x1) for (let j = 1; j < start.length; j++) if (y0 < bandTop[j]! - 0.5 && y1 > bandTop[j]! + 0.5) split.push([x0, bandTop[j]!]);
      split.push(route[k]!);
    }
    routes[e] = split;
  });

  // The edges each cut crosses, by where they leave their band (left first): the leftmost runs outermost under
  // its band and furthest right in the gap, and innermost over the next band, so that they never cross.
  const leaving = cuts.map(() => [] as Array<{ e: number; x: number }>);
  routes.forEach((route, e) => {
    for (let k = 0; k + 1 < route.length; k++) {
      cuts.forEach((_, j) => {
        if (route[k]![1] <= bandBottom[j]! + 0.5 && route[k + 1]![1] > bandBottom[j]! + 0.5) leaving[j]!.push({ e, x: route[k]![0] });
      });
    }
  });
  const rank = leaving.map((list) => new Map(list.sort((a, b) => a.x - b.x || a.e - b.e).map((slot, r) => [slot.e, { r, count: list.length }])));
  routes.forEach((route, e) => {
    const out: Point[] = [];
    let k = 0;
    while (k < route.length) {
      const point = route[k]!;
      const j = bandOf(point[1]);
      const next = route[k + 1];
      out.push(move(point, j));
      if (!next || j >= cuts.length || next[1] <= bandBottom[j]! + 0.5) {
        k++;
        continue;
      }
      // This leg leaves band j through the cut: under the band, up the gap, over band j + 1 and down where it entered it.
      const { r, count } = rank[j]!.get(e)!;
      const below = bandBottom[j]! + dy[j]! + under(cuts[j]!) + MARGIN + TRACK * (count - 1 - r);
      const column = minX + dx[j]! + drawingWidth + MARGIN + TRACK * (count - 1 - r);
      const above = headroom - overRoom - HEAD_LEG - TRACK * r;
      let m = k + 1;
      while (m < route.length - 1 && route[m]![1] < bandTop[j + 1]! - 0.5) m++;
      out.push([point[0] + dx[j]!, below], [column, below], [column, above], [route[m]![0] + dx[j + 1]!, above]);
      k = m;
    }
    routes[e] = simplify(out);
  });
  const bandOfLayer = new Int32Array(layerCount);
  start.forEach((from, j) => bandOfLayer.fill(j, from, end[j]! + 1));
  return { bandOfLayer, dx, dy };
}

/** Whether every band is at least half the even share long. */
function balanced(input: FoldInput, cuts: number[], share: number): boolean {
  const { layerTop, layerHeight } = input;
  const ends = [...cuts, layerTop.length - 1];
  let from = 0;
  for (const end of ends) {
    if (layerTop[end]! + layerHeight[end]! - layerTop[from]! < share / 2) return false;
    from = end + 1;
  }
  return true;
}

/** Cuts near every 1/bands of the length, each under a layer, where at most MAX_CUT_EDGES edges cross (the fewer the better). */
function chooseCuts(input: FoldInput, bands: number, length: number): number[] {
  const { layerTop, layerHeight, channelEdges } = input;
  const cuts: number[] = [];
  let previous = -1;
  for (let j = 1; j < bands; j++) {
    const target = (length * j) / bands;
    let best = -1;
    let bestScore = Infinity;
    for (let l = previous + 1; l + 1 < layerTop.length; l++) {
      const count = channelEdges[l]!;
      // An edge drawn back against the flow would have to come round the fold backwards: never cut one.
      if (count === 0 || count > MAX_CUT_EDGES || input.channelBackEdges[l]! > 0 || input.clusters?.uncuttable[l]) continue;
      const at = layerTop[l]! + layerHeight[l]!;
      // Near the even split first; each more edge across the cut costs a quarter of a band.
      const score = Math.abs(at - target) + ((count - 1) * length) / (4 * bands);
      if (score < bestScore) {
        bestScore = score;
        best = l;
      }
    }
    if (best < 0) break;
    cuts.push(best);
    previous = best;
  }
  return cuts;
}
