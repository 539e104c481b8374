/** The frame of every signed-in page (and of the sign-in pages): head, navigation, headers. */
import { ICON_LINKS } from './front-door/paths.ts';
import { escapeHtml } from './html.ts';
import type { WebSession } from './session.ts';

/**
 * Headers for web app pages: scripts and styles only from this server (the
 * editor's bundle is built by the project, never from a CDN), nothing framed.
 * The editor works under exactly this policy: inline styles are needed by its
 * Mermaid import and SVG export, data: images by its toolbar icons.
 */
export const APP_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; font-src 'self'; img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

export interface AppPageOptions {
  /** The signed-in person: shows the navigation and the sign-out form. */
  session?: WebSession | null;
  /** Extra tags for <head> (stylesheets and scripts of this server only). */
  head?: string;
  /** A page that fills the window (the editor): no navigation bar and none of the page styles, which would reach into the editor's own. */
  fullWindow?: boolean;
}

/** A hidden form field carrying the session's CSRF token: put one in every POST form. */
export function csrfField(session: WebSession): string {
  return `<input type="hidden" name="_csrf" value="${escapeHtml(session.csrfToken)}">`;
}

/** Shown on every signed-in page until the account's email is verified: what it means, and a way to get a new link. */
export function unverifiedBanner(session: WebSession | null): string {
  if (!session || session.user.emailVerified) return '';
  return `<div class="notice unverified" role="status">
<strong>Verify your email address.</strong> Until you follow the link we sent to ${escapeHtml(session.user.email)}, your API tokens answer only <code>GET /api/v1/me</code>.
<form method="post" action="/verify/resend" class="inline">${csrfField(session)}<button type="submit" class="link">Send a new link</button></form>
</div>`;
}

/**
 * The top bar: the way home, and an account menu (a <details>, so it works
 * without script) holding the email, the token settings and Sign out. On a
 * narrow screen the menu shows only the account's initial, so nothing is cut
 * off and Sign out stays reachable.
 */
function navigation(session: WebSession): string {
  const email = escapeHtml(session.user.email);
  return `<nav class="top">
<a class="brand" href="/app">Drawbridge</a>
<a href="/app">Diagrams</a>
<a class="wide-only" href="/app/settings/tokens">API tokens</a>
<span class="spacer"></span>
<details class="account-menu">
<summary aria-label="Account: ${email}"><span class="avatar" aria-hidden="true">${escapeHtml(initialOf(session.user.email))}</span><span class="account-email">${email}</span></summary>
<div class="menu" role="menu">
<p class="menu-email muted">Signed in as<br><strong>${email}</strong></p>
<a href="/app/settings/tokens" role="menuitem">API tokens</a>
<form method="post" action="/logout">${csrfField(session)}<button type="submit" class="link" role="menuitem">Sign out</button></form>
</div>
</details>
</nav>`;
}

/** The first letter of an address, for the account menu's round badge. */
function initialOf(email: string): string {
  return (Array.from(email)[0] ?? '?').toUpperCase();
}

export function appPage(title: string, body: string, options: AppPageOptions = {}): string {
  const session = options.session ?? null;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Drawbridge</title>
${ICON_LINKS}
${options.fullWindow ? '' : `<style>
:root { color-scheme: light; --ink: #1e1e1e; --muted: #666; --line: #e3e3e8; --accent: #5b57d1; --danger: #c92a2a; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: var(--ink); background: #fafafa; }
main { max-width: 1100px; margin: 2rem auto; padding: 0 1.5rem; }
main.narrow { max-width: 26rem; margin-top: 4rem; }
nav.top { display: flex; gap: 1.25rem; align-items: center; padding: .75rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); }
nav.top a { color: var(--ink); text-decoration: none; }
nav.top a.brand { font-weight: 700; color: var(--accent); }
nav.top .spacer { flex: 1; }
nav.top form { margin: 0; }
details.account-menu { position: relative; }
details.account-menu summary { list-style: none; display: flex; align-items: center; gap: .5rem; cursor: pointer; padding: .2rem .4rem; border-radius: 999px; max-width: 22rem; }
details.account-menu summary::-webkit-details-marker { display: none; }
details.account-menu summary:hover, details.account-menu[open] summary { background: #f0f0f5; }
details.account-menu summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.avatar { flex: none; display: inline-grid; place-items: center; width: 1.9rem; height: 1.9rem; border-radius: 50%; background: var(--accent); color: #fff; font-weight: 600; font-size: .9rem; }
.account-email { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
details.account-menu .menu { position: absolute; right: 0; top: calc(100% + .4rem); z-index: 20; min-width: 14rem; max-width: calc(100vw - 1.5rem); background: #fff; border: 1px solid var(--line); border-radius: 10px; box-shadow: 0 8px 24px rgba(0,0,0,.12); padding: .5rem; display: grid; }
details.account-menu .menu > a, details.account-menu .menu button { display: block; width: 100%; text-align: left; padding: .5rem .6rem; border-radius: 6px; color: var(--ink); font-size: .95rem; }
details.account-menu .menu > a:hover, details.account-menu .menu button:hover { background: #f0f0f5; }
.menu-email { margin: .25rem .6rem .5rem; font-size: .85rem; overflow-wrap: anywhere; }
@media (max-width: 640px) {
  nav.top { gap: .9rem; padding: .6rem .9rem; }
  nav.top .wide-only, .account-email { display: none; }
}
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .75rem; }
.muted { color: var(--muted); }
.error { color: var(--danger); }
.notice { background: #ebfbee; border: 1px solid #b2f2bb; padding: .75rem 1rem; border-radius: 8px; }
.notice.unverified { background: #fff9db; border-color: #ffe066; margin-bottom: 1rem; }
form.inline { display: inline; margin: 0; }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
input[type=email], input[type=password], input[type=text], input[type=date], input[type=search], select, textarea { width: 100%; padding: .55rem .6rem; font: inherit; border: 1px solid #ccc; border-radius: 6px; background: #fff; }
textarea { font-family: ui-monospace, monospace; min-height: 10rem; }
button, .button { display: inline-block; padding: .5rem 1rem; font: inherit; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
button.link { background: none; border: none; color: var(--accent); padding: 0; }
form.stack button { margin-top: 1rem; }
table { width: 100%; border-collapse: collapse; background: #fff; }
th, td { text-align: left; padding: .55rem .6rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
code, .mono { font-family: ui-monospace, monospace; }
</style>`}
${options.head ?? ''}
</head>
<body>
${session && !options.fullWindow ? navigation(session) : ''}
${body}
</body>
</html>`;
}
