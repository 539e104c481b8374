/**
 * The live connections open on this instance, by session and by person, so
 * that neither can hold more than its share: when a new connection takes a
 * session or a person over their cap, the connection of theirs that has been
 * quiet longest is closed (an editor tab left open somewhere, most likely).
 */

export interface TrackedConnection {
  /** The session's id hash. */
  sessionKey: string;
  userId: string;
  /**
   * When the client last sent a message (or connected), as an ordinal of this
   * instance's live activity: later is larger, and no two are equal, so the
   * quietest is never a tie (two events in one millisecond still have an order).
   */
  lastActivity(): number;
  /** Closes the connection to make room for a newer one. */
  evict(): void;
}

export interface ConnectionCaps {
  perSession: number;
  perUser: number;
}

export class LiveConnections {
  private readonly caps: ConnectionCaps;
  private readonly bySession = new Map<string, Set<TrackedConnection>>();
  private readonly byUser = new Map<string, Set<TrackedConnection>>();

  constructor(caps: ConnectionCaps) {
    this.caps = caps;
  }

  /** How many connections are tracked. */
  get size(): number {
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  /** Counts a new connection in, closing the least recently active others of its session, then of its person, that go over a cap. */
  admit(connection: TrackedConnection): void {
    add(this.bySession, connection.sessionKey, connection);
    add(this.byUser, connection.userId, connection);
    this.trim(this.bySession.get(connection.sessionKey)!, this.caps.perSession, connection);
    this.trim(this.byUser.get(connection.userId)!, this.caps.perUser, connection);
  }

  remove(connection: TrackedConnection): void {
    drop(this.bySession, connection.sessionKey, connection);
    drop(this.byUser, connection.userId, connection);
  }

  private trim(group: Set<TrackedConnection>, cap: number, newcomer: TrackedConnection): void {
    while (group.size > cap) {
      let quietest: TrackedConnection | null = null;
      for (const candidate of group) {
        if (candidate !== newcomer && (quietest === null || candidate.lastActivity() < quietest.lastActivity())) quietest = candidate;
      }
      if (quietest === null) return;
      this.remove(quietest);
      quietest.evict();
    }
  }
}

function add(index: Map<string, Set<TrackedConnection>>, key: string, connection: TrackedConnection): void {
  let group = index.get(key);
  if (!group) index.set(key, (group = new Set()));
  group.add(connection);
}

function drop(index: Map<string, Set<TrackedConnection>>, key: string, connection: TrackedConnection): void {
  const group = index.get(key);
  if (!group?.delete(connection)) return;
  if (group.size === 0) index.delete(key);
}
