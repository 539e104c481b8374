import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { APP_PAGE_HEADERS } from '../layout.ts';

/** A parsed urlencoded form: only its string fields. */
export type Form = Readonly<Record<string, string>>;

export function formOf(body: unknown): Form {
  if (typeof body !== 'object' || body === null) return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export const PASSWORD_MIN_LENGTH = 10;
/** Long enough for any passphrase, short enough that hashing stays cheap. */
const PASSWORD_MAX_LENGTH = 1000;

/** Why a new password (and its confirmation) is refused, or null. */
export function passwordProblem(password: string, confirmation: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (password !== confirmation) return 'The two passwords differ.';
  return null;
}

const DEFAULT_NEXT = '/app';

/**
 * Where to go after signing in: a path on this site, else the dashboard. A
 * leading `//` or `/\` (which browsers read as `//`) would leave the site, and
 * browsers drop tabs and newlines from URLs, so whitespace and control
 * characters are refused too.
 */
export function safeNextPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 2000) return DEFAULT_NEXT;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return DEFAULT_NEXT;
  // Printable ASCII only: it goes into a Location header as it is.
  if (/[^\x21-\x7e]|\\/.test(raw)) return DEFAULT_NEXT;
  return raw;
}

/**
 * The CSRF check of forms sent before there is a session (sign-up, sign-in,
 * password reset), which have no session token to carry: a browser says where
 * a POST comes from (Origin, Sec-Fetch-Site), and anything but this site is
 * refused. Clients that send neither header are not browsers, and cannot be
 * made to post on someone's behalf.
 */
export function refuseCrossSite(request: FastifyRequest, publicUrl: string): void {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if ((typeof origin === 'string' && origin !== new URL(publicUrl).origin) || site === 'cross-site' || site === 'same-site') {
    throw new ApiError('csrf_failed', 'this request came from another site');
  }
}

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(APP_PAGE_HEADERS).send(html);
}
