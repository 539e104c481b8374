import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { runAdminCommand } from '../../src/admin/commands.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { loggerOptions } from '../../src/edge/logging.ts';
import { buildServer } from '../../src/server.ts';
import { openStore, SQLITE_FILE_NAME } from '../../src/store/open.ts';
import type { SqlStore } from '../../src/store/sql-store.ts';
import { type ApiResponseWatch, watchApiResponses } from './openapi-responses.ts';
import { migratedPostgresDatabase } from './postgres.ts';
import { freePort } from './ports.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Harness {
  app: FastifyInstance;
  store: SqlStore;
  config: Config;
  /** Runs an admin CLI command in-process against the same database. */
  admin(...argv: string[]): Promise<any>;
  /** Creates a user and mints a token; returns both. */
  user(options?: UserOptions): Promise<TestUser>;
  /** Sends a request (fastify.inject) with the token as bearer, if given. */
  call(method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** Everything the app logged, as text. */
  logs(): string;
  /** Resolves once the logs match `pattern` (at once if they already do); rejects if they do not within `timeoutMs`. */
  logged(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /**
   * Every API answer checked against the published OpenAPI document
   * (openapi-responses.ts). A mismatch rejects the `call` or `app.inject`
   * that got the answer; `close` then throws every mismatch seen, including
   * those of answers over a socket or to requests the app made itself.
   */
  apiResponses: ApiResponseWatch;
  /** Closes the app and the store; throws if any API answer did not match the OpenAPI document. */
  close(): Promise<void>;
}

interface UserOptions {
  email?: string;
  caps?: string;
  unverified?: boolean;
  quota?: number;
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  tokenId: string;
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

export interface HarnessOptions {
  engine?: Engine;
  env?: Record<string, string>;
  /**
   * Also listen on 127.0.0.1 at a free port, for clients that need a real
   * server (a browser). PUBLIC_URL is then that address, so the links the
   * service builds lead back to it.
   */
  listen?: boolean;
  /**
   * PostgreSQL only: run on this database (another harness's
   * `config.databaseUrl`) instead of a fresh one, as a second instance of
   * the service would.
   */
  databaseUrl?: string;
}

export interface ListeningHarness extends Harness {
  /** `http://127.0.0.1:<port>`, with no trailing slash; also the service's PUBLIC_URL. */
  baseUrl: string;
}

/** A fresh service over a fresh database (SQLite in a temp dir, or a new PostgreSQL database). */
export async function startHarness(options: HarnessOptions & { listen: true }): Promise<ListeningHarness>;
export async function startHarness(options?: HarnessOptions): Promise<Harness>;
export async function startHarness(options: HarnessOptions = {}): Promise<Harness | ListeningHarness> {
  if (!options.listen) return buildHarness(options);
  // PUBLIC_URL has to be known when the app is built, so the port is chosen
  // first; should another process take it in between, try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const harness = await buildHarness({ ...options, env: { ...options.env, PUBLIC_URL: baseUrl } });
    try {
      await harness.app.listen({ port, host: '127.0.0.1' });
      return { ...harness, baseUrl };
    } catch (error) {
      await harness.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 3) throw error;
    }
  }
}

let sqliteTemplate: Promise<string> | undefined;

/**
 * A SQLite file at the latest schema, migrated once per process: each harness's database starts as a copy of
 * it, as each PostgreSQL one starts from a template (postgres.ts). Migrating a new file is about a hundred
 * statements, each committed to disk, a quarter of a harness's start (100 of 400 ms of CPU); a copy is one write.
 */
function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-sqlite-template-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    // Closing the last connection writes the WAL back into the file: the file alone is the whole database.
    await (await openStore({ dataDir: dir, databaseUrl: undefined })).close();
    return path.join(dir, SQLITE_FILE_NAME);
  })();
  return sqliteTemplate;
}

async function buildHarness(options: HarnessOptions): Promise<Harness> {
  const engine = options.engine ?? 'sqlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-test-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://drawbridge.test',
    RATE_LIMIT_READ_PER_MIN: '100000',
    RATE_LIMIT_WRITE_PER_MIN: '100000',
    RATE_LIMIT_PAGES_PER_MIN: '100000',
    ...options.env,
  };
  if (engine === 'postgres') env.DATABASE_URL = options.databaseUrl ?? (await migratedPostgresDatabase());
  else if (options.databaseUrl) throw new Error('databaseUrl needs engine: postgres');
  else fs.copyFileSync(await migratedSqliteFile(), path.join(dataDir, SQLITE_FILE_NAME));
  const config = loadConfig(env);
  const store = await openStore(config);
  let logText = '';
  const logWaiters = new Set<{ pattern: RegExp; resolve: () => void }>();
  const stream = {
    write: (line: string) => {
      logText += line;
      for (const waiter of logWaiters) if (waiter.pattern.test(logText)) waiter.resolve();
    },
  };
  const app = await buildServer({ config, store, now: () => new Date() }, { logger: { ...loggerOptions('info'), stream } as any });
  // Before ready: Fastify takes hooks only until then.
  const apiResponses = watchApiResponses(app);
  await app.ready();
  await apiResponses.ready();

  const harness: Harness = {
    app,
    store,
    config,
    admin: (...argv) => runAdminCommand(argv, store, () => new Date(), config),
    async user(opts = {}) {
      const email = opts.email ?? uniqueEmail();
      const created = await runAdminCommand(
        ['user', 'create', '--email', email, '--quota', String(opts.quota ?? 1000), ...(opts.unverified ? ['--unverified'] : [])],
        store,
      );
      const minted = (await runAdminCommand(['token', 'mint', '--email', email, '--caps', opts.caps ?? 'read,write,publish,delete'], store)) as {
        id: string;
        token: string;
      };
      return { id: (created as { id: string }).id, email, token: minted.token, tokenId: minted.id };
    },
    call(method, url, opts = {}) {
      const request: InjectOptions = { method: method as InjectOptions['method'], url, headers: { ...opts.headers } };
      if (opts.token) request.headers!.authorization = `Bearer ${opts.token}`;
      if (opts.body !== undefined) {
        request.payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        request.headers!['content-type'] ??= 'application/json';
      }
      return app.inject(request);
    },
    logs: () => logText,
    apiResponses,
    logged(pattern, timeoutMs = 5000) {
      if (pattern.test(logText)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          pattern,
          resolve: () => {
            clearTimeout(timer);
            logWaiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          logWaiters.delete(waiter);
          reject(new Error(`nothing matching ${pattern} was logged within ${timeoutMs} ms`));
        }, timeoutMs);
        logWaiters.add(waiter);
      });
    },
    async close() {
      await app.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const { mismatches } = apiResponses;
      if (mismatches.length === 1) throw mismatches[0];
      if (mismatches.length > 1) {
        const shown = mismatches.slice(0, 10).map((m) => m.message);
        if (mismatches.length > shown.length) shown.push(`… and ${mismatches.length - shown.length} more`);
        throw new AggregateError(mismatches, `${mismatches.length} API answers did not match the OpenAPI document:\n\n${shown.join('\n\n')}`);
      }
    },
  };
  return harness;
}

/** A minimal valid scene with `n` rectangles. */
export function sceneOf(n: number, extra: Record<string, unknown> = {}) {
  return {
    type: 'excalidraw',
    version: 2,
    elements: Array.from({ length: n }, (_, i) => ({ id: `el-${i}`, type: 'rectangle', x: i * 10, y: 0, width: 100, height: 50, ...extra })),
    appState: { viewBackgroundColor: '#ffffff' },
  };
}
