/**
 * oidc-provider's storage on our store: every artifact of the authorization
 * server (clients, grants, codes, tokens, interactions, sessions) is an entry
 * of `store.oauth`, so every instance on one database shares them.
 */
import { createHash } from 'node:crypto';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { StoreDeps } from '../deps.ts';

/**
 * Kinds whose id is the credential itself (the text a client holds): stored
 * under the SHA-256 of the id, and without the id in the payload, so a copy of
 * the database holds no usable code or token.
 */
const SECRET_KINDS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The key an artifact of `kind` with this id is stored under. */
export function oauthEntryKey(kind: string, id: string): string {
  return SECRET_KINDS.has(kind) ? sha256(id) : id;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export class StoreAdapter implements Adapter {
  private readonly kind: string;
  private readonly deps: StoreDeps;

  constructor(kind: string, deps: StoreDeps) {
    this.kind = kind;
    this.deps = deps;
  }

  private now(): string {
    return this.deps.now().toISOString();
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const secret = SECRET_KINDS.has(this.kind);
    const stored: AdapterPayload = { ...payload };
    if (secret) delete stored.jti;
    const now = this.deps.now();
    await this.deps.store.oauth.upsert(
      {
        kind: this.kind,
        key: oauthEntryKey(this.kind, id),
        payload: JSON.stringify(stored),
        // A grant belongs to itself, so that deleting it takes it along with its codes and tokens.
        grantId: this.kind === 'Grant' ? id : text(payload.grantId),
        accountId: text(payload.accountId),
        clientId: text(payload.clientId),
        uid: text(payload.uid),
        userCode: text(payload.userCode),
        expiresAt: typeof expiresIn === 'number' && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
      },
      now.toISOString(),
    );
  }

  private revive(id: string | null, entry: { payload: string; consumedAt: number | null } | null): AdapterPayload | undefined {
    if (!entry) return undefined;
    const payload = JSON.parse(entry.payload) as AdapterPayload;
    if (id !== null && SECRET_KINDS.has(this.kind)) payload.jti = id;
    if (entry.consumedAt !== null) payload.consumed = entry.consumedAt;
    return payload;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.revive(id, await this.deps.store.oauth.find(this.kind, oauthEntryKey(this.kind, id), this.now()));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.revive(null, await this.deps.store.oauth.findByUid(this.kind, uid, this.now()));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.revive(null, await this.deps.store.oauth.findByUserCode(this.kind, userCode, this.now()));
  }

  async consume(id: string): Promise<void> {
    await this.deps.store.oauth.consume(this.kind, oauthEntryKey(this.kind, id), Math.floor(this.deps.now().getTime() / 1000));
  }

  async destroy(id: string): Promise<void> {
    await this.deps.store.oauth.destroy(this.kind, oauthEntryKey(this.kind, id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.deps.store.oauth.deleteGrant(grantId);
  }
}
