/** The API tokens page: the mint form, a new token (shown once) and the list. Every stored value is escaped. */
import { CAPABILITIES, type Capability } from '../auth/capabilities.ts';
import type { ConnectedApplication } from '../app/oauth/manage-grants.ts';
import { TOKEN_NAME_MAX_LENGTH } from '../app/tokens/mint-token.ts';
import type { TokenRecord } from '../store/store.ts';
import { escapeHtml } from './html.ts';
import { appPage, csrfField, unverifiedBanner } from './layout.ts';
import type { WebSession } from './session.ts';
import { capabilityField, type ExpiryChoice } from './tokens-form.ts';

export const TOKENS_PATH = '/app/settings/tokens';
export const COPY_SCRIPT_PATH = `${TOKENS_PATH}/copy.js`;

export const CAPABILITY_HELP: Record<Capability, string> = {
  read: 'list, get and render diagrams; list folders and icons',
  write: 'create diagrams and folders; rename, move, edit, regenerate, patch',
  publish: 'turn public links on and off, set their passwords',
  delete: 'trash and restore diagrams, delete folders',
};

const EXPIRY_LABELS: Record<ExpiryChoice, string> = { '30': '30 days', '60': '60 days', '90': '90 days', date: 'On a date', none: 'Never' };

type TokenStatus = 'active' | 'expired' | 'revoked';

function tokenStatus(token: TokenRecord, now: Date): TokenStatus {
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt !== null && Date.parse(token.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}

/** `2025-01-14 09:30 UTC` in a <time> element; `fallback` when there is no instant. */
function instant(iso: string | null, fallback: string): string {
  if (iso === null) return `<span class="muted">${fallback}</span>`;
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
}

/** What the form held when it was refused, so that nothing has to be typed again. */
export interface MintFormValues {
  name: string;
  capabilities: Capability[];
  expires: ExpiryChoice;
  expiresOn: string;
}

export const EMPTY_MINT_FORM: MintFormValues = { name: '', capabilities: ['read'], expires: '30', expiresOn: '' };

export interface TokensPageModel {
  session: WebSession;
  publicUrl: string;
  tokens: TokenRecord[];
  /** The applications connected through OAuth (the MCP authorization flow). */
  applications: ConnectedApplication[];
  now: Date;
  /** A token minted by this request: its text appears here and nowhere else, ever. */
  minted?: { token: string; record: TokenRecord } | undefined;
  form?: MintFormValues;
  problem?: string | null;
}

function mintedSection(minted: { token: string; record: TokenRecord }, publicUrl: string): string {
  return `<section class="notice minted" aria-labelledby="minted-title">
<h2 id="minted-title">Your new token “${escapeHtml(minted.record.name)}”</h2>
<p><strong>Copy it now.</strong> It is shown only this once; Drawbridge keeps a hash of it, not the token.</p>
<p class="copy-row"><input id="new-token" class="mono" type="text" readonly value="${escapeHtml(minted.token)}" aria-label="New API token" spellcheck="false" autocomplete="off">
<button type="button" data-copy="new-token" hidden>Copy</button></p>
<p class="muted">Use it as <code>Authorization: Bearer …</code>, or set <code>SERVICE_TOKEN</code> for the CLI and the MCP server and try <code>curl -H "Authorization: Bearer $SERVICE_TOKEN" ${escapeHtml(publicUrl)}/api/v1/me</code>.</p>
</section>`;
}

export const UNVERIFIED_MINT_PROBLEM = 'Verify your email address first: tokens can be created once the link we sent has been followed.';

function mintForm(session: WebSession, form: MintFormValues, problem: string | null): string {
  if (!session.user.emailVerified) {
    return `<h2>New token</h2>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<p class="muted">${UNVERIFIED_MINT_PROBLEM}</p>`;
  }
  const checks = CAPABILITIES.map(
    (c) => `<label class="check"><input type="checkbox" name="${capabilityField(c)}" value="1"${form.capabilities.includes(c) ? ' checked' : ''}> <strong>${c}</strong> <span class="muted">— ${CAPABILITY_HELP[c]}</span></label>`,
  ).join('\n');
  const dateField = `<input id="expires-on" type="date" name="expiresOn" value="${escapeHtml(form.expiresOn)}" aria-label="Expiry date (the token works through this day, UTC)">`;
  const expiries = (Object.keys(EXPIRY_LABELS) as ExpiryChoice[])
    .map((e) => {
      const radio = `<label class="check"><input type="radio" name="expires" value="${e}"${form.expires === e ? ' checked' : ''}> ${EXPIRY_LABELS[e]}</label>`;
      return e === 'date' ? `<div class="dated">${radio} ${dateField}</div>` : radio;
    })
    .join('\n');
  return `<h2>New token</h2>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form class="stack mint" method="post" action="${TOKENS_PATH}">
${csrfField(session)}
<label for="token-name">Name</label>
<input id="token-name" type="text" name="name" maxlength="${TOKEN_NAME_MAX_LENGTH}" value="${escapeHtml(form.name)}" placeholder="e.g. laptop CLI, CI pipeline" required>
<fieldset><legend>Capabilities</legend>
${checks}
</fieldset>
<fieldset><legend>Expires</legend>
${expiries}
</fieldset>
<button type="submit">Create token</button>
</form>`;
}

function tokenRow(session: WebSession, token: TokenRecord, now: Date): string {
  const status = tokenStatus(token, now);
  const revoke =
    status === 'active'
      ? `<form method="post" action="${TOKENS_PATH}/${encodeURIComponent(token.id)}/revoke">${csrfField(session)}<button type="submit" class="danger">Revoke</button></form>`
      : '';
  return `<tr data-token-id="${escapeHtml(token.id)}">
<td data-label="Name">${escapeHtml(token.name)}</td>
<td data-label="Capabilities">${token.capabilities.map((c) => escapeHtml(c)).join(', ')}</td>
<td data-label="Token" class="mono">…${escapeHtml(token.last4)}</td>
<td data-label="Created">${instant(token.createdAt, '')}</td>
<td data-label="Expires">${instant(token.expiresAt, 'never')}</td>
<td data-label="Last used">${instant(token.lastUsedAt, 'never')}</td>
<td data-label="Status"><span class="status status-${status}">${status}</span></td>
<td class="actions">${revoke}</td>
</tr>`;
}

function tokenTable(session: WebSession, tokens: TokenRecord[], now: Date): string {
  if (tokens.length === 0) return '<p class="muted">No tokens yet.</p>';
  return `<table class="tokens">
<thead><tr><th>Name</th><th>Capabilities</th><th>Token</th><th>Created</th><th>Expires</th><th>Last used</th><th>Status</th><th></th></tr></thead>
<tbody>
${tokens.map((t) => tokenRow(session, t, now)).join('\n')}
</tbody>
</table>`;
}

const grantRevokePath = (grantId: string) => `${TOKENS_PATH}/grants/${encodeURIComponent(grantId)}/revoke`;

function applicationRow(session: WebSession, application: ConnectedApplication): string {
  return `<tr data-grant-id="${escapeHtml(application.grantId)}">
<td data-label="Application">${escapeHtml(application.name)}</td>
<td data-label="Capabilities">${application.capabilities.map((c) => escapeHtml(c)).join(', ') || '<span class="muted">none</span>'}</td>
<td data-label="Connected">${instant(application.createdAt, '')}</td>
<td data-label="Last used">${instant(application.lastUsedAt, 'never')}</td>
<td class="actions"><form method="post" action="${grantRevokePath(application.grantId)}">${csrfField(session)}<button type="submit" class="danger">Revoke</button></form></td>
</tr>`;
}

function applicationTable(session: WebSession, applications: ConnectedApplication[]): string {
  if (applications.length === 0) return '<p class="muted" id="no-connected-apps">No applications connected.</p>';
  return `<table class="tokens oauth-grants">
<thead><tr><th>Application</th><th>Capabilities</th><th>Connected</th><th>Last used</th><th></th></tr></thead>
<tbody>
${applications.map((a) => applicationRow(session, a)).join('\n')}
</tbody>
</table>`;
}

const STYLE = `<style>
label.check { font-weight: normal; margin: .35rem 0; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0 0; padding: .5rem 1rem .75rem; background: #fff; }
legend { font-weight: 600; padding: 0 .25rem; }
div.dated { display: flex; align-items: center; gap: .75rem; }
#expires-on { max-width: 12rem; padding: .3rem .5rem; }
section.minted h2 { margin-top: 0; }
form.mint { max-width: 40rem; }
.copy-row { display: flex; gap: .5rem; }
.copy-row input { flex: 1; }
.status-active { color: #2b8a3e; }
.status-expired, .status-revoked { color: var(--muted); }
td form { margin: 0; }
/* On a phone each token is a card: its fields one per line, named, and Revoke at the end. */
@media (max-width: 600px) {
  table.tokens, table.tokens tbody, table.tokens tr, table.tokens td { display: block; width: auto; }
  table.tokens thead { display: none; }
  table.tokens tr { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 .75rem; padding: .5rem .75rem; background: #fff; }
  table.tokens td { border: 0; padding: .15rem 0; overflow-wrap: anywhere; }
  table.tokens td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
  table.tokens td.actions { padding-top: .4rem; }
}
</style>
<script src="${COPY_SCRIPT_PATH}" defer></script>`;

export function tokensPage(model: TokensPageModel): string {
  const { session, tokens, now } = model;
  const body = `<main>
${unverifiedBanner(session)}
<h1>API tokens</h1>
<p class="muted">Personal access tokens let scripts, the <code>drawbridge</code> CLI and AI agents use the API as you. Each holds only the capabilities you choose; revoking one stops it on its next request.</p>
${model.minted ? mintedSection(model.minted, model.publicUrl) : ''}
${mintForm(session, model.form ?? EMPTY_MINT_FORM, model.problem ?? null)}
<h2>Your tokens</h2>
${tokenTable(session, tokens, now)}
<h2 id="connected-apps">Connected applications</h2>
<p class="muted">Applications you allowed to use Drawbridge through the MCP authorization flow (OAuth), with the capabilities you granted. Revoking one stops its tokens on their next request.</p>
${applicationTable(session, model.applications)}
</main>`;
  return appPage('API tokens', body, { session, head: STYLE });
}

/** Copies the new token on a click; without script the field is still there to select. */
export const COPY_SCRIPT = `'use strict';
// The page showing a new token is the answer to the mint form: make a reload fetch the list, not mint again.
if (document.querySelector('button[data-copy]')) history.replaceState(null, '', location.pathname);
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  if (!field) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      document.execCommand('copy');
    }
    button.textContent = 'Copied';
  });
}
`;
