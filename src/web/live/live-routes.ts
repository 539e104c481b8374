/**
 * The editor's live connection: a WebSocket at /app/api/diagrams/:id/live,
 * opened with the session cookie from the service's own origin (anything else
 * is 403 before upgrading) by someone who may read the diagram (else 404, as
 * for its other routes). Messages are the live protocol's (src/app/live),
 * one JSON text frame each, at most the size of a request body; the server
 * pings every 20 s and drops a connection that does not answer, or that
 * cannot keep up with what is sent to it, so one slow client never holds up
 * the others. Each connection has a budget of messages and bytes (a client
 * sending faster is refused, then closed), a person and a session a number of
 * connections, and a connection that stays silent is closed; what a client
 * gets wrong is logged as the client's doing, never as a server fault.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { diagramFor } from '../../app/access.ts';
import type { AppDeps } from '../../app/deps.ts';
import type { TrackedConnection } from '../../app/live/connections.ts';
import { LiveHub, type PeerHandle, seqOf } from '../../app/live/hub.ts';
import { type LiveBudgetLimits, SharedBudgets } from '../../domain/live/budget.ts';
import { ApiError } from '../../errors.ts';
import { BODY_LIMIT_BYTES, checkPayloadShape, refuseUnstorableText } from '../../edge/validate.ts';
import { requireSession } from '../session.ts';

const HEARTBEAT_MS = 20_000;
/** A client closed for sending what it must not is no longer read; its connection is cut this long after the close frame went. */
const CUT_AFTER_MS = 1_000;
/** A connection with this much unsent is too slow to follow the room: it is closed (the editor reconnects and starts afresh). */
export const MAX_BUFFERED_BYTES = 8 * BODY_LIMIT_BYTES;
/**
 * What one person may send, all their connections on this server together
 * (so reconnecting does not refill it). The editor sends presence at most
 * every 60 ms and changes at most every 80 ms (under 30 messages a second),
 * each at most a request body; a paste of a whole scene is one message. The
 * burst lets a reconnect, or a few full-size pastes in a row, through at once.
 * A client refused faster than the editor could ever be is flooding, and is
 * closed.
 */
export const LIVE_BUDGET: LiveBudgetLimits = {
  messagesPerSecond: 60,
  messageBurst: 60,
  bytesPerSecond: BODY_LIMIT_BYTES,
  byteBurst: 4 * BODY_LIMIT_BYTES,
  // The editor sends under 30 messages a second, so it is never refused faster than that.
  refusalsPerSecond: 30,
  refusalBurst: 60,
};
/**
 * Close codes besides the room's 4401/4403/4404 (after `gone`) and ws's own
 * 1009 (a frame over the limit) and 1002/1007 (a broken frame): a binary frame,
 * too slow to follow the room, still sending past the budget after refusals,
 * and silent too long or replaced by a newer connection of the same person
 * (the editor reconnects when next used).
 */
export const LIVE_CLOSE_CODES = { unsupported: 1003, tooSlow: 1013, policy: 1008, idle: 4408 } as const;

/** Each server's live hub, by its HTTP server (the routes are registered in a context of their own). */
const hubs = new WeakMap<object, LiveHub>();
/** Orders live activity (connections and messages) on this instance: which connection is the quietest, without ties. */
let activityClock = 0;

/** A server's live rooms and connections, for tests and the benchmark to read their numbers. */
export function liveHubOf(app: FastifyInstance): LiveHub | undefined {
  return hubs.get(app.server);
}

/** The editor writes each change as `{"type":"elements","seq":N,…`: its seq is read from there. */
const LEADING_SEQ = /^\{"type":"elements","seq":(\d{1,15}),/;
/** Messages up to this size that do not start so are parsed for their seq. */
const PARSED_FOR_SEQ_MAX_BYTES = 4096;

/**
 * The seq a message refused by the budget names, read without parsing it
 * whole: a flood's messages are large, and parsing one only to drop it costs
 * the event loop what handling it would.
 */
function refusedSeq(text: string): number | undefined {
  const leading = LEADING_SEQ.exec(text.slice(0, 64));
  if (leading) return Number(leading[1]);
  if (text.length > PARSED_FOR_SEQ_MAX_BYTES) return undefined;
  try {
    return seqOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export const liveRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const hub = new LiveHub(deps, app.log);
  hubs.set(app.server, hub);
  const budgets = new SharedBudgets(LIVE_BUDGET);
  // Before the plugin's own hook, which would drop the connections without a word: rooms write what they hold and say goodbye.
  app.addHook('preClose', () => hub.close());
  await app.register(websocket, { options: { maxPayload: BODY_LIMIT_BYTES }, errorHandler: logSocketError });
  const origin = new URL(deps.config.publicUrl).origin;

  app.get<{ Params: { id: string } }>(
    '/app/api/diagrams/:id/live',
    {
      websocket: true,
      preHandler: async (request) => {
        const session = requireSession(request);
        // A page of another site must not open a connection with this site's cookie.
        if (request.headers.origin !== origin) throw new ApiError('csrf_failed', 'live connections are accepted from this site only');
        await diagramFor(deps, session, request.params.id, 'read');
      },
    },
    (socket: WebSocket, request) => {
      const session = requireSession(request);
      // Admitted messages wait here as text and are read (parsed, checked) and handed to the room
      // one per turn of the event loop: a burst (a socket read holds many frames, and a flood's
      // first seconds arrive while the connection joins its room) never holds the loop for its
      // whole length, and other people's messages get their turn in between.
      const inbox: string[] = [];
      let draining = false;
      let handle: PeerHandle | null = null;
      const take = (text: string) => {
        let message: unknown;
        try {
          message = JSON.parse(text);
          checkPayloadShape(message);
          refuseUnstorableText({ body: message });
        } catch (error) {
          if (error instanceof ApiError) refuse(error.code, error.message);
          else refuse('invalid_json', 'a message must be one JSON value');
          return;
        }
        handle!.receive(message);
      };
      const drain = () => {
        if (draining || !handle || inbox.length === 0) return;
        draining = true;
        setImmediate(function next() {
          if (open && handle && inbox.length > 0) take(inbox.shift()!);
          if (open && handle && inbox.length > 0) setImmediate(next);
          else draining = false;
        });
      };
      let open = true;
      let lastActiveAt = Date.now();
      let lastActivity = ++activityClock;
      const budget = budgets.take(session.user.id, lastActiveAt);
      const connection = {
        send(text: string) {
          if (!open) return;
          if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
            close(LIVE_CLOSE_CODES.tooSlow, 'too slow to follow the room');
            return;
          }
          socket.send(text);
        },
        close: (code: number, reason: string) => close(code, reason),
      };
      const close = (code: number, reason: string) => {
        if (!open) return;
        open = false;
        socket.close(code, reason);
        if (code === LIVE_CLOSE_CODES.policy || code === LIVE_CLOSE_CODES.unsupported) {
          // Reading what a flooder already sent, only to drop it, would cost as much as the flood: stop reading, and cut.
          socket.pause();
          setTimeout(() => socket.terminate(), CUT_AFTER_MS).unref();
        }
      };
      const refuse = (code: string, message: string, seq?: number) =>
        connection.send(JSON.stringify({ type: 'error', code, message, ...(seq === undefined ? {} : { seq }) }));
      const tracked: TrackedConnection = {
        sessionKey: session.idHash,
        userId: session.user.id,
        lastActivity: () => lastActivity,
        evict: () => close(LIVE_CLOSE_CODES.idle, 'replaced by a newer connection'),
      };
      hub.connections.admit(tracked);

      socket.on('message', (data, isBinary) => {
        // Closing: what the client sent before it heard so is dropped.
        if (!open) return;
        const now = Date.now();
        lastActiveAt = now;
        lastActivity = ++activityClock;
        if (isBinary) {
          close(LIVE_CLOSE_CODES.unsupported, 'the live protocol is JSON text frames');
          return;
        }
        const text = data.toString();
        const verdict = budget.admit(Buffer.byteLength(text), now);
        if (verdict === 'close') {
          request.log.info({ diagramId: request.params.id, userId: session.user.id }, 'live connection closed: it kept sending past its budget');
          close(LIVE_CLOSE_CODES.policy, 'too many messages');
          return;
        }
        if (verdict === 'refuse') {
          // Named by its seq, a refused change is sent again by the editor with its next one.
          refuse('rate_limited', 'too many live messages; this one was dropped, nothing changed', refusedSeq(text));
          return;
        }
        inbox.push(text);
        drain();
      });

      let idleTimer = setTimeout(function closeIfIdle() {
        const quiet = Date.now() - lastActiveAt;
        if (quiet >= deps.config.liveIdleTimeoutMs) close(LIVE_CLOSE_CODES.idle, 'idle');
        else idleTimer = setTimeout(closeIfIdle, deps.config.liveIdleTimeoutMs - quiet);
      }, deps.config.liveIdleTimeoutMs);

      let alive = true;
      socket.on('pong', () => void (alive = true));
      const heartbeat = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, HEARTBEAT_MS);
      socket.on('close', () => {
        open = false;
        clearInterval(heartbeat);
        clearTimeout(idleTimer);
        hub.connections.remove(tracked);
        budgets.release(session.user.id, Date.now());
        handle?.leave();
      });

      hub.join(session, request.params.id, connection).then(
        (joined) => {
          if (!open) {
            joined.leave();
            return;
          }
          handle = joined;
          drain();
        },
        (error: unknown) => {
          if (!(error instanceof ApiError)) request.log.error({ err: error }, 'could not join a live room');
          else if (error.code === 'upstream_unavailable') request.log.warn({ err: error }, 'could not join a live room: database unreachable');
          connection.send(JSON.stringify({ type: 'gone', reason: 'access' }));
          close(4403, 'access');
        },
      );
    },
  );
};

/**
 * Errors on an open live socket. A frame the client got wrong (over the size
 * limit, not UTF-8, a bad opcode: ws's WS_ERR_ codes) and a client that left
 * abruptly are the client's doing, logged at info without a stack; ws has
 * already closed the connection with the matching code. Anything else is a
 * fault of the server's.
 */
function logSocketError(this: unknown, error: Error & { code?: string }, socket: WebSocket, request: FastifyRequest): void {
  if (error.code?.startsWith('WS_ERR_') || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
    request.log.info({ code: error.code, reason: error.message }, 'live connection closed: the client broke the protocol or left');
    return;
  }
  request.log.error({ err: error }, 'live connection failed');
  socket.terminate();
}
