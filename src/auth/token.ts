import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Personal access tokens: `drw_pat_` + 40 base62 random
 * characters + `_` + a 6-character base62 CRC32 of everything before it.
 * The checksum lets us refuse typos and garbage without touching the database.
 */
const PREFIX = 'drw_pat_';
const BODY_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TOKEN_PATTERN = /^drw_pat_([0-9A-Za-z]{32,128})_([0-9A-Za-z]{6})$/;

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function base62Fixed(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(text: string): string {
  return base62Fixed(crc32(text) >>> 0, 6);
}

export function generateToken(): string {
  const head = PREFIX + randomBase62(BODY_LENGTH);
  return `${head}_${checksum(head)}`;
}

/** True when the text has the token shape and its checksum matches. */
export function isWellFormedToken(text: string): boolean {
  const match = TOKEN_PATTERN.exec(text);
  if (!match) return false;
  return checksum(`${PREFIX}${match[1]}`) === match[2];
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of an `Authorization: Bearer <token>` header, unchecked; null for any other header. */
export function bearerToken(header: string | undefined): string | null {
  const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
  return match?.[1] ?? null;
}
