/**
 * Settings → API tokens: mint a token with a name, capabilities and
 * an expiry, see it once, list and revoke. Revocation acts on the token's next
 * API request, which checks it against the database every time.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceDeps } from '../app/deps.ts';
import { listConnectedApplications, revokeConnectedApplication } from '../app/oauth/manage-grants.ts';
import { listTokens, revokeOwnToken } from '../app/tokens/manage-tokens.ts';
import { mintToken } from '../app/tokens/mint-token.ts';
import { CAPABILITIES } from '../auth/capabilities.ts';
import { formOf, sendPage } from './accounts/forms.ts';
import { requireSession, verifyCsrf } from './session.ts';
import { capabilityField, EXPIRY_CHOICES, type ExpiryChoice, readMintForm } from './tokens-form.ts';
import { COPY_SCRIPT, COPY_SCRIPT_PATH, EMPTY_MINT_FORM, TOKENS_PATH, tokensPage, UNVERIFIED_MINT_PROBLEM } from './tokens-view.ts';

export const tokensPlugin: FastifyPluginAsync<{ deps: ServiceDeps }> = async (app, { deps }) => {
  const { config } = deps;

  app.get(TOKENS_PATH, async (request, reply) => {
    const session = requireSession(request);
    const [tokens, applications] = await Promise.all([listTokens(deps, session), listConnectedApplications(deps, session)]);
    return sendPage(reply, 200, tokensPage({ session, publicUrl: config.publicUrl, tokens, applications, now: deps.now() }));
  });

  app.post(TOKENS_PATH, async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, config.publicUrl);
    const form = formOf(request.body);
    const now = deps.now();
    // Until the address is proven, whoever signed up may not be its owner: a token minted now could
    // outlive the owner taking the account back (by verifying or resetting the password).
    const read = session.user.emailVerified ? readMintForm(form, now) : { ok: false as const, problem: UNVERIFIED_MINT_PROBLEM };
    if (!read.ok) {
      const [tokens, applications] = await Promise.all([listTokens(deps, session), listConnectedApplications(deps, session)]);
      const values = {
        name: form.name ?? '',
        capabilities: CAPABILITIES.filter((c) => form[capabilityField(c)] !== undefined),
        expires: (EXPIRY_CHOICES as readonly string[]).includes(form.expires ?? '') ? (form.expires as ExpiryChoice) : EMPTY_MINT_FORM.expires,
        expiresOn: form.expiresOn ?? '',
      };
      return sendPage(reply, 400, tokensPage({ session, publicUrl: config.publicUrl, tokens, applications, now, form: values, problem: read.problem }));
    }
    const minted = await mintToken(deps, { userId: session.user.id, ...read.choice, now });
    const [tokens, applications] = await Promise.all([listTokens(deps, session), listConnectedApplications(deps, session)]);
    return sendPage(reply, 200, tokensPage({ session, publicUrl: config.publicUrl, tokens, applications, now, minted }));
  });

  // Someone else's token id is the same 404 as an unknown one, and nothing changes.
  app.post<{ Params: { id: string } }>(`${TOKENS_PATH}/:id/revoke`, async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, config.publicUrl);
    await revokeOwnToken(deps, session, request.params.id);
    return reply.redirect(TOKENS_PATH, 303);
  });

  // Disconnects an application: its grant and every token of it go; someone else's grant is the same 404 as an unknown one.
  app.post<{ Params: { id: string } }>(`${TOKENS_PATH}/grants/:id/revoke`, async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, config.publicUrl);
    await revokeConnectedApplication(deps, session, request.params.id);
    return reply.redirect(TOKENS_PATH, 303);
  });

  app.get(COPY_SCRIPT_PATH, async (_request, reply) =>
    reply
      .headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' })
      .send(COPY_SCRIPT),
  );
};
