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
import { z } from 'zod';
import * as present from '../../api/presenters/diagrams.ts';
import { PublicLink, PublicLinkBody } from '../../api/schemas.ts';
import { DiagramSharing, Share, ShareBody, ShareResult, ShareRoleBody } from '../../api/sharing-schemas.ts';
import { diagramFor, mayActOnDiagram } from '../../app/access.ts';
import { getPublicLink } from '../../app/public-links/get-public-link.ts';
import { setPublicLink } from '../../app/public-links/set-public-link.ts';
import { cancelInvitation } from '../../app/sharing/invitations.ts';
import { changeShare, listShares, removeShare, shareDiagram } from '../../app/sharing/shares.ts';
import { defineRoute } from '../../edge/route.ts';
import { NO_STORE } from '../static-response.ts';

const TAGS = ['web sharing'];

const SharingDialog = z.object({
  id: z.string(),
  title: z.string(),
  isOwner: z.boolean(),
  editorUrl: z.string(),
  publicLink: PublicLink,
  people: DiagramSharing.pick({ ownerEmail: true, shares: true, invitations: true }).nullable().meta({ description: 'Who the diagram is shared with; null unless you own it' }),
});

export const sharingApiRoutes = [
  defineRoute({
    operationId: 'webGetSharing',
    method: 'GET',
    url: '/app/api/diagrams/:id/sharing',
    access: { session: true },
    tags: TAGS,
    summary: 'The sharing dialog\'s state: the public link and, for the owner, the people',
    response: { status: 200, schema: SharingDialog, description: 'The dialog\'s state' },
    errors: ['not_found'],
    handler: async ({ params, actor, deps }) => {
      const { publicUrl } = deps.config;
      const diagram = await diagramFor(deps, actor, params.id!, 'read');
      const isOwner = await mayActOnDiagram(deps, actor, diagram.id, 'own');
      const [link, sharing] = await Promise.all([getPublicLink(deps, actor, diagram.id), isOwner ? listShares(deps, actor, diagram.id) : null]);
      return {
        json: {
          id: diagram.id,
          title: diagram.title,
          isOwner,
          editorUrl: `${publicUrl}/app/d/${diagram.id}`,
          publicLink: present.publicLink(link, publicUrl),
          people: sharing && { ownerEmail: sharing.ownerEmail, shares: sharing.shares, invitations: sharing.invitations },
        },
        headers: NO_STORE,
      };
    },
  }),
  defineRoute({
    operationId: 'webShareDiagram',
    method: 'POST',
    url: '/app/api/diagrams/:id/shares',
    access: { session: true },
    tags: TAGS,
    summary: 'Shares the diagram with an address, or invites it by mail',
    body: ShareBody,
    response: { status: 200, schema: ShareResult, description: 'The share, or the invitation sent' },
    errors: ['not_found', 'bad_request', 'csrf_failed'],
    handler: async ({ params, body, actor, deps }) => ({ json: await shareDiagram(deps, actor, params.id!, body), headers: NO_STORE }),
  }),
  defineRoute({
    operationId: 'webChangeShare',
    method: 'PUT',
    url: '/app/api/diagrams/:id/shares/:userId',
    access: { session: true },
    tags: TAGS,
    summary: 'Changes a person\'s role on the diagram',
    body: ShareRoleBody,
    response: { status: 200, schema: Share, description: 'The share' },
    errors: ['not_found', 'csrf_failed'],
    handler: async ({ params, body, actor, deps }) => ({ json: await changeShare(deps, actor, params.id!, params.userId!, body.role), headers: NO_STORE }),
  }),
  defineRoute({
    operationId: 'webRemoveShare',
    method: 'DELETE',
    url: '/app/api/diagrams/:id/shares/:userId',
    access: { session: true },
    tags: TAGS,
    summary: 'Stops sharing the diagram with a person',
    response: { status: 204, description: 'Removed' },
    errors: ['not_found', 'csrf_failed', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
    handler: async ({ params, actor, deps }) => {
      await removeShare(deps, actor, params.id!, params.userId!);
      return { status: 204 };
    },
  }),
  defineRoute({
    operationId: 'webCancelInvitation',
    method: 'DELETE',
    url: '/app/api/invitations/:invitationId',
    access: { session: true },
    tags: TAGS,
    summary: 'Cancels a diagram or workspace invitation',
    response: { status: 204, description: 'Cancelled' },
    errors: ['not_found', 'csrf_failed', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
    handler: async ({ params, actor, deps }) => {
      await cancelInvitation(deps, actor, params.invitationId!);
      return { status: 204 };
    },
  }),
  defineRoute({
    operationId: 'webSetPublicLink',
    method: 'PUT',
    url: '/app/api/diagrams/:id/public-link',
    access: { session: true },
    tags: TAGS,
    summary: 'Publishes the diagram, unpublishes it, or sets its password',
    body: PublicLinkBody,
    response: { status: 200, schema: PublicLink, description: 'The public link' },
    errors: ['not_found', 'csrf_failed'],
    handler: async ({ params, body, actor, deps }) => {
      const link = await setPublicLink(deps, actor, params.id!, body);
      return { json: present.publicLink(link, deps.config.publicUrl), headers: NO_STORE };
    },
  }),
];
