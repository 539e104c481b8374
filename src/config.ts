import path from 'node:path';

/** Server settings, read once from the environment (CONTRACT.md §1). */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  rateLimitReadPerMin: number;
  rateLimitWritePerMin: number;
  renderFaithful: boolean;
  logLevel: string;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = positiveInt('PORT', env.PORT, 8080);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (unset it to use the embedded SQLite database)');
  }
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    rateLimitReadPerMin: positiveInt('RATE_LIMIT_READ_PER_MIN', env.RATE_LIMIT_READ_PER_MIN, 120),
    rateLimitWritePerMin: positiveInt('RATE_LIMIT_WRITE_PER_MIN', env.RATE_LIMIT_WRITE_PER_MIN, 30),
    renderFaithful: (env.RENDER_FAITHFUL || 'on') !== 'off',
    logLevel: env.LOG_LEVEL || 'info',
  };
}
