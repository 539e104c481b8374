/**
 * The person's answer to an authorization request: what the consent page
 * shows, and the grant (or refusal) it sends back to the authorization
 * server. The request is found through the interaction cookie oidc-provider
 * set in this browser, so a page opened elsewhere finds nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { serviceResources } from '../../api/oauth-paths.ts';
import { CAPABILITIES, type Capability, capabilitiesOfScope } from '../../auth/capabilities.ts';
import { ApiError } from '../../errors.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** The raw request and response of the page (the interaction cookie is read from one and may be refreshed on the other). */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

export interface ConsentRequest {
  uid: string;
  /** The client's name from its registration (untrusted text; escape it). */
  clientName: string;
  /** The host the person is sent back to. */
  redirectHost: string;
  /** Where the answer finally goes, as a CSP source: the redirect URI's origin (`https://host:port`) or, for an app's own scheme, `scheme:`. */
  redirectSource: string | null;
  /** The capabilities the client's scope asks for. */
  requested: Capability[];
}

/** What the form starts with: read and write, and publish or delete only when the client asked for them. */
export function defaultCapabilities(requested: readonly Capability[]): Capability[] {
  return CAPABILITIES.filter((c) => c === 'read' || c === 'write' || requested.includes(c));
}

const CONSENT_EXPIRED = 'This authorization request has expired or was opened in another browser. Start connecting again from the application.';

async function details(provider: Provider, exchange: Exchange, uid: string) {
  // Loaded with the authorization server, on its first use.
  const { errors } = await import('oidc-provider');
  try {
    const interaction = await provider.interactionDetails(exchange.req, exchange.res);
    if (interaction.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
    return interaction;
  } catch (error) {
    if (error instanceof errors.SessionNotFound || error instanceof errors.InvalidRequest) throw new ApiError('bad_request', CONSENT_EXPIRED);
    throw error;
  }
}

function requestedResources(param: unknown, publicUrl: string): string[] {
  const list = Array.isArray(param) ? param : typeof param === 'string' ? [param] : [];
  const ours = serviceResources(publicUrl);
  const known = list.filter((r): r is string => typeof r === 'string' && ours.all.includes(r));
  return known.length > 0 ? known : [ours.mcp];
}

/** The authorization request behind the consent page `uid`. */
export async function loadConsent(provider: Provider, exchange: Exchange, uid: string): Promise<ConsentRequest> {
  const interaction = await details(provider, exchange, uid);
  const clientId = String(interaction.params.client_id);
  const client = await provider.Client.find(clientId);
  if (!client) throw new ApiError('bad_request', CONSENT_EXPIRED);
  const redirectUri = String(interaction.params.redirect_uri ?? client.redirectUris?.[0] ?? '');
  const redirect = URL.canParse(redirectUri) ? new URL(redirectUri) : null;
  return {
    uid: interaction.uid,
    clientName: client.clientName ?? clientId,
    redirectHost: redirect?.host || redirect?.protocol || redirectUri,
    redirectSource: redirect ? (redirect.origin !== 'null' ? redirect.origin : redirect.protocol) : null,
    requested: capabilitiesOfScope(typeof interaction.params.scope === 'string' ? interaction.params.scope : ''),
  };
}

export const UNVERIFIED_GRANT_PROBLEM = 'Verify your email address first: applications can be connected once the link we sent has been followed.';

/**
 * Grants the client exactly `capabilities` (for the resources it asked for)
 * as the caller, and returns where the browser goes next: back to the
 * authorization server, which sends it on to the client with a code.
 */
export async function approveConsent(
  deps: AppDeps,
  provider: Provider,
  exchange: Exchange,
  caller: Caller,
  uid: string,
  capabilities: readonly Capability[],
): Promise<string> {
  // As for minting: until the address is proven, whoever signed up may not be its owner.
  if (!caller.user.emailVerified) throw new ApiError('email_unverified', UNVERIFIED_GRANT_PROBLEM);
  const interaction = await details(provider, exchange, uid);
  const clientId = String(interaction.params.client_id);
  const grant = new provider.Grant({ accountId: caller.user.id, clientId });
  const refused = CAPABILITIES.filter((c) => !capabilities.includes(c));
  for (const resource of requestedResources(interaction.params.resource, deps.config.publicUrl)) {
    if (capabilities.length > 0) grant.addResourceScope(resource, capabilities.join(' '));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
  }
  // The capabilities are authorization-server scopes too (clients register with them): the same answer there,
  // and the OpenID scopes a client may add (offline_access, openid) need no choice of the person's.
  const oidcScopes = String(interaction.params.scope ?? '')
    .split(' ')
    .filter((s) => s === 'openid' || s === 'offline_access');
  const granted = [...oidcScopes, ...capabilities];
  if (granted.length > 0) grant.addOIDCScope(granted.join(' '));
  if (refused.length > 0) grant.rejectOIDCScope(refused.join(' '));
  const grantId = await grant.save();
  return provider.interactionResult(exchange.req, exchange.res, { login: { accountId: caller.user.id }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/** Refuses the request: the client gets access_denied. Returns where the browser goes next. */
export async function denyConsent(provider: Provider, exchange: Exchange, uid: string): Promise<string> {
  await details(provider, exchange, uid);
  return provider.interactionResult(
    exchange.req,
    exchange.res,
    { error: 'access_denied', error_description: 'the person declined to connect the application' },
    { mergeWithLastSubmission: false },
  );
}
