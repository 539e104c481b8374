/** GET/POST /login, POST /logout. */
import type { FastifyPluginAsync } from 'fastify';
import { normaliseEmail } from '../../auth/accounts.ts';
import { endSession, startSession, verifyCsrf } from '../session.ts';
import { checkPassword } from '../../app/accounts/accounts.ts';
import { formOf, refuseCrossSite, safeNextPath, sendPage } from './forms.ts';
import type { AccountServices } from './services.ts';
import { signInPage } from './views.ts';

/** One answer for an unknown address, a wrong password and an account without one. */
const WRONG_CREDENTIALS = 'The email or password is wrong.';

export const signInRoutes: FastifyPluginAsync<AccountServices> = async (app, { deps, limits }) => {
  const { publicUrl } = deps.config;

  app.get('/login', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const next = safeNextPath(query.next);
    if (request.webSession) return reply.redirect(next, 303);
    const notice = query.verified === '1' ? 'Your email address is verified. Sign in to continue.' : null;
    return sendPage(reply, 200, signInPage({ next, notice, signup: deps.config.signup }));
  });

  app.post('/login', async (request, reply) => {
    refuseCrossSite(request, publicUrl);
    const form = formOf(request.body);
    const typed = form.email ?? '';
    const next = safeNextPath(form.next);
    const email = normaliseEmail(typed);
    const wait = await limits.loginAttempt(request.ip, email ?? typed.trim().toLowerCase());
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      return sendPage(reply, 429, signInPage({ email: typed, next, signup: deps.config.signup, error: `Too many sign-in attempts. Try again in ${wait} seconds.` }));
    }
    const user = await checkPassword(deps, email, form.password ?? '');
    if (!user || !email) return sendPage(reply, 401, signInPage({ email: typed, next, signup: deps.config.signup, error: WRONG_CREDENTIALS }));
    await limits.loginSucceeded(request.ip, email);
    // A new session (and cookie value) on every sign-in: one planted before cannot be carried over.
    await endSession(deps, request, reply);
    await startSession(deps, reply, user);
    return reply.redirect(next, 303);
  });

  app.post('/logout', async (request, reply) => {
    const session = request.webSession;
    if (session) {
      verifyCsrf(request, session, publicUrl);
      await endSession(deps, request, reply);
    }
    return reply.redirect('/login', 303);
  });
};
