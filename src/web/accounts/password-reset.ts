/** GET/POST /reset (ask for a link), GET/POST /reset/:token (choose a new password). */
import type { FastifyPluginAsync } from 'fastify';
import { passwordResetLink, resetPassword } from '../../app/accounts/email-flows.ts';
import { isLinkTokenShape } from '../../app/accounts/email-links.ts';
import { normaliseEmail } from '../../auth/accounts.ts';
import { endSession, startSession } from '../session.ts';
import { formOf, passwordProblem, refuseCrossSite, sendPage } from './forms.ts';
import { resetMessage } from './messages.ts';
import { type AccountServices, mailWithinBudget } from './services.ts';
import { invalidLinkPage, newPasswordPage, resetRequestPage, resetSentPage, tooManyAttemptsPage } from './views.ts';

export const passwordResetRoutes: FastifyPluginAsync<AccountServices> = async (app, services) => {
  const { deps, limits } = services;
  const { publicUrl } = deps.config;

  app.get('/reset', async (_request, reply) => sendPage(reply, 200, resetRequestPage()));

  // The same answer whether or not the address has an account.
  app.post('/reset', async (request, reply) => {
    refuseCrossSite(request, publicUrl);
    const form = formOf(request.body);
    const email = normaliseEmail(form.email ?? '');
    if (!email) return sendPage(reply, 400, resetRequestPage({ email: form.email, error: 'Enter a valid email address.' }));
    const wait = await limits.mailFormSubmission(request.ip);
    if (wait !== null) {
      return sendPage(reply.header('retry-after', String(wait)), 429, tooManyAttemptsPage('Reset your password', `Too many attempts. Try again in ${wait} seconds.`));
    }
    const link = await passwordResetLink(deps, email);
    if (link) await mailWithinBudget(services, resetMessage(email, link), request.log);
    return sendPage(reply, 200, resetSentPage(email));
  });

  // Showing the form uses nothing up, so a mail scanner that opens the link does no harm.
  app.get<{ Params: { token: string } }>('/reset/:token', async (request, reply) => {
    const { token } = request.params;
    if (!isLinkTokenShape(token)) return sendPage(reply, 400, invalidLinkPage('reset'));
    return sendPage(reply, 200, newPasswordPage(token));
  });

  app.post<{ Params: { token: string } }>('/reset/:token', async (request, reply) => {
    refuseCrossSite(request, publicUrl);
    const { token } = request.params;
    if (!isLinkTokenShape(token)) return sendPage(reply, 400, invalidLinkPage('reset'));
    const form = formOf(request.body);
    const password = form.password ?? '';
    // Checked before the link is used, so that a typo does not spend it.
    const problem = passwordProblem(password, form.confirm ?? '');
    if (problem) return sendPage(reply, 400, newPasswordPage(token, problem));
    const user = await resetPassword(deps, token, password);
    if (!user) return sendPage(reply, 400, invalidLinkPage('reset'));
    await endSession(deps, request, reply);
    await startSession(deps, reply, user);
    return reply.redirect('/app', 303);
  });
};
