import { SizeBoundedLru } from '../domain/size-bounded-lru.ts';

/**
 * Scene elements by (diagram id, content revision), least recently used first
 * out, bounded in bytes. A content write always moves `docUpdatedAt`, so an
 * entry can never be stale: a changed scene has a new key.
 */
export class ElementsCache {
  private readonly entries: SizeBoundedLru<string, string>;

  constructor(maxBytes: number) {
    this.entries = new SizeBoundedLru(maxBytes, (elementsJson) => elementsJson.length);
  }

  private static key(id: string, revision: string): string {
    return `${id}\u0000${revision}`;
  }

  get(id: string, revision: string | null): string | undefined {
    return revision === null ? undefined : this.entries.get(ElementsCache.key(id, revision));
  }

  set(id: string, revision: string | null, elementsJson: string): void {
    if (revision !== null) this.entries.set(ElementsCache.key(id, revision), elementsJson);
  }
}
