/**
 * One diagram's live room on this instance: the people connected here, the
 * merged scene (tombstones included, changes not yet stored included), and
 * the writes that store what they change. Changes that win the merge go at
 * once to the others here and, over the live bus, to the same room on the
 * other instances; they are written shortly after, several at a time,
 * merged into whatever the store holds then. Writes from outside the room
 * (the API, an agent, a restore) arrive as notices: the room reads what they
 * changed and passes on what wins. A write that replaces the whole scene as
 * supplied (a regenerate from a scene) is not merged: the room takes the
 * stored scene as it is, tells everyone here to replace theirs (`scene`), and
 * drops changes made on the scene it replaced, here and relayed.
 */
import { createHash } from 'node:crypto';
import { mayPerform } from '../../auth/policy.ts';
import { isCatalogIcon } from '../../domain/icons/catalog.ts';
import { isDeleted, type LiveElement, LiveScene, mergeIntoStored, wins } from '../../domain/live/reconcile.ts';
import { validateScene } from '../../domain/scene/validate.ts';
import { ApiError } from '../../errors.ts';
import { imageFiles } from '../../render/image-files.ts';
import type { ContentChange, LiveNotice } from '../../store/store.ts';
import type { AppDeps, Caller } from '../deps.ts';
import { writeContent } from '../diagrams/write-content.ts';
import { MAX_SCENE_ELEMENTS } from '../../domain/scene/validate.ts';
import { sessionByHash, type Session } from '../sessions/sessions.ts';
import { GONE_CLOSE_CODES, type GoneReason, type LiveRole, type Peer, type PresenceUpdate, type ServerMessage } from './protocol.ts';

/** Changes are written this long after the first of them, together with those that follow meanwhile. */
const WRITE_DELAY_MS = 200;
/** A write that failed (the database unreachable) is tried again after this long. */
const WRITE_RETRY_MS = 1_000;
/**
 * A peer's presence goes out at most once in this long, the latest state
 * winning: the editor sends it at most every 60 ms, so only a client sending
 * faster waits, and never longer than this.
 */
export const PRESENCE_INTERVAL_MS = 30;

/** A connection as the room sees it; the transport (a WebSocket) behind it is the web app's. */
export interface PeerConnection {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface LocalPeer {
  peer: Peer;
  session: Session;
  role: LiveRole;
  connection: PeerConnection;
}

/** What a room needs from its hub: the deps, this instance's id and the bus. */
export interface RoomHost {
  deps: AppDeps;
  instanceId: string;
  relay(diagramId: string, event: RelayEvent): void;
  log(error: unknown, message: string): void;
  closed(room: Room): void;
}

/** What a room tells the same room on the other instances. */
export type RelayEvent =
  /** `basis`: the revision the sending room's scene started from (see Room.basis); changes made on a replaced scene are dropped. */
  | { kind: 'elements'; elements: LiveElement[]; from: string | null; basis?: string }
  | { kind: 'presence'; peer: Peer }
  | { kind: 'joined'; peer: Peer }
  | { kind: 'left'; peerId: string }
  /** A room opened here and asks who is there elsewhere. */
  | { kind: 'hello' }
  /** Who is here (the answer to hello, and repeated so peers of an instance that died go away). */
  | { kind: 'peers'; peers: Peer[] };

/** Peers of another instance not announced for this long are gone (that instance stopped). */
const REMOTE_PEER_TTL_MS = 50_000;

/**
 * A write waits (WRITE_DELAY_MS each time) at most this many times in a row
 * for the notice of a stored revision the room has not heard of, which may
 * have replaced the scene its changes were made on.
 */
const UNHEARD_WAITS_MAX = 5;

/** A write's changes were made on a scene replaced since: they are dropped. */
class MadeOnReplacedScene extends Error {}
/** The store holds a revision the room has not heard of yet: the write waits for its notice. */
class UnheardRevision extends Error {}
/** Merged into the stored scene, a write's changes change nothing it holds (a tombstone of an element it has not got): no revision is written. */
class NothingToStore extends Error {}

const nonceFor = (id: string, docUpdatedAt: string) => createHash('sha256').update(`${id}\u0000${docUpdatedAt}`).digest().readUInt32BE(0) >>> 1;

export class Room {
  readonly diagramId: string;
  private readonly host: RoomHost;
  private scene: LiveScene;
  private docUpdatedAt: string;
  private readonly local = new Map<string, LocalPeer>();
  private readonly remote = new Map<string, { peer: Peer; seenAt: number }>();
  /** Elements changed here (or to be written again) since the last write. */
  private readonly dirty = new Set<string>();
  /** The people whose changes wait in `dirty`. */
  private readonly contributors = new Map<string, Caller>();
  /** The last seq of each peer whose changes wait to be written. */
  private readonly pendingSeqs = new Map<string, number>();
  /** Elements this room has written: a relayed change that beats one of them is written again (the store keeps no tombstones). */
  private readonly written = new Set<string>();
  private writeTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  /** Whether the last write failed (it is tried again after WRITE_RETRY_MS). */
  private failed = false;
  private closing = false;
  private closed: Promise<void> | null = null;
  /** The revision this room's scene started from: the one read when it opened, or the replacement it took last. */
  private basis: string;
  /** The revision of the last whole-scene replacement heard of ('' for none): changes made on an older scene are dropped. */
  private replacedAt = '';
  /** Each local peer's basis when welcomed: its changes carry no basis of their own until it took a `scene`. */
  private readonly peerBasis = new Map<string, string>();
  /** The replacement being read from the store, and the relayed changes made on it that arrive meanwhile. */
  private replacing: Promise<void> | null = null;
  private readonly heldRelays: Extract<RelayEvent, { kind: 'elements' }>[] = [];
  /** How many times in a row a write waited for an unheard revision (UNHEARD_WAITS_MAX). */
  private unheardWaits = 0;
  /** When each local peer's presence last went out, and the timer of the one waiting to go. */
  private readonly presenceSentAt = new Map<string, number>();
  private readonly presenceWaiting = new Map<string, NodeJS.Timeout>();

  constructor(host: RoomHost, diagramId: string, elements: LiveElement[], docUpdatedAt: string) {
    this.host = host;
    this.diagramId = diagramId;
    this.scene = new LiveScene(elements);
    this.docUpdatedAt = docUpdatedAt;
    this.basis = docUpdatedAt;
  }

  get size(): number {
    return this.local.size;
  }

  peers(): LocalPeer[] {
    return [...this.local.values()];
  }

  private send(peer: LocalPeer, message: ServerMessage): void {
    peer.connection.send(JSON.stringify(message));
  }

  private broadcast(message: ServerMessage, except?: string): void {
    const text = JSON.stringify(message);
    for (const [peerId, peer] of this.local) if (peerId !== except) peer.connection.send(text);
  }

  add(peer: LocalPeer): void {
    this.local.set(peer.peer.peerId, peer);
    this.peerBasis.set(peer.peer.peerId, this.basis);
    const elements = this.scene.visible();
    const peers = [...[...this.local.values()].filter((p) => p !== peer).map((p) => p.peer), ...[...this.remote.values()].map((r) => r.peer)];
    this.send(peer, { type: 'welcome', you: peer.peer, role: peer.role, docUpdatedAt: this.docUpdatedAt, elements, files: imageFiles(elements).files, peers });
    this.broadcast({ type: 'joined', peer: peer.peer }, peer.peer.peerId);
    this.host.relay(this.diagramId, { kind: 'joined', peer: peer.peer });
  }

  remove(peerId: string): void {
    if (!this.local.delete(peerId)) return;
    this.peerBasis.delete(peerId);
    clearTimeout(this.presenceWaiting.get(peerId));
    this.presenceWaiting.delete(peerId);
    this.presenceSentAt.delete(peerId);
    this.broadcast({ type: 'left', peerId });
    this.host.relay(this.diagramId, { kind: 'left', peerId });
    if (this.local.size === 0) void this.close();
  }

  /**
   * An editor's changes: merged, passed on, written shortly after; refused
   * whole (an error, nothing changed) from a viewer or when invalid. `basis`:
   * the revision of the last `scene` the editor took (absent: none since its
   * welcome); changes made on a scene replaced since are dropped, as the
   * editor drops them when it takes the new one.
   */
  receiveElements(peerId: string, seq: number, incoming: unknown[], basis?: string): void {
    const peer = this.local.get(peerId);
    if (!peer) return;
    if (this.replacing !== null || (basis ?? this.peerBasis.get(peerId)) !== this.basis) return;
    if (peer.role !== 'editor') {
      this.send(peer, { type: 'error', code: 'forbidden', message: 'viewers cannot change the diagram', seq });
      return;
    }
    let elements: LiveElement[];
    try {
      elements = validateScene({ elements: incoming }, { isIcon: isCatalogIcon }).elements as LiveElement[];
    } catch (error) {
      const refused = error instanceof ApiError ? error : new ApiError('bad_request', 'the elements are not valid');
      this.send(peer, { type: 'error', code: refused.code, message: refused.message, seq });
      return;
    }
    const added = elements.filter((e) => !isDeleted(e) && (this.scene.get(e.id) === undefined || isDeleted(this.scene.get(e.id)!))).length;
    if (added > 0 && this.scene.visible().length + added > MAX_SCENE_ELEMENTS) {
      this.send(peer, { type: 'error', code: 'SCENE_TOO_LARGE', message: `a scene holds at most ${MAX_SCENE_ELEMENTS} elements`, seq });
      return;
    }
    const won = this.scene.merge(elements);
    // The sender's older copies lost: it gets the room's, or it would keep showing its own.
    const winners = new Set(won);
    const lost = elements.filter((e) => !winners.has(e) && JSON.stringify(this.scene.get(e.id)) !== JSON.stringify(e)).map((e) => this.scene.get(e.id)!);
    if (lost.length > 0) this.send(peer, { type: 'elements', elements: [...new Map(lost.map((e) => [e.id, e])).values()], from: null });
    if (won.length > 0) {
      this.broadcast({ type: 'elements', elements: won, from: peerId }, peerId);
      this.host.relay(this.diagramId, { kind: 'elements', elements: won, from: peerId, basis: this.basis });
      for (const element of won) this.dirty.add(element.id);
      this.contributors.set(peer.session.user.id, peer.session);
    }
    this.pendingSeqs.set(peerId, seq);
    this.scheduleWrite();
  }

  receivePresence(peerId: string, update: PresenceUpdate): void {
    const peer = this.local.get(peerId);
    if (!peer) return;
    const { type: _type, ...state } = update;
    Object.assign(peer.peer, Object.fromEntries(Object.entries(state).filter(([, value]) => value !== undefined)));
    if (this.presenceWaiting.has(peerId)) return;
    const wait = (this.presenceSentAt.get(peerId) ?? -Infinity) + PRESENCE_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      this.sendPresence(peer);
      return;
    }
    this.presenceWaiting.set(
      peerId,
      setTimeout(() => {
        this.presenceWaiting.delete(peerId);
        if (this.local.get(peerId) === peer) this.sendPresence(peer);
      }, wait),
    );
  }

  private sendPresence(peer: LocalPeer): void {
    this.presenceSentAt.set(peer.peer.peerId, Date.now());
    this.broadcast({ type: 'presence', peer: peer.peer }, peer.peer.peerId);
    this.host.relay(this.diagramId, { kind: 'presence', peer: peer.peer });
  }

  /** Presence updates held back to be sent a moment later (for tests and operators). */
  get presencePending(): number {
    return this.presenceWaiting.size;
  }

  /** What the same room on another instance did. */
  receiveRelay(event: RelayEvent, now: number): void {
    switch (event.kind) {
      case 'elements':
        if ((event.basis ?? '') < this.replacedAt) return;
        if (this.replacing !== null) this.heldRelays.push(event);
        else this.takeRelayedElements(event);
        return;
      case 'presence':
      case 'joined': {
        const known = this.remote.has(event.peer.peerId);
        this.remote.set(event.peer.peerId, { peer: event.peer, seenAt: now });
        this.broadcast({ type: event.kind === 'joined' && !known ? 'joined' : 'presence', peer: event.peer });
        return;
      }
      case 'left':
        if (this.remote.delete(event.peerId)) this.broadcast({ type: 'left', peerId: event.peerId });
        return;
      case 'hello':
        this.announcePeers();
        return;
      case 'peers':
        for (const peer of event.peers) {
          const known = this.remote.has(peer.peerId);
          this.remote.set(peer.peerId, { peer, seenAt: now });
          if (!known) this.broadcast({ type: 'joined', peer });
        }
        return;
    }
  }

  private takeRelayedElements(event: Extract<RelayEvent, { kind: 'elements' }>): void {
    const won = this.scene.merge(event.elements);
    if (won.length === 0) return;
    this.broadcast({ type: 'elements', elements: won, from: event.from });
    const rewrite = won.filter((e) => this.written.has(e.id));
    if (rewrite.length > 0) {
      for (const element of rewrite) this.dirty.add(element.id);
      this.scheduleWrite();
    }
  }

  /** Tells the other instances who is here. */
  announcePeers(): void {
    if (this.local.size > 0) this.host.relay(this.diagramId, { kind: 'peers', peers: [...this.local.values()].map((p) => p.peer) });
  }

  /** Drops peers of other instances that have not been announced for a while. */
  expireRemotePeers(now: number): void {
    for (const [peerId, remote] of this.remote) {
      if (now - remote.seenAt > REMOTE_PEER_TTL_MS) {
        this.remote.delete(peerId);
        this.broadcast({ type: 'left', peerId });
      }
    }
  }

  /** A content write committed. One from a live room (here or elsewhere) was relayed already; any other is read from the store. */
  async receiveContent(notice: Extract<LiveNotice, { type: 'content' }>): Promise<void> {
    if (notice.replaced) {
      await this.replace(notice.docUpdatedAt);
      return;
    }
    if (notice.origin !== undefined) {
      this.revised(notice.docUpdatedAt);
      return;
    }
    await this.takeStored(notice);
  }

  /**
   * Takes a write from outside the room: elements it changed or added replace
   * the room's copy (continuing its version when the room's copy is newer, so
   * the write wins as it did in the store), elements it removed become
   * tombstones. What changed goes to everyone here and is relayed.
   *
   * A version continued here (an element the API added again over the room's
   * tombstone of it, or changed under an unsaved copy) is not written back on
   * its own: the store holds that content already, and a write of the new
   * version alone would be a revision of the person's (a save they did not
   * make) and move the diagram's revision under the API caller that just wrote
   * it. It reaches the store with the element's next change, or with the
   * unsaved copy's write it replaced.
   */
  async takeStored(change: ContentChange & { docUpdatedAt?: string }): Promise<void> {
    if (this.replacing !== null) await this.replacing;
    const replacedAt = this.replacedAt;
    const reader = this.local.values().next().value;
    if (!reader) return;
    const found = await this.host.deps.store.diagrams.findForUser(this.diagramId, reader.session.user.id);
    // A replacement heard meanwhile read the store after this did: what was read here is older.
    if (!found || this.replacedAt !== replacedAt) return;
    const stored = JSON.parse(found.diagram.elementsJson) as LiveElement[];
    const docUpdatedAt = found.diagram.docUpdatedAt ?? this.docUpdatedAt;
    const touched = change.changed === 'all' ? null : new Set(change.changed);
    const updates: LiveElement[] = [];
    for (const element of stored) {
      const held = this.scene.get(element.id);
      if (wins(element, held)) updates.push(element);
      else if (touched?.has(element.id) && held !== undefined && JSON.stringify(held) !== JSON.stringify(element)) {
        updates.push({ ...element, version: Number(held.version ?? 0) + 1, versionNonce: nonceFor(element.id, docUpdatedAt) });
      }
    }
    const storedIds = new Set(stored.map((e) => e.id));
    for (const id of change.removed) {
      const held = this.scene.get(id);
      if (held === undefined || isDeleted(held) || storedIds.has(id)) continue;
      updates.push({ ...held, isDeleted: true, version: Number(held.version ?? 0) + 1, versionNonce: nonceFor(id, docUpdatedAt) });
      if (this.written.has(id) || this.dirty.has(id)) this.dirty.add(id);
    }
    this.revised(docUpdatedAt);
    const won = this.scene.merge(updates);
    if (won.length > 0) {
      this.broadcast({ type: 'elements', elements: won, from: null, docUpdatedAt: this.docUpdatedAt });
      const files = imageFiles(won.filter((e) => !isDeleted(e))).files;
      if (Object.keys(files).length > 0) this.broadcast({ type: 'files', files });
      this.host.relay(this.diagramId, { kind: 'elements', elements: won, from: null, basis: this.basis });
    }
    if (this.dirty.size > 0) this.scheduleWrite();
  }

  /**
   * A write replaced the whole scene (revision `replacedAt`): changes made on
   * the old one, waiting here or arriving late, are dropped so they cannot
   * bring its elements back; the stored scene becomes the room's as it is,
   * and everyone here is told to replace theirs with it (`scene`).
   */
  private replace(replacedAt: string): Promise<void> {
    if (replacedAt <= this.replacedAt) return this.replacing ?? Promise.resolve();
    this.replacedAt = replacedAt;
    this.dirty.clear();
    this.contributors.clear();
    this.pendingSeqs.clear();
    this.written.clear();
    this.replacing ??= this.takeReplacement().finally(() => {
      this.replacing = null;
    });
    return this.replacing;
  }

  private async takeReplacement(): Promise<void> {
    // A write of this room's under way lands first, so the scene read holds whatever it stored.
    await this.writing;
    let stored: { elementsJson: string; docUpdatedAt: string } | null = null;
    // A later replacement may land while the store is read: read until the scene is at least that new.
    while (stored === null || stored.docUpdatedAt < this.replacedAt) {
      const reader = this.local.values().next().value;
      if (!reader) return;
      try {
        const found = await this.host.deps.store.diagrams.findForUser(this.diagramId, reader.session.user.id);
        if (!found) return;
        stored = { elementsJson: found.diagram.elementsJson, docUpdatedAt: found.diagram.docUpdatedAt ?? this.replacedAt };
      } catch (error) {
        this.host.log(error, 'live room could not read a replaced scene; trying again');
        await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
      }
    }
    this.scene = new LiveScene(JSON.parse(stored.elementsJson) as LiveElement[]);
    this.basis = stored.docUpdatedAt;
    if (this.basis > this.docUpdatedAt) this.docUpdatedAt = this.basis;
    const visible = this.scene.visible();
    this.broadcast({ type: 'scene', elements: visible, files: imageFiles(visible).files, docUpdatedAt: this.basis });
    for (const event of this.heldRelays.splice(0)) this.takeRelayedElements(event);
  }

  /** Checks each person here again (their session, their access) and sends `role` or `gone` as needed; `userId`: only that person. */
  async recheck(userId?: string): Promise<void> {
    const deps = this.host.deps;
    for (const peer of [...this.local.values()]) {
      if (userId !== undefined && peer.session.user.id !== userId) continue;
      try {
        const session = await sessionByHash(deps, peer.session.idHash);
        if (!session) {
          this.evict(peer, 'signed_out');
          continue;
        }
        const found = await deps.store.diagrams.findMetaForUser(this.diagramId, peer.session.user.id);
        if (!found || found.diagram.deletedAt !== null) {
          this.evict(peer, 'deleted');
          continue;
        }
        if (!mayPerform(found.access, peer.session.user.id, 'read')) {
          this.evict(peer, 'access');
          continue;
        }
        const role: LiveRole = mayPerform(found.access, peer.session.user.id, 'write') ? 'editor' : 'viewer';
        if (role !== peer.role) {
          peer.role = role;
          this.send(peer, { type: 'role', role });
        }
      } catch (error) {
        this.host.log(error, 'live room could not check a peer again');
      }
    }
  }

  /** Someone here who may edit: who writes a batch that no one here changed (a relayed change written again). */
  private editorHere(): LocalPeer | undefined {
    return [...this.local.values()].find((p) => p.role === 'editor');
  }

    private evict(peer: LocalPeer, reason: GoneReason): void {
    this.send(peer, { type: 'gone', reason });
    peer.connection.close(GONE_CLOSE_CODES[reason], reason);
    this.remove(peer.peer.peerId);
  }

  /** The stored revision moved: everyone here hears it once. */
  private revised(docUpdatedAt: string): void {
    if (docUpdatedAt <= this.docUpdatedAt) return;
    this.docUpdatedAt = docUpdatedAt;
    this.broadcast({ type: 'revision', docUpdatedAt });
  }

  private scheduleWrite(delay = WRITE_DELAY_MS): void {
    if (this.writeTimer !== null || this.writing !== null) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = null;
      this.writing = this.write().finally(() => {
        this.writing = null;
        if (this.dirty.size > 0 || this.pendingSeqs.size > 0) this.scheduleWrite(this.failed ? WRITE_RETRY_MS : WRITE_DELAY_MS);
      });
    }, delay);
  }

  /**
   * Writes what changed here since the last write, merged into the stored
   * scene by the same rule (so a write never undoes a newer change stored by
   * another instance), as a web save of everyone whose changes it holds; then
   * tells each sender its changes are stored.
   */
  private async write(): Promise<void> {
    const ids = [...this.dirty];
    const contributors = new Map(this.contributors);
    const seqs = new Map(this.pendingSeqs);
    this.dirty.clear();
    this.contributors.clear();
    this.pendingSeqs.clear();
    const changes = ids.map((id) => this.scene.get(id)!).filter((e) => e !== undefined);
    const actor = contributors.values().next().value ?? this.editorHere()?.session;
    const replacedAt = this.replacedAt;
    this.failed = false;
    try {
      if (changes.length > 0 && actor !== undefined) {
        const deps = this.host.deps;
        const { result } = await writeContent(
          deps,
          actor,
          this.diagramId,
          null,
          { kind: 'save', joinsSaves: true, contributorIds: [...contributors.keys()], origin: this.host.instanceId },
          (previous, current) => {
            // A replacement of the scene stored meanwhile: merged into it, these changes would bring the old scene back.
            if (this.replacedAt !== replacedAt) throw new MadeOnReplacedScene();
            if (!this.closing && (current.docUpdatedAt ?? '') > this.docUpdatedAt && this.unheardWaits < UNHEARD_WAITS_MAX) throw new UnheardRevision();
            const merged = mergeIntoStored(previous() as LiveElement[], changes);
            if (!merged.changed) throw new NothingToStore();
            return { elements: merged.elements };
          },
        );
        this.unheardWaits = 0;
        for (const id of ids) this.written.add(id);
        this.revised(result.docUpdatedAt);
      }
      this.acknowledge(seqs);
    } catch (error) {
      if (error instanceof MadeOnReplacedScene) return;
      if (error instanceof NothingToStore) {
        this.unheardWaits = 0;
        this.acknowledge(seqs);
        return;
      }
      // A replacement of the scene heard meanwhile drops what this write held.
      const keep = this.replacedAt === replacedAt;
      if (error instanceof UnheardRevision) {
        this.unheardWaits += 1;
        if (keep) this.keepForNextWrite(ids, contributors, seqs);
        return;
      }
      if (error instanceof ApiError && error.code === 'not_found') {
        // The writer lost access meanwhile (or the diagram went): everyone here is checked again, and
        // the others whose changes the batch holds and who may still edit write it (the set shrinks, so this ends).
        await this.recheck();
        const writers = [...contributors].filter(([userId]) => [...this.local.values()].some((p) => p.session.user.id === userId && p.role === 'editor'));
        if (writers.length === 0 || writers.length === contributors.size || !keep) return;
        this.keepForNextWrite(ids, new Map(writers), new Map([...seqs].filter(([peerId]) => this.local.has(peerId))));
        return;
      }
      this.failed = true;
      this.host.log(error, 'live room could not write its changes; trying again');
      if (keep) this.keepForNextWrite(ids, contributors, seqs);
    }
  }

  /** Tells each sender that its changes up to `seq` are stored (or needed no storing). */
  private acknowledge(seqs: Map<string, number>): void {
    for (const [peerId, seq] of seqs) {
      const peer = this.local.get(peerId);
      if (peer) this.send(peer, { type: 'saved', upTo: seq, docUpdatedAt: this.docUpdatedAt });
    }
  }

  /** Puts a write's changes, contributors and seqs back for the next write (it did not store them). */
  private keepForNextWrite(ids: string[], contributors: Map<string, Caller>, seqs: Map<string, number>): void {
    for (const id of ids) this.dirty.add(id);
    for (const [userId, caller] of contributors) if (!this.contributors.has(userId)) this.contributors.set(userId, caller);
    for (const [peerId, seq] of seqs) this.pendingSeqs.set(peerId, Math.max(seq, this.pendingSeqs.get(peerId) ?? seq));
  }

  /** Writes what is left and leaves the hub (the last person left, or the server is closing). */
  close(): Promise<void> {
    this.closed ??= this.finish();
    return this.closed;
  }

  private async finish(): Promise<void> {
    this.closing = true;
    if (this.writeTimer !== null) {
      clearTimeout(this.writeTimer);
      this.writeTimer = null;
    }
    await this.writing;
    if (this.dirty.size > 0) await this.write();
    this.host.closed(this);
  }

  /** Whether the room is closing (a peer arriving now opens a new one). */
  get isClosing(): boolean {
    return this.closing;
  }

  /** Closes every connection here with `code` (the server is going away). */
  disconnectAll(code: number, reason: string): void {
    for (const peer of this.local.values()) peer.connection.close(code, reason);
  }
}
