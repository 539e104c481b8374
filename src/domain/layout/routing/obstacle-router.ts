/**
 * Orthogonal routing around boxes, for the edges the layered router cannot draw:
 * edges between nodes in different containers, and edges between a container and
 * something inside it. The search runs on a sparse grid whose lines run a margin
 * away from every obstacle (an orthogonal visibility grid), with A* over
 * (grid point, heading) so that each bend costs extra: routes come out short,
 * with few bends, and never through an obstacle's interior.
 */
import type { Point } from './routing.ts';
import type { Box } from '../types.ts';

export const ROUTE_MARGIN = 12;
/** Segments within this many pixels of a line count as on it. */
const ALONGSIDE_TOLERANCE = 5;
const BEND_COST = 40;
/** Running right along an obstacle costs a little more than running down the middle of a gap. */
const HUGGING_FACTOR = 1.15;
/** Running on top of another edge costs this much per pixel of overlap. */
const OVERLAP_COST = 3;
/** Gaps wider than this get a line down their middle. */
const MIDLINE_GAP = 3 * ROUTE_MARGIN;

/** 0: +x, 1: −x, 2: +y, 3: −y. */
export type Heading = 0 | 1 | 2 | 3;
const DX = [1, -1, 0, 0] as const;
const DY = [0, 0, 1, -1] as const;
const OPPOSITE = [1, 0, 3, 2] as const;

export interface RouteRequest {
  start: Point;
  /** The first move out of `start`. */
  startHeading: Heading;
  end: Point;
  /** The last move into `end`. */
  endHeading: Heading;
  /** Boxes whose interiors the route must not enter (the endpoint boxes included, when the route stays outside them). */
  obstacles: Box[];
  /** Segments other edges already run along; the route avoids running on top of them. */
  occupied?: OccupiedSegments;
  /** Search only inside this box (a container the route must stay in). */
  window?: Box;
}

/** Axis-parallel segments already drawn, indexed by the line they lie on. */
export class OccupiedSegments {
  private readonly horizontal = new Map<number, Array<[number, number]>>();
  private readonly vertical = new Map<number, Array<[number, number]>>();

  add(route: Point[]): void {
    for (let i = 1; i < route.length; i++) {
      const [ax, ay] = route[i - 1]!;
      const [bx, by] = route[i]!;
      if (ay === by) push(this.horizontal, Math.round(ay), [Math.min(ax, bx), Math.max(ax, bx)]);
      else if (ax === bx) push(this.vertical, Math.round(ax), [Math.min(ay, by), Math.max(ay, by)]);
    }
  }

  /**
   * For each step between neighbouring grid points, how much of it is already
   * taken: out[j * across.length + i] for the step from across[i] to across[i+1]
   * on the line at lines[j] (horizontal lines when `horizontal`).
   */
  taken(horizontal: boolean, lines: Float64Array, across: Float64Array, out: Float64Array): void {
    const map = horizontal ? this.horizontal : this.vertical;
    const n = across.length;
    out.fill(0, 0, lines.length * n);
    for (let j = 0; j < lines.length; j++) {
      // A segment a few pixels off the line runs along it just the same, once drawn by hand.
      const line = Math.round(lines[j]!);
      for (let key = line - ALONGSIDE_TOLERANCE; key <= line + ALONGSIDE_TOLERANCE; key++) {
        const list = map.get(key);
        if (!list) continue;
        for (const [lo, hi] of list) {
          for (let i = Math.max(0, indexOf(across, lo) - 1); i + 1 < n && across[i]! < hi; i++) {
            const overlap = Math.min(hi, across[i + 1]!) - Math.max(lo, across[i]!);
            if (overlap > 0) out[j * n + i]! += overlap;
          }
        }
      }
    }
  }
}

function push(map: Map<number, Array<[number, number]>>, key: number, interval: [number, number]): void {
  const list = map.get(key);
  if (list) list.push(interval);
  else map.set(key, [interval]);
}

/** The route, or null when the obstacles wall the ends off from each other. */
export function routeAroundObstacles(request: RouteRequest): Point[] | null {
  const { start, end } = request;
  // Search a window around the two ends first, widening it only when that fails: most routes are local.
  const limit = request.window ?? enclosing(request.obstacles, start, end);
  let reach = 4 * ROUTE_MARGIN;
  for (;;) {
    const window = intersection(
      {
        x: Math.min(start[0], end[0]) - reach,
        y: Math.min(start[1], end[1]) - reach,
        width: Math.abs(start[0] - end[0]) + 2 * reach,
        height: Math.abs(start[1] - end[1]) + 2 * reach,
      },
      limit,
    );
    const route = searchGrid(request, request.obstacles.filter((b) => overlaps(b, window)), window);
    if (route) return route;
    if (contains(window, limit)) return null;
    reach *= 4;
  }
}

function intersection(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return { x, y, width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x), height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y) };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function contains(outer: Box, inner: Box): boolean {
  return outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width && outer.y + outer.height >= inner.y + inner.height;
}

function enclosing(boxes: Box[], a: Point, b: Point): Box {
  let minX = Math.min(a[0], b[0]);
  let minY = Math.min(a[1], b[1]);
  let maxX = Math.max(a[0], b[0]);
  let maxY = Math.max(a[1], b[1]);
  for (const box of boxes) {
    minX = Math.min(minX, box.x);
    minY = Math.min(minY, box.y);
    maxX = Math.max(maxX, box.x + box.width);
    maxY = Math.max(maxY, box.y + box.height);
  }
  return { x: minX - 2 * ROUTE_MARGIN, y: minY - 2 * ROUTE_MARGIN, width: maxX - minX + 4 * ROUTE_MARGIN, height: maxY - minY + 4 * ROUTE_MARGIN };
}

function uniqueSorted(values: number[]): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i]! - sorted[count - 1]! > 1e-6) sorted[count++] = sorted[i]!;
  return sorted.slice(0, count);
}

/** The grid lines along one axis: the given ones, the ones hugging obstacles, and the middles of wide gaps. */
function gridLines(fixed: number[], hugging: number[], min: number, max: number): Float64Array {
  const base = uniqueSorted([...fixed, ...hugging].filter((v) => v >= min && v <= max));
  const withMiddles = Array.from(base);
  for (let i = 1; i < base.length; i++) if (base[i]! - base[i - 1]! > MIDLINE_GAP) withMiddles.push((base[i]! + base[i - 1]!) / 2);
  return uniqueSorted(withMiddles);
}

function huggingFactors(lines: Float64Array, hugging: number[]): Float64Array {
  const factors = new Float64Array(lines.length).fill(1);
  for (const v of hugging) {
    const i = indexOf(lines, v);
    if (i < lines.length && Math.abs(lines[i]! - v) < 1e-6) factors[i] = HUGGING_FACTOR;
  }
  return factors;
}

function indexOf(lines: Float64Array, value: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]! < value - 1e-6) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function searchGrid(request: RouteRequest, obstacles: Box[], window: Box): Point[] | null {
  const xHugging: number[] = [];
  const yHugging: number[] = [];
  for (const b of obstacles) {
    xHugging.push(b.x - ROUTE_MARGIN, b.x + b.width + ROUTE_MARGIN);
    yHugging.push(b.y - ROUTE_MARGIN, b.y + b.height + ROUTE_MARGIN);
  }
  // Lines stay inside the window: outside it lie obstacles this search does not know about.
  const xs = gridLines([request.start[0], request.end[0], window.x, window.x + window.width], xHugging, window.x, window.x + window.width);
  const ys = gridLines([request.start[1], request.end[1], window.y, window.y + window.height], yHugging, window.y, window.y + window.height);
  const xFactor = huggingFactors(xs, xHugging);
  const yFactor = huggingFactors(ys, yHugging);
  const nx = xs.length;
  const ny = ys.length;
  // blockedRight[j*nx+i]: the step (i,j)→(i+1,j) enters an obstacle; blockedDown[j*nx+i]: (i,j)→(i,j+1).
  const blockedRight = pool.bytes(0, nx * ny);
  const blockedDown = pool.bytes(1, nx * ny);
  for (const b of obstacles) {
    const left = b.x;
    const right = b.x + b.width;
    const top = b.y;
    const bottom = b.y + b.height;
    const i0 = indexOf(xs, left);
    const j0 = indexOf(ys, top);
    for (let j = j0; j < ny && ys[j]! < bottom; j++) {
      if (ys[j]! <= top) continue;
      for (let i = Math.max(0, i0 - 1); i + 1 < nx && xs[i]! < right; i++) if (xs[i + 1]! > left) blockedRight[j * nx + i] = 1;
    }
    for (let i = i0; i < nx && xs[i]! < right; i++) {
      if (xs[i]! <= left) continue;
      for (let j = Math.max(0, j0 - 1); j + 1 < ny && ys[j]! < bottom; j++) if (ys[j + 1]! > top) blockedDown[j * nx + i] = 1;
    }
  }
  const takenRight = pool.floats(0, nx * ny);
  const takenDown = pool.floats(1, nx * ny);
  if (request.occupied) {
    request.occupied.taken(true, ys, xs, takenRight);
    request.occupied.taken(false, xs, ys, takenDown);
  }
  const startI = indexOf(xs, request.start[0]);
  const startJ = indexOf(ys, request.start[1]);
  const endI = indexOf(xs, request.end[0]);
  const endJ = indexOf(ys, request.end[1]);
  const states = nx * ny * 4;
  const { cost, previous, stamp } = pool.search(states);
  const generation = pool.nextGeneration();
  const costOf = (s: number): number => (stamp[s] === generation ? cost[s]! : Infinity);
  const heap = new StateHeap();
  // Distance left, plus one bend unless the end lies dead ahead on the current line and is entered that way.
  const estimate = (i: number, j: number, heading: number): number => {
    const distance = Math.abs(xs[i]! - xs[endI]!) + Math.abs(ys[j]! - ys[endJ]!);
    const ahead =
      heading === request.endHeading &&
      (heading < 2 ? j === endJ && (heading === 0 ? endI >= i : endI <= i) : i === endI && (heading === 2 ? endJ >= j : endJ <= j));
    return ahead ? distance : distance + BEND_COST;
  };
  const first = (startJ * nx + startI) * 4 + request.startHeading;
  cost[first] = 0;
  previous[first] = -1;
  stamp[first] = generation;
  heap.push(estimate(startI, startJ, request.startHeading), first);
  const goal = (endJ * nx + endI) * 4 + request.endHeading;
  while (heap.size > 0) {
    const [f, state] = heap.pop();
    const heading = state & 3;
    const vertex = state >> 2;
    const i = vertex % nx;
    const j = (vertex - i) / nx;
    const g = costOf(state);
    if (f - estimate(i, j, heading) > g + 1e-6) continue;
    if (state === goal) return tracePath(previous, goal, xs, ys, nx, request);
    const isStart = state === first && g === 0;
    for (let h = 0; h < 4; h++) {
      if (h === OPPOSITE[heading]) continue;
      if (isStart && h !== request.startHeading) continue;
      const ni = i + DX[h]!;
      const nj = j + DY[h]!;
      if (ni < 0 || nj < 0 || ni >= nx || nj >= ny) continue;
      if (h === 0 && blockedRight[j * nx + i]) continue;
      if (h === 1 && blockedRight[j * nx + ni]) continue;
      if (h === 2 && blockedDown[j * nx + i]) continue;
      if (h === 3 && blockedDown[nj * nx + i]) continue;
      const horizontal = h < 2;
      const length = horizontal ? Math.abs(xs[ni]! - xs[i]!) : Math.abs(ys[nj]! - ys[j]!);
      let step = length * (horizontal ? yFactor[j]! : xFactor[i]!) + (h === heading || isStart ? 0 : BEND_COST);
      if (request.occupied) {
        step += OVERLAP_COST * (h === 0 ? takenRight[j * nx + i]! : h === 1 ? takenRight[j * nx + ni]! : h === 2 ? takenDown[i * ny + j]! : takenDown[i * ny + nj]!);
      }
      const next = (nj * nx + ni) * 4 + h;
      const candidate = g + step;
      if (candidate < costOf(next) - 1e-9) {
        cost[next] = candidate;
        previous[next] = state;
        stamp[next] = generation;
        // Among equal estimates, the state further along goes first.
        heap.push(candidate + estimate(ni, nj, h) - candidate * 1e-9, next);
      }
    }
  }
  return null;
}

function tracePath(previous: Int32Array, goal: number, xs: Float64Array, ys: Float64Array, nx: number, request: RouteRequest): Point[] {
  const states: number[] = [];
  for (let s = goal; s >= 0; s = previous[s]!) states.push(s);
  states.reverse();
  const points: Point[] = [request.start];
  for (let k = 1; k < states.length; k++) {
    const here = states[k]!;
    const nextState = states[k + 1];
    if (nextState !== undefined && (nextState & 3) === (here & 3)) continue;
    const vertex = here >> 2;
    const i = vertex % nx;
    const j = (vertex - i) / nx;
    points.push([xs[i]!, ys[j]!]);
  }
  points[points.length - 1] = request.end;
  return points;
}

/**
 * Scratch arrays shared by every search, grown as needed: a search touches only
 * the states it reaches, and a generation stamp marks which costs are current.
 */
class SearchPool {
  private byteArrays: Uint8Array[] = [new Uint8Array(0), new Uint8Array(0)];
  private floatArrays: Float64Array[] = [new Float64Array(0), new Float64Array(0)];
  private costs = new Float64Array(0);
  private previousStates = new Int32Array(0);
  private stamps = new Int32Array(0);
  private generation = 0;

  bytes(slot: 0 | 1, size: number): Uint8Array {
    if (this.byteArrays[slot]!.length < size) this.byteArrays[slot] = new Uint8Array(size);
    const array = this.byteArrays[slot]!;
    array.fill(0, 0, size);
    return array;
  }

  floats(slot: 0 | 1, size: number): Float64Array {
    if (this.floatArrays[slot]!.length < size) this.floatArrays[slot] = new Float64Array(size);
    return this.floatArrays[slot]!;
  }

  search(size: number): { cost: Float64Array; previous: Int32Array; stamp: Int32Array } {
    if (this.costs.length < size) {
      this.costs = new Float64Array(size);
      this.previousStates = new Int32Array(size);
      this.stamps = new Int32Array(size);
      this.generation = 0;
    }
    return { cost: this.costs, previous: this.previousStates, stamp: this.stamps };
  }

  nextGeneration(): number {
    if (this.generation >= 0x7ffffff0) {
      this.stamps.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }
}

const pool = new SearchPool();

/** A min-heap of (priority, state) pairs. */
class StateHeap {
  private keys: number[] = [];
  private values: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, value: number): void {
    const keys = this.keys;
    const values = this.values;
    let i = keys.length;
    keys.push(key);
    values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! < key || (keys[parent] === key && values[parent]! <= value)) break;
      keys[i] = keys[parent]!;
      values[i] = values[parent]!;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  pop(): [number, number] {
    const keys = this.keys;
    const values = this.values;
    const top: [number, number] = [keys[0]!, values[0]!];
    const lastKey = keys.pop()!;
    const lastValue = values.pop()!;
    const n = keys.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && (keys[right]! < keys[left]! || (keys[right] === keys[left] && values[right]! < values[left]!))) child = right;
      if (keys[child]! > lastKey || (keys[child] === lastKey && values[child]! >= lastValue)) break;
      keys[i] = keys[child]!;
      values[i] = values[child]!;
      i = child;
    }
    keys[i] = lastKey;
    values[i] = lastValue;
    return top;
  }
}
