/**
 * The live bus on PostgreSQL: one LISTEN connection per instance on
 * `drawbridge_live`, notices sent with pg_notify (in a content write's own
 * transaction, so they are delivered at its commit), cut into frames under
 * NOTIFY's 8000-byte limit. When the listening connection drops, it is opened
 * again with a growing wait, and rooms are told to read the store again for
 * what they may have missed.
 */
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { LIVE_CHANNEL, type LiveBus, type LiveListener, type LiveNotice } from '../live-bus.ts';
import { FrameAssembler, toFrames } from '../live-frames.ts';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

export class PostgresLiveBus implements LiveBus {
  private readonly listeners = new Set<LiveListener>();
  private readonly resyncListeners = new Set<() => void>();
  private readonly assembler = new FrameAssembler();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;

  private readonly connectionString: string;
  private readonly pool: pg.Pool;
  constructor(connectionString: string, pool: pg.Pool) {
    this.connectionString = connectionString;
    this.pool = pool;
  }

  /** Sends the notice's frames inside `db`'s transaction (or at once, outside one). */
  static async notifyIn(db: Kysely<any>, notice: LiveNotice): Promise<void> {
    for (const frame of toFrames(notice)) await sql`select pg_notify(${LIVE_CHANNEL}, ${frame})`.execute(db);
  }

  publish(notice: LiveNotice): Promise<void> {
    return this.publishAll([notice]);
  }

  async publishAll(notices: LiveNotice[]): Promise<void> {
    const frames = notices.flatMap((notice) => toFrames(notice));
    if (frames.length === 0) return;
    // One statement, so one round trip and one commit: the frames arrive together and in order.
    await this.pool.query('select pg_notify($1, frame) from unnest($2::text[]) as frame', [LIVE_CHANNEL, frames]);
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    void this.listen();
    return () => this.listeners.delete(listener);
  }

  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /** Resolves once this instance is listening (at once if it already is). */
  listen(): Promise<void> {
    if (this.client !== null || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel !== LIVE_CHANNEL || message.payload === undefined) return;
      let notice: LiveNotice | null;
      try {
        notice = this.assembler.take(message.payload) as LiveNotice | null;
      } catch {
        return;
      }
      if (notice !== null) for (const listener of this.listeners) listener(notice);
    });
    try {
      await client.connect();
      await client.query(`listen ${LIVE_CHANNEL}`);
    } catch {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      this.retry();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    const reconnected = this.retryMs > RECONNECT_MIN_MS;
    this.client = client;
    this.retryMs = RECONNECT_MIN_MS;
    if (reconnected) for (const listener of this.resyncListeners) listener();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners('notification');
    void client.end().catch(() => {});
    // Count the drop as a failed try, so the next connection says notices were missed.
    this.retryMs = Math.max(this.retryMs, RECONNECT_MIN_MS * 2);
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.retryTimer !== null) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.listen();
    }, wait);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.listeners.clear();
    const client = this.client;
    this.client = null;
    await this.connecting?.catch(() => {});
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
