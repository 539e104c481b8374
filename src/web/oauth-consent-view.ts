/** The consent page: which application asks, the capabilities to grant, approve or deny. Every stored value is escaped. */
import { interactionPath } from '../api/oauth-paths.ts';
import type { ConsentRequest } from '../app/oauth/consent.ts';
import { UNVERIFIED_GRANT_PROBLEM } from '../app/oauth/consent.ts';
import { CAPABILITIES, type Capability } from '../auth/capabilities.ts';
import { escapeHtml } from './html.ts';
import { APP_PAGE_HEADERS, appPage, csrfField } from './layout.ts';
import type { WebSession } from './session.ts';
import { CAPABILITY_HELP } from './tokens-view.ts';
import { capabilityField } from './tokens-form.ts';

export interface ConsentPageModel {
  session: WebSession;
  consent: ConsentRequest;
  /** The boxes ticked: the defaults, or what a refused form held. */
  ticked: readonly Capability[];
  problem?: string | null;
}

const STYLE = `<style>
label.check { font-weight: normal; margin: .35rem 0; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 1rem 0; padding: .5rem 1rem .75rem; background: #fff; }
legend { font-weight: 600; padding: 0 .25rem; }
.actions { display: flex; gap: .75rem; }
</style>`;

export function consentPage(model: ConsentPageModel): string {
  const { session, consent, ticked } = model;
  const verified = session.user.emailVerified;
  const checks = CAPABILITIES.map((c) => {
    const asked = consent.requested.includes(c) ? '' : ' <span class="muted">(not requested)</span>';
    return `<label class="check"><input type="checkbox" id="consent-${c}" name="${capabilityField(c)}" value="1"${ticked.includes(c) ? ' checked' : ''}> <strong>${c}</strong> <span class="muted">— ${CAPABILITY_HELP[c]}</span>${asked}</label>`;
  }).join('\n');
  const problem = model.problem ? `<p class="error" role="alert">${escapeHtml(model.problem)}</p>` : '';
  const unverified = verified ? '' : `<p class="error" id="consent-unverified">${escapeHtml(UNVERIFIED_GRANT_PROBLEM)}</p>`;
  const approve = verified ? '<button type="submit" id="consent-approve" name="decision" value="approve">Allow</button>' : '';
  const body = `<main class="narrow consent">
<h1>Connect <span id="consent-client">${escapeHtml(consent.clientName)}</span>?</h1>
<p><strong>${escapeHtml(consent.clientName)}</strong> asks to use Drawbridge as <strong>${escapeHtml(session.user.email)}</strong>. After you answer, you go back to <strong id="consent-redirect-host">${escapeHtml(consent.redirectHost)}</strong>.</p>
<p class="muted">The name is what the application calls itself; connect it only if you started this from an application you trust.</p>
${unverified}
${problem}
<form id="consent-form" method="post" action="${interactionPath(consent.uid)}">
${csrfField(session)}
<fieldset><legend>It may</legend>
${checks}
</fieldset>
<div class="actions">
${approve}
<button type="submit" id="consent-deny" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>
<p class="muted">You can disconnect it any time under Settings → API tokens.</p>
</main>`;
  return appPage(`Connect ${consent.clientName}`, body, { session, head: STYLE });
}

/**
 * The page's headers: the answer to its form goes on (through the
 * authorization server) to the application, so the form may lead there too.
 */
export function consentPageHeaders(consent: ConsentRequest | null): Record<string, string> {
  const source = consent?.redirectSource;
  if (!source || !/^[a-z][a-z0-9+.-]*:(\/\/[^\s;,'"]+)?$/i.test(source)) return APP_PAGE_HEADERS;
  const csp = APP_PAGE_HEADERS['content-security-policy'].replace("form-action 'self'", `form-action 'self' ${source}`);
  return { ...APP_PAGE_HEADERS, 'content-security-policy': csp };
}
