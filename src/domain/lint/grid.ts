import type { Box } from './geometry.ts';

/** At most this many cells along either side of the grid, however spread out the scene is. */
const MAX_CELLS_PER_SIDE = 1024;

/**
 * A uniform grid over a fixed extent holding numbered items by their boxes, so
 * that finding what lies near a box costs about the number of items found,
 * not the number of items in the scene. Cells are sized for about one item each.
 */
export class SpatialGrid {
  private readonly cells: number[][] = [];
  private readonly cellSize: number;
  private readonly columns: number;
  private readonly rows: number;
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(
    private readonly extent: Box,
    capacity: number,
  ) {
    const [width, height] = [extent.x2 - extent.x1, extent.y2 - extent.y1];
    this.cellSize = Math.max(1, Math.sqrt((width * height) / Math.max(1, capacity)), width / MAX_CELLS_PER_SIDE, height / MAX_CELLS_PER_SIDE);
    // An extent too large for floating point (coordinates near 1e308) gets a single cell.
    this.columns = Number.isFinite(this.cellSize) ? Math.floor(width / this.cellSize) + 1 : 1;
    this.rows = Number.isFinite(this.cellSize) ? Math.floor(height / this.cellSize) + 1 : 1;
    this.seen = new Uint32Array(capacity);
  }

  insert(item: number, box: Box): void {
    this.forCells(box, (cell) => (this.cells[cell] ??= []).push(item));
  }

  /** Each item whose box shares a cell with `box`, once: a superset of the items whose boxes touch it. */
  near(box: Box): number[] {
    const stamp = ++this.stamp;
    const found: number[] = [];
    this.forCells(box, (cell) => {
      for (const item of this.cells[cell] ?? []) {
        if (this.seen[item] === stamp) continue;
        this.seen[item] = stamp;
        found.push(item);
      }
    });
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
