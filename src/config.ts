import path from 'node:path';
import { DEFAULT_RETENTION, type RetentionPolicy } from './domain/history/retention.ts';

/** Server settings, read once from the environment (docs/operations.md lists them). */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  rateLimitReadPerMin: number;
  rateLimitWritePerMin: number;
  /** Requests a minute per client address for the pages anyone can reach: public diagrams and the account pages. */
  rateLimitPagesPerMin: number;
  renderFaithful: boolean;
  /** Faithful render worker processes (each holds the editor's bundle, about 150 MB). */
  renderWorkers: number;
  /** A render not answered within this is abandoned: the worker is replaced and the request falls back. */
  renderTimeoutMs: number;
  /** Size bound of the render cache under DATA_DIR; the least recently used renders go first. */
  renderCacheBytes: number;
  /**
   * TRUST_PROXY: behind a reverse proxy, which proxies to believe about the
   * client's address (X-Forwarded-For): unset trusts none; `true`, a hop
   * count, or a comma-separated list of addresses/CIDRs (Fastify's trustProxy).
   */
  trustProxy: boolean | number | string[];
  logLevel: string;
  /** `smtp://` or `smtps://` URL of the mail relay; unset, mail is written to DATA_DIR/outbox instead. */
  smtpUrl: string | undefined;
  /** The From of every message the service sends. */
  mailFrom: string;
  /** How long an OAuth access token works. */
  oauthAccessTokenTtlSeconds: number;
  /** How long an OAuth refresh token works; each refresh issues a new one with a fresh lifetime. */
  oauthRefreshTokenTtlSeconds: number;
  /** OAuth client registrations an hour per client address. */
  oauthRegistrationsPerHour: number;
  /** HISTORY: whether content writes, renames and moves are recorded in diagrams' history (on by default). */
  history: boolean;
  /** How long diagrams' history is kept (pruned hourly in the background). */
  historyRetention: RetentionPolicy;
  /** DEFAULT_QUOTA: active diagrams a new account may keep; Infinity (`unlimited`): no limit. */
  defaultQuota: number;
  /** INVITE_QUOTA_BONUS: diagrams of quota an account gains for each person who joins through its invitations. */
  inviteQuotaBonus: number;
  /** INVITE_QUOTA_CAP: the most quota an account can ever gain by invitations. */
  inviteQuotaCap: number;
  /** METRICS_TOKEN: the bearer token `GET /metrics` on the main port asks for; unset, that path does not exist there. */
  metricsToken: string | undefined;
  /** METRICS_ADDR: a separate listener serving `GET /metrics` without a token; unset, none. */
  metricsAddress: ListenAddress | undefined;
}

/** The quota settings' defaults: free accounts start with 3 diagrams, gain 2 per person who joins by their invitation, at most 10 in all. */
export const QUOTA_DEFAULTS = { defaultQuota: 3, inviteQuotaBonus: 2, inviteQuotaCap: 10 } as const;

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function nonNegativeInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number (0 or more), got "${raw}"`);
  return value;
}

/** Days, or `forever`. */
function daysOrForever(name: string, raw: string | undefined, fallback: number): number {
  if (raw === 'forever') return Infinity;
  if (raw !== undefined && raw !== '' && !/^\d+$/.test(raw)) throw new Error(`${name} must be a number of days or "forever", got "${raw}"`);
  return nonNegativeInt(name, raw, fallback);
}

/** A whole number of diagrams, or `unlimited` (Infinity). */
function quotaOrUnlimited(name: string, raw: string | undefined, fallback: number): number {
  if (raw === 'unlimited') return Infinity;
  if (raw !== undefined && raw !== '' && !/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number (0 or more) or "unlimited", got "${raw}"`);
  return nonNegativeInt(name, raw, fallback);
}

function onOff(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be "on" or "off", got "${raw}"`);
  return raw === 'on';
}

function trustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw.split(',').map((part) => part.trim()).filter(Boolean);
  if (list.some((part) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(part))) {
    throw new Error(`TRUST_PROXY must be true, a hop count, or addresses/CIDRs separated by commas, got "${raw}"`);
  }
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = positiveInt('PORT', env.PORT, 8080);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (unset it to use the embedded SQLite database)');
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must be an smtp:// or smtps:// URL (unset it to write mail to DATA_DIR/outbox)');
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol)) throw new Error(`PUBLIC_URL must be an http:// or https:// URL, got "${publicUrl}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    rateLimitReadPerMin: positiveInt('RATE_LIMIT_READ_PER_MIN', env.RATE_LIMIT_READ_PER_MIN, 120),
    rateLimitWritePerMin: positiveInt('RATE_LIMIT_WRITE_PER_MIN', env.RATE_LIMIT_WRITE_PER_MIN, 30),
    rateLimitPagesPerMin: positiveInt('RATE_LIMIT_PAGES_PER_MIN', env.RATE_LIMIT_PAGES_PER_MIN, 120),
    renderFaithful: onOff('RENDER_FAITHFUL', env.RENDER_FAITHFUL, true),
    renderWorkers: positiveInt('RENDER_WORKERS', env.RENDER_WORKERS, 2),
    renderTimeoutMs: positiveInt('RENDER_TIMEOUT_MS', env.RENDER_TIMEOUT_MS, 15_000),
    renderCacheBytes: positiveInt('RENDER_CACHE_MB', env.RENDER_CACHE_MB, 256) * 1024 * 1024,
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || 'info',
    smtpUrl,
    mailFrom: env.MAIL_FROM || `Drawbridge <no-reply@${new URL(publicUrl).hostname}>`,
    oauthAccessTokenTtlSeconds: positiveInt('OAUTH_ACCESS_TOKEN_TTL_SECONDS', env.OAUTH_ACCESS_TOKEN_TTL_SECONDS, 3600),
    oauthRefreshTokenTtlSeconds: positiveInt('OAUTH_REFRESH_TOKEN_TTL_SECONDS', env.OAUTH_REFRESH_TOKEN_TTL_SECONDS, 30 * 24 * 3600),
    oauthRegistrationsPerHour: positiveInt('OAUTH_REGISTRATIONS_PER_HOUR', env.OAUTH_REGISTRATIONS_PER_HOUR, 20),
    history: onOff('HISTORY', env.HISTORY, true),
    historyRetention: {
      keepAllDays: nonNegativeInt('HISTORY_KEEP_ALL_DAYS', env.HISTORY_KEEP_ALL_DAYS, DEFAULT_RETENTION.keepAllDays),
      keepDailyDays: daysOrForever('HISTORY_KEEP_DAILY_DAYS', env.HISTORY_KEEP_DAILY_DAYS, DEFAULT_RETENTION.keepDailyDays),
      keepLatest: positiveInt('HISTORY_KEEP_LATEST', env.HISTORY_KEEP_LATEST, DEFAULT_RETENTION.keepLatest),
    },
    defaultQuota: quotaOrUnlimited('DEFAULT_QUOTA', env.DEFAULT_QUOTA, QUOTA_DEFAULTS.defaultQuota),
    inviteQuotaBonus: nonNegativeInt('INVITE_QUOTA_BONUS', env.INVITE_QUOTA_BONUS, QUOTA_DEFAULTS.inviteQuotaBonus),
    inviteQuotaCap: nonNegativeInt('INVITE_QUOTA_CAP', env.INVITE_QUOTA_CAP, QUOTA_DEFAULTS.inviteQuotaCap),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    metricsAddress: listenAddress('METRICS_ADDR', env.METRICS_ADDR),
  };
}

/** Where a listener binds. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** A secret sent in a header: at least 16 visible ASCII characters, no spaces. */
function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{16,}$/.test(raw)) throw new Error('METRICS_TOKEN must be at least 16 visible ASCII characters without spaces');
  return raw;
}

/** `host:port`, an IPv6 host in brackets (`[::1]:9464`). */
function listenAddress(name: string, raw: string | undefined): ListenAddress | undefined {
  if (raw === undefined || raw === '') return undefined;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(raw);
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) throw new Error(`${name} must be host:port (a port from 1 to 65535; an IPv6 host in brackets), got "${raw}"`);
  return { host: match[1] ?? match[2]!, port };
}
