import { CommanderError } from 'commander';
import { loadConfig } from '../config.ts';
import { openStore } from '../store/open.ts';
import type { SqlStore } from '../store/sql-store.ts';
import { runWholeDatabaseCommand, WHOLE_DATABASE_COMMANDS } from './backup-commands.ts';
import { AdminError, runAdminCommand } from './commands.ts';
import { runConfigCommand } from './config-show.ts';

/** Where a run of the program reads its settings and writes its answer: the process's own, in `bin/drawbridge-admin`. */
export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `bin/drawbridge-admin`: one JSON object on stdout and exit status 0, or one line on stderr and a non-zero status. */
export async function adminProgram(argv: string[], io: AdminIo): Promise<number> {
  const wantsHelp = argv.length === 0 || argv.includes('--help') || argv.includes('-h');
  if (wantsHelp) {
    io.stdout(HELP);
    return argv.length === 0 ? 2 : 0;
  }
  // `config` needs no database: it works when the database cannot be opened.
  if (argv[0] === 'config') return printed(io, () => runConfigCommand(argv, io.env));
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    io.stderr(`drawbridge-admin: ${(error as Error).message}\n`);
    return 1;
  }
  if (WHOLE_DATABASE_COMMANDS.includes(argv[0]!)) return printed(io, () => runWholeDatabaseCommand(argv, config));
  let store: SqlStore;
  try {
    store = await openStore(config);
  } catch (error) {
    io.stderr(`drawbridge-admin: cannot open the database: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    return await printed(io, () => runAdminCommand(argv, store, () => new Date(), config));
  } finally {
    await store.close();
  }
}

/** Prints the command's JSON object and returns 0, or prints its failure on one line and returns the exit status. */
async function printed(io: AdminIo, command: () => Promise<object>): Promise<number> {
  try {
    io.stdout(`${JSON.stringify(await command())}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof CommanderError ? error.message.replace(/^error: /, '') : (error as Error).message;
    io.stderr(`drawbridge-admin: ${message}\n`);
    return error instanceof CommanderError || !(error instanceof AdminError) ? 2 : 1;
  }
}

const HELP = `Usage: drawbridge-admin <command> [options]

Talks to the database directly (DATA_DIR / DATABASE_URL, as the server).
Prints one JSON object on success; one line on stderr and a non-zero exit on failure.

  user create --email E [--unverified] [--quota N|unlimited]
  user verify --email E
  user set-quota --email E --quota N|unlimited
  token mint --email E --caps read,write,publish,delete [--expires-in 30d | --expires-at ISO] [--name NAME]
  token revoke --id TOKEN_ID
  token list --email E
  workspace create --name N --owner E
  workspace add-member --workspace W --email E --role viewer|editor|admin
  diagram share --id D --email E --role viewer|editor
  diagram set-workspace --id D --workspace W|none
  api disable | api enable
  config show           the settings in effect (secrets masked); needs no database
  backup --to FILE      a consistent backup of the whole database, taken while the server runs
                        (gzipped JSON lines; written to FILE.partial, then renamed)
  restore --from FILE [--keep-schema]
                        into an empty database only; then migrates to this release's schema
                        (--keep-schema: stays at the backup's, for the older release that wrote it)
`;

