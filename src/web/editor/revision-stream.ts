/**
 * Server-sent events on a diagram's revision clock: `event: revision` with
 * `{"docUpdatedAt": "…"}` at once and whenever the content changes, however
 * it changed (the API, an agent, another editor, another server on the same
 * PostgreSQL). The stream polls the database twice a second rather than
 * listening to this process's writes, so it holds across servers; a comment
 * line every 15 s keeps proxies from closing an idle stream.
 *
 * Each poll also checks the session and the caller's access: `event: gone`
 * says the diagram is gone, access was lost or the session ended (signed
 * out, password reset), and ends the stream. Streams end when the client
 * leaves (even before the first event) and when the server closes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/deps.ts';
import { diagramIfVisible } from '../../app/diagrams/get-diagram.ts';
import { sessionByHash } from '../../app/sessions/sessions.ts';
import type { DiagramMeta } from '../../store/store.ts';
import type { WebSession } from '../session.ts';

export const POLL_MS = 500;
const HEARTBEAT_MS = 15_000;

/** The open streams of one app, ended together when it closes. */
export class RevisionStreams {
  private readonly open = new Set<() => void>();

  start(deps: AppDeps, session: WebSession, diagram: DiagramMeta, request: FastifyRequest, reply: FastifyReply): void {
    reply.hijack();
    const res = reply.raw;
    // The client may have left while access was being checked: then there is nothing to serve.
    if (request.raw.destroyed || res.destroyed) return;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    // A HEAD asks for the head alone: Node drops a HEAD response's writes, so only end() sends it.
    if (request.method === 'HEAD') {
      res.end();
      return;
    }
    let last = diagram.docUpdatedAt;
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

    let polling = false;
    const poll = setInterval(async () => {
      if (polling) return;
      polling = true;
      try {
        const [stillSignedIn, found] = await Promise.all([sessionByHash(deps, session.idHash), diagramIfVisible(deps, session, diagram.id)]);
        if (!stillSignedIn || !found) {
          send('gone', {});
          end();
          return;
        }
        if (found.docUpdatedAt !== last) {
          last = found.docUpdatedAt;
          send('revision', { docUpdatedAt: last });
        }
      } catch (error) {
        // The database may be briefly unreachable; the next poll tries again.
        request.log.warn({ err: error }, 'revision stream poll failed');
      } finally {
        polling = false;
      }
    }, POLL_MS);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const stop = () => {
      clearInterval(poll);
      clearInterval(heartbeat);
      this.open.delete(end);
    };
    const end = () => {
      stop();
      res.end();
    };
    this.open.add(end);
    request.raw.on('close', stop);
    res.on('close', stop);
    send('revision', { docUpdatedAt: last });
  }

  /** Ends every open stream (the server is closing). */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }

  /** How many streams are open (for tests and operators). */
  size(): number {
    return this.open.size;
  }
}
