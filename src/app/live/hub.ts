/**
 * The live hub of one instance: a room per diagram someone has open here,
 * a peer per connection, and the live bus that joins this instance to the
 * others (LiveNotice): content writes from outside the rooms, access and
 * session changes, and the rooms' relays.
 */
import { randomUUID } from 'node:crypto';
import type { LiveElement } from '../../domain/live/reconcile.ts';
import type { LiveNotice } from '../../store/store.ts';
import type { AppDeps } from '../deps.ts';
import { diagramWithElementsFor, mayActOnDiagram } from '../access.ts';
import type { Session } from '../sessions/sessions.ts';
import { LiveConnections } from './connections.ts';
import { ClientMessage, displayName, type LiveRole, type Peer, peerColor } from './protocol.ts';
import { RelayOutbox } from './relay-outbox.ts';
import { type PeerConnection, type RelayEvent, Room, type RoomHost } from './room.ts';

/** How often each room tells the other instances who is here, and drops peers of instances that went quiet. */
const ANNOUNCE_MS = 20_000;

export interface LiveLogger {
  warn(details: object, message: string): void;
}

/** One connection's way into its room: hand it each message received, and `leave` when the connection closes. */
export interface PeerHandle {
  peerId: string;
  role: LiveRole;
  receive(message: unknown): void;
  leave(): void;
}

export class LiveHub {
  readonly instanceId = randomUUID();
  private readonly deps: AppDeps;
  private readonly logger: LiveLogger;
  private readonly rooms = new Map<string, Room>();
  private readonly opening = new Map<string, Promise<Room>>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly announcing: NodeJS.Timeout;
  private readonly host: RoomHost;
  private readonly outbox: RelayOutbox;
  /** The connections open here, by session and person, within the caps of the settings. */
  readonly connections: LiveConnections;

  constructor(deps: AppDeps, logger: LiveLogger) {
    this.deps = deps;
    this.logger = logger;
    this.connections = new LiveConnections({ perSession: deps.config.liveConnectionsPerSession, perUser: deps.config.liveConnectionsPerUser });
    this.outbox = new RelayOutbox(
      this.instanceId,
      (notices) => deps.store.live.publishAll(notices),
      (error) => this.logger.warn({ err: error }, 'live relay to the other instances failed'),
    );
    this.host = {
      deps,
      instanceId: this.instanceId,
      relay: (diagramId, event) => this.relay(diagramId, event),
      log: (error, message) => this.logger.warn({ err: error }, message),
      closed: (room) => {
        if (this.rooms.get(room.diagramId) === room) this.rooms.delete(room.diagramId);
      },
    };
    this.unsubscribe.push(deps.store.live.subscribe((notice) => this.hear(notice)));
    this.unsubscribe.push(deps.store.live.onResync(() => this.resync()));
    this.announcing = setInterval(() => {
      const now = Date.now();
      for (const room of this.rooms.values()) {
        room.announcePeers();
        room.expireRemotePeers(now);
      }
    }, ANNOUNCE_MS);
    this.announcing.unref();
  }

  /** How many people are connected here, in how many rooms, and what waits to go out (for tests and operators). */
  stats(): { rooms: number; peers: number; connections: number; presencePending: number; relayWaiting: number; relaySending: boolean } {
    let peers = 0;
    let presencePending = 0;
    for (const room of this.rooms.values()) {
      peers += room.size;
      presencePending += room.presencePending;
    }
    const relay = this.outbox.stats();
    return { rooms: this.rooms.size, peers, connections: this.connections.size, presencePending, relayWaiting: relay.waiting, relaySending: relay.sending };
  }

  /**
   * Joins a person to a diagram's room (opening it if need be) once the
   * transport has checked they may read it; their connection gets `welcome`
   * first. Throws not_found if they may not read it (any more).
   */
  async join(session: Session, diagramId: string, connection: PeerConnection): Promise<PeerHandle> {
    const role: LiveRole = (await mayActOnDiagram(this.deps, session, diagramId, 'write')) ? 'editor' : 'viewer';
    const peer: Peer = {
      peerId: randomUUID(),
      userId: session.user.id,
      name: displayName(session.user),
      email: session.user.email,
      color: peerColor(session.user.id),
      pointer: null,
      button: 'up',
      selectedElementIds: {},
      status: 'active',
    };
    const room = await this.roomFor(session, diagramId);
    const local = { peer, session, role, connection };
    room.add(local);
    return {
      peerId: peer.peerId,
      get role() {
        return local.role;
      },
      receive: (raw) => {
        const parsed = ClientMessage.safeParse(raw);
        if (!parsed.success) {
          const seq = seqOf(raw);
          const message = `not a message of the live protocol: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`;
          connection.send(JSON.stringify({ type: 'error', code: 'bad_request', message, ...(seq === undefined ? {} : { seq }) }));
          return;
        }
        const message = parsed.data;
        if (message.type === 'elements') room.receiveElements(peer.peerId, message.seq, message.elements, message.scene);
        else room.receivePresence(peer.peerId, message);
      },
      leave: () => room.remove(peer.peerId),
    };
  }

  private async roomFor(session: Session, diagramId: string): Promise<Room> {
    for (;;) {
      const open = this.rooms.get(diagramId);
      if (open && !open.isClosing) return open;
      if (open) {
        // The last person just left and the room is writing what is left: wait, then open it afresh.
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      let opening = this.opening.get(diagramId);
      if (!opening) {
        opening = this.openRoom(session, diagramId).finally(() => this.opening.delete(diagramId));
        this.opening.set(diagramId, opening);
      }
      return opening;
    }
  }

  private async openRoom(session: Session, diagramId: string): Promise<Room> {
    const diagram = await diagramWithElementsFor(this.deps, session, diagramId, 'read');
    const room = new Room(this.host, diagram.id, JSON.parse(diagram.elementsJson) as LiveElement[], diagram.docUpdatedAt ?? diagram.updatedAt);
    this.rooms.set(diagram.id, room);
    this.relay(diagram.id, { kind: 'hello' });
    return room;
  }

  private relay(diagramId: string, event: RelayEvent): void {
    this.outbox.add(diagramId, event);
  }

  private hear(notice: LiveNotice): void {
    const work = this.dispatch(notice);
    if (work) work.catch((error: unknown) => this.logger.warn({ err: error }, 'live notice could not be handled'));
  }

  private dispatch(notice: LiveNotice): Promise<unknown> | null {
    switch (notice.type) {
      case 'relay': {
        if (notice.origin === this.instanceId) return null;
        this.rooms.get(notice.diagramId)?.receiveRelay(notice.event as RelayEvent, Date.now());
        return null;
      }
      case 'content': {
        if (notice.origin === this.instanceId) return null;
        return this.rooms.get(notice.diagramId)?.receiveContent(notice) ?? null;
      }
      case 'access': {
        const rooms = notice.diagramId !== undefined ? [this.rooms.get(notice.diagramId)].filter((r) => r !== undefined) : [...this.rooms.values()];
        return Promise.all(rooms.map((room) => room.recheck(notice.diagramId === undefined ? notice.userId : undefined)));
      }
      case 'sessions':
        return Promise.all([...this.rooms.values()].map((room) => room.recheck(notice.userId)));
    }
  }

  /** The bus may have dropped notices: every room reads the store again and everyone is checked again. */
  private resync(): void {
    for (const room of this.rooms.values()) {
      room.takeStored({ changed: 'all', removed: [] }).catch((error: unknown) => this.logger.warn({ err: error }, 'live room could not read the store again'));
      room.announcePeers();
      void room.recheck();
    }
  }

  /** Writes every room's pending changes and closes every connection (the server is closing). */
  async close(): Promise<void> {
    clearInterval(this.announcing);
    for (const stop of this.unsubscribe) stop();
    const rooms = [...this.rooms.values()];
    for (const room of rooms) room.disconnectAll(1001, 'server closing');
    await Promise.all(rooms.map((room) => room.close()));
    await this.outbox.drain();
  }
}

/**
 * The `seq` of an elements message, if it has a usable one: a refusal names
 * it, so the editor sends those changes again instead of waiting for them to
 * be stored.
 */
export function seqOf(message: unknown): number | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, seq } = message as { type?: unknown; seq?: unknown };
  return type === 'elements' && Number.isSafeInteger(seq) && (seq as number) >= 0 ? (seq as number) : undefined;
}
