/**
 * The share dialog's session routes (the editor's and the dashboard's): who
 * has access, the diagram's link, and its public page. Each calls the same
 * use case as the REST API, so the rules are the API's: only the owner
 * manages sharing and publishing (anyone else: not_found, as for a diagram
 * they cannot see); anyone who may open the diagram sees its link and
 * whether it is published, and nothing of who else has access.
 *
 *   GET    /app/api/diagrams/:id/sharing             the dialog's state
 *   POST   /app/api/diagrams/:id/shares              { email, role } → { share } | { invitation }
 *   PUT    /app/api/diagrams/:id/shares/:userId      { role }
 *   DELETE /app/api/diagrams/:id/shares/:userId
 *   DELETE /app/api/invitations/:invitationId        (diagram or workspace invitation)
 *   PUT    /app/api/diagrams/:id/public-link         { enabled, password? }
 */
import type { FastifyPluginAsync } from 'fastify';
import { present } from '../../api/presenters.ts';
import { PublicLinkBody } from '../../api/schemas.ts';
import { ShareBody, ShareRoleBody } from '../../api/sharing-schemas.ts';
import { diagramFor, mayActOnDiagram } from '../../app/access.ts';
import type { ServiceDeps } from '../../app/deps.ts';
import { getPublicLink } from '../../app/public-links/get-public-link.ts';
import { setPublicLink } from '../../app/public-links/set-public-link.ts';
import { cancelInvitation } from '../../app/sharing/invitations.ts';
import { changeShare, listShares, removeShare, shareDiagram } from '../../app/sharing/shares.ts';
import { requireSession } from '../session.ts';
import { sessionChange } from '../session-change.ts';


type IdParams = { Params: { id: string } };
type ShareParams = { Params: { id: string; userId: string } };

export const sharingRoutes: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  const { publicUrl } = deps.config;

  app.get<IdParams>('/app/api/diagrams/:id/sharing', async (request, reply) => {
    const session = requireSession(request);
    const diagram = await diagramFor(deps, session, request.params.id, 'read');
    const isOwner = await mayActOnDiagram(deps, session, diagram.id, 'own');
    const [link, sharing] = await Promise.all([getPublicLink(deps, session, diagram.id), isOwner ? listShares(deps, session, diagram.id) : null]);
    return reply.header('cache-control', 'no-store').send({
      id: diagram.id,
      title: diagram.title,
      isOwner,
      editorUrl: `${publicUrl}/app/d/${diagram.id}`,
      publicLink: present.publicLink(link, publicUrl),
      people: sharing && { ownerEmail: sharing.ownerEmail, shares: sharing.shares, invitations: sharing.invitations },
    });
  });

  app.post<IdParams>('/app/api/diagrams/:id/shares', async (request, reply) => {
    const { session, body } = sessionChange(request, publicUrl, ShareBody);
    return reply.header('cache-control', 'no-store').send(await shareDiagram(deps, session, request.params.id, body));
  });

  app.put<ShareParams>('/app/api/diagrams/:id/shares/:userId', async (request, reply) => {
    const { session, body } = sessionChange(request, publicUrl, ShareRoleBody);
    return reply.header('cache-control', 'no-store').send(await changeShare(deps, session, request.params.id, request.params.userId, body.role));
  });

  app.delete<ShareParams>('/app/api/diagrams/:id/shares/:userId', async (request, reply) => {
    const { session } = sessionChange(request, publicUrl);
    await removeShare(deps, session, request.params.id, request.params.userId);
    return reply.code(204).send();
  });

  app.delete<{ Params: { invitationId: string } }>('/app/api/invitations/:invitationId', async (request, reply) => {
    const { session } = sessionChange(request, publicUrl);
    await cancelInvitation(deps, session, request.params.invitationId);
    return reply.code(204).send();
  });

  app.put<IdParams>('/app/api/diagrams/:id/public-link', async (request, reply) => {
    const { session, body } = sessionChange(request, publicUrl, PublicLinkBody);
    const link = await setPublicLink(deps, session, request.params.id, body);
    return reply.header('cache-control', 'no-store').send(present.publicLink(link, publicUrl));
  });
};
