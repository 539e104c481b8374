/**
 * The workspace members dialog's session routes (the dashboard's script).
 * The rules are the API's, from the same use cases: any member sees the
 * members and may leave; admins invite (an address without an account gets
 * an invitation by mail), change roles and remove members; a workspace keeps
 * at least one admin. Anyone else gets not_found.
 *
 *   PUT    /app/api/workspaces/:id                    { name } → the workspace, renamed (admins)
 *   GET    /app/api/workspaces/:id/members            { id, name, role, you, members, invitations }
 *   POST   /app/api/workspaces/:id/members            { email, role } → { member } | { invitation }
 *   PUT    /app/api/workspaces/:id/members/:userId    { role }
 *   DELETE /app/api/workspaces/:id/members/:userId    (your own id: leave)
 */
import type { FastifyPluginAsync } from 'fastify';
import { MemberBody, MemberRoleBody, WorkspaceBody } from '../../api/sharing-schemas.ts';
import type { ServiceDeps } from '../../app/deps.ts';
import { getWorkspace, renameWorkspace } from '../../app/workspaces/manage-workspaces.ts';
import { changeMemberRole, inviteMember, listMembers, removeMember } from '../../app/workspaces/members.ts';
import { requireSession } from '../session.ts';
import { sessionChange } from '../session-change.ts';


type IdParams = { Params: { id: string } };
type MemberParams = { Params: { id: string; userId: string } };

export const workspaceRoutes: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  const { publicUrl } = deps.config;

  app.put<IdParams>('/app/api/workspaces/:id', async (request, reply) => {
    const { session, body } = sessionChange(request, publicUrl, WorkspaceBody);
    return reply.header('cache-control', 'no-store').send(await renameWorkspace(deps, session, request.params.id, body.name));
  });

  app.get<IdParams>('/app/api/workspaces/:id/members', async (request, reply) => {
    const session = requireSession(request);
    const workspace = await getWorkspace(deps, session, request.params.id);
    const { members, invitations } = await listMembers(deps, session, workspace.id);
    return reply.header('cache-control', 'no-store').send({ id: workspace.id, name: workspace.name, role: workspace.role, you: session.user.id, members, invitations });
  });

  app.post<IdParams>('/app/api/workspaces/:id/members', async (request, reply) => {
    const { session, body } = sessionChange(request, publicUrl, MemberBody);
    return reply.header('cache-control', 'no-store').send(await inviteMember(deps, session, request.params.id, body));
  });

  app.put<MemberParams>('/app/api/workspaces/:id/members/:userId', async (request, reply) => {
    const { session, body } = sessionChange(request, publicUrl, MemberRoleBody);
    return reply.header('cache-control', 'no-store').send(await changeMemberRole(deps, session, request.params.id, request.params.userId, body.role));
  });

  app.delete<MemberParams>('/app/api/workspaces/:id/members/:userId', async (request, reply) => {
    const { session } = sessionChange(request, publicUrl);
    await removeMember(deps, session, request.params.id, request.params.userId);
    return reply.code(204).send();
  });
};
