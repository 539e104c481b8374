/**
 * Values by key in memory, bounded by the sum of their sizes: the least
 * recently used go first past the bound, and a value larger than a quarter of
 * it is not kept at all (one value may not push every other out). The
 * caches of recently read scenes, prepared read answers and recent renders
 * are each one of these.
 */
export class SizeBoundedLru<K, V> {
  private readonly entries = new Map<K, V>();
  private total = 0;

  private readonly maxTotal: number;
  private readonly sizeOf: (value: V) => number;
  constructor(maxTotal: number, sizeOf: (value: V) => number) {
    this.maxTotal = maxTotal;
    this.sizeOf = sizeOf;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** The value, its place in the order unchanged. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` under `key` (replacing what was there) unless it is over a quarter of the bound. */
  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    if (size > this.maxTotal / 4) return;
    this.entries.set(key, value);
    this.total += size;
    for (const [oldest, old] of this.entries) {
      if (this.total <= this.maxTotal) break;
      this.entries.delete(oldest);
      this.total -= this.sizeOf(old);
    }
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.total -= this.sizeOf(value);
  }
}
