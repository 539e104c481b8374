import { Command, CommanderError } from 'commander';
import { DrawbridgeApiError } from '../client/client.ts';
import { configPath, resolveCredentials } from '../client/credentials.ts';
import { addAuthCommands } from './commands/auth.ts';
import { addCommentCommands } from './commands/comments.ts';
import { addCompletionCommand } from './commands/completion.ts';
import { addDiagramCommands } from './commands/diagrams.ts';
import { addFolderCommands } from './commands/folders.ts';
import { addHistoryCommands } from './commands/history.ts';
import { addIconCommands } from './commands/icons.ts';
import { addPublishCommands } from './commands/publish.ts';
import { addRenderCommands } from './commands/render.ts';
import { addSharingCommands } from './commands/sharing.ts';
import { CliFailure, type CliIo, cliContext, ENVIRONMENT_HELP, examples, EXIT, LOGIN_HINT } from './context.ts';

export type { CliIo } from './context.ts';

/** Runs one command line of the `drawbridge` CLI; resolves to its exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const { env, stdout, stderr } = io;
  const program = new Command('drawbridge');
  const ctx = cliContext(io, program);
  program
    .description('Command-line client for the Drawbridge diagram API')
    .version('0.1.0', '-V, --version')
    .option('--quiet', 'no progress on standard error (it is shown only on a terminal anyway)')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => void stdout.write(s),
      writeErr: (s) => void stderr.write(s),
      outputError: (s, write) => write(ctx.errColour ? `\u001b[31m${s}\u001b[0m` : s),
    });
  program.addHelpText(
    'after',
    `${examples(
      'drawbridge auth login',
      'drawbridge diagrams create --spec flow.json --title "Checkout flow" --folder Architecture --web',
      'drawbridge diagrams list --search checkout --folder Architecture',
      'drawbridge diagrams list --all --json | jq -r \'.items[].id\'',
      'drawbridge render ID -o flow.png',
      'drawbridge history ID',
      'drawbridge publish status ID',
      'source <(drawbridge completion bash)',
    )}${ENVIRONMENT_HELP}
Exit codes: 0 ok, 1 the API refused or could not be reached, 2 usage error, 3 not logged in or token refused.
Output to a closed pipe (\`| head\`) ends the command quietly with exit 0.
`,
  );

  // The order the commands are added in is the order --help lists them.
  addAuthCommands(program, ctx);
  const diagrams = addDiagramCommands(program, ctx);
  addPublishCommands(program, ctx);
  addRenderCommands(program, diagrams, ctx);
  addHistoryCommands(program, ctx);
  addSharingCommands(program, diagrams, ctx);
  addCompletionCommand(program, ctx);
  addCommentCommands(program, ctx);
  addFolderCommands(program, ctx);
  addIconCommands(program, ctx);

  for (const cmd of [program, ...allCommands(program)]) cmd.exitOverride().configureOutput(program.configureOutput());

  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    const fail = (code: number, message: string) => {
      stderr.write(`${ctx.errColour ? `\u001b[31merror:\u001b[0m` : 'error:'} ${message}\n`);
      return code;
    };
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliFailure) return fail(error.exitCode, error.message);
    if (error instanceof DrawbridgeApiError) {
      const rid = error.requestId ? ` (request ${error.requestId})` : '';
      if (error.status === 401) return fail(EXIT.auth, `${error.message} [${error.code}]. ${LOGIN_HINT}`);
      if (error.code === 'insufficient_scope') {
        const cap = /"([a-z]+)" capability/.exec(error.message)?.[1];
        const mint = cap ? `a token that includes "${cap}" (e.g. drawbridge-admin token mint --email YOU --caps read,write,${cap})` : 'a token with that capability (drawbridge-admin token mint --caps …)';
        return fail(EXIT.api, `${error.message} [insufficient_scope]. Ask for ${mint}, then log in with it.${rid}`);
      }
      return fail(EXIT.api, `${error.message} [${error.code}, HTTP ${error.status}]${rid}`);
    }
    if (error instanceof TypeError && /fetch failed/.test(error.message)) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      return fail(EXIT.api, `cannot reach the API at ${resolveCredentials(env, configPath(env)).apiUrl}${cause ? `: ${cause}` : ''}`);
    }
    return fail(EXIT.api, (error as Error)?.message ?? String(error));
  }
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}
