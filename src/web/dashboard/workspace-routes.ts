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
import { z } from 'zod';
import { Member, MemberBody, MemberList, MemberResult, MemberRoleBody, Workspace, WorkspaceBody } from '../../api/sharing-schemas.ts';
import { getWorkspace, renameWorkspace } from '../../app/workspaces/manage-workspaces.ts';
import { changeMemberRole, inviteMember, listMembers, removeMember } from '../../app/workspaces/members.ts';
import { defineRoute } from '../../edge/route.ts';
import { NO_STORE } from '../static-response.ts';

const TAGS = ['web workspaces'];

const MembersDialog = MemberList.extend({
  id: z.string(),
  name: z.string(),
  role: Workspace.shape.role,
  you: z.string().meta({ description: 'Your own user id' }),
});

export const workspaceApiRoutes = [
  defineRoute({
    operationId: 'webRenameWorkspace',
    method: 'PUT',
    url: '/app/api/workspaces/:id',
    access: { session: true },
    tags: TAGS,
    summary: 'Renames a workspace (its admins)',
    body: WorkspaceBody,
    response: { status: 200, schema: Workspace, description: 'The workspace' },
    errors: ['not_found', 'bad_request', 'csrf_failed'],
    handler: async ({ params, body, actor, deps }) => ({ json: await renameWorkspace(deps, actor, params.id!, body.name), headers: NO_STORE }),
  }),
  defineRoute({
    operationId: 'webListMembers',
    method: 'GET',
    url: '/app/api/workspaces/:id/members',
    access: { session: true },
    tags: TAGS,
    summary: 'The members dialog\'s state: the workspace, its members and invitations',
    response: { status: 200, schema: MembersDialog, description: 'Members and invitations' },
    errors: ['not_found'],
    handler: async ({ params, actor, deps }) => {
      const workspace = await getWorkspace(deps, actor, params.id!);
      const { members, invitations } = await listMembers(deps, actor, workspace.id);
      return { json: { id: workspace.id, name: workspace.name, role: workspace.role, you: actor.user.id, members, invitations }, headers: NO_STORE };
    },
  }),
  defineRoute({
    operationId: 'webInviteMember',
    method: 'POST',
    url: '/app/api/workspaces/:id/members',
    access: { session: true },
    tags: TAGS,
    summary: 'Adds a member, or invites an address by mail',
    body: MemberBody,
    response: { status: 200, schema: MemberResult, description: 'The member, or the invitation sent' },
    errors: ['not_found', 'bad_request', 'csrf_failed'],
    handler: async ({ params, body, actor, deps }) => ({ json: await inviteMember(deps, actor, params.id!, body), headers: NO_STORE }),
  }),
  defineRoute({
    operationId: 'webChangeMemberRole',
    method: 'PUT',
    url: '/app/api/workspaces/:id/members/:userId',
    access: { session: true },
    tags: TAGS,
    summary: 'Changes a member\'s role',
    body: MemberRoleBody,
    response: { status: 200, schema: Member, description: 'The member' },
    errors: ['not_found', 'bad_request', 'csrf_failed'],
    handler: async ({ params, body, actor, deps }) => ({ json: await changeMemberRole(deps, actor, params.id!, params.userId!, body.role), headers: NO_STORE }),
  }),
  defineRoute({
    operationId: 'webRemoveMember',
    method: 'DELETE',
    url: '/app/api/workspaces/:id/members/:userId',
    access: { session: true },
    tags: TAGS,
    summary: 'Removes a member (your own id: leave the workspace)',
    response: { status: 204, description: 'Removed' },
    errors: ['not_found', 'bad_request', 'csrf_failed', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
    handler: async ({ params, actor, deps }) => {
      await removeMember(deps, actor, params.id!, params.userId!);
      return { status: 204 };
    },
  }),
];
