/**
 * A live-protocol client over a real WebSocket (the `ws` package), as the
 * editor connects: the session cookie, the service's own Origin. Messages are
 * kept in arrival order; `next(type)` waits for the next one of a type.
 */
import WebSocket from 'ws';

interface LiveMessage {
  type: string;
  [key: string]: any;
}

export interface LiveClient {
  socket: WebSocket;
  /** Every message received so far, in order. */
  received: LiveMessage[];
  /** The next message of `type` not taken yet (waits up to `timeoutMs`). */
  next(type: string, timeoutMs?: number): Promise<LiveMessage>;
  /** Waits until `test` holds for a message received (any time), and returns it; rejects once the connection has closed without one. */
  until(test: (message: LiveMessage) => boolean, timeoutMs?: number): Promise<LiveMessage>;
  send(message: unknown): void;
  /** Resolves with the close code once the connection is closed. */
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

function liveUrl(baseUrl: string, diagramId: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}/app/api/diagrams/${diagramId}/live`;
}

/** Opens a connection; rejects with the HTTP status when the server refuses to upgrade. */
export function connectLive(baseUrl: string, diagramId: string, options: { cookie?: string; origin?: string | null }): Promise<LiveClient> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const socket = new WebSocket(liveUrl(baseUrl, diagramId), { headers, ...(options.origin === null ? {} : { origin: options.origin ?? baseUrl }) });
  const received: LiveMessage[] = [];
  const taken = new Set<LiveMessage>();
  const waiters = new Set<() => void>();
  let closedWith: { code: number; reason: string } | null = null;
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()) as LiveMessage);
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      closedWith = { code, reason: reason.toString() };
      resolve(closedWith);
      for (const wake of [...waiters]) wake();
    });
  });
  const until = (test: (message: LiveMessage) => boolean, timeoutMs = 5000) =>
    new Promise<LiveMessage>((resolve, reject) => {
      // No message arrives once the connection has closed: waiting on would only hold the process (and the test) until the deadline.
      const check = () => {
        const found = received.find((m) => !taken.has(m) && test(m));
        if (!found && !closedWith) return false;
        clearTimeout(timer);
        waiters.delete(check);
        if (found) resolve(found);
        else reject(new Error(`the connection closed (${closedWith!.code}) without a matching live message; received: ${JSON.stringify(received.map((m) => m.type))}`));
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching live message within ${timeoutMs} ms; received: ${JSON.stringify(received.map((m) => m.type))}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  const client: LiveClient = {
    socket,
    received,
    async next(type, timeoutMs) {
      const message = await until((m) => m.type === type, timeoutMs);
      taken.add(message);
      return message;
    },
    until,
    send: (message) => socket.send(JSON.stringify(message)),
    closed,
    async close() {
      if (socket.readyState !== WebSocket.CLOSED) socket.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_request, response) => {
      reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode }));
      socket.terminate();
    });
    socket.once('error', (error) => reject(error));
  });
}

/** A rectangle as the editor sends it. */
export function rect(id: string, version: number, extra: Record<string, unknown> = {}) {
  return { id, type: 'rectangle', x: 0, y: 0, width: 100, height: 50, version, versionNonce: version * 7 + 1, index: `a${id.length}${id}`, isDeleted: false, ...extra };
}
