/**
 * The editor's live connection: a WebSocket at /app/api/diagrams/:id/live,
 * opened with the session cookie from the service's own origin (anything else
 * is 403 before upgrading) by someone who may read the diagram (else 404, as
 * for its other routes). Messages are the live protocol's (src/app/live),
 * one JSON text frame each, at most the size of a request body; the server
 * pings every 20 s and drops a connection that does not answer, or that
 * cannot keep up with what is sent to it, so one slow client never holds up
 * the others.
 */
import websocket from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import type { WebSocket } from 'ws';
import { diagramFor } from '../../app/access.ts';
import type { AppDeps } from '../../app/deps.ts';
import { LiveHub, type PeerHandle } from '../../app/live/hub.ts';
import { ApiError } from '../../errors.ts';
import { BODY_LIMIT_BYTES, checkPayloadShape, refuseUnstorableText } from '../../edge/validate.ts';
import { requireSession } from '../session.ts';

const HEARTBEAT_MS = 20_000;
/** A connection with this much unsent is too slow to follow the room: it is closed (the editor reconnects and starts afresh). */
const MAX_BUFFERED_BYTES = 8 * BODY_LIMIT_BYTES;
/** Close codes: going away, too slow, not a text frame, closed by the server after `gone` (4401/4403/4404 come from the room). */
const CLOSE_TOO_SLOW = 1013;
const CLOSE_UNSUPPORTED = 1003;

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's live rooms (tests and the benchmark read their numbers). */
    liveHub: LiveHub;
  }
}

export const liveRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const hub = new LiveHub(deps, app.log);
  app.decorate('liveHub', hub);
  // Before the plugin's own hook, which would drop the connections without a word: rooms write what they hold and say goodbye.
  app.addHook('preClose', () => hub.close());
  await app.register(websocket, { options: { maxPayload: BODY_LIMIT_BYTES } });
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
      const queued: unknown[] = [];
      let handle: PeerHandle | null = null;
      let open = true;
      const connection = {
        send(text: string) {
          if (!open) return;
          if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
            close(CLOSE_TOO_SLOW, 'too slow to follow the room');
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
      };
      const refuse = (code: string, message: string) => connection.send(JSON.stringify({ type: 'error', code, message }));

      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          close(CLOSE_UNSUPPORTED, 'the live protocol is JSON text frames');
          return;
        }
        let message: unknown;
        try {
          message = JSON.parse(data.toString());
          checkPayloadShape(message);
          refuseUnstorableText({ body: message });
        } catch (error) {
          if (error instanceof ApiError) refuse(error.code, error.message);
          else refuse('invalid_json', 'a message must be one JSON value');
          return;
        }
        if (handle) handle.receive(message);
        else queued.push(message);
      });

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
        handle?.leave();
      });

      hub.join(session, request.params.id, connection).then(
        (joined) => {
          if (!open) {
            joined.leave();
            return;
          }
          handle = joined;
          for (const message of queued.splice(0)) joined.receive(message);
        },
        (error: unknown) => {
          if (!(error instanceof ApiError && error.code === 'not_found')) request.log.error({ err: error }, 'could not join a live room');
          connection.send(JSON.stringify({ type: 'gone', reason: 'access' }));
          close(4403, 'access');
        },
      );
    },
  );
};
