/**
 * The editor's live session with a diagram's room: the socket
 * (live-connection.ts), the element merge (live-elements.ts) and presence
 * (live-presence.ts) put together, and the save state the top bar shows.
 * No React here: the editor reaches the client through `changed`,
 * `presence` and the callbacks, so the whole exchange runs in Node against
 * a fake socket.
 *
 * The person's changes go out a moment after they are made (`sendDelayMs`,
 * so a stroke being drawn travels a few times a second, not on every pointer
 * move); the server stores them shortly after and says so (`saved`). While
 * the socket is down, changes stay in the scene and go out after the
 * reconnect, merged with whatever the room holds by then.
 */
import { browserTimers, LiveConnection, type LiveSocket, type Timers } from './live-connection.ts';
import { ElementSync, type EditorFunctions, type SceneAccess } from './live-elements.ts';
import { OwnPresence, PeerList } from './live-presence.ts';
import type { GoneReason, LivePeer, LiveRole, SceneElement, ServerMessage } from './live-protocol.ts';

export type LiveStatus =
  /** Before the room first answered. */
  | { kind: 'connecting' }
  /** Every change the person made is stored. */
  | { kind: 'saved' }
  /** Some change is on its way or waiting for the server to store it. */
  | { kind: 'saving' }
  /** The socket dropped; changes are kept and sent after the reconnect. */
  | { kind: 'offline' }
  /** The server refused a change (too large, malformed): it is tried again with the next change. */
  | { kind: 'failed'; message: string }
  /** The diagram is gone for this person (deleted, no longer shared, signed out): nothing more is sent. */
  | { kind: 'gone'; reason: GoneReason };

export interface LiveClientOptions {
  url: string;
  editor: EditorFunctions;
  /** The scene as the page read it, and that read's revision. */
  loaded: { elements: readonly SceneElement[]; docUpdatedAt: string };
  /** Where the room's changes go and the person's come from. */
  scene: SceneAccess;
  onStatus(status: LiveStatus): void;
  /** The others in the room changed: who is here, where their pointers are. */
  onPeers(peers: LivePeer[]): void;
  /** What this person may do here, from the room's welcome and whenever their access changes. */
  onRole(role: LiveRole): void;
  /** Images for elements that show them (catalog icons), in the editor's `files` form. */
  onFiles(files: Record<string, unknown>): void;
  /** The diagram's stored revision moved on. */
  onRevision(docUpdatedAt: string): void;
  openSocket?: (url: string) => LiveSocket;
  timers?: Timers;
  /** How long changes gather before they are sent. */
  sendDelayMs?: number;
  presenceIntervalMs?: number;
  idleAfterMs?: number;
  reconnectDelayMs?: number;
  random?: () => number;
  now?: () => number;
}

export const SEND_DELAY_MS = 80;

export class LiveClient {
  /** The person's own pointer, selection and status. */
  readonly presence: OwnPresence;
  private readonly options: LiveClientOptions;
  private readonly timers: Timers;
  private readonly connection: LiveConnection;
  private readonly elements: ElementSync;
  private readonly peers = new PeerList();
  private role: LiveRole | null = null;
  private welcomed = false;
  private dropped = false;
  private goneReason: GoneReason | null = null;
  private failure: string | null = null;
  private seq = 0;
  /** The revision of the last `scene` taken since the welcome, sent with each change so the room knows what it was made on. */
  private sceneBasis: string | null = null;
  private sendTimer: unknown = null;
  private docUpdatedAt: string;
  private status: LiveStatus = { kind: 'connecting' };

  constructor(options: LiveClientOptions) {
    this.options = options;
    this.timers = options.timers ?? browserTimers;
    this.docUpdatedAt = options.loaded.docUpdatedAt;
    this.elements = new ElementSync(options.editor, options.loaded.elements);
    this.connection = new LiveConnection({
      url: options.url,
      onMessage: (message) => this.receive(message),
      onDropped: () => this.droppedConnection(),
      openSocket: options.openSocket,
      timers: this.timers,
      initialDelayMs: options.reconnectDelayMs,
      random: options.random,
    });
    this.presence = new OwnPresence({
      send: (update) => this.welcomed && this.connection.send({ type: 'presence', ...update }),
      // Input opens again a connection the server closed as unused.
      onInput: () => this.connection.wake(),
      timers: this.timers,
      minIntervalMs: options.presenceIntervalMs,
      idleAfterMs: options.idleAfterMs,
      now: options.now,
    });
  }

  start(): void {
    this.connection.start();
  }

  /** The person changed the scene (or only the view: then nothing is sent). */
  changed(): void {
    this.connection.wake();
    if (!this.mayEdit()) return;
    if (this.sendTimer === null && this.elements.changes(this.options.scene).length > 0) {
      this.sendTimer = this.timers.setTimeout(() => {
        this.sendTimer = null;
        this.send();
      }, this.options.sendDelayMs ?? SEND_DELAY_MS);
    }
    this.refreshStatus();
  }

  /** The diagram's newest stored revision this page knows of. */
  revision(): string {
    return this.docUpdatedAt;
  }

  /** Whether leaving now would lose a change. */
  hasUnsavedWork(): boolean {
    return this.role === 'editor' && this.goneReason === null && this.elements.hasUnsaved(this.options.scene);
  }

  /** Reconnects at once if the socket is down (the browser is back online). */
  reconnectNow(): void {
    this.connection.reconnectNow();
  }

  stop(): void {
    if (this.sendTimer !== null) this.timers.clearTimeout(this.sendTimer);
    this.sendTimer = null;
    this.presence.stop();
    this.connection.stop();
  }

  private mayEdit(): boolean {
    return this.goneReason === null && this.role !== 'viewer';
  }

  private send(): void {
    if (!this.welcomed || this.role !== 'editor') return;
    const elements = this.elements.take(this.options.scene, this.seq + 1);
    if (elements.length > 0) {
      this.seq += 1;
      this.connection.send({ type: 'elements', seq: this.seq, elements, ...(this.sceneBasis === null ? {} : { scene: this.sceneBasis }) });
    }
    this.refreshStatus();
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'welcome': {
        this.welcomed = true;
        this.dropped = false;
        this.sceneBasis = null;
        this.setRole(message.role);
        this.peers.welcome(message.you, message.peers);
        this.options.onPeers(this.peers.list());
        this.options.onFiles(message.files ?? {});
        this.elements.welcome(this.options.scene, message.elements);
        this.moveRevision(message.docUpdatedAt);
        this.presence.resend();
        // What the person changed while away goes out now, merged with the room's scene.
        this.send();
        break;
      }
      case 'elements':
        this.elements.receive(this.options.scene, message.elements);
        if (message.docUpdatedAt) this.moveRevision(message.docUpdatedAt);
        // A copy the person is editing right now was kept over the room's: it goes back out.
        this.changed();
        break;
      case 'scene':
        // A write replaced the whole scene: it replaces the person's too, changes made on the old one included.
        if (this.sendTimer !== null) this.timers.clearTimeout(this.sendTimer);
        this.sendTimer = null;
        this.sceneBasis = message.docUpdatedAt;
        this.failure = null;
        this.options.onFiles(message.files ?? {});
        this.elements.replaceAll(this.options.scene, message.elements);
        this.moveRevision(message.docUpdatedAt);
        break;
      case 'files':
        this.options.onFiles(message.files);
        break;
      case 'saved':
        this.elements.saved(message.upTo);
        this.failure = null;
        this.moveRevision(message.docUpdatedAt);
        break;
      case 'revision':
        this.moveRevision(message.docUpdatedAt);
        break;
      case 'joined':
      case 'presence':
        this.peers.update(message.peer);
        this.options.onPeers(this.peers.list());
        break;
      case 'left':
        this.peers.left(message.peerId);
        this.options.onPeers(this.peers.list());
        break;
      case 'role':
        this.setRole(message.role);
        break;
      case 'error':
        // A refused presence update is of no consequence; a refused change is shown until a later one is stored.
        if (message.seq === undefined) break;
        this.elements.refused(message.seq);
        this.failure = message.message;
        break;
      case 'gone':
        this.goneReason = message.reason;
        this.welcomed = false;
        this.stop();
        this.peers.clear();
        this.options.onPeers([]);
        break;
    }
    this.refreshStatus();
  }

  private droppedConnection(): void {
    this.welcomed = false;
    this.dropped = true;
    this.peers.clear();
    this.options.onPeers([]);
    this.refreshStatus();
  }

  private setRole(role: LiveRole): void {
    if (role === this.role) return;
    this.role = role;
    if (role === 'viewer' && this.sendTimer !== null) {
      this.timers.clearTimeout(this.sendTimer);
      this.sendTimer = null;
    }
    this.options.onRole(role);
  }

  /** Revisions are ISO instants that only increase: an older one arriving late says nothing. */
  private moveRevision(docUpdatedAt: string): void {
    if (docUpdatedAt <= this.docUpdatedAt) return;
    this.docUpdatedAt = docUpdatedAt;
    this.options.onRevision(docUpdatedAt);
  }

  private currentStatus(): LiveStatus {
    if (this.goneReason !== null) return { kind: 'gone', reason: this.goneReason };
    if (!this.welcomed) return this.dropped ? { kind: 'offline' } : { kind: 'connecting' };
    if (this.role === 'viewer') return { kind: 'saved' };
    if (this.failure !== null) return { kind: 'failed', message: this.failure };
    return this.elements.hasUnsaved(this.options.scene) ? { kind: 'saving' } : { kind: 'saved' };
  }

  private refreshStatus(): void {
    const next = this.currentStatus();
    const same = next.kind === this.status.kind && JSON.stringify(next) === JSON.stringify(this.status);
    if (same) return;
    this.status = next;
    this.options.onStatus(next);
  }
}
