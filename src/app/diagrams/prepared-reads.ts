import type { DiagramMeta } from '../../store/store.ts';
import { SizeBoundedLru } from '../../domain/size-bounded-lru.ts';
import { diagramEtag, etagInputs } from './etag.ts';

/** The server's memory for prepared read answers (bytes of JSON). */
export const PREPARED_READS_BYTES = 64 * 1024 * 1024;

/** What a diagram's read answers, prepared once for the revision its ETag names. */
export interface PreparedRead {
  etag: string;
  /** The whole answer body, UTF-8: sent as it is, with no scene parsed or serialised. */
  body: Buffer;
}

interface Entry extends PreparedRead {
  /** The fields the ETag digests, as text: equal text, equal ETag, so the digest is not taken again. */
  inputs: string;
}

/**
 * The read answers of recently read diagrams, one per diagram (its latest
 * revision read), least recently used first out, bounded in bytes. An entry
 * is used only while every field its ETag covers is unchanged, so it is
 * never stale: any write that changes the answer changes those fields.
 */
export class PreparedReads {
  private readonly entries: SizeBoundedLru<string, Entry>;

  constructor(maxBytes: number) {
    this.entries = new SizeBoundedLru(maxBytes, (entry) => entry.body.length);
  }

  /** The diagram's ETag: from the entry when its fields are unchanged, else digested. */
  etagOf(d: DiagramMeta, publicUrl: string): string {
    const entry = this.entries.peek(d.id);
    return entry !== undefined && entry.inputs === etagInputs(d, publicUrl) ? entry.etag : diagramEtag(d, publicUrl);
  }

  /** The prepared answer for the diagram as `d` describes it, if there is one. */
  get(d: DiagramMeta, publicUrl: string): PreparedRead | undefined {
    const entry = this.entries.peek(d.id);
    return entry !== undefined && entry.inputs === etagInputs(d, publicUrl) ? this.entries.get(d.id) : undefined;
  }

  /** Prepares `body` as the answer for the diagram as `d` describes it (its elements included in the body). */
  set(d: DiagramMeta, publicUrl: string, body: string): PreparedRead {
    const read = { etag: diagramEtag(d, publicUrl), body: Buffer.from(body, 'utf8') };
    this.entries.set(d.id, { ...read, inputs: etagInputs(d, publicUrl) });
    return read;
  }
}
