/** The account emails: plain text, each with the one link it exists for. */
import type { MailMessage } from '../../mail/mailer.ts';

export function verificationMessage(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Verify your Drawbridge email address',
    text: `Welcome to Drawbridge.

Follow this link to verify your email address (it works once, for 24 hours):

${link}

If you did not create a Drawbridge account, ignore this message.
`,
  };
}

/** Sent instead of a verification link when someone signs up with an address that already has an account. */
export function alreadyRegisteredMessage(to: string, publicUrl: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to create a Drawbridge account with your address',
    text: `Someone, perhaps you, tried to create a Drawbridge account with this email address, which already has one. Nothing was changed.

To sign in: ${publicUrl}/login
Forgot your password, or never set one: ${publicUrl}/reset

If it was not you, you need not do anything.
`,
  };
}

export function resetMessage(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your Drawbridge password',
    text: `Follow this link to choose a new Drawbridge password (it works once, for one hour):

${link}

Setting a new password signs you out everywhere else. If you did not ask for this, ignore this message: your password stays as it is.
`,
  };
}
