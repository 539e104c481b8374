/**
 * The live socket of one diagram, kept open: it reconnects after a drop,
 * waiting longer after each failed try (with jitter, so a restarted server
 * is not met by every editor at once), until the server says the diagram is
 * gone for this person. A connection the server closed as unused (silent
 * too long, or replaced by a newer one of the same person) waits for the
 * person's next input (`wake`) instead. Messages arrive parsed; unknown ones are ignored.
 * No React and no Excalidraw here; the socket is injectable for tests.
 */
import { type ClientMessage, type GoneReason, parseServerMessage, type ServerMessage } from './live-protocol.ts';

/** The part of the browser's WebSocket used here. */
export interface LiveSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface LiveConnectionOptions {
  url: string;
  onMessage(message: ServerMessage): void;
  /** The socket closed (or could not open) and another try is scheduled, or waits for `wake`. */
  onDropped(): void;
  openSocket?: (url: string) => LiveSocket;
  timers?: Timers;
  /** The first wait before reconnecting, doubled after each failed try up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
}

const OPEN = 1;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;

/** The close code of a connection the server closed as unused: the next try waits for the person's input. */
const UNUSED_CLOSE_CODE = 4408;

/** The close codes the server ends a connection with for good, after `gone`. */
const FINAL_CLOSE_CODES: Readonly<Record<number, GoneReason>> = { 4401: 'signed_out', 4403: 'access', 4404: 'deleted' };

export const browserTimers: Timers = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (timer) => globalThis.clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class LiveConnection {
  private readonly options: LiveConnectionOptions;
  private readonly timers: Timers;
  private socket: LiveSocket | null = null;
  private retryTimer: unknown = null;
  /** Failed tries since the last welcome: the next wait grows with it. */
  private failures = 0;
  private finished = false;
  /** Closed as unused: reconnects on `wake`. */
  private dormant = false;

  constructor(options: LiveConnectionOptions) {
    this.options = options;
    this.timers = options.timers ?? browserTimers;
  }

  start(): void {
    if (this.finished || this.socket) return;
    this.connect();
  }

  /** Sends a message if the socket is open; false when it is not (the caller keeps what it meant to send). */
  send(message: ClientMessage): boolean {
    if (this.socket === null || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Tries again at once (the browser came back online) instead of waiting out the back-off. */
  reconnectNow(): void {
    if (this.finished || this.retryTimer === null) return;
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  /** The person did something: a connection closed as unused opens again. */
  wake(): void {
    if (this.finished || !this.dormant) return;
    this.dormant = false;
    this.connect();
  }

  /** Closes the socket for good (the page is leaving). */
  stop(): void {
    this.finished = true;
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'leaving');
    }
  }

  private connect(): void {
    const open = this.options.openSocket ?? ((url: string) => new WebSocket(url) as unknown as LiveSocket);
    const socket = open(this.options.url);
    this.socket = socket;
    // The server speaks first (`welcome`): an open socket alone means nothing yet.
    socket.onopen = () => undefined;
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      const message = parseServerMessage(event.data);
      if (message === null) return;
      if (message.type === 'welcome') this.failures = 0;
      if (message.type === 'gone') this.finish();
      this.options.onMessage(message);
    };
    // A failed try ends in `close` too; an error alone says nothing more.
    socket.onerror = () => undefined;
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      const finalReason = FINAL_CLOSE_CODES[event.code];
      if (finalReason !== undefined) {
        if (!this.finished) {
          this.finish();
          this.options.onMessage({ type: 'gone', reason: finalReason });
        }
        return;
      }
      if (this.finished) return;
      if (event.code === UNUSED_CLOSE_CODE) this.dormant = true;
      else this.scheduleRetry();
      this.options.onDropped();
    };
  }

  private finish(): void {
    this.finished = true;
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private scheduleRetry(): void {
    const ceiling = Math.min(this.options.maxDelayMs ?? MAX_DELAY_MS, (this.options.initialDelayMs ?? INITIAL_DELAY_MS) * 2 ** this.failures);
    this.failures += 1;
    const delay = ceiling * (0.5 + (this.options.random ?? Math.random)() / 2);
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }
}
