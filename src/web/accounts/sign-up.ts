/** GET/POST /signup, GET /verify, POST /verify/resend. */
import type { FastifyPluginAsync } from 'fastify';
import { confirmEmail, signUp, verificationLink } from '../../app/accounts/email-flows.ts';
import { normaliseEmail } from '../../auth/accounts.ts';
import { requireSession, startSession, verifyCsrf } from '../session.ts';
import { findAccountById } from '../../app/accounts/accounts.ts';
import { formOf, passwordProblem, refuseCrossSite, sendPage } from './forms.ts';
import { alreadyRegisteredMessage, verificationMessage } from './messages.ts';
import { type AccountServices, mailWithinBudget } from './services.ts';
import { rememberSignUp, signedUpHere } from './sign-up-browser.ts';
import { checkInboxPage, invalidLinkPage, signUpPage, tooManyAttemptsPage, verificationSentPage } from './views.ts';

export const signUpRoutes: FastifyPluginAsync<AccountServices> = async (app, services) => {
  const { deps, limits } = services;
  const { publicUrl } = deps.config;

  // `?email=` fills the address in: an invitation by mail links here with the invited address.
  app.get('/signup', async (request, reply) => {
    if (request.webSession) return reply.redirect('/app', 303);
    const email = (request.query as Record<string, unknown>).email;
    return sendPage(reply, 200, signUpPage(typeof email === 'string' ? { email: email.slice(0, 254) } : {}));
  });

  // A taken address gets the same answer as a new one (its owner is told by mail instead), so the form does not reveal who has an account.
  app.post('/signup', async (request, reply) => {
    refuseCrossSite(request, publicUrl);
    const form = formOf(request.body);
    const email = normaliseEmail(form.email ?? '');
    const password = form.password ?? '';
    const problem = email ? passwordProblem(password, form.confirm ?? '') : 'Enter a valid email address.';
    if (!email || problem) return sendPage(reply, 400, signUpPage({ email: form.email, error: problem }));
    const wait = await limits.mailFormSubmission(request.ip);
    if (wait !== null) return sendPage(reply.header('retry-after', String(wait)), 429, tooManyAttemptsPage('Create your account', `Too many attempts. Try again in ${wait} seconds.`));

    const outcome = await signUp(deps, email, password);
    const message = outcome.created ? verificationMessage(email, outcome.verifyLink) : alreadyRegisteredMessage(email, publicUrl);
    await mailWithinBudget(services, message, request.log);
    await rememberSignUp(deps, reply, outcome.created ? outcome.user : null);
    return sendPage(reply, 200, checkInboxPage(email));
  });

  // No HEAD twin: a link checker's HEAD request must not use the link up.
  app.get('/verify', { exposeHeadRoute: false }, async (request, reply) => {
    const signedUpFor = await signedUpHere(deps, request, reply);
    const confirmed = await confirmEmail(deps, (request.query as Record<string, unknown>).token, request.webSession);
    if (!confirmed) return sendPage(reply, 400, invalidLinkPage('verify'));
    if (confirmed.sameAccount) return reply.redirect('/app', 303);
    // Signed in only in the browser that signed up (sign-up-browser.ts); anywhere else, whoever chose the password signs in with it.
    const user = signedUpFor === confirmed.userId ? await findAccountById(deps, confirmed.userId) : null;
    if (!user) return reply.redirect('/login?verified=1', 303);
    await startSession(deps, reply, user);
    return reply.redirect('/app', 303);
  });

  app.post('/verify/resend', async (request, reply) => {
    const session = requireSession(request);
    verifyCsrf(request, session, publicUrl);
    const { user } = session;
    if (user.emailVerified) return reply.redirect('/app', 303);
    const sent = await mailWithinBudget(services, verificationMessage(user.email, await verificationLink(deps, user)), request.log);
    if (!sent) return sendPage(reply.header('retry-after', '3600'), 429, tooManyAttemptsPage('Verification link', 'We sent several links in the last hour: use the newest one, or try again later.'));
    return sendPage(reply, 200, verificationSentPage(session));
  });
};
