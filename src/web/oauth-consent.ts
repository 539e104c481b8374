/**
 * The consent page of the OAuth authorization server: oidc-provider sends the
 * browser here for every authorization request. Signed out, the person signs
 * in first and comes back (`next`); signed in, they see which application
 * asks, tick the capabilities to grant and allow or deny. The answer goes back
 * to the authorization server, which sends the browser on to the application.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { OAUTH_PATHS } from '../api/oauth-paths.ts';
import type { ServiceDeps } from '../app/deps.ts';
import type { AuthorizationServer } from '../app/oauth/authorization-server.ts';
import { approveConsent, type ConsentRequest, defaultCapabilities, denyConsent, loadConsent, UNVERIFIED_GRANT_PROBLEM } from '../app/oauth/consent.ts';
import { CAPABILITIES } from '../auth/capabilities.ts';
import { formOf } from './accounts/forms.ts';
import { consentPage, consentPageHeaders, type ConsentPageModel } from './oauth-consent-view.ts';
import { requireSession, verifyCsrf } from './session.ts';
import { capabilityField } from './tokens-form.ts';

export interface ConsentRoutesOptions {
  deps: ServiceDeps;
  authorizationServer: AuthorizationServer;
}

type UidRequest = FastifyRequest<{ Params: { uid: string } }>;

const send = (reply: FastifyReply, status: number, consent: ConsentRequest, model: Omit<ConsentPageModel, 'consent'>) =>
  reply.code(status).headers(consentPageHeaders(consent)).send(consentPage({ ...model, consent }));

export const consentRoutes: FastifyPluginAsync<ConsentRoutesOptions> = async (app, { deps, authorizationServer }) => {
  const path = `${OAUTH_PATHS.interaction}/:uid`;
  const exchange = (request: FastifyRequest, reply: FastifyReply) => ({ req: request.raw, res: reply.raw });

  app.get(path, async (request: UidRequest, reply) => {
    const session = requireSession(request);
    const provider = await authorizationServer();
    const consent = await loadConsent(provider, exchange(request, reply), request.params.uid);
    return send(reply, 200, consent, { session, ticked: defaultCapabilities(consent.requested) });
  });

  app.post(path, async (request: UidRequest, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, deps.config.publicUrl);
    const form = formOf(request.body);
    const { uid } = request.params;
    const provider = await authorizationServer();
    if (form.decision === 'deny') return reply.redirect(await denyConsent(provider, exchange(request, reply), uid), 303);

    const ticked = CAPABILITIES.filter((c) => form[capabilityField(c)] !== undefined);
    if (!session.user.emailVerified || ticked.length === 0) {
      const consent = await loadConsent(provider, exchange(request, reply), uid);
      const problem = session.user.emailVerified ? 'Choose at least one capability, or deny.' : UNVERIFIED_GRANT_PROBLEM;
      return send(reply, session.user.emailVerified ? 400 : 403, consent, { session, ticked, problem });
    }
    return reply.redirect(await approveConsent(deps, provider, exchange(request, reply), session, uid, ticked), 303);
  });
};
