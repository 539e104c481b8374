/**
 * The OAuth 2.1 authorization server, built on oidc-provider (a certified
 * implementation; nothing of the protocol is written here): dynamic client
 * registration, authorization code with PKCE (S256 only), refresh tokens with
 * rotation, revocation and resource indicators. Its storage is the store
 * (StoreAdapter), its keys are kept in the database, and the person's sign-in
 * and consent are the web app's (the interaction URL is the consent page).
 * OpenID Connect extras (userinfo, logout) are off: it issues no ID tokens.
 *
 * It is built on its first use (the first request to an OAuth endpoint or the
 * consent page), not at start: oidc-provider takes a few hundred milliseconds to
 * load, and a fresh database's signing key (2048-bit RSA) as long again to make,
 * which a service nobody connects an OAuth client to never needs.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Configuration, JWK, KoaContextWithOIDC, default as Provider } from 'oidc-provider';
import { interactionPath, OAUTH_PATHS, serviceResources } from '../../api/oauth-paths.ts';
import { CAPABILITIES } from '../../auth/capabilities.ts';
import type { AppDeps } from '../deps.ts';
import { StoreAdapter } from './adapter.ts';
import { redirectUriProblem } from './redirect-uris.ts';

/** What each capability scope lets a client do, shown on the consent page and in the metadata. */
const RESOURCE_SCOPE = CAPABILITIES.join(' ');

const GRANT_TTL_SECONDS = 10 * 365 * 24 * 60 * 60;

interface StoredKeys {
  signing: JWK;
  cookies: string[];
}

/** The signing key and cookie keys, made on first start and kept in the database, so that every instance uses the same. */
async function loadKeys(deps: AppDeps): Promise<StoredKeys> {
  const text = await deps.store.oauth.secret('keys', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signing = { ...(privateKey.export({ format: 'jwk' }) as JWK), use: 'sig', alg: 'RS256', kid: randomBytes(8).toString('hex') };
    return JSON.stringify({ signing, cookies: [randomBytes(32).toString('base64url')] } satisfies StoredKeys);
  });
  return JSON.parse(text) as StoredKeys;
}

/**
 * A code dies at its first redemption, failed or not: oidc-provider consumes a
 * code only once every check passed, so after a wrong PKCE verifier or another
 * client's attempt the code could still be redeemed by a second try. Run around the
 * token endpoint, after oidc-provider answered and before the answer leaves.
 * A failed attempt on a code already spent is a replay: the grant it made,
 * with every token issued from it, is revoked (as oidc-provider does when the
 * replay is otherwise valid).
 */
function spendCodeOnFailedRedemption(deps: AppDeps) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    if (ctx.oidc?.route !== 'token' || ctx.status < 400) return;
    const { grant_type: grantType, code: value } = ctx.oidc.params ?? {};
    if (grantType !== 'authorization_code' || typeof value !== 'string' || value === '') return;
    const code = await ctx.oidc.provider.AuthorizationCode.find(value, { ignoreExpiration: true });
    if (!code) return;
    // `consumed` is in the model's payload, though missing from its type.
    if ((code as { consumed?: unknown }).consumed) {
      if (code.grantId) await deps.store.oauth.deleteGrant(code.grantId);
    } else {
      await code.consume();
    }
  };
}

/** The authorization server, built once on the first call; a build that failed (the database unreachable) is tried again on the next. */
export type AuthorizationServer = () => Promise<Provider>;

export function authorizationServerOnFirstUse(deps: AppDeps): AuthorizationServer {
  let building: Promise<Provider> | undefined;
  return () =>
    (building ??= createAuthorizationServer(deps).catch((error: unknown) => {
      building = undefined;
      throw error;
    }));
}

/** Builds the authorization server for this service (its issuer is PUBLIC_URL). */
async function createAuthorizationServer(deps: AppDeps): Promise<Provider> {
  const { config } = deps;
  const { default: Provider, errors } = await import('oidc-provider');
  const keys = await loadKeys(deps);
  const resources = serviceResources(config.publicUrl);

  const configuration: Configuration = {
    adapter: (kind: string) => new StoreAdapter(kind, deps),
    jwks: { keys: [keys.signing] },
    cookies: {
      keys: keys.cookies,
      long: { signed: true, sameSite: 'lax' },
      short: { signed: true, sameSite: 'lax' },
    },
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      jwks: OAUTH_PATHS.jwks,
    },
    responseTypes: ['code'],
    // The capabilities are the resources' scopes; listed here too so a client may register with them (RFC 7591 `scope`).
    scopes: ['openid', 'offline_access', ...CAPABILITIES],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    // oidc-provider's only hook into its client checks: listing redirect_uris here hands them to the
    // validator, at registration and whenever a stored client is loaded (so an old bad one stops working).
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator: (_ctx, key, value) => {
        if (key !== 'redirect_uris' || !Array.isArray(value)) return;
        for (const uri of value) {
          const problem = typeof uri === 'string' ? redirectUriProblem(uri) : null;
          if (problem) throw new errors.InvalidClientMetadata(problem);
        }
      },
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      // Only the client a token was issued to may revoke it; another gets the usual 200 and nothing happens.
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Without a resource parameter, a token is for the MCP endpoint.
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? resources.mcp,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (!resources.all.includes(resource)) throw new errors.InvalidTarget();
          return { scope: RESOURCE_SCOPE, audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: config.oauthAccessTokenTtlSeconds };
        },
      },
    },
    interactions: { url: async (_ctx, interaction) => interactionPath(interaction.uid) },
    // Every authorization asks the person: a grant is only ever the one their consent just made.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    findAccount: async (_ctx, id) => {
      const user = await deps.store.accounts.findById(id);
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    // Refresh tokens for every client registered for them, without the OpenID offline_access dance.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    expiresWithSession: async () => false,
    clientBasedCORS: (_ctx, origin, client) => (client.redirectUris ?? []).some((uri) => URL.canParse(uri) && new URL(uri).origin === origin),
    ttl: {
      AccessToken: () => config.oauthAccessTokenTtlSeconds,
      AuthorizationCode: () => 60,
      RefreshToken: () => config.oauthRefreshTokenTtlSeconds,
      Interaction: () => 60 * 60,
      Session: () => 60 * 60,
      // A grant lasts until revoked (ten years stand for that); its tokens expire on their own.
      Grant: () => GRANT_TTL_SECONDS,
    },
  };
  const provider = new Provider(config.publicUrl, configuration);
  // Behind a trusted proxy, believe its X-Forwarded-Proto about HTTPS (the cookies are Secure then).
  provider.proxy = config.trustProxy !== false;
  provider.use(spendCodeOnFailedRedemption(deps));
  return provider;
}
