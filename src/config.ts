import os from 'node:os';
import path from 'node:path';
import { QUOTA_DEFAULTS } from './auth/accounts.ts';
import { DEFAULT_RETENTION, type RetentionPolicy } from './domain/history/retention.ts';

/** Server settings, read once from the environment (SETTINGS below names each; docs/operations.md explains them). */
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
  /** Live connections one browser session may hold on this instance; a newer one closes the least recently active. */
  liveConnectionsPerSession: number;
  /** Live connections one person may hold on this instance, all sessions together. */
  liveConnectionsPerUser: number;
  /** A live connection that sends nothing for this long is closed (the editor reconnects on the person's next input). */
  liveIdleTimeoutMs: number;
  renderFaithful: boolean;
  /** Faithful render worker processes (each holds the editor's bundle, about 150 MB). */
  renderWorkers: number;
  /** FAST_WORKERS: fast render worker processes (SVG writing and PNG/PDF encoding). */
  fastWorkers: number;
  /** SCENE_WORKERS: processes that lay out, patch, edit, lint and export scenes (default: one per core). */
  sceneWorkers: number;
  /** WORKER_IDLE_SECONDS: a render or scene worker idle this long is stopped, and started again on demand. */
  workerIdleMs: number;
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
  /** SIGNUP: who may make an account on the sign-up page: `open` (anyone), `invite` (only an address with a pending invitation), `closed` (nobody; the admin CLI still can). */
  signup: 'open' | 'invite' | 'closed';
  /** SIGNUP_DOMAINS: the email domains sign-up accepts (lower case); empty: any. */
  signupDomains: string[];
  /** METRICS_TOKEN: the bearer token `GET /metrics` on the main port asks for; unset, that path does not exist there. */
  metricsToken: string | undefined;
  /** METRICS_ADDR: a separate listener serving `GET /metrics` without a token; unset, none. */
  metricsAddress: ListenAddress | undefined;
}

/** The fast renderer's worker processes when FAST_WORKERS is unset. */
export const FAST_WORKERS_DEFAULT = 2;

/** One setting the server reads from the environment. */
export interface SettingDefinition {
  name: string;
  /**
   * The value in effect when the setting is unset (or empty), as an operator
   * would write it; a function of the settings before it when it follows them;
   * null when unset means none (no PostgreSQL, no relay, no proxy trusted).
   */
  default: string | null | ((valueOf: (name: string) => string | null) => string);
  /** What it does, in a line (docs/operations.md says more, and which values it takes). */
  description: string;
}

const hostnameOf = (url: string | null) => (url !== null && URL.canParse(url) ? new URL(url).hostname : 'localhost');

/**
 * Every setting, in the order docs/operations.md lists them. loadConfig reads
 * the environment only through this table (a setting's default is here and
 * nowhere else), and `drawbridge-admin config show` prints it, so neither can
 * miss a setting the other knows.
 */
export const SETTINGS = [
  { name: 'PORT', default: '8080', description: 'listening port' },
  { name: 'HOST', default: '127.0.0.1', description: 'listening address' },
  { name: 'PUBLIC_URL', default: (valueOf) => `http://localhost:${valueOf('PORT')}`, description: 'the address people use: base of links, OAuth issuer' },
  { name: 'DATA_DIR', default: './data', description: 'the SQLite database, the render cache, fonts and the mail outbox' },
  { name: 'DATABASE_URL', default: null, description: 'postgres:// URL: PostgreSQL instead of SQLite' },
  { name: 'RATE_LIMIT_READ_PER_MIN', default: '120', description: 'GET requests per user per minute' },
  { name: 'RATE_LIMIT_WRITE_PER_MIN', default: '30', description: 'other requests per user per minute' },
  { name: 'RATE_LIMIT_PAGES_PER_MIN', default: '120', description: 'requests per client address per minute for public diagrams and account pages' },
  { name: 'LIVE_CONNECTIONS_PER_SESSION', default: '20', description: 'live editor connections per browser session' },
  { name: 'LIVE_CONNECTIONS_PER_USER', default: '40', description: 'live editor connections per user, all sessions together' },
  { name: 'LIVE_IDLE_TIMEOUT_SECONDS', default: '1800', description: 'a live connection silent this long is closed' },
  { name: 'RENDER_FAITHFUL', default: 'on', description: 'off: renders answer the fast preview' },
  { name: 'RENDER_WORKERS', default: '2', description: 'faithful render worker processes' },
  { name: 'FAST_WORKERS', default: String(FAST_WORKERS_DEFAULT), description: 'fast render worker processes' },
  { name: 'SCENE_WORKERS', default: () => String(os.availableParallelism()), description: 'scene worker processes (layout, patch, edit, lint, export)' },
  { name: 'WORKER_IDLE_SECONDS', default: '300', description: 'a render or scene worker idle this long is stopped until needed again' },
  { name: 'RENDER_TIMEOUT_MS', default: '15000', description: 'a render not answered within this is abandoned' },
  { name: 'RENDER_CACHE_MB', default: '256', description: 'size bound of the render cache' },
  { name: 'TRUST_PROXY', default: null, description: 'the reverse proxies believed about the client address' },
  { name: 'LOG_LEVEL', default: 'info', description: 'pino log level' },
  { name: 'SMTP_URL', default: null, description: 'smtp:// or smtps:// mail relay; unset: mail to DATA_DIR/outbox' },
  { name: 'MAIL_FROM', default: (valueOf) => `Drawbridge <no-reply@${hostnameOf(valueOf('PUBLIC_URL'))}>`, description: 'the From of the mail sent' },
  { name: 'OAUTH_ACCESS_TOKEN_TTL_SECONDS', default: '3600', description: 'how long an OAuth access token works' },
  { name: 'OAUTH_REFRESH_TOKEN_TTL_SECONDS', default: String(30 * 24 * 3600), description: 'how long an OAuth refresh token works' },
  { name: 'OAUTH_REGISTRATIONS_PER_HOUR', default: '20', description: 'OAuth client registrations per client address per hour' },
  { name: 'HISTORY', default: 'on', description: 'off: no revisions recorded' },
  { name: 'HISTORY_KEEP_ALL_DAYS', default: String(DEFAULT_RETENTION.keepAllDays), description: 'every revision younger than this many days is kept' },
  {
    name: 'HISTORY_KEEP_DAILY_DAYS',
    default: DEFAULT_RETENTION.keepDailyDays === Infinity ? 'forever' : String(DEFAULT_RETENTION.keepDailyDays),
    description: 'older revisions: one a day for this many days',
  },
  { name: 'HISTORY_KEEP_LATEST', default: String(DEFAULT_RETENTION.keepLatest), description: 'the newest revisions of each diagram always kept' },
  { name: 'DEFAULT_QUOTA', default: String(QUOTA_DEFAULTS.defaultQuota), description: 'active diagrams a new account may keep' },
  { name: 'INVITE_QUOTA_BONUS', default: String(QUOTA_DEFAULTS.inviteQuotaBonus), description: 'quota earned per person who joins by invitation' },
  { name: 'INVITE_QUOTA_CAP', default: String(QUOTA_DEFAULTS.inviteQuotaCap), description: 'the most quota invitations can earn' },
  { name: 'SIGNUP', default: 'open', description: 'who may make an account on the sign-up page' },
  { name: 'SIGNUP_DOMAINS', default: null, description: 'the email domains sign-up accepts' },
  { name: 'METRICS_TOKEN', default: null, description: 'bearer token GET /metrics asks for on the main port; unset: no /metrics there' },
  { name: 'METRICS_ADDR', default: null, description: 'host:port of a separate listener serving /metrics without a token' },
] as const satisfies readonly SettingDefinition[];

export type SettingName = (typeof SETTINGS)[number]['name'];

/** A setting's value in effect, as text (null: unset, with no default), and whether the environment set it. */
export interface SettingValue {
  name: SettingName;
  value: string | null;
  set: boolean;
}

/** Every setting's value in effect, in table order: what the environment sets (an empty value counts as unset), else the default. Nothing is checked yet. */
export function settingValues(env: NodeJS.ProcessEnv = process.env): SettingValue[] {
  const values = new Map<string, string | null>();
  const valueOf = (name: string) => values.get(name) ?? null;
  return SETTINGS.map(({ name, default: fallback }): SettingValue => {
    const raw = env[name];
    const set = raw !== undefined && raw !== '';
    const value = set ? raw : typeof fallback === 'function' ? fallback(valueOf) : fallback;
    values.set(name, value);
    return { name, value, set };
  });
}

function positiveInt(name: SettingName, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function nonNegativeInt(name: SettingName, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number (0 or more), got "${raw}"`);
  return value;
}

/** Days, or `forever`. */
function daysOrForever(name: SettingName, raw: string): number {
  if (raw === 'forever') return Infinity;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a number of days or "forever", got "${raw}"`);
  return nonNegativeInt(name, raw);
}

/** A whole number of diagrams, or `unlimited` (Infinity). */
function quotaOrUnlimited(name: SettingName, raw: string): number {
  if (raw === 'unlimited') return Infinity;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number (0 or more) or "unlimited", got "${raw}"`);
  return nonNegativeInt(name, raw);
}

function onOff(name: SettingName, raw: string): boolean {
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be "on" or "off", got "${raw}"`);
  return raw === 'on';
}

function trustProxy(raw: string): boolean | number | string[] {
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw.split(',').map((part) => part.trim()).filter(Boolean);
  if (list.some((part) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(part))) {
    throw new Error(`TRUST_PROXY must be true, a hop count, or addresses/CIDRs separated by commas, got "${raw}"`);
  }
  return list;
}

const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;

function signupMode(raw: string): Config['signup'] {
  const mode = SIGNUP_MODES.find((candidate) => candidate === raw);
  if (!mode) throw new Error(`SIGNUP must be "open", "invite" or "closed", got "${raw}"`);
  return mode;
}

/** A domain name of at least two labels (letters, digits and inner hyphens), as it follows the @ of an address. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Domains separated by commas, lower-cased; empty (unset): any domain. */
function emailDomains(raw: string): string[] {
  if (raw === '') return [];
  const domains = raw.split(',').map((part) => part.trim().toLowerCase());
  if (domains.some((domain) => !DOMAIN.test(domain))) {
    throw new Error(`SIGNUP_DOMAINS must be email domains separated by commas (example.com,example.org), got "${raw}"`);
  }
  return [...new Set(domains)];
}

/** The settings from the environment; throws an Error whose message names the first setting that has a value it cannot take. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const values = new Map(settingValues(env).map((setting) => [setting.name, setting.value]));
  const text = (name: SettingName): string => values.get(name) ?? '';
  const port = positiveInt('PORT', text('PORT'));
  const databaseUrl = text('DATABASE_URL') || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (unset it to use the embedded SQLite database)');
  }
  const smtpUrl = text('SMTP_URL') || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must be an smtp:// or smtps:// URL (unset it to write mail to DATA_DIR/outbox)');
  const publicUrl = text('PUBLIC_URL').replace(/\/+$/, '');
  if (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol)) throw new Error(`PUBLIC_URL must be an http:// or https:// URL, got "${publicUrl}"`);
  return {
    port,
    host: text('HOST'),
    publicUrl,
    dataDir: path.resolve(text('DATA_DIR')),
    databaseUrl,
    rateLimitReadPerMin: positiveInt('RATE_LIMIT_READ_PER_MIN', text('RATE_LIMIT_READ_PER_MIN')),
    rateLimitWritePerMin: positiveInt('RATE_LIMIT_WRITE_PER_MIN', text('RATE_LIMIT_WRITE_PER_MIN')),
    rateLimitPagesPerMin: positiveInt('RATE_LIMIT_PAGES_PER_MIN', text('RATE_LIMIT_PAGES_PER_MIN')),
    liveConnectionsPerSession: positiveInt('LIVE_CONNECTIONS_PER_SESSION', text('LIVE_CONNECTIONS_PER_SESSION')),
    liveConnectionsPerUser: positiveInt('LIVE_CONNECTIONS_PER_USER', text('LIVE_CONNECTIONS_PER_USER')),
    liveIdleTimeoutMs: positiveInt('LIVE_IDLE_TIMEOUT_SECONDS', text('LIVE_IDLE_TIMEOUT_SECONDS')) * 1000,
    renderFaithful: onOff('RENDER_FAITHFUL', text('RENDER_FAITHFUL')),
    renderWorkers: positiveInt('RENDER_WORKERS', text('RENDER_WORKERS')),
    fastWorkers: positiveInt('FAST_WORKERS', text('FAST_WORKERS')),
    sceneWorkers: positiveInt('SCENE_WORKERS', text('SCENE_WORKERS')),
    workerIdleMs: positiveInt('WORKER_IDLE_SECONDS', text('WORKER_IDLE_SECONDS')) * 1000,
    renderTimeoutMs: positiveInt('RENDER_TIMEOUT_MS', text('RENDER_TIMEOUT_MS')),
    renderCacheBytes: positiveInt('RENDER_CACHE_MB', text('RENDER_CACHE_MB')) * 1024 * 1024,
    trustProxy: trustProxy(text('TRUST_PROXY')),
    logLevel: text('LOG_LEVEL'),
    smtpUrl,
    mailFrom: text('MAIL_FROM'),
    oauthAccessTokenTtlSeconds: positiveInt('OAUTH_ACCESS_TOKEN_TTL_SECONDS', text('OAUTH_ACCESS_TOKEN_TTL_SECONDS')),
    oauthRefreshTokenTtlSeconds: positiveInt('OAUTH_REFRESH_TOKEN_TTL_SECONDS', text('OAUTH_REFRESH_TOKEN_TTL_SECONDS')),
    oauthRegistrationsPerHour: positiveInt('OAUTH_REGISTRATIONS_PER_HOUR', text('OAUTH_REGISTRATIONS_PER_HOUR')),
    history: onOff('HISTORY', text('HISTORY')),
    historyRetention: {
      keepAllDays: nonNegativeInt('HISTORY_KEEP_ALL_DAYS', text('HISTORY_KEEP_ALL_DAYS')),
      keepDailyDays: daysOrForever('HISTORY_KEEP_DAILY_DAYS', text('HISTORY_KEEP_DAILY_DAYS')),
      keepLatest: positiveInt('HISTORY_KEEP_LATEST', text('HISTORY_KEEP_LATEST')),
    },
    defaultQuota: quotaOrUnlimited('DEFAULT_QUOTA', text('DEFAULT_QUOTA')),
    inviteQuotaBonus: nonNegativeInt('INVITE_QUOTA_BONUS', text('INVITE_QUOTA_BONUS')),
    inviteQuotaCap: nonNegativeInt('INVITE_QUOTA_CAP', text('INVITE_QUOTA_CAP')),
    signup: signupMode(text('SIGNUP')),
    signupDomains: emailDomains(text('SIGNUP_DOMAINS')),
    metricsToken: metricsToken(text('METRICS_TOKEN') || undefined),
    metricsAddress: listenAddress('METRICS_ADDR', text('METRICS_ADDR') || undefined),
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
