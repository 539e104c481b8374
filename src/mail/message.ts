/**
 * Mail the service sends (verification, password reset, invitations), as the
 * use cases see it. The composition root hands them a Mailer that delivers
 * through SMTP or writes to DATA_DIR/outbox (mailer.ts, beside this file).
 */
export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text; lines end in \n. */
  text: string;
}

export interface Mailer {
  /** Delivers the message, or throws. */
  send(message: MailMessage): Promise<void>;
  /**
   * Hands the message over without waiting for it (so that a response does not
   * take longer when mail is sent than when it is not); failures are logged.
   */
  sendInBackground(message: MailMessage): void;
  /** Waits for messages still being handed over, then releases the transport. */
  close(): Promise<void>;
}
