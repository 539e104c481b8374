/**
 * `drawbridge-admin config show`: every setting the server reads (SETTINGS in
 * src/config.ts), its value in effect and whether the environment set it. It
 * needs no database, so it also helps when the database cannot be opened.
 * Secrets never reach the output: a setting named like one (…_TOKEN,
 * …_SECRET, …_PASSWORD) is masked whole, and so is the password of any URL
 * (DATABASE_URL, SMTP_URL), in its user part or a `password` parameter.
 */
import { Command, CommanderError } from 'commander';
import { loadConfig, type SettingName, settingValues } from '../config.ts';
import { AdminError } from './commands.ts';

const MASK = '***';
const SECRET_NAME = /_(TOKEN|SECRET|PASSWORD)$/;
const SECRET_PARAMETER = /pass|secret|token/i;
/** `scheme://user:password@`: the fallback for a URL the URL parser does not take. */
const URL_CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i;

interface ShownSetting {
  value: string | null;
  source: 'default' | 'set';
}

/** The value as `config show` prints it: a secret setting masked whole, a URL's password masked. */
export function maskedValue(name: string, value: string | null): string | null {
  if (value === null) return null;
  if (SECRET_NAME.test(name)) return MASK;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  if (!URL.canParse(value)) return value.replace(URL_CREDENTIALS, `$1:${MASK}@`);
  const url = new URL(value);
  let masked = false;
  if (url.password !== '') {
    url.password = MASK;
    masked = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(key)) {
      url.searchParams.set(key, MASK);
      masked = true;
    }
  }
  return masked ? url.toString() : value;
}

/** Every setting in effect, by name, secrets masked; an invalid setting throws with the line the server would print. */
function showConfig(env: NodeJS.ProcessEnv): Record<SettingName, ShownSetting> {
  try {
    loadConfig(env);
  } catch (error) {
    throw new AdminError((error as Error).message);
  }
  const shown = settingValues(env).map(({ name, value, set }) => [name, { value: maskedValue(name, value), source: set ? 'set' : 'default' }] as const);
  return Object.fromEntries(shown) as Record<SettingName, ShownSetting>;
}

/** Runs `config show` (the admin commands that need no database) and returns the object it prints. */
export async function runConfigCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<object> {
  let result: object | undefined;
  const program = new Command('drawbridge-admin').exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  program
    .command('config')
    .description('the settings in effect')
    .command('show')
    .action(() => {
      result = showConfig(env);
    });
  await program.parseAsync(argv, { from: 'user' }).catch((error: unknown) => {
    // Commander answers `config` alone with its help, which this CLI does not print: say what is missing instead.
    if (error instanceof CommanderError && error.code === 'commander.help') throw new CommanderError(2, 'drawbridge.usage', 'config needs a command: config show');
    throw error;
  });
  if (result === undefined) throw new CommanderError(2, 'drawbridge.usage', 'config needs a command: config show');
  return result;
}
