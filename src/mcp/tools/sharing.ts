/** `list_shares`, `share_diagram`, `unshare_diagram` and the workspace tools: who a diagram is shared with, and workspaces. */
import { z } from 'zod';
import * as Sh from '../../api/sharing-schemas.ts';
import { diagramId, EXAMPLE_ID, EXAMPLE_USER, EXAMPLE_WORKSPACE, linked, onDiagram, read, type ToolKit } from '../tool-kit.ts';

export function registerSharingTools(kit: ToolKit): void {
  const { tool, link } = kit;
  const workspaceId = z.guid().describe('Workspace id (UUID), from list_workspaces');
  const userId = z.guid().describe('The person\'s user id, from list_shares or list_workspace_members');
  tool(
    'list_shares',
    {
      description: 'Who one of your diagrams is shared with: the people (userId, email, role viewer or editor) and the addresses invited by mail that have not signed up yet. Only the owner may see this; for anyone else the diagram is not found.',
      fields: { id: diagramId },
      example: { id: EXAMPLE_ID },
      annotations: read,
      about: onDiagram,
    },
    (a, c) => c.listShares(a.id),
  );
  tool(
    'share_diagram',
    {
      description:
        'Share one of your diagrams with a person by email, as viewer (reads) or editor (reads and changes the content); sharing again changes the role. Only the owner may, with a token that has the publish capability. If the address has a verified account it gets access at once (answer: share); otherwise an invitation is mailed to the address and it gets access when that person signs up and verifies it (answer: invitation, with when it expires). Do not share with an address the user did not ask for: the person there is emailed.',
      fields: { id: diagramId, email: Sh.ShareBody.shape.email, role: Sh.ShareRole },
      example: { id: EXAMPLE_ID, email: 'ana@example.com', role: 'editor' },
      about: onDiagram,
    },
    ({ id, email, role }, c) => c.shareDiagram(id, { email, role }),
  );
  tool(
    'unshare_diagram',
    {
      description: 'Stop sharing one of your diagrams with a person (their userId from list_shares); they may still reach it through a workspace. Owner only, publish capability.',
      fields: { id: diagramId, userId },
      example: { id: EXAMPLE_ID, userId: EXAMPLE_USER },
      output: linked({ unshared: z.boolean() }),
      annotations: { destructiveHint: true, idempotentHint: true },
      about: onDiagram,
    },
    async (a, c) => {
      await c.removeShare(a.id, a.userId);
      return link({ id: a.id, unshared: true });
    },
  );
  tool(
    'list_workspaces',
    { description: 'The workspaces you belong to: id, name, your role (viewer, editor or admin), memberCount. List a workspace\'s diagrams with list_diagrams and workspace.', fields: {}, example: {}, annotations: read },
    (_a, c) => c.listWorkspaces(),
  );
  tool(
    'create_workspace',
    { description: 'Create a workspace; you become its first admin. Then invite people with invite_to_workspace and move diagrams in with move_to_workspace.', fields: { name: Sh.WorkspaceBody.shape.name.describe('Workspace name') }, example: { name: 'Platform team' } },
    (a, c) => c.createWorkspace({ name: a.name }),
  );
  tool(
    'list_workspace_members',
    { description: 'The members of a workspace you belong to (userId, email, role) and the addresses invited that have not joined yet.', fields: { workspaceId }, example: { workspaceId: EXAMPLE_WORKSPACE }, annotations: read },
    (a, c) => c.listMembers(a.workspaceId),
  );
  tool(
    'invite_to_workspace',
    {
      description:
        'Add a person to a workspace you administer, by email, as viewer (reads its diagrams), editor (also edits them and may move their own in) or admin (also manages the workspace). A verified account joins at once (answer: member); any other address is mailed an invitation and joins when it signs up and verifies (answer: invitation). Do not invite an address the user did not ask for.',
      fields: { workspaceId, email: Sh.MemberBody.shape.email, role: Sh.WorkspaceRole },
      example: { workspaceId: EXAMPLE_WORKSPACE, email: 'ana@example.com', role: 'editor' },
    },
    ({ workspaceId: id, email, role }, c) => c.inviteMember(id, { email, role }),
  );
  tool(
    'move_to_workspace',
    {
      description:
        'Move one of your diagrams into a workspace where you are an editor or admin (its members then reach it, their workspace role the ceiling), or out of its workspace with workspaceId null. Only the owner may, with a token that has the publish capability.',
      fields: { id: diagramId, workspaceId: Sh.MoveToWorkspaceBody.shape.workspaceId },
      example: { id: EXAMPLE_ID, workspaceId: EXAMPLE_WORKSPACE },
      output: linked({ workspaceId: z.string().nullable() }),
      about: onDiagram,
    },
    async (a, c) => link(await c.moveDiagramToWorkspace(a.id, { workspaceId: a.workspaceId })),
  );
}
