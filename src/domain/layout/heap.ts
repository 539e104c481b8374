/** A binary min-heap of numbers; callers encode priority and tie-break into one key. */
export class NumberHeap {
  private items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(key: number): void {
    const items = this.items;
    items.push(key);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]! <= key) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = key;
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let i = 0;
    const n = items.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && items[right]! < items[left]! ? right : left;
      if (items[child]! >= last) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
