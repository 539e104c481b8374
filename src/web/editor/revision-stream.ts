/**
 * Server-sent events on a diagram's revision clock: `event: revision` with
 * `{"docUpdatedAt": "…"}` at once and whenever the content changes, however
 * it changed (the API, an agent, another editor, another server on the same
 * PostgreSQL). The stream polls the diagram's metadata twice a second rather
 * than listening to this process's writes, so it holds across servers; a
 * comment line every 15 s keeps proxies from closing an idle stream.
 * `event: gone` says the diagram no longer exists (or access was lost) and
 * ends the stream.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../http/diagram-access.ts';
import type { AppDeps } from '../../http/route.ts';
import type { DiagramMeta } from '../../store/store.ts';
import { mayPerform } from '../../auth/policy.ts';

export const POLL_MS = 500;
const HEARTBEAT_MS = 15_000;

export function revisionStream(deps: AppDeps, caller: Caller, diagram: DiagramMeta, request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  let last = diagram.docUpdatedAt;
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('revision', { docUpdatedAt: last });

  let polling = false;
  const poll = setInterval(async () => {
    if (polling) return;
    polling = true;
    try {
      const found = await deps.store.findDiagramMetaForUser(diagram.id, caller.user.id);
      if (!found || !mayPerform(found.access, caller.user.id, 'read')) {
        send('gone', {});
        stop();
        res.end();
        return;
      }
      if (found.diagram.docUpdatedAt !== last) {
        last = found.diagram.docUpdatedAt;
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
  };
  res.on('close', stop);
}
