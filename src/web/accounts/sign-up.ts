/** GET/POST /signup, GET /verify, POST /verify/resend. */
import type { FastifyPluginAsync } from 'fastify';
import { confirmEmail, signUp, verificationLink } from '../../app/accounts/email-flows.ts';
import type { SignUpRefusal } from '../../app/accounts/sign-up-policy.ts';
import type { Config } from '../../config.ts';
import { normaliseEmail } from '../../auth/accounts.ts';
import { requireSession, startSession, verifyCsrf } from '../session.ts';
import { findAccountById } from '../../app/accounts/accounts.ts';
import { formOf, passwordProblem, refuseCrossSite, sendPage } from './forms.ts';
import { alreadyRegisteredMessage, verificationMessage } from './messages.ts';
import { type AccountServices, mailWithinBudget } from './services.ts';
import { rememberSignUp, signedUpHere } from './sign-up-browser.ts';
import { checkInboxPage, invalidLinkPage, signUpClosedPage, signUpPage, tooManyAttemptsPage, verificationSentPage } from './views.ts';

/** `a.com`, `a.com or b.com`, `a.com, b.com or c.com`. */
function oneOf(domains: readonly string[]): string {
  return domains.length === 1 ? domains[0]! : `${domains.slice(0, -1).join(', ')} or ${domains.at(-1)}`;
}

/** What the sign-up form says first about who may sign up (SIGNUP, SIGNUP_DOMAINS), if anything. */
function signUpNotice(config: Config): string | null {
  if (config.signup === 'invite') return 'Sign-up here is by invitation: use the address your invitation was sent to.';
  if (config.signupDomains.length > 0) return `Sign-up here is for addresses at ${oneOf(config.signupDomains)}, and for invited addresses.`;
  return null;
}

/** The form's answer to an address the sign-up rules refuse. */
function refusalMessage(refusal: Exclude<SignUpRefusal, 'closed'>, config: Config): string {
  return refusal === 'invitation_required'
    ? 'Sign-up here is by invitation only, and this address has no pending invitation. Use the address your invitation was sent to, or ask someone here to invite you.'
    : `Sign-up here is for addresses at ${oneOf(config.signupDomains)}. Use one of those, or ask someone here to invite this address.`;
}

export const signUpRoutes: FastifyPluginAsync<AccountServices> = async (app, services) => {
  const { deps, limits } = services;
  const { config } = deps;
  const { publicUrl } = config;

  // `?email=` fills the address in: an invitation by mail links here with the invited address.
  app.get('/signup', async (request, reply) => {
    if (request.webSession) return reply.redirect('/app', 303);
    if (config.signup === 'closed') return sendPage(reply, 200, signUpClosedPage());
    const email = (request.query as Record<string, unknown>).email;
    return sendPage(reply, 200, signUpPage({ notice: signUpNotice(config), ...(typeof email === 'string' ? { email: email.slice(0, 254) } : {}) }));
  });

  // A taken address gets the same answer as a new one (its owner is told by mail instead), so the form does not reveal who has an account.
  // An address the sign-up rules refuse is told why, after the rate limit, so that nobody can list invited addresses quickly.
  app.post('/signup', async (request, reply) => {
    refuseCrossSite(request, publicUrl);
    if (config.signup === 'closed') return sendPage(reply, 403, signUpClosedPage());
    const form = formOf(request.body);
    const email = normaliseEmail(form.email ?? '');
    const password = form.password ?? '';
    const problem = email ? passwordProblem(password, form.confirm ?? '') : 'Enter a valid email address.';
    const notice = signUpNotice(config);
    if (!email || problem) return sendPage(reply, 400, signUpPage({ email: form.email, error: problem, notice }));
    const wait = await limits.mailFormSubmission(request.ip);
    if (wait !== null) return sendPage(reply.header('retry-after', String(wait)), 429, tooManyAttemptsPage('Create your account', `Too many attempts. Try again in ${wait} seconds.`));

    const signedUp = await signUp(deps, email, password);
    if (signedUp.outcome === 'refused') {
      const { refusal } = signedUp;
      return sendPage(reply, 403, refusal === 'closed' ? signUpClosedPage() : signUpPage({ email: form.email, error: refusalMessage(refusal, config) }));
    }
    const created = signedUp.outcome === 'created' ? signedUp : null;
    const message = created ? verificationMessage(email, created.verifyLink) : alreadyRegisteredMessage(email, publicUrl);
    await mailWithinBudget(services, message, request.log);
    await rememberSignUp(deps, reply, created?.user ?? null);
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
