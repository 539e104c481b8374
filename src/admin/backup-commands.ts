import { Command, CommanderError } from 'commander';
import { BackupError } from '../store/backup/format.ts';
import { restoreDatabase } from '../store/backup/restore.ts';
import { backupDatabase } from '../store/backup/write-backup.ts';
import type { StoreLocation } from '../store/open.ts';
import { AdminError } from './commands.ts';

/** The commands that handle the database as a whole: they open it themselves, without migrating it first. */
export const WHOLE_DATABASE_COMMANDS: readonly string[] = ['backup', 'restore'];

/** Runs `backup` or `restore` against the configured database and returns the JSON object it prints. */
export async function runWholeDatabaseCommand(argv: string[], location: StoreLocation, now: () => Date = () => new Date()): Promise<object> {
  let result: object | undefined;
  const program = new Command('drawbridge-admin')
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} })
    .showSuggestionAfterError(true);
  program
    .command('backup')
    .description('write a consistent backup of the whole database to a new file, while the server runs')
    .requiredOption('--to <file>')
    .action(async (opts: { to: string }) => {
      result = await backupDatabase(location, opts.to, now());
    });
  program
    .command('restore')
    .description('restore a backup into an empty database')
    .requiredOption('--from <file>')
    .option('--keep-schema', "leave the database at the backup's schema version, for an older release to open")
    .action(async (opts: { from: string; keepSchema?: boolean }) => {
      result = await restoreDatabase(location, opts.from, { keepSchema: opts.keepSchema === true });
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    // Anything but a usage mistake is a failed operation: a refusal, a damaged file, an unreachable database, a full disk.
    if (error instanceof CommanderError) throw error;
    throw new AdminError(error instanceof BackupError ? error.message : `${(error as Error).message}`);
  }
  if (result === undefined) throw new CommanderError(2, 'drawbridge.usage', 'no command given; see drawbridge-admin --help');
  return result;
}
