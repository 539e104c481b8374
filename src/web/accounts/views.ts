/** The account pages: forms and answers. Every value from a request is escaped; passwords are never echoed. */
import { escapeHtml } from '../html.ts';
import { appPage } from '../layout.ts';
import type { WebSession } from '../session.ts';
import { PASSWORD_MIN_LENGTH } from './forms.ts';

const error = (message: string | null) => (message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '');
const notice = (message: string | null) => (message ? `<p class="notice" role="status">${escapeHtml(message)}</p>` : '');

function narrow(title: string, body: string): string {
  return appPage(title, `<main class="narrow">\n<h1>${escapeHtml(title)}</h1>\n${body}\n</main>`);
}

const newPasswordFields = `<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required>
<p class="muted">At least ${PASSWORD_MIN_LENGTH} characters.</p>
<label for="confirm">Repeat the password</label>
<input id="confirm" type="password" name="confirm" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required>`;

export function signUpPage(values: { email?: string; error?: string | null; notice?: string | null } = {}): string {
  return narrow(
    'Create your account',
    `${notice(values.notice ?? null)}${error(values.error ?? null)}
<form class="stack" method="post" action="/signup">
<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="email" value="${escapeHtml(values.email ?? '')}" required autofocus>
${newPasswordFields}
<button type="submit">Create account</button>
</form>
<p class="muted">Already have an account? <a href="/login">Sign in</a>.</p>`,
  );
}

/** SIGNUP=closed: the sign-up page without its form. */
export function signUpClosedPage(): string {
  return narrow(
    'Sign-up is closed',
    `<p>This Drawbridge does not take new accounts here. Whoever runs it can make you one.</p>
<p class="muted">Already have an account? <a href="/login">Sign in</a>.</p>`,
  );
}

export function checkInboxPage(email: string): string {
  return narrow(
    'Check your inbox',
    `<p>We sent a message to <strong>${escapeHtml(email)}</strong>. Follow the link in it to verify your address; it works for 24 hours.</p>
<p class="muted">Nothing arrived? Look in the spam folder, or <a href="/login">sign in</a> and ask for a new link.</p>`,
  );
}

/** The sign-in page's way to a new account, as SIGNUP allows: none when sign-up is closed. */
function signUpLink(signup: 'open' | 'invite' | 'closed'): string {
  if (signup === 'closed') return '';
  return ` · <a href="/signup">${signup === 'invite' ? 'Create an account (by invitation)' : 'Create an account'}</a>`;
}

export function signInPage(values: {
  email?: string;
  next: string;
  signup: 'open' | 'invite' | 'closed';
  error?: string | null;
  notice?: string | null;
}): string {
  return narrow(
    'Sign in',
    `${notice(values.notice ?? null)}${error(values.error ?? null)}
<form class="stack" method="post" action="/login">
<input type="hidden" name="next" value="${escapeHtml(values.next)}">
<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="username" value="${escapeHtml(values.email ?? '')}" required autofocus>
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p class="muted"><a href="/reset">Forgot your password?</a>${signUpLink(values.signup)}</p>`,
  );
}

export function resetRequestPage(values: { email?: string; error?: string | null } = {}): string {
  return narrow(
    'Reset your password',
    `${error(values.error ?? null)}
<p class="muted">We will email you a link to choose a new password. Accounts made by an operator set their first password here too.</p>
<form class="stack" method="post" action="/reset">
<label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="email" value="${escapeHtml(values.email ?? '')}" required autofocus>
<button type="submit">Email me a link</button>
</form>`,
  );
}

export function resetSentPage(email: string): string {
  return narrow(
    'Check your inbox',
    `<p>If <strong>${escapeHtml(email)}</strong> has an account, a link to choose a new password is on its way. It works for one hour, once.</p>
<p class="muted"><a href="/login">Back to sign in</a></p>`,
  );
}

/** `token` has been checked to be link-shaped (base64url), so it is safe in a path. */
export function newPasswordPage(token: string, problem: string | null = null): string {
  return narrow(
    'Choose a new password',
    `${error(problem)}
<form class="stack" method="post" action="/reset/${escapeHtml(token)}">
${newPasswordFields}
<button type="submit">Set password and sign in</button>
</form>
<p class="muted">This signs you out everywhere else.</p>`,
  );
}

export function invalidLinkPage(purpose: 'verify' | 'reset'): string {
  // A mail scanner may have opened a verification link first: then the address is verified all the same.
  const again =
    purpose === 'verify'
      ? 'If it was opened before, the address is verified: <a href="/login">sign in</a>. Otherwise sign in and ask for a new verification link.'
      : '<a href="/reset">Ask for a new link</a>.';
  return narrow('This link does not work', `<p>The link is wrong, has been used already, or has expired.</p><p>${again}</p>`);
}

export function verificationSentPage(session: WebSession): string {
  return appPage(
    'Verification link sent',
    `<main class="narrow"><h1>Check your inbox</h1><p>We sent a new verification link to <strong>${escapeHtml(session.user.email)}</strong>. It works for 24 hours.</p><p><a href="/app">Back to your diagrams</a></p></main>`,
    { session },
  );
}

export function tooManyAttemptsPage(title: string, message: string): string {
  return narrow(title, error(message));
}

/**
 * Shown to a signed-in person whose address is not verified yet: what that
 * blocks, and a button for a new link. Empty for verified accounts, so any
 * page may include it.
 */
