import type { Box } from './geometry.ts';

/** Work a lint run may spend on candidate pairs; `spend` throws WorkExhausted past it. */
export class WorkBudget {
  private remaining: number;
  constructor(remaining: number) {
    this.remaining = remaining;
  }

  spend(amount: number): void {
    this.remaining -= amount;
    if (this.remaining < 0) throw new WorkExhausted();
  }
}

/** Thrown when a lint run has spent its budget: what it found so far stands, the rest is unchecked. */
export class WorkExhausted extends Error {}

/** What one item a query finds costs, in items looked at. */
const FOUND_COST = 50;

/** At most this many cells along either side of the grid, however spread out the scene is. */
const MAX_CELLS_PER_SIDE = 1024;

/**
 * A uniform grid over a fixed extent holding numbered items by their boxes, so
 * that finding what lies near a box costs about the number of items found,
 * not the number of items in the scene. Cells are sized for about one item
 * each, and never smaller than a typical item: a pile of large boxes fills a
 * few cells many times, not many cells many times.
 */
export class SpatialGrid {
  private readonly cells: number[][] = [];
  private readonly cellSize: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly seen: Uint32Array;
  private stamp = 0;

  /** A grid over `extent` holding item i at boxes[i]; every item a query looks at, and more for each it finds, is spent from `budget`. */
  private readonly extent: Box;
  private readonly budget: WorkBudget;
  constructor(extent: Box, boxes: readonly Box[], budget: WorkBudget = new WorkBudget(Infinity)) {
    this.extent = extent;
    this.budget = budget;
    const capacity = boxes.length;
    const [width, height] = [extent.x2 - extent.x1, extent.y2 - extent.y1];
    this.cellSize = Math.max(1, Math.sqrt((width * height) / Math.max(1, capacity)), width / MAX_CELLS_PER_SIDE, height / MAX_CELLS_PER_SIDE, typicalSize(boxes));
    // An extent too large for floating point (coordinates near 1e308) gets a single cell.
    this.columns = Number.isFinite(this.cellSize) ? Math.floor(width / this.cellSize) + 1 : 1;
    this.rows = Number.isFinite(this.cellSize) ? Math.floor(height / this.cellSize) + 1 : 1;
    this.seen = new Uint32Array(capacity);
    boxes.forEach((box, item) => this.insert(item, box));
  }

  private insert(item: number, box: Box): void {
    this.forCells(box, (cell) => (this.cells[cell] ??= []).push(item));
  }

  /** Each item whose box shares a cell with `box`, once: a superset of the items whose boxes touch it. */
  near(box: Box): number[] {
    const stamp = ++this.stamp;
    const found: number[] = [];
    this.forCells(box, (cell) => {
      const items = this.cells[cell];
      if (!items) return;
      this.budget.spend(items.length);
      for (const item of items) {
        if (this.seen[item] === stamp) continue;
        this.seen[item] = stamp;
        found.push(item);
      }
    });
    // What a caller does with each item found (measure it, perhaps report it) costs more than looking at it.
    this.budget.spend(found.length * FOUND_COST);
    return found;
  }

  private forCells(box: Box, visit: (cell: number) => void): void {
    const cell = (v: number, origin: number, count: number) => {
      const i = Math.floor((v - origin) / this.cellSize);
      return Number.isNaN(i) ? 0 : Math.min(count - 1, Math.max(0, i));
    };
    const [c1, c2, r1, r2] = [cell(box.x1, this.extent.x1, this.columns), cell(box.x2, this.extent.x1, this.columns), cell(box.y1, this.extent.y1, this.rows), cell(box.y2, this.extent.y1, this.rows)];
    for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) visit(r * this.columns + c);
  }
}

/** The median of the boxes' longer sides (0 for none, and for sizes too large to be numbers). */
function typicalSize(boxes: readonly Box[]): number {
  if (boxes.length === 0) return 0;
  const sizes = Float64Array.from(boxes, (b) => Math.max(b.x2 - b.x1, b.y2 - b.y1)).sort();
  const median = sizes[sizes.length >> 1]!;
  return Number.isFinite(median) ? median : 0;
}
