/**
 * Which redirect URIs a client may register, beyond what oidc-provider checks
 * itself (a parseable URI, no fragment, web or native schemes): OAuth 2.1 and
 * RFC 8252 let a code travel over plain http only to the loopback interface,
 * and a redirect URI never carries a user name or password.
 */

/**
 * The hosts plain http may name. The loopback IP literals, as RFC 8252 §7.3
 * recommends, and `localhost`, which it does not recommend but which the
 * common MCP hosts register (Claude Code, the MCP Inspector): it is reserved
 * for the loopback interface (RFC 6761), and the code it carries is useless
 * without the client's PKCE verifier.
 */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The authority of a hierarchical URI as written (between `//` and the path), or null. */
function writtenAuthority(uri: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(uri);
  return match ? match[1]! : null;
}

/**
 * Why `uri` may not be a redirect URI, as oidc-provider words its own
 * refusals (starting `redirect_uris`, which makes the RFC 7591 error
 * `invalid_redirect_uri`), or null when it may. A URI that does not parse is
 * left to oidc-provider, which refuses it.
 */
export function redirectUriProblem(uri: string): string | null {
  if (!URL.canParse(uri)) return null;
  const parsed = new URL(uri);
  // The written authority too: `http://@127.0.0.1/` has an empty user name, which URL drops.
  if (parsed.username !== '' || parsed.password !== '' || writtenAuthority(uri)?.includes('@')) {
    return 'redirect_uris must not contain a user name or password';
  }
  if (parsed.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname)) {
    return 'redirect_uris using http must name the loopback interface (127.0.0.1, [::1] or localhost); use https otherwise';
  }
  return null;
}
