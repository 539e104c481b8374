/** `completion`: the shell completion script of the whole program. */
import { Argument, type Command } from 'commander';
import { COMPLETION_SHELLS, type CompletionShell, completionScript } from '../completion.ts';
import type { CliContext } from '../context.ts';

export function addCompletionCommand(program: Command, ctx: CliContext): void {
  const { stdout, examples } = ctx;
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(COMPLETION_SHELLS))
    .addHelpText(
      'after',
      examples(
        'source <(drawbridge completion bash)                                            # this bash session',
        'drawbridge completion bash > ~/.local/share/bash-completion/completions/drawbridge  # every bash session',
        'drawbridge completion zsh > "${fpath[1]}/_drawbridge"                           # zsh (then restart it)',
        'drawbridge completion fish > ~/.config/fish/completions/drawbridge.fish',
      ),
    )
    .action((shell: CompletionShell) => void stdout.write(completionScript(program, shell)));
}
