/**
 * Presence: the other people in the diagram as the room reports them, and
 * the person's own pointer, selection and status, sent at most every
 * `minIntervalMs`. The status is `active` while the person works, `idle`
 * after `idleAfterMs` without input, and `away` while the tab is hidden.
 * No React and no socket here.
 */
import type { Timers } from './live-connection.ts';
import type { LivePeer, PeerPointer, PresenceUpdate } from './live-protocol.ts';

/** The others in the room, by connection; this page's own connection is never among them. */
export class PeerList {
  private self: string | null = null;
  private readonly byId = new Map<string, LivePeer>();

  /** The room's list on (re)connecting replaces whatever was known: who left meanwhile is gone. */
  welcome(you: LivePeer, peers: readonly LivePeer[]): void {
    this.self = you.peerId;
    this.byId.clear();
    for (const peer of peers) this.update(peer);
  }

  /** A peer joined or changed its presence. */
  update(peer: LivePeer): void {
    if (peer.peerId === this.self) return;
    this.byId.set(peer.peerId, peer);
  }

  left(peerId: string): void {
    this.byId.delete(peerId);
  }

  clear(): void {
    this.byId.clear();
  }

  /** In the order they arrived. */
  list(): LivePeer[] {
    return [...this.byId.values()];
  }
}

export interface OwnPresenceOptions {
  /** Sends the person's presence; false when it could not be sent (offline): it is sent again on `resend`. */
  send(update: PresenceUpdate): boolean;
  /** The person did something (the idle timer going off is not them). */
  onInput?: () => void;
  timers: Timers;
  minIntervalMs?: number;
  idleAfterMs?: number;
  now?: () => number;
}

export const MIN_INTERVAL_MS = 60;
const IDLE_AFTER_MS = 60_000;

export class OwnPresence {
  private readonly options: OwnPresenceOptions;
  private state: PresenceUpdate = { pointer: null, button: 'up', selectedElementIds: {}, status: 'active' };
  private hidden = false;
  private lastSentAt = -Infinity;
  private sendTimer: unknown = null;
  private idleTimer: unknown = null;
  private dirty = false;
  private stopped = false;

  constructor(options: OwnPresenceOptions) {
    this.options = options;
    this.armIdleTimer();
  }

  pointer(pointer: PeerPointer, button: 'up' | 'down'): void {
    this.options.onInput?.();
    this.armIdleTimer();
    this.change({ pointer, button, status: this.hidden ? 'away' : 'active' });
  }

  selection(selectedElementIds: Record<string, true>): void {
    const current = Object.keys(this.state.selectedElementIds);
    const next = Object.keys(selectedElementIds);
    if (current.length === next.length && next.every((id) => this.state.selectedElementIds[id])) return;
    this.options.onInput?.();
    this.change({ selectedElementIds: { ...selectedElementIds } });
  }

  /** The person did something (moved the pointer, pressed a key): active again, idle only after a quiet minute. */
  activity(): void {
    this.options.onInput?.();
    this.armIdleTimer();
    if (this.state.status !== (this.hidden ? 'away' : 'active')) this.change({ status: this.hidden ? 'away' : 'active' });
  }

  /** The tab was hidden (away) or shown again (active). */
  visibility(hidden: boolean): void {
    this.hidden = hidden;
    this.activity();
  }

  /** Sends the whole presence again: on (re)connecting the room knows nothing of it. */
  resend(): void {
    this.dirty = true;
    this.flush();
  }

  stop(): void {
    this.stopped = true;
    if (this.sendTimer !== null) this.options.timers.clearTimeout(this.sendTimer);
    if (this.idleTimer !== null) this.options.timers.clearTimeout(this.idleTimer);
    this.sendTimer = this.idleTimer = null;
  }

  private armIdleTimer(): void {
    if (this.stopped) return;
    if (this.idleTimer !== null) this.options.timers.clearTimeout(this.idleTimer);
    this.idleTimer = this.options.timers.setTimeout(() => {
      this.idleTimer = null;
      if (!this.hidden) this.change({ status: 'idle' });
    }, this.options.idleAfterMs ?? IDLE_AFTER_MS);
  }

  private change(update: Partial<PresenceUpdate>): void {
    if (this.stopped) return;
    this.state = { ...this.state, ...update };
    this.dirty = true;
    if (this.sendTimer !== null) return;
    const wait = this.lastSentAt + (this.options.minIntervalMs ?? MIN_INTERVAL_MS) - this.now();
    if (wait <= 0) this.flush();
    else
      this.sendTimer = this.options.timers.setTimeout(() => {
        this.sendTimer = null;
        this.flush();
      }, wait);
  }

  private flush(): void {
    if (this.stopped || !this.dirty) return;
    if (this.options.send(this.state)) {
      this.dirty = false;
      this.lastSentAt = this.now();
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
