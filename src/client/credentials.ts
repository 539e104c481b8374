import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_API_URL = 'http://localhost:8080';

export interface StoredLogin {
  token: string;
  apiUrl?: string;
}

export interface Credentials {
  token: string | null;
  apiUrl: string;
  /** Where the token came from: the SERVICE_TOKEN variable wins over the stored login. */
  source: 'env' | 'config' | 'none';
}

/** `~/.config/drawbridge/config.json`, or under XDG_CONFIG_HOME when set. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'drawbridge', 'config.json');
}

export function readStoredLogin(file: string): StoredLogin | null {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<StoredLogin>;
    return typeof value.token === 'string' && value.token !== '' ? { token: value.token, ...(typeof value.apiUrl === 'string' ? { apiUrl: value.apiUrl } : {}) } : null;
  } catch {
    return null;
  }
}

/** Writes the login with owner-only permissions, atomically (temp file + rename). */
export function writeStoredLogin(file: string, login: StoredLogin): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}

/** The token and base URL a client uses: SERVICE_TOKEN / SERVICE_API_URL first, then the stored login. */
export function resolveCredentials(env: NodeJS.ProcessEnv = process.env, file = configPath(env)): Credentials {
  const stored = readStoredLogin(file);
  const apiUrl = (env.SERVICE_API_URL || stored?.apiUrl || DEFAULT_API_URL).replace(/\/+$/, '');
  if (env.SERVICE_TOKEN) return { token: env.SERVICE_TOKEN, apiUrl, source: 'env' };
  if (stored) return { token: stored.token, apiUrl, source: 'config' };
  return { token: null, apiUrl, source: 'none' };
}
