/**
 * The share dialog's session routes (the editor's and the dashboard's): who
 * has access, the diagram's link, and its public page. Each calls the same
 * use case as the REST API, so the rules are the API's: only the owner
 * manages sharing and publishing; anyone who may open the diagram sees its
 * link and whether it is published, and nothing of who else has access.
 *
 *   GET  /app/api/diagrams/:id/sharing       the dialog's state
 *   PUT  /app/api/diagrams/:id/public-link   { enabled, password? } (owner)
 */
import type { FastifyPluginAsync } from 'fastify';
import { present } from '../../api/presenters.ts';
import { PublicLinkBody } from '../../api/schemas.ts';
import { diagramFor, mayActOnDiagram } from '../../app/access.ts';
import type { ServiceDeps } from '../../app/deps.ts';
import { getPublicLink } from '../../app/public-links/get-public-link.ts';
import { setPublicLink } from '../../app/public-links/set-public-link.ts';
import { checkPayloadShape, parseWith } from '../../edge/validate.ts';
import { requireSession, verifyCsrf } from '../session.ts';

type IdParams = { Params: { id: string } };

export const sharingRoutes: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  const { publicUrl } = deps.config;

  app.get<IdParams>('/app/api/diagrams/:id/sharing', async (request, reply) => {
    const session = requireSession(request);
    const diagram = await diagramFor(deps, session, request.params.id, 'read');
    const isOwner = await mayActOnDiagram(deps, session, diagram.id, 'own');
    const link = await getPublicLink(deps, session, diagram.id);
    return reply.header('cache-control', 'no-store').send({
      id: diagram.id,
      title: diagram.title,
      isOwner,
      editorUrl: `${publicUrl}/app/d/${diagram.id}`,
      publicLink: present.publicLink(link, publicUrl),
      people: null,
    });
  });

  app.put<IdParams>('/app/api/diagrams/:id/public-link', async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, publicUrl);
    checkPayloadShape(request.body);
    const body = parseWith(PublicLinkBody, request.body, 'body');
    const link = await setPublicLink(deps, session, request.params.id, body);
    return reply.header('cache-control', 'no-store').send(present.publicLink(link, publicUrl));
  });
};
