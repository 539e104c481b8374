import type { FastifyBaseLogger } from 'fastify';
import type { ServiceDeps } from '../../app/deps.ts';
import type { MailMessage, Mailer } from '../../mail/mailer.ts';
import type { AccountLimits } from './limits.ts';

/** What the account routes share: the service, its mail and the account budgets. */
export interface AccountServices {
  deps: ServiceDeps;
  mailer: Mailer;
  limits: AccountLimits;
}

/**
 * Sends in the background unless the address has had its share of mail this
 * hour; true when sent. Nobody can use the forms to flood an inbox.
 */
export async function mailWithinBudget(services: AccountServices, message: MailMessage, log: FastifyBaseLogger): Promise<boolean> {
  if (!(await services.limits.mayMail(message.to))) {
    log.warn({ subject: message.subject }, 'mail not sent: the address had its share of mail this hour');
    return false;
  }
  services.mailer.sendInBackground(message);
  return true;
}
