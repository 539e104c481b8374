// A browser without a browser, for the server-rendered account and token
// pages: it posts urlencoded forms, keeps the cookies it is given, and reads
// the mail outbox to follow the links the service sends.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../src/auth/passwords.ts';
import { outboxDirectory } from '../../src/mail/mailer.ts';
import type { Harness } from '../helpers/harness.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** The `_csrf` value of the first form on a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF field on this page');
  return match[1]!;
}

function setCookieHeaders(response: LightMyRequestResponse): string[] {
  const raw = response.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
}

export class FormClient {
  readonly cookies = new Map<string, string>();
  private readonly h: Harness;
  private readonly headers: Record<string, string>;

  /** `headers` go with every request (an Origin, say). */
  constructor(h: Harness, headers: Record<string, string> = {}) {
    this.h = h;
    this.headers = headers;
  }

  get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.send('GET', url, undefined, headers);
  }

  post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.send('POST', url, formBody(fields), { ...FORM, ...headers });
  }

  /** Loads `pageUrl`, then posts its form with the page's CSRF token added to `fields`. */
  async submit(pageUrl: string, action: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    const page = await this.get(pageUrl);
    return this.post(action, { ...fields, _csrf: csrfOf(page.body) });
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private async send(method: string, url: string, body: string | undefined, headers: Record<string, string>): Promise<LightMyRequestResponse> {
    const all = { ...this.headers, ...headers };
    if (this.cookies.size) all.cookie = this.cookieHeader();
    const response = await this.h.call(method, url, { headers: all, ...(body === undefined ? {} : { body }) });
    for (const line of setCookieHeaders(response)) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
      const expired = value === '' || attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=thu, 01 jan 1970/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

/** A client signed in through the login form as a new account (made by the admin CLI, given a password). */
export async function signedInClient(h: Harness, options: { email: string; password?: string; unverified?: boolean }): Promise<{ client: FormClient; userId: string }> {
  const password = options.password ?? 'correct horse battery';
  const created = await h.admin('user', 'create', '--email', options.email, ...(options.unverified ? ['--unverified'] : []));
  await h.store.accounts.setPasswordHash(created.id, await hashPassword(password));
  const client = new FormClient(h);
  const response = await client.post('/login', { email: options.email, password });
  if (response.statusCode !== 303) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return { client, userId: created.id };
}

export interface Mail {
  file: string;
  headers: Record<string, string>;
  body: string;
  raw: string;
}

/** Every message in the outbox addressed to `to`, oldest first. */
export function mailsTo(h: Harness, to: string): Mail[] {
  const directory = outboxDirectory(h.config.dataDir);
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => readMail(path.join(directory, name)))
    .filter((mail) => mail.headers.to === to);
}

function readMail(file: string): Mail {
  const raw = fs.readFileSync(file, 'utf8');
  const split = raw.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of raw.slice(0, split).split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { file, headers, body: raw.slice(split + 4), raw };
}

/** Waits for the `count`-th message to `to` (mail is handed over in the background). */
export async function waitForMail(h: Harness, to: string, count = 1): Promise<Mail> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const mails = mailsTo(h, to);
    if (mails.length >= count) return mails[count - 1]!;
    await sleep(20);
  }
  throw new Error(`no mail #${count} to ${to} in the outbox`);
}

/** The path (and query) of the first link in a mail that starts with PUBLIC_URL + `prefix`. */
export function linkIn(h: Harness, mail: Mail, prefix: string): string {
  const start = `${h.config.publicUrl}${prefix}`;
  const link = mail.body.split(/\s+/).find((word) => word.startsWith(start));
  if (!link) throw new Error(`no ${prefix} link in: ${mail.body}`);
  return link.slice(h.config.publicUrl.length);
}
