/**
 * Outgoing mail (verification, password reset, sign-up notices). With SMTP_URL
 * set, messages go to that relay through nodemailer; without it, each message
 * is written as an RFC 822 file to DATA_DIR/outbox, so that a self-hoster
 * without a mail server (and the tests) can still follow the links. The logs
 * name the file or the message id, never the text: the links in it are
 * credentials.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './message.ts';
import type { Config } from '../config.ts';

export type { MailMessage, Mailer };

type MailSettings = Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>;

export function createMailer(settings: MailSettings, log: FastifyBaseLogger, now: () => Date = () => new Date()): Mailer {
  return settings.smtpUrl ? new SmtpMailer(settings.smtpUrl, settings.mailFrom, log) : new OutboxMailer(outboxDirectory(settings.dataDir), settings.mailFrom, log, now);
}

export function outboxDirectory(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

abstract class BaseMailer implements Mailer {
  private readonly pending = new Set<Promise<void>>();
  protected readonly log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.log = log;
  }

  abstract send(message: MailMessage): Promise<void>;

  sendInBackground(message: MailMessage): void {
    const delivery = this.send(message)
      .catch((error: unknown) => this.log.error({ err: error }, 'could not send mail'))
      .finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  async close(): Promise<void> {
    await Promise.all(this.pending);
  }
}

class SmtpMailer extends BaseMailer {
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(url: string, from: string, log: FastifyBaseLogger) {
    super(log);
    this.transport = nodemailer.createTransport(url);
    this.from = from;
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    this.log.info({ messageId: info.messageId }, 'mail sent');
  }

  override async close(): Promise<void> {
    await super.close();
    this.transport.close();
  }
}

class OutboxMailer extends BaseMailer {
  private readonly directory: string;
  private readonly from: string;
  private readonly now: () => Date;

  constructor(directory: string, from: string, log: FastifyBaseLogger, now: () => Date) {
    super(log);
    this.directory = directory;
    this.from = from;
    this.now = now;
  }

  async send(message: MailMessage): Promise<void> {
    const date = this.now();
    const name = `${date.toISOString().replace(/[-:.]/g, '')}-${randomBytes(6).toString('hex')}.eml`;
    const file = path.join(this.directory, name);
    // The folder and its files are the owner's alone: the messages hold sign-in links.
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const temporary = path.join(this.directory, `.${name}.tmp`);
    await fs.writeFile(temporary, rfc822(this.from, message, date), { mode: 0o600 });
    await fs.rename(temporary, file);
    this.log.info({ file }, 'mail written to the outbox (SMTP_URL is not set)');
  }
}

/** A header value on one line; RFC 2047-encoded when it is not plain ASCII. */
function headerValue(value: string): string {
  const line = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?UTF-8?B?${Buffer.from(line, 'utf8').toString('base64')}?=`;
}

/** The message as RFC 5322 text (8-bit UTF-8 body, CRLF line ends), ready for any mail reader. */
function rfc822(from: string, message: MailMessage, date: Date): string {
  const host = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'drawbridge.invalid';
  const headers = [
    `From: ${headerValue(from)}`,
    `To: ${message.to.replace(/[\r\n]+/g, ' ')}`,
    `Subject: ${headerValue(message.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@${host}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${message.text.replace(/\r?\n/g, '\r\n')}`;
}
