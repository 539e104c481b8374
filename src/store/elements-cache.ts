/**
 * Scene elements by (diagram id, content revision), least recently used first
 * out, bounded in bytes. A content write always moves `docUpdatedAt`, so an
 * entry can never be stale: a changed scene has a new key.
 */
export class ElementsCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  private static key(id: string, revision: string): string {
    return `${id}\u0000${revision}`;
  }

  get(id: string, revision: string | null): string | undefined {
    if (revision === null) return undefined;
    const key = ElementsCache.key(id, revision);
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(id: string, revision: string | null, elementsJson: string): void {
    if (revision === null || elementsJson.length > this.maxBytes / 4) return;
    const key = ElementsCache.key(id, revision);
    if (this.entries.has(key)) return;
    this.entries.set(key, elementsJson);
    this.bytes += elementsJson.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.length;
    }
  }
}
