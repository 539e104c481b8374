/**
 * The live bus: how the instances of the service (one process on SQLite,
 * any number on one PostgreSQL) tell one another that a diagram changed, that
 * someone's access changed, and relay what people in a live room do. On
 * PostgreSQL it is LISTEN/NOTIFY on one channel; on SQLite an in-process
 * emitter. Content writes announce themselves in their own transaction, so a
 * notice is heard once the write is committed and never for a write rolled
 * back. Nothing polls the database.
 */
import { EventEmitter } from 'node:events';

/** The PostgreSQL channel every instance listens on. */
export const LIVE_CHANNEL = 'drawbridge_live';

/** What a content write changed, for rooms to take from the store: ids changed or added ('all' for a large write), ids removed. */
export interface ContentChange {
  changed: string[] | 'all';
  removed: string[];
}

export type LiveNotice =
  /**
   * A content write committed. `origin`: the hub instance that wrote it from a live room (absent: the API, MCP, CLI, a restore).
   * `replaced`: the write put a whole scene in place as supplied (a regenerate from a scene): rooms take the stored scene
   * instead of merging it, and drop changes made on the one it replaced.
   */
  | ({ type: 'content'; diagramId: string; docUpdatedAt: string; origin?: string; replaced?: true } & ContentChange)
  /** What happens in a live room on one instance, for the same room on the others. */
  | { type: 'relay'; diagramId: string; origin: string; event: Record<string, unknown> }
  /** Who may see a diagram changed (a share, a membership, the trash, a deletion): rooms check their people again. */
  | { type: 'access'; diagramId?: string; workspaceId?: string; userId?: string }
  /** A person's sessions ended (signed out, password reset): rooms check those people's sessions again. */
  | { type: 'sessions'; userId: string };

export type LiveListener = (notice: LiveNotice) => void;

export interface LiveBus {
  /** Sends a notice to every instance, this one included. */
  publish(notice: LiveNotice): Promise<void>;
  /** Sends several notices together, in order (on PostgreSQL in one transaction: one pooled connection, one commit). */
  publishAll(notices: LiveNotice[]): Promise<void>;
  subscribe(listener: LiveListener): () => void;
  /** Called after the bus lost notices (the listening connection dropped and came back): rooms read the store again. */
  onResync(listener: () => void): () => void;
  close(): Promise<void>;
}

/** The bus of a single process (SQLite): an emitter, asynchronous so a publisher never runs its listeners' work. */
export class InProcessBus implements LiveBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(notice: LiveNotice): Promise<void> {
    queueMicrotask(() => this.emitter.emit('notice', notice));
  }

  async publishAll(notices: LiveNotice[]): Promise<void> {
    for (const notice of notices) await this.publish(notice);
  }

  subscribe(listener: LiveListener): () => void {
    this.emitter.on('notice', listener);
    return () => this.emitter.off('notice', listener);
  }

  onResync(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
