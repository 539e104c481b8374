/** OAuth access tokens as API credentials: what one leads to, judged like a personal access token. */
import { serviceResources } from '../../api/oauth-paths.ts';
import { type Capability, capabilitiesOfScope } from '../../auth/capabilities.ts';
import type { UserRecord } from '../../store/store.ts';
import type { AppDeps } from '../deps.ts';
import { oauthEntryKey } from './adapter.ts';

/** oidc-provider's opaque tokens: 256 random bits, base64url (43 characters). */
const ACCESS_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface OAuthAccess {
  user: UserRecord;
  grantId: string;
  /** The OAuth client the token was issued to. */
  clientId: string;
  capabilities: Capability[];
  apiEnabled: boolean;
}

interface AccessTokenPayload {
  exp?: number;
  aud?: string | string[];
  scope?: string;
  kind?: string;
  clientId?: string;
}

/**
 * The access token's account and capabilities, with the API switch; null for
 * anything else alike: not an access token (a refresh token or a code is
 * never a bearer), unknown, revoked (its grant deleted), expired, or bound to
 * a resource that is not this service's.
 */
export async function findOAuthAccess(deps: AppDeps, token: string): Promise<OAuthAccess | null> {
  if (!ACCESS_TOKEN_SHAPE.test(token)) return null;
  const credential = await deps.store.oauth.findCredential('AccessToken', oauthEntryKey('AccessToken', token));
  if (!credential || credential.grantId === null) return null;
  const payload = JSON.parse(credential.payload) as AccessTokenPayload;
  if (payload.kind !== 'AccessToken') return null;
  if (typeof payload.exp !== 'number' || payload.exp * 1000 <= deps.now().getTime()) return null;
  const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud === undefined ? [] : [payload.aud];
  const ours = serviceResources(deps.config.publicUrl).all;
  if (audiences.length === 0 || !audiences.every((audience) => ours.includes(audience))) return null;
  return { user: credential.user, grantId: credential.grantId, clientId: payload.clientId ?? '', capabilities: capabilitiesOfScope(payload.scope), apiEnabled: credential.apiEnabled };
}
