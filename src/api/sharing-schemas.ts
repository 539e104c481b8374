import { z } from 'zod';

/**
 * The shapes of sharing over the API: a diagram's shares and invitations,
 * workspaces and their members, and moving a diagram into a workspace. Each
 * named shape is an OpenAPI component (`.meta({ id })`); the server validates
 * with these, and the client, the CLI and the MCP tools are typed by them.
 */
const Id = z.string().meta({ description: 'Resource id (UUID)' });
const Timestamp = z.string().meta({ description: 'ISO 8601 timestamp', format: 'date-time' });
const Email = z.string().max(254).meta({ description: 'An email address; compared without regard to case or surrounding spaces' });

const SHARE_ROLES = ['viewer', 'editor'] as const;
const WORKSPACE_ROLES = ['viewer', 'editor', 'admin'] as const;
export const ShareRole = z.enum(SHARE_ROLES).meta({ description: '`viewer` reads; `editor` reads and changes the content' });
export const WorkspaceRole = z
  .enum(WORKSPACE_ROLES)
  .meta({ description: "`viewer` reads the workspace's diagrams; `editor` also edits them and may move their own diagrams in; `admin` also manages the workspace and its members" });

export const Share = z
  .object({ userId: Id, email: z.string(), role: ShareRole, createdAt: Timestamp })
  .meta({ id: 'Share', description: 'A person a diagram is shared with' });

const Invitation = z
  .object({
    id: Id,
    email: z.string(),
    role: z.enum(WORKSPACE_ROLES).meta({ description: 'The role the address gets on acceptance: a share role for a diagram, a workspace role for a workspace' }),
    createdAt: Timestamp,
    expiresAt: Timestamp.meta({ description: 'After this the invitation grants nothing' }),
  })
  .meta({ id: 'Invitation', description: 'An address invited by mail; accepted when that address signs up and is verified' });

export const DiagramSharing = z
  .object({ ownerId: Id, ownerEmail: z.string(), shares: z.array(Share), invitations: z.array(Invitation).meta({ description: 'Pending, unexpired invitations' }) })
  .meta({ id: 'DiagramSharing', description: 'Who a diagram is shared with' });

export const ShareBody = z.strictObject({ email: Email, role: ShareRole }).meta({ id: 'ShareBody' });
export type ShareBody = z.infer<typeof ShareBody>;

export const ShareRoleBody = z.strictObject({ role: ShareRole }).meta({ id: 'ShareRoleBody' });
export type ShareRoleBody = z.infer<typeof ShareRoleBody>;

export const ShareResult = z
  .union([z.strictObject({ share: Share }), z.strictObject({ invitation: Invitation })])
  .meta({ id: 'ShareResult', description: '`share` when the address has a verified account (shared at once); `invitation` when it was invited by mail' });

export const MoveToWorkspaceBody = z
  .strictObject({ workspaceId: z.guid().nullable().meta({ description: 'A workspace where you are an editor or admin, or null to take the diagram out of its workspace' }) })
  .meta({ id: 'MoveToWorkspaceBody' });
export type MoveToWorkspaceBody = z.infer<typeof MoveToWorkspaceBody>;

export const DiagramPlacement = z
  .object({ id: Id, workspaceId: Id.nullable() })
  .meta({ id: 'DiagramPlacement', description: 'Which workspace a diagram is in (null: none)' });

export const Workspace = z
  .object({
    id: Id,
    name: z.string(),
    ownerId: Id.meta({ description: 'Who created it' }),
    role: WorkspaceRole.meta({ description: 'Your role in it' }),
    memberCount: z.number().int(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Workspace', description: 'A workspace you belong to' });

export const WorkspaceList = z.object({ items: z.array(Workspace) }).meta({ id: 'WorkspaceList' });

export const WorkspaceBody = z.strictObject({ name: z.string().max(1000) }).meta({ id: 'WorkspaceBody' });
export type WorkspaceBody = z.infer<typeof WorkspaceBody>;

export const Member = z
  .object({ userId: Id, email: z.string(), role: WorkspaceRole, joinedAt: Timestamp })
  .meta({ id: 'Member', description: 'A member of a workspace' });

export const MemberList = z
  .object({ members: z.array(Member), invitations: z.array(Invitation).meta({ description: 'Pending, unexpired invitations' }) })
  .meta({ id: 'MemberList' });

export const MemberBody = z.strictObject({ email: Email, role: WorkspaceRole }).meta({ id: 'MemberBody' });
export type MemberBody = z.infer<typeof MemberBody>;

export const MemberRoleBody = z.strictObject({ role: WorkspaceRole }).meta({ id: 'MemberRoleBody' });
export type MemberRoleBody = z.infer<typeof MemberRoleBody>;

export const MemberResult = z
  .union([z.strictObject({ member: Member }), z.strictObject({ invitation: Invitation })])
  .meta({ id: 'MemberResult', description: '`member` when the address has a verified account (a member at once); `invitation` when it was invited by mail' });
