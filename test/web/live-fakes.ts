// Stand-ins for what the editor's live client talks to, for its unit tests in Node: a room that
// speaks the live protocol and merges by the editor's rule, sockets whose messages wait in queues
// until the test delivers them (in order per direction, as a WebSocket does), timers the test moves,
// and a scene that is a plain array. The editor's own functions (reconcileElements, restoreElements)
// are the real ones, loaded in Node.
import type { Timers } from '../../src/web/client/live-connection.ts';
import type { LiveSocket } from '../../src/web/client/live-connection.ts';
import type { EditorFunctions, SceneAccess } from '../../src/web/client/live-elements.ts';
import type { ClientMessage, LivePeer, LiveRole, SceneElement, ServerMessage } from '../../src/web/client/live-protocol.ts';
import { loadExcalidraw } from '../helpers/excalidraw.ts';

/**
 * Runs `run` with timers that do not hold the process open: the editor's reconcile starts a
 * one-minute throttle timer (a check it runs in development builds only) that would otherwise keep
 * the test process alive for a minute after the last test.
 */
function withUnrefTimers<T>(run: () => T): T {
  const original = globalThis.setTimeout;
  globalThis.setTimeout = ((callback: () => void, ms?: number) => original(callback, ms).unref()) as typeof setTimeout;
  try {
    return run();
  } finally {
    globalThis.setTimeout = original;
  }
}

export async function editorFunctions(): Promise<EditorFunctions> {
  const excalidraw = (await loadExcalidraw()) as unknown as {
    reconcileElements(local: readonly unknown[], remote: readonly unknown[], appState: unknown): SceneElement[];
    restoreElements(elements: readonly unknown[], local: null): SceneElement[];
    isInvisiblySmallElement(element: unknown): boolean;
  };
  return {
    reconcileElements: (local, remote, appState) => withUnrefTimers(() => excalidraw.reconcileElements(local, remote, appState)),
    restoreElements: (elements) => excalidraw.restoreElements(elements, null),
    isInvisiblySmallElement: (element) => excalidraw.isInvisiblySmallElement(element),
  };
}

/** Timers that run only when the test moves the clock. */
export class ManualTimers implements Timers {
  now = 0;
  private nextId = 1;
  private readonly due = new Map<number, { at: number; run: () => void }>();

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.due.set(id, { at: this.now + ms, run });
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.due.delete(timer as number);
  }

  /** Moves the clock on by `ms`, running what falls due in time order (timers set meanwhile included). */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const next = [...this.due.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!next) break;
      this.due.delete(next[0]);
      this.now = Math.max(this.now, next[1].at);
      next[1].run();
    }
    this.now = until;
  }

  pending(): number {
    return this.due.size;
  }
}

/** A scene held in an array, as the editor would hold it. */
export class ArrayScene implements SceneAccess {
  list: SceneElement[] = [];
  /** What the person is editing right now, as the editor's appState says it. */
  editing: Record<string, unknown> = {};
  elements(): readonly SceneElement[] {
    return this.list;
  }
  editingState(): unknown {
    return this.editing;
  }
  replace(elements: readonly SceneElement[]): void {
    this.list = [...elements];
  }
  visible(): SceneElement[] {
    return this.list.filter((element) => !element.isDeleted);
  }
  get(id: string): SceneElement | undefined {
    return this.list.find((element) => element.id === id);
  }
}

let nonceSeed = 1;
/** A versionNonce, from a fixed sequence so runs repeat. */
function nonce(): number {
  nonceSeed = (nonceSeed * 48271) % 2147483647;
  return nonceSeed;
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The n-th fractional index in scene order ("a0", "a1", …, "b10", …). */
function indexKey(n: number): string {
  return n < DIGITS.length ? `a${DIGITS[n]}` : `b${DIGITS[Math.floor(n / DIGITS.length) % DIGITS.length]}${DIGITS[n % DIGITS.length]}`;
}

export function rectangle(id: string, n: number, fields: Partial<SceneElement> = {}): SceneElement {
  return { id, type: 'rectangle', x: 10 * n, y: 0, width: 40, height: 30, version: 1, versionNonce: nonce(), index: indexKey(n), isDeleted: false, ...fields };
}

/** The person changes an element as the editor does: a new version and nonce. */
export function edited(element: SceneElement, fields: Partial<SceneElement>): SceneElement {
  return { ...element, ...fields, version: element.version + 1, versionNonce: nonce() };
}

/** Whether `incoming` replaces `current` under the editor's rule. */
function wins(incoming: SceneElement, current: SceneElement | undefined): boolean {
  if (!current) return true;
  if (current.version !== incoming.version) return incoming.version > current.version;
  return incoming.versionNonce < current.versionNonce;
}

export class FakeSocket implements LiveSocket {
  readyState = 1;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  /** Frames the client sent, not yet read by the room. */
  readonly up: string[] = [];
  /** Frames the room sent, not yet delivered to the client. */
  readonly down: string[] = [];

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('send on a closed socket');
    this.up.push(data);
  }

  close(): void {
    this.readyState = 3;
  }

  /** The connection breaks: what is in flight is lost. */
  drop(code = 1006): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.up.length = 0;
    this.down.length = 0;
    this.onclose?.({ code });
  }

  deliverDown(): boolean {
    const frame = this.down.shift();
    if (frame === undefined) return false;
    this.onmessage?.({ data: frame });
    return true;
  }
}

interface Member {
  socket: FakeSocket;
  peer: LivePeer;
  role: LiveRole;
}

export function peer(peerId: string, name = peerId): LivePeer {
  return {
    peerId,
    userId: `user-${name}`,
    name,
    email: `${name}@example.com`,
    color: { background: '#ffc9c9', stroke: '#e03131' },
    pointer: null,
    button: 'up',
    selectedElementIds: {},
    status: 'active',
  };
}

/**
 * A room as the protocol describes it: it merges each change by the editor's rule, relays winners to
 * the others, sends the room's copy back to a sender whose copy lost, acknowledges every message
 * (`saved`), keeps deleted elements as tombstones, and welcomes with the visible scene.
 */
export class FakeRoom {
  readonly elements = new Map<string, SceneElement>();
  readonly members: Member[] = [];
  /** Refuses connections while true (the server is down). */
  down = false;
  private revision = 0;
  /** The revision of the last whole-scene replacement ('' for none), and each member's when welcomed. */
  private basis = '';
  private readonly welcomedOn = new Map<Member, string>();
  private peerCount = 0;

  constructor(initial: readonly SceneElement[] = []) {
    for (const element of initial) this.elements.set(element.id, structuredClone(element));
  }

  docUpdatedAt(): string {
    return new Date(Date.UTC(2026, 0, 1) + this.revision * 1000).toISOString();
  }

  visible(): SceneElement[] {
    return [...this.elements.values()].filter((element) => !element.isDeleted).sort((a, b) => (String(a.index) < String(b.index) ? -1 : 1));
  }

  /** An `openSocket` for a client: each call is a new connection of the person called `name`. */
  opener(name: string, role: () => LiveRole = () => 'editor'): (url: string) => FakeSocket {
    return () => {
      const socket = new FakeSocket();
      if (this.down) {
        socket.readyState = 3;
        queueMicrotask(() => socket.onclose?.({ code: 1006 }));
        return socket;
      }
      const member = { socket, peer: peer(`p${++this.peerCount}`, name), role: role() };
      for (const other of this.live()) this.post(other, { type: 'joined', peer: member.peer });
      this.members.push(member);
      this.welcomedOn.set(member, this.basis);
      this.post(member, {
        type: 'welcome',
        you: member.peer,
        role: member.role,
        docUpdatedAt: this.docUpdatedAt(),
        elements: this.visible(),
        files: {},
        peers: this.live().map((m) => m.peer),
      });
      return socket;
    };
  }

  /** Reads one frame a client sent; false when there was none. */
  deliverUp(socket: FakeSocket): boolean {
    const frame = socket.up.shift();
    if (frame === undefined) return false;
    const member = this.members.find((m) => m.socket === socket)!;
    this.handle(member, JSON.parse(frame) as ClientMessage);
    return true;
  }

  /** A write through the API: each element gets a new version, and everyone hears of it. */
  apiWrite(elements: readonly SceneElement[]): void {
    const written = elements.map((element) => {
      const current = this.elements.get(element.id);
      return { ...element, version: Math.max(element.version, current?.version ?? 0) + 1, versionNonce: nonce() };
    });
    for (const element of written) this.elements.set(element.id, structuredClone(element));
    this.revision += 1;
    for (const member of this.live()) this.post(member, { type: 'elements', elements: written, from: null, docUpdatedAt: this.docUpdatedAt() });
  }

  /** A write that replaces the whole scene as supplied: everyone is told to replace theirs; changes made on the old one are dropped. */
  replaceScene(elements: readonly SceneElement[]): void {
    this.elements.clear();
    for (const element of elements) this.elements.set(element.id, structuredClone(element));
    this.revision += 1;
    this.basis = this.docUpdatedAt();
    for (const member of this.live()) this.post(member, { type: 'scene', elements: this.visible(), files: {}, docUpdatedAt: this.basis });
  }

  setRole(socket: FakeSocket, role: LiveRole): void {
    const member = this.members.find((m) => m.socket === socket)!;
    member.role = role;
    this.post(member, { type: 'role', role });
  }

  post(member: Member, message: ServerMessage): void {
    if (member.socket.readyState === 1) member.socket.down.push(JSON.stringify(message));
  }

  live(): Member[] {
    return this.members.filter((m) => m.socket.readyState === 1);
  }

  private handle(member: Member, message: ClientMessage): void {
    if (message.type === 'presence') {
      const { type: _type, ...update } = message;
      member.peer = { ...member.peer, ...Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) };
      for (const other of this.live()) if (other !== member) this.post(other, { type: 'presence', peer: member.peer });
      return;
    }
    if (member.role !== 'editor') {
      this.post(member, { type: 'error', code: 'forbidden', message: 'viewers cannot edit', seq: message.seq });
      return;
    }
    if ((message.scene ?? this.welcomedOn.get(member)) !== this.basis) return;
    const won: SceneElement[] = [];
    const lost: SceneElement[] = [];
    // What the client sends is what it merges: elements with numeric versions and nonces.
    for (const element of message.elements as SceneElement[]) {
      const current = this.elements.get(element.id);
      if (wins(element, current)) {
        this.elements.set(element.id, structuredClone(element));
        won.push(element);
      } else lost.push(current!);
    }
    if (won.length > 0) {
      this.revision += 1;
      for (const other of this.live()) if (other !== member) this.post(other, { type: 'elements', elements: won, from: member.peer.peerId });
    }
    if (lost.length > 0) this.post(member, { type: 'elements', elements: lost, from: null });
    this.post(member, { type: 'saved', upTo: message.seq, docUpdatedAt: this.docUpdatedAt() });
  }
}
