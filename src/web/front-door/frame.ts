/**
 * What the front door's pages share: a top bar with the way in (Sign in, and
 * Sign up as the SIGNUP setting allows) or, for someone signed in, the way to
 * their diagrams; and the styles of that bar. The pages' own bodies are in
 * landing.ts, api-docs.ts and mcp-setup.ts.
 */
import type { Config } from '../../config.ts';
import { escapeHtml } from '../html.ts';
import { API_DOCS_PATH, FAVICON_SVG_PATH, LANDING_PATH, MCP_SETUP_PATH } from './paths.ts';

export type SignupMode = Config['signup'];

/** The sign-up link's words for each SIGNUP setting; `closed` shows none. */
export const SIGNUP_LINK_TEXT: Readonly<Record<SignupMode, string | null>> = {
  open: 'Sign up',
  invite: 'Sign up (by invitation)',
  closed: null,
};

export interface FrontDoorVisitor {
  signup: SignupMode;
  /** A valid session: the bar leads to the app instead of the sign-in pages. */
  signedIn: boolean;
}

/** The top bar of the front door's pages; `current` is the page's own path, marked for screen readers. */
export function frontDoorBar(visitor: FrontDoorVisitor, current: string): string {
  const link = (href: string, text: string, className = '') =>
    `<a href="${href}"${className ? ` class="${className}"` : ''}${href === current ? ' aria-current="page"' : ''}>${escapeHtml(text)}</a>`;
  const signupText = SIGNUP_LINK_TEXT[visitor.signup];
  const account = visitor.signedIn
    ? link('/app', 'Your diagrams', 'button')
    : `${link('/login', 'Sign in', signupText ? '' : 'button')}${signupText ? link('/signup', signupText, 'button') : ''}`;
  return `<header class="front-bar">
<a class="front-brand" href="${LANDING_PATH}"><img src="${FAVICON_SVG_PATH}" alt="" width="28" height="28">Drawbridge</a>
<nav aria-label="Documentation">${link(API_DOCS_PATH, 'API docs')}${link(MCP_SETUP_PATH, 'MCP setup')}</nav>
<span class="front-spacer"></span>
<nav class="front-account" aria-label="Account">${account}</nav>
</header>`;
}

/** The bar's styles, complete in themselves: the API docs page has none of the app's page styles. */
export const FRONT_BAR_STYLE = `<style>
.front-bar { display: flex; align-items: center; gap: 1.5rem; padding: .7rem 1.5rem; background: #fff; border-bottom: 1px solid #e3e3e8; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 1rem; line-height: 1.4; }
.front-bar a { color: #1e1e1e; text-decoration: none; }
.front-bar a:hover { color: #5b57d1; }
.front-bar a[aria-current=page] { color: #5b57d1; font-weight: 600; }
.front-bar nav { display: flex; align-items: center; gap: 1.25rem; }
.front-brand { display: inline-flex; align-items: center; gap: .55rem; font-weight: 700; font-size: 1.1rem; }
.front-bar a.front-brand { color: #5b57d1; }
.front-spacer { flex: 1; }
.front-bar a.button { padding: .4rem .9rem; border-radius: 6px; border: 1px solid #5b57d1; background: #5b57d1; color: #fff; }
.front-bar a.button:hover { background: #4a46b8; color: #fff; }
@media (max-width: 640px) {
  .front-bar { gap: .75rem; padding: .6rem .9rem; flex-wrap: wrap; }
  .front-bar nav { gap: .75rem; }
}
</style>`;
