import { type Command, Option } from 'commander';
import type { DrawbridgeClient } from '../../client/client.ts';
import type { CliContext } from '../context.ts';

const SHARE_ROLES = ['viewer', 'editor'] as const;
const WORKSPACE_ROLES = ['viewer', 'editor', 'admin'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const day = (timestamp: string) => timestamp.slice(0, 10);

/**
 * `share …` (a diagram's people), `workspaces …` (workspaces and their
 * members) and `diagrams move-to-workspace`: the sharing part of the API, as
 * docs/cli.md describes it.
 */
export function addSharingCommands(program: Command, diagrams: Command, ctx: CliContext): void {
  const { client, out, json, table, dim, bold, jsonOpt, usage, examples } = ctx;

  /** A user id as given, or the id of the person with this address among `people`. */
  const userIdOf = (ref: string, people: { userId: string; email: string }[], what: string): string => {
    if (UUID.test(ref)) return ref;
    const found = people.find((p) => p.email === ref.trim().toLowerCase());
    return found ? found.userId : usage(`no ${what} with the address ${ref}`);
  };
  /** A workspace id as given, or the id of the one of yours with exactly this name. */
  const workspaceIdOf = async (c: DrawbridgeClient, ref: string): Promise<string> => {
    if (UUID.test(ref)) return ref;
    const named = (await c.listWorkspaces()).items.filter((w) => w.name === ref);
    if (named.length === 0) usage(`you belong to no workspace named "${ref}"`);
    if (named.length > 1) usage(`${named.length} of your workspaces are named "${ref}"; use its id`);
    return named[0]!.id;
  };
  type Invitation = { id: string; email: string; role: string; createdAt: string; expiresAt: string };
  /** People with their roles, then the addresses invited: USER, ROLE, SINCE, EMAIL. */
  const peopleTable = (people: { userId: string; role: string; since: string; email: string }[], invitations: Invitation[]) =>
    table(
      ['USER', 'ROLE', 'SINCE', 'EMAIL'],
      [
        ...people.map((p) => [p.userId, p.role, day(p.since), p.email]),
        ...invitations.map((i) => [`invitation ${i.id}`, i.role, day(i.createdAt), `${i.email} (invited, until ${day(i.expiresAt)})`]),
      ],
    );
  /**
   * Removes the person `user` names (an id, or an address among `people`) with
   * `remove`, or, for an address only invited, cancels its invitation.
   */
  const removePersonOrInvitation = async (
    user: string,
    listing: () => Promise<{ people: { userId: string; email: string }[]; invitations: Invitation[] }>,
    remove: (userId: string) => Promise<void>,
    cancel: (invitationId: string) => Promise<void>,
    what: string,
  ) => {
    if (UUID.test(user)) {
      await remove(user);
      return out('Removed.');
    }
    const { people, invitations } = await listing();
    const invitation = invitations.find((i) => i.email === user.trim().toLowerCase());
    if (invitation && !people.some((p) => p.email === invitation.email)) {
      await cancel(invitation.id);
      return out(`Cancelled the invitation of ${invitation.email}.`);
    }
    await remove(userIdOf(user, people, what));
    out(`Removed ${user}.`);
  };
  const invited = (invitation: { email: string; role: string; expiresAt: string }) =>
    out(`Invited ${bold(invitation.email)} as ${invitation.role} by mail; the invitation is accepted when the address signs up and is verified (until ${day(invitation.expiresAt)}).`);

  const share = program.command('share').description("see and change who a diagram is shared with (owner only; changes need a token with publish)");
  share
    .command('list <id>')
    .description('the people a diagram is shared with and the pending invitations')
    .addOption(jsonOpt())
    .action(async (id: string, opts: { json?: boolean }) => {
      const sharing = await client().listShares(id);
      if (opts.json) return json(sharing);
      out(`owner: ${sharing.ownerEmail}`);
      if (sharing.shares.length === 0 && sharing.invitations.length === 0) return out(dim('Not shared with anyone.'));
      peopleTable(sharing.shares.map((s) => ({ ...s, since: s.createdAt })), sharing.invitations);
    });
  share
    .command('add <id> <email>')
    .description('share with a person by email; an address without an account is invited by mail')
    .addOption(new Option('--role <role>', 'what they may do').choices(SHARE_ROLES).default('viewer'))
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge share add ID ana@example.com --role editor', 'drawbridge share add ID newcomer@example.com'))
    .action(async (id: string, email: string, opts: { role: (typeof SHARE_ROLES)[number]; json?: boolean }) => {
      const result = await client().shareDiagram(id, { email, role: opts.role });
      if (opts.json) return json(result);
      if ('share' in result) out(`Shared with ${bold(result.share.email)} as ${result.share.role}.`);
      else invited(result.invitation);
    });
  share
    .command('role <id> <user> <role>')
    .description("change a share's role (user: id or email)")
    .addOption(jsonOpt())
    .action(async (id: string, user: string, role: string, opts: { json?: boolean }) => {
      if (!(SHARE_ROLES as readonly string[]).includes(role)) usage(`role must be one of ${SHARE_ROLES.join(', ')}, got "${role}"`);
      const c = client();
      const userId = UUID.test(user) ? user : userIdOf(user, (await c.listShares(id)).shares, 'share');
      const changed = await c.changeShare(id, userId, { role: role as (typeof SHARE_ROLES)[number] });
      if (opts.json) return json(changed);
      out(`${changed.email} is now ${changed.role}.`);
    });
  share
    .command('remove <id> <user>')
    .description('stop sharing with a person (user: id or email), or cancel an invitation (its address)')
    .action(async (id: string, user: string) => {
      const c = client();
      await removePersonOrInvitation(
        user,
        async () => {
          const sharing = await c.listShares(id);
          return { people: sharing.shares, invitations: sharing.invitations };
        },
        (userId) => c.removeShare(id, userId),
        (invitationId) => c.cancelDiagramInvitation(id, invitationId),
        'share',
      );
    });

  diagrams
    .command('move-to-workspace <id> <workspace>')
    .description('move a diagram you own into a workspace (name or id) where you are an editor or admin, or out of any with none')
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge diagrams move-to-workspace ID Platform', 'drawbridge diagrams move-to-workspace ID none'))
    .action(async (id: string, workspace: string, opts: { json?: boolean }) => {
      const c = client();
      const workspaceId = workspace === 'none' ? null : await workspaceIdOf(c, workspace);
      const moved = await c.moveDiagramToWorkspace(id, { workspaceId });
      if (opts.json) return json(moved);
      out(workspaceId === null ? 'The diagram is in no workspace now.' : `Moved into workspace ${workspace}.`);
    });

  const workspaces = program.command('workspaces').description('workspaces you belong to and their members (changes need a token with write)');
  workspaces
    .command('list')
    .description('the workspaces you belong to, with your role')
    .addOption(jsonOpt())
    .action(async (opts: { json?: boolean }) => {
      const list = await client().listWorkspaces();
      if (opts.json) return json(list);
      if (list.items.length === 0) return out(dim('You belong to no workspace.'));
      table(['ID', 'ROLE', 'MEMBERS', 'NAME'], list.items.map((w) => [w.id, w.role, String(w.memberCount), w.name]));
    });
  workspaces
    .command('create <name>')
    .description('create a workspace; you are its first admin')
    .addOption(jsonOpt())
    .action(async (name: string, opts: { json?: boolean }) => {
      const created = await client().createWorkspace({ name });
      if (opts.json) return json(created);
      out(`Created workspace ${bold(created.name)} ${created.id}`);
    });
  workspaces
    .command('rename <workspace> <name>')
    .description('rename a workspace (admins)')
    .addOption(jsonOpt())
    .action(async (workspace: string, name: string, opts: { json?: boolean }) => {
      const c = client();
      const renamed = await c.renameWorkspace(await workspaceIdOf(c, workspace), { name });
      if (opts.json) return json(renamed);
      out(`Renamed to ${bold(renamed.name)}.`);
    });
  workspaces
    .command('members <workspace>')
    .description("a workspace's members and pending invitations")
    .addOption(jsonOpt())
    .action(async (workspace: string, opts: { json?: boolean }) => {
      const c = client();
      const list = await c.listMembers(await workspaceIdOf(c, workspace));
      if (opts.json) return json(list);
      peopleTable(list.members.map((m) => ({ ...m, since: m.joinedAt })), list.invitations);
    });
  workspaces
    .command('invite <workspace> <email>')
    .description('add a member by email (admins); an address without an account is invited by mail')
    .addOption(new Option('--role <role>', 'their role').choices(WORKSPACE_ROLES).default('editor'))
    .addOption(jsonOpt())
    .addHelpText('after', examples('drawbridge workspaces invite Platform ana@example.com --role admin'))
    .action(async (workspace: string, email: string, opts: { role: (typeof WORKSPACE_ROLES)[number]; json?: boolean }) => {
      const c = client();
      const result = await c.inviteMember(await workspaceIdOf(c, workspace), { email, role: opts.role });
      if (opts.json) return json(result);
      if ('member' in result) out(`${bold(result.member.email)} is a member as ${result.member.role}.`);
      else invited(result.invitation);
    });
  workspaces
    .command('role <workspace> <user> <role>')
    .description("change a member's role (admins; user: id or email)")
    .addOption(jsonOpt())
    .action(async (workspace: string, user: string, role: string, opts: { json?: boolean }) => {
      if (!(WORKSPACE_ROLES as readonly string[]).includes(role)) usage(`role must be one of ${WORKSPACE_ROLES.join(', ')}, got "${role}"`);
      const c = client();
      const id = await workspaceIdOf(c, workspace);
      const userId = UUID.test(user) ? user : userIdOf(user, (await c.listMembers(id)).members, 'member');
      const changed = await c.changeMemberRole(id, userId, { role: role as (typeof WORKSPACE_ROLES)[number] });
      if (opts.json) return json(changed);
      out(`${changed.email} is now ${changed.role}.`);
    });
  workspaces
    .command('remove <workspace> <user>')
    .description('remove a member (admins; user: id or email), or cancel an invitation (its address)')
    .action(async (workspace: string, user: string) => {
      const c = client();
      const id = await workspaceIdOf(c, workspace);
      await removePersonOrInvitation(
        user,
        async () => {
          const list = await c.listMembers(id);
          return { people: list.members, invitations: list.invitations };
        },
        (userId) => c.removeMember(id, userId),
        (invitationId) => c.cancelWorkspaceInvitation(id, invitationId),
        'member',
      );
    });
  workspaces
    .command('leave <workspace>')
    .description('leave a workspace (its last admin cannot)')
    .action(async (workspace: string) => {
      const c = client();
      await c.removeMember(await workspaceIdOf(c, workspace), 'me');
      out('You left the workspace.');
    });
}
