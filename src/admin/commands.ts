import { Command, CommanderError, Option } from 'commander';
import { createAccount, findAccount, markVerified, setQuota } from '../app/accounts/accounts.ts';
import type { StoreDeps } from '../app/deps.ts';
import { setApiEnabled } from '../app/operations/operations.ts';
import { revokeAnyToken, tokensOf } from '../app/tokens/manage-tokens.ts';
import { mintToken, tokenName } from '../app/tokens/mint-token.ts';
import { createWorkspace, findAnyDiagram, findWorkspace, setDiagramWorkspace, setWorkspaceMember, shareDiagram } from '../app/workspaces/operator-setup.ts';
import { normaliseEmail } from '../auth/accounts.ts';
import { QUOTA_DEFAULTS } from '../auth/accounts.ts';
import type { Config } from '../config.ts';
import { parseCapabilityList } from '../auth/capabilities.ts';
import type { ShareRole, WorkspaceRole } from '../auth/policy.ts';
import { ApiError } from '../errors.ts';
import type { Store, UserRecord } from '../store/store.ts';

/** A failure the operator should read: printed as one line on stderr. */
export class AdminError extends Error {}

const DURATION = /^(\d+)\s*(s|m|h|d|w)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

function emailArgument(raw: string): string {
  const email = normaliseEmail(raw);
  if (!email) throw new AdminError(`not an email address: ${raw}`);
  return email;
}

function quotaValue(raw: string): number {
  if (raw === 'unlimited') return Infinity;
  const quota = Number(raw);
  if (!Number.isInteger(quota) || quota < 0) throw new AdminError(`quota must be a non-negative integer or "unlimited", got "${raw}"`);
  return quota;
}

/** A quota as printed: a number, or "unlimited". */
const quotaOutput = (quota: number): number | 'unlimited' => (quota === Infinity ? 'unlimited' : quota);

/** The server settings the admin commands follow: the default quota, and what accepted invitations earn. */
export type AdminSettings = Pick<Config, 'defaultQuota' | 'inviteQuotaBonus' | 'inviteQuotaCap'>;

/** `30d`, `12h`, `90m`, `2w`, `3600s` → milliseconds. */
function parseDuration(raw: string): number {
  const match = DURATION.exec(raw.trim());
  if (!match || Number(match[1]) <= 0) throw new AdminError(`--expires-in must look like 30d, 12h, 90m, 2w or 3600s, got "${raw}"`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

async function userByEmail(deps: StoreDeps, raw: string): Promise<UserRecord> {
  const user = await findAccount(deps, emailArgument(raw));
  if (!user) throw new AdminError(`no user with email ${raw}`);
  return user;
}

function roleOf<T extends string>(raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) throw new AdminError(`role must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/**
 * Runs one admin command against a store and returns the JSON object it
 * prints. Throws AdminError (or CommanderError for usage mistakes); a rule of
 * the use case refusing the input is an AdminError with the rule's message.
 */
export async function runAdminCommand(argv: string[], store: Store, now: () => Date = () => new Date(), settings: AdminSettings = QUOTA_DEFAULTS): Promise<object> {
  const deps: StoreDeps = { store, now };
  let result: object | undefined;
  const program = new Command('drawbridge-admin')
    .description('Operate a Drawbridge database directly (same DATA_DIR / DATABASE_URL as the server).')
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} })
    .showSuggestionAfterError(true);

  const user = program.command('user').description('accounts');
  user
    .command('create')
    .requiredOption('--email <email>')
    .option('--unverified', 'leave the email unverified')
    .option('--quota <n>', 'diagram quota, or "unlimited" (default: DEFAULT_QUOTA)')
    .action(async (opts: { email: string; unverified?: boolean; quota?: string }) => {
      const email = emailArgument(opts.email);
      const quota = opts.quota === undefined ? settings.defaultQuota : quotaValue(opts.quota);
      const record = await createAccount(deps, { email, emailVerified: false, quota });
      if (!record) throw new AdminError(`a user with email ${email} already exists`);
      // A verified address accepts the invitations waiting for it, as a verification by mail does.
      if (!opts.unverified) await markVerified(deps, settings, record.id);
      result = { id: record.id, email: record.email, emailVerified: !opts.unverified, quota: quotaOutput(record.quota) };
    });
  user
    .command('verify')
    .requiredOption('--email <email>')
    .action(async (opts: { email: string }) => {
      const found = await userByEmail(deps, opts.email);
      await markVerified(deps, settings, found.id);
      result = { id: found.id, email: found.email, emailVerified: true };
    });
  user
    .command('set-quota')
    .requiredOption('--email <email>')
    .requiredOption('--quota <n>')
    .action(async (opts: { email: string; quota: string }) => {
      const found = await userByEmail(deps, opts.email);
      const quota = quotaValue(opts.quota);
      await setQuota(deps, found.id, quota);
      result = { id: found.id, quota: quotaOutput(quota) };
    });

  const token = program.command('token').description('personal access tokens');
  token
    .command('mint')
    .requiredOption('--email <email>')
    .requiredOption('--caps <list>', 'comma-separated subset of read,write,publish,delete')
    .addOption(new Option('--expires-in <duration>', 'e.g. 30d, 12h').conflicts('expiresAt'))
    .option('--expires-at <iso>', 'an ISO 8601 instant')
    .option('--name <name>', 'a label for the token', 'admin-cli')
    .action(async (opts: { email: string; caps: string; expiresIn?: string; expiresAt?: string; name: string }) => {
      const owner = await userByEmail(deps, opts.email);
      let capabilities;
      try {
        capabilities = parseCapabilityList(opts.caps);
      } catch (error) {
        throw new AdminError((error as Error).message);
      }
      const minted = now();
      let expiresAt: string | null = null;
      if (opts.expiresIn !== undefined) expiresAt = new Date(minted.getTime() + parseDuration(opts.expiresIn)).toISOString();
      if (opts.expiresAt !== undefined) {
        const at = Date.parse(opts.expiresAt);
        if (Number.isNaN(at)) throw new AdminError(`--expires-at is not an ISO 8601 instant: ${opts.expiresAt}`);
        expiresAt = new Date(at).toISOString();
      }
      const { record, token: text } = await mintToken(deps, {
        userId: owner.id,
        name: tokenName(opts.name) || 'admin-cli',
        capabilities,
        expiresAt,
        now: minted,
      });
      result = { id: record.id, token: text, capabilities, expiresAt };
    });
  token
    .command('revoke')
    .requiredOption('--id <tokenId>')
    .action(async (opts: { id: string }) => {
      const revoked = await revokeAnyToken(deps, opts.id);
      if (!revoked) throw new AdminError(`no token with id ${opts.id}`);
      result = { id: revoked.id, revokedAt: revoked.revokedAt };
    });
  token
    .command('list')
    .requiredOption('--email <email>')
    .action(async (opts: { email: string }) => {
      const owner = await userByEmail(deps, opts.email);
      const tokens = await tokensOf(deps, owner.id);
      result = {
        items: tokens.map((t) => ({
          id: t.id,
          name: t.name,
          capabilities: t.capabilities,
          last4: t.last4,
          createdAt: t.createdAt,
          expiresAt: t.expiresAt,
          revokedAt: t.revokedAt,
          lastUsedAt: t.lastUsedAt,
        })),
      };
    });

  const workspace = program.command('workspace').description('shared workspaces');
  workspace
    .command('create')
    .requiredOption('--name <name>')
    .requiredOption('--owner <email>')
    .action(async (opts: { name: string; owner: string }) => {
      const owner = await userByEmail(deps, opts.owner);
      const created = await createWorkspace(deps, owner.id, opts.name);
      result = { id: created.id, name: created.name };
    });
  workspace
    .command('add-member')
    .requiredOption('--workspace <id>')
    .requiredOption('--email <email>')
    .requiredOption('--role <role>', 'viewer, editor or admin')
    .action(async (opts: { workspace: string; email: string; role: string }) => {
      const role = roleOf<WorkspaceRole>(opts.role, ['viewer', 'editor', 'admin']);
      const found = await findWorkspace(deps, opts.workspace);
      if (!found) throw new AdminError(`no workspace with id ${opts.workspace}`);
      const member = await userByEmail(deps, opts.email);
      await setWorkspaceMember(deps, found.id, member.id, role);
      result = { workspaceId: found.id, userId: member.id, role };
    });

  const diagram = program.command('diagram').description('diagram access');
  diagram
    .command('share')
    .requiredOption('--id <diagramId>')
    .requiredOption('--email <email>')
    .requiredOption('--role <role>', 'viewer or editor')
    .action(async (opts: { id: string; email: string; role: string }) => {
      const role = roleOf<ShareRole>(opts.role, ['viewer', 'editor']);
      const found = await findAnyDiagram(deps, opts.id);
      if (!found) throw new AdminError(`no diagram with id ${opts.id}`);
      const member = await userByEmail(deps, opts.email);
      await shareDiagram(deps, found.id, member.id, role);
      result = { diagramId: found.id, userId: member.id, role };
    });
  diagram
    .command('set-workspace')
    .requiredOption('--id <diagramId>')
    .requiredOption('--workspace <id>', 'a workspace id, or "none"')
    .action(async (opts: { id: string; workspace: string }) => {
      const found = await findAnyDiagram(deps, opts.id);
      if (!found) throw new AdminError(`no diagram with id ${opts.id}`);
      let workspaceId: string | null = null;
      if (opts.workspace !== 'none') {
        const target = await findWorkspace(deps, opts.workspace);
        if (!target) throw new AdminError(`no workspace with id ${opts.workspace}`);
        workspaceId = target.id;
      }
      await setDiagramWorkspace(deps, found.id, workspaceId);
      result = { id: found.id, workspaceId };
    });

  const api = program.command('api').description('the API kill switch');
  for (const [verb, enabled] of [['disable', false], ['enable', true]] as const) {
    api.command(verb).action(async () => {
      await setApiEnabled(deps, enabled);
      result = { apiEnabled: enabled };
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof ApiError) throw new AdminError(error.message);
    throw error;
  }
  if (result === undefined) throw new CommanderError(2, 'drawbridge.usage', 'no command given; see drawbridge-admin --help');
  return result;
}
