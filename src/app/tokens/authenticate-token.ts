import type { Capability } from '../../auth/capabilities.ts';
import { hashToken, isWellFormedToken } from '../../auth/token.ts';
import type { UserRecord, Via } from '../../store/store.ts';
import type { AppDeps } from '../deps.ts';
import { findOAuthAccess } from '../oauth/access-tokens.ts';
import { oauthEntryKey } from '../oauth/adapter.ts';

/** lastUsedAt is written at most this often per token, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/** The owner of an API token, with what the token may do. */
export interface TokenHolder {
  user: UserRecord;
  /** The personal access token's id, or `oauth:<grant id>` for an OAuth access token. */
  tokenId: string;
  capabilities: readonly Capability[];
  /** How the holder reached the service (the token, or the OAuth app), for the history of what they change. */
  via: Via;
}

/** Client names kept in memory (an app's name rarely changes; a stale one only labels history). */
const CLIENT_NAMES_MAX = 10_000;

/**
 * Resolves API tokens to their holders: personal access tokens and OAuth
 * access tokens alike, so the API, MCP and the rate limits treat both the
 * same. Never logs or echoes a token.
 */
export class TokenAuthenticator {
  private readonly lastTouched = new Map<string, number>();
  private readonly clientNames = new Map<string, string>();
  private readonly deps: AppDeps;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /**
   * The token's holder and, in the same database round trip, the API switch.
   * `holder` is null for every kind of bad token alike: malformed, unknown,
   * revoked or expired. A token's use is recorded (lastUsedAt) in the
   * background; `touchFailed` hears if that fails.
   */
  async resolve(token: string | null, touchFailed: (error: unknown) => void): Promise<{ holder: TokenHolder | null; apiEnabled: boolean }> {
    if (token && !isWellFormedToken(token)) {
      const access = await findOAuthAccess(this.deps, token);
      if (access) {
        const tokenId = `oauth:${access.grantId}`;
        this.touch(tokenId, this.deps.now(), touchFailed, (now) => this.deps.store.oauth.touchGrant(access.grantId, now));
        const client = { id: access.clientId, name: await this.clientName(access.clientId) };
        return { holder: { user: access.user, tokenId, capabilities: access.capabilities, via: { kind: 'oauth', name: client.name, client } }, apiEnabled: access.apiEnabled };
      }
    }
    const credential = token && isWellFormedToken(token) ? await this.deps.store.tokens.findCredential(hashToken(token)) : null;
    if (!credential) return { holder: null, apiEnabled: await this.deps.store.operations.isApiEnabled() };
    const { token: record, user, apiEnabled } = credential;
    const now = this.deps.now();
    const expired = record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime();
    if (record.revokedAt !== null || expired) return { holder: null, apiEnabled };
    this.touch(record.id, now, touchFailed, (at) => this.deps.store.tokens.touch(record.id, at));
    const named = { id: record.id, name: record.name };
    return { holder: { user, tokenId: record.id, capabilities: record.capabilities, via: { kind: 'token', name: named.name, token: named } }, apiEnabled };
  }

  /** The name an OAuth client registered with (its id when it gave none, or is gone). */
  private async clientName(clientId: string): Promise<string> {
    const known = this.clientNames.get(clientId);
    if (known !== undefined) return known;
    const entry = await this.deps.store.oauth.find('Client', oauthEntryKey('Client', clientId), this.deps.now().toISOString());
    const registered = entry ? (JSON.parse(entry.payload) as { client_name?: unknown }).client_name : undefined;
    const name = typeof registered === 'string' && registered !== '' ? registered : clientId;
    if (this.clientNames.size >= CLIENT_NAMES_MAX) this.clientNames.clear();
    this.clientNames.set(clientId, name);
    return name;
  }

  private touch(tokenId: string, now: Date, touchFailed: (error: unknown) => void, write: (now: string) => Promise<void>): void {
    const last = this.lastTouched.get(tokenId) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(tokenId, now.getTime());
    if (this.lastTouched.size > 100_000) this.lastTouched.clear();
    write(now.toISOString()).catch(touchFailed);
  }
}

/**
 * The holder as seen through one of Drawbridge's MCP servers: its history
 * names the tool that wrote, beside the token or app it wrote with. The tool
 * is the caller's own word (the token is what authorizes).
 */
export function throughMcpTool(holder: TokenHolder, tool: string): TokenHolder {
  const via = holder.via;
  const by = via.kind === 'token' ? { token: via.token } : via.kind === 'oauth' ? { client: via.client } : {};
  return { ...holder, via: { kind: 'mcp', name: tool, tool, ...by } };
}
