/**
 * Accounts for people: sign-up with email verification, sign-in and
 * sign-out, password reset. Server-rendered forms that work without script.
 * docs/web.md ("Accounts") explains the flows and the security choices.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceDeps } from '../../app/deps.ts';
import type { PageRequestLimit } from '../../edge/page-limits.ts';
import { AccountLimits } from './limits.ts';
import { passwordResetRoutes } from './password-reset.ts';
import type { AccountServices } from './services.ts';
import { signInRoutes } from './sign-in.ts';
import { signUpRoutes } from './sign-up.ts';

export const accountsPlugin: FastifyPluginAsync<{ deps: ServiceDeps; pageLimit: PageRequestLimit }> = async (app, { deps, pageLimit }) => {
  // Every account page (sign-up, sign-in, verification, reset) counts against the client address's page budget.
  app.addHook('onRequest', pageLimit);
  const services: AccountServices = { deps, mailer: deps.mailer, limits: new AccountLimits(deps.store.rateLimits) };
  await app.register(signUpRoutes, services);
  await app.register(signInRoutes, services);
  await app.register(passwordResetRoutes, services);
};
