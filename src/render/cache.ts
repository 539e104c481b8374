/**
 * Rendered images on disk under DATA_DIR, keyed by a hash of what was
 * rendered (scene content, quality, format, renderer version), bounded in
 * total size: the least recently used go first. An unchanged scene gets the
 * same bytes back; any edit changes the content, hence the key.
 *
 * Each entry is one file: a 4-byte header length, a JSON header (the notes
 * that travel with the image), the image bytes, then a SHA-256 of everything
 * before it. Files are written to a temporary name and renamed, so a reader
 * never sees half an entry; servers sharing a DATA_DIR may evict each other's
 * files, which reads as a miss. A file that fails its checks anyway (a disk
 * error, a hand edit, the format before the checksum) also reads as a miss:
 * it is deleted, so the caller renders afresh and stores a good entry.
 *
 * The most recently used entries are also held in memory (a share of the
 * bound, see MEMORY_SHARE): a hit there reads no file and checks no sum.
 */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { SizeBoundedLru } from '../domain/size-bounded-lru.ts';

export interface CachedRender {
  bytes: Buffer;
  imagesTruncated: boolean;
  textTruncated: boolean;
}

interface Header {
  imagesTruncated?: boolean;
  textTruncated?: boolean;
}

/** Where the cache reports an entry it found damaged and dropped. */
export interface RenderCacheLog {
  warn(fields: { key: string; reason: string }, message: string): void;
}

const LENGTH_BYTES = 4;
const CHECKSUM_BYTES = 32;
/** Far above any header put writes; a larger length is damage, not a header. */
const MAX_HEADER_BYTES = 4096;
/** The share of the cache's bound its in-memory copies may take, up to MEMORY_MAX_BYTES. */
const MEMORY_SHARE = 1 / 8;
const MEMORY_MAX_BYTES = 64 * 1024 * 1024;

export function renderCacheKey(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest('hex');
}

export class RenderCache {
  private readonly directory: string;
  private readonly maxBytes: number;
  /** Key → size on disk, least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, number>();
  private totalBytes = 0;
  private loaded: Promise<void> | undefined;
  private readonly log: RenderCacheLog | undefined;
  /** Recently used entries as read or written; each is also on disk. */
  private readonly memory: SizeBoundedLru<string, CachedRender>;

  constructor(directory: string, maxBytes: number, log?: RenderCacheLog) {
    this.directory = directory;
    this.maxBytes = maxBytes;
    this.memory = new SizeBoundedLru(Math.min(MEMORY_MAX_BYTES, Math.floor(maxBytes * MEMORY_SHARE)), (render) => render.bytes.length);
    this.log = log;
  }

  async get(key: string): Promise<CachedRender | undefined> {
    const held = this.memory.get(key);
    if (held !== undefined && this.entries.has(key)) {
      // Not on disk: a hit in memory costs no system call (the file's time is from its last read or write).
      this.touch(key, this.entries.get(key)!, false);
      return held;
    }
    await this.load();
    if (!this.entries.has(key)) return undefined;
    let file: Buffer;
    try {
      file = await fsp.readFile(this.fileOf(key));
    } catch {
      this.drop(key);
      return undefined;
    }
    const entry = parseEntry(file);
    if (typeof entry === 'string') {
      // A concurrent reader of the same damaged file may have dropped it already: report it once.
      if (this.entries.has(key)) this.log?.warn({ key, reason: entry }, 'damaged render cache entry dropped; rendering afresh');
      this.drop(key);
      await fsp.rm(this.fileOf(key), { force: true });
      return undefined;
    }
    this.touch(key, file.length);
    this.memory.set(key, entry);
    return entry;
  }

  async put(key: string, render: CachedRender): Promise<void> {
    await this.load();
    const file = formatEntry(render);
    if (file.length > this.maxBytes) return;
    const target = this.fileOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await fsp.writeFile(temporary, file);
    await fsp.rename(temporary, target);
    this.drop(key);
    this.entries.set(key, file.length);
    this.totalBytes += file.length;
    this.memory.set(key, render);
    await this.evict();
  }

  /** Bytes the cache holds on disk, as this process knows it. */
  size(): number {
    return this.totalBytes;
  }

  private fileOf(key: string): string {
    return path.join(this.directory, key.slice(0, 2), key);
  }

  /** Marks an entry used: last out, in this process and (`onDisk`) across a restart. */
  private touch(key: string, size: number, onDisk = true): void {
    const known = this.entries.get(key);
    if (known !== undefined) {
      this.entries.delete(key);
      this.totalBytes -= known;
    }
    this.entries.set(key, size);
    this.totalBytes += size;
    if (!onDisk) return;
    // The order survives a restart through the files' modification times.
    const now = new Date();
    fsp.utimes(this.fileOf(key), now, now).catch(() => {});
  }

  private drop(key: string): void {
    this.memory.delete(key);
    const size = this.entries.get(key);
    if (size === undefined) return;
    this.entries.delete(key);
    this.totalBytes -= size;
  }

  private async evict(): Promise<void> {
    for (const key of this.entries.keys()) {
      if (this.totalBytes <= this.maxBytes) return;
      this.drop(key);
      await fsp.rm(this.fileOf(key), { force: true });
    }
  }

  /** Reads what a previous run left, oldest first, once. */
  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const found: Array<{ key: string; size: number; usedAt: number }> = [];
      for (const shard of await fsp.readdir(this.directory).catch(() => [] as string[])) {
        const shardDirectory = path.join(this.directory, shard);
        for (const name of await fsp.readdir(shardDirectory).catch(() => [] as string[])) {
          const file = path.join(shardDirectory, name);
          const stat = await fsp.stat(file).catch(() => undefined);
          // A temporary file an hour old was abandoned by a writer that died.
          if (name.endsWith('.tmp')) {
            if (stat && Date.now() - stat.mtimeMs > 3_600_000) await fsp.rm(file, { force: true });
            continue;
          }
          if (stat?.isFile()) found.push({ key: name, size: stat.size, usedAt: stat.mtimeMs });
        }
      }
      for (const { key, size } of found.sort((a, b) => a.usedAt - b.usedAt)) {
        this.entries.set(key, size);
        this.totalBytes += size;
      }
      await this.evict();
    })();
    return this.loaded;
  }
}

function formatEntry(render: CachedRender): Buffer {
  const notes: Header = {
    ...(render.imagesTruncated ? { imagesTruncated: true } : {}),
    ...(render.textTruncated ? { textTruncated: true } : {}),
  };
  const header = Buffer.from(JSON.stringify(notes), 'utf8');
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32BE(header.length, 0);
  const content = Buffer.concat([length, header, render.bytes]);
  return Buffer.concat([content, createHash('sha256').update(content).digest()]);
}

/** The render a file holds, or why it holds none. */
function parseEntry(file: Buffer): CachedRender | string {
  if (file.length < LENGTH_BYTES + CHECKSUM_BYTES) return `short file (${file.length} bytes)`;
  const content = file.subarray(0, file.length - CHECKSUM_BYTES);
  if (!createHash('sha256').update(content).digest().equals(file.subarray(content.length))) return 'checksum mismatch';
  const headerLength = content.readUInt32BE(0);
  if (headerLength > MAX_HEADER_BYTES || LENGTH_BYTES + headerLength > content.length) return `header length ${headerLength} out of range`;
  let header: unknown;
  try {
    header = JSON.parse(content.subarray(LENGTH_BYTES, LENGTH_BYTES + headerLength).toString('utf8'));
  } catch {
    return 'unparseable header';
  }
  if (typeof header !== 'object' || header === null) return 'unparseable header';
  const { imagesTruncated, textTruncated } = header as Header;
  return { bytes: content.subarray(LENGTH_BYTES + headerLength), imagesTruncated: imagesTruncated === true, textTruncated: textTruncated === true };
}
