/** Where the OAuth authorization server and the protected-resource metadata live, and which resources the service is. */
import { API_PREFIX } from './paths.ts';

export const OAUTH_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  /** The consent page, in the web app: `/oauth/interaction/<uid>`. */
  interaction: '/oauth/interaction',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
  protectedResourceMetadata: '/.well-known/oauth-protected-resource',
} as const;

export const MCP_RESOURCE_PATH = '/mcp';

/** The consent page of one authorization request. */
export const interactionPath = (uid: string) => `${OAUTH_PATHS.interaction}/${encodeURIComponent(uid)}`;

/**
 * The resource identifiers (RFC 8707) of this service, any of which an OAuth
 * access token may be bound to: the hosted MCP endpoint (the default), the
 * REST API and the service as a whole. The API and MCP accept a token for any
 * of them, as MCP is a client of the API.
 */
export function serviceResources(publicUrl: string): { mcp: string; api: string; service: string; all: readonly string[] } {
  const mcp = `${publicUrl}${MCP_RESOURCE_PATH}`;
  const api = `${publicUrl}${API_PREFIX}`;
  return { mcp, api, service: publicUrl, all: [mcp, api, publicUrl] };
}
