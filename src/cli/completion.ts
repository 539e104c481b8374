import type { Command } from 'commander';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** One option of one command, as completion needs it. */
interface OptionSpec {
  /** `--long` and `-s` spellings. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** The allowed values, when the option lists them. */
  choices: string[];
  /** The value names a file (`<file>`), so the shell completes paths. */
  file: boolean;
}

/** One command (the program itself has the empty path), with what may follow it. */
interface CommandSpec {
  path: string;
  subcommands: { name: string; description: string }[];
  options: OptionSpec[];
  /** Values of the first argument when it lists them (`completion <shell>`). */
  argumentChoices: string[];
}

/**
 * Reads the command tree, so the scripts name exactly the commands and
 * options the program has: a command added later completes with no change here.
 */
function commandSpecs(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const visit = (cmd: Command, path: string) => {
    const help = cmd.createHelp();
    const children = help.visibleCommands(cmd);
    specs.push({
      path,
      subcommands: children.map((child) => ({ name: child.name(), description: child.description() })),
      options: help.visibleOptions(cmd).map((option) => ({
        names: [option.long, option.short].filter((name): name is string => Boolean(name)),
        description: option.description,
        takesValue: option.required || option.optional,
        choices: option.argChoices ?? [],
        file: /[<[](file|dir)[>\]]/.test(option.flags),
      })),
      argumentChoices: cmd.registeredArguments[0]?.argChoices ?? [],
    });
    // The implicit `help` command takes command names, not options of its own worth completing.
    for (const child of children) if (child.name() !== 'help') visit(child, path ? `${path} ${child.name()}` : child.name());
  };
  visit(program, '');
  return specs;
}

/** The completion script for `shell`, for the program named `program.name()`. */
export function completionScript(program: Command, shell: CompletionShell): string {
  const specs = commandSpecs(program);
  const name = program.name();
  const fn = `_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  if (shell === 'bash') return bashScript(name, fn, specs);
  if (shell === 'zsh') return zshScript(name, fn, specs);
  return fishScript(name, fn, specs);
}

/** Single-quoted for bash, zsh and fish alike (fish takes `\'` inside single quotes, the others end and reopen). */
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function valueOptions(specs: CommandSpec[]): string[] {
  return specs.flatMap((spec) => spec.options.filter((o) => o.takesValue).flatMap((o) => o.names.map((n) => `${spec.path}|${n}`)));
}

/**
 * Shell functions bash and zsh share: `FN_path WORDS…` prints the command path
 * the typed words reach (option values skipped), `FN_takes_value 'path|--opt'`
 * says whether that option consumes the next word.
 */
function shellHelpers(fn: string, specs: CommandSpec[]): string {
  const commands = specs.filter((s) => s.path).map((s) => sq(s.path));
  return `${fn}_path() {
  local cmdpath='' skip=0 word next
  for word in "$@"; do
    if [[ $skip == 1 ]]; then skip=0; continue; fi
    case "$word" in
      -*=*) continue ;;
      -*) ${fn}_takes_value "$cmdpath|$word" && skip=1; continue ;;
    esac
    next="\${cmdpath:+$cmdpath }$word"
    ${fn}_is_command "$next" && cmdpath="$next"
  done
  printf '%s' "$cmdpath"
}

${fn}_is_command() {
  case "$1" in
    ${commands.join('|') || "''"}) return 0 ;;
  esac
  return 1
}

${fn}_takes_value() {
  case "$1" in
    ${valueOptions(specs).map(sq).join('|') || "''"}) return 0 ;;
  esac
  return 1
}`;
}

function bashScript(name: string, fn: string, specs: CommandSpec[]): string {
  const words = specs.map((s) => `    ${sq(s.path)}) words=${sq([...s.subcommands.map((c) => c.name), ...s.argumentChoices].join(' '))} ;;`);
  const options = specs.map((s) => `    ${sq(s.path)}) words=${sq(s.options.flatMap((o) => o.names).join(' '))} ;;`);
  const values = specs.flatMap((s) =>
    s.options
      .filter((o) => o.takesValue && (o.choices.length > 0 || o.file))
      .map((o) => `    ${o.names.map((n) => sq(`${s.path}|${n}`)).join('|')}) ${o.file ? 'echo file' : `echo ${sq(`words ${o.choices.join(' ')}`)}`} ;;`),
  );
  return `# bash completion for ${name}, generated from its commands by \`${name} completion bash\`.
# Load it in the current shell:   source <(${name} completion bash)
# or for every shell:             ${name} completion bash > ~/.local/share/bash-completion/completions/${name}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local cmdpath words=''
  cmdpath="$(${fn}_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  if [[ $COMP_CWORD -gt 1 && $prev == -* && $prev != *=* ]] && ${fn}_takes_value "$cmdpath|$prev"; then
    local value
    value="$(${fn}_value "$cmdpath|$prev")"
    case "$value" in
      file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
      words\\ *) COMPREPLY=($(compgen -W "\${value#words }" -- "$cur")) ;;
      *) COMPREPLY=() ;;
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    case "$cmdpath" in
${options.join('\n')}
    esac
  else
    case "$cmdpath" in
${words.join('\n')}
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  return 0
}

${shellHelpers(fn, specs)}

${fn}_value() {
  case "$1" in
${values.join('\n')}
  esac
}

complete -F ${fn} ${name}
`;
}

/** `name:description` for zsh's _describe, colons in the name escaped. */
const zshItem = (name: string, description: string) => sq(`${name.replace(/:/g, '\\:')}:${oneLine(description)}`);

function zshScript(name: string, fn: string, specs: CommandSpec[]): string {
  const words = specs.map(
    (s) => `    ${sq(s.path)}) items=(${[...s.subcommands.map((c) => zshItem(c.name, c.description)), ...s.argumentChoices.map((c) => zshItem(c, ''))].join(' ')}) ;;`,
  );
  const options = specs.map((s) => `    ${sq(s.path)}) items=(${s.options.flatMap((o) => o.names.map((n) => zshItem(n, o.description))).join(' ')}) ;;`);
  const values = specs.flatMap((s) =>
    s.options
      .filter((o) => o.takesValue && (o.choices.length > 0 || o.file))
      .map((o) => `    ${o.names.map((n) => sq(`${s.path}|${n}`)).join('|')}) ${o.file ? '_files' : `compadd -- ${o.choices.map(sq).join(' ')}`}; return ;;`),
  );
  return `#compdef ${name}
# zsh completion for ${name}, generated from its commands by \`${name} completion zsh\`.
# Load it in the current shell:   source <(${name} completion zsh)
# or for every shell:             ${name} completion zsh > "\${fpath[1]}/_${name}"

${fn}() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  local cmdpath
  cmdpath="$(${fn}_path "\${(@)words[2,CURRENT-1]}")"
  local -a items
  if (( CURRENT > 2 )) && [[ $prev == -* && $prev != *=* ]] && ${fn}_takes_value "$cmdpath|$prev"; then
    case "$cmdpath|$prev" in
${values.join('\n')}
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    case "$cmdpath" in
${options.join('\n')}
    esac
    _describe -t options 'option' items
  else
    case "$cmdpath" in
${words.join('\n')}
    esac
    _describe -t commands 'command' items
  fi
}

${shellHelpers(fn, specs)}

if [[ "\${funcstack[1]}" == "${fn}" ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${name}
fi
`;
}

function fishScript(name: string, fn: string, specs: CommandSpec[]): string {
  const f = `__${fn.replace(/^_+/, '')}`;
  const lines: string[] = [];
  for (const spec of specs) {
    const at = `-n ${fishQuote(`${f}_at ${fishQuote(spec.path)}`)}`;
    for (const sub of spec.subcommands) lines.push(`complete -c ${name} ${at} -a ${fishQuote(sub.name)} -d ${fishQuote(oneLine(sub.description))}`);
    for (const choice of spec.argumentChoices) lines.push(`complete -c ${name} ${at} -a ${fishQuote(choice)}`);
    for (const option of spec.options) {
      const names = option.names.map((n) => (n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`)).join(' ');
      const value = !option.takesValue ? '' : option.file ? ' -r -F' : option.choices.length ? ` -x -a ${fishQuote(option.choices.join(' '))}` : ' -x';
      lines.push(`complete -c ${name} ${at} ${names}${value} -d ${fishQuote(oneLine(option.description))}`);
    }
  }
  return `# fish completion for ${name}, generated from its commands by \`${name} completion fish\`.
# Load it in the current shell:   ${name} completion fish | source
# or for every shell:             ${name} completion fish > ~/.config/fish/completions/${name}.fish

set -g ${f}_commands ${specs
    .filter((s) => s.path)
    .map((s) => fishQuote(s.path))
    .join(' ')}
set -g ${f}_value_options ${valueOptions(specs).map(fishQuote).join(' ')}

function ${f}_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath ''
    set -l skip 0
    for word in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if string match -q -- '-*=*' $word
            continue
        else if string match -q -- '-*' $word
            if contains -- "$cmdpath|$word" $${f}_value_options
                set skip 1
            end
            continue
        end
        set -l next (string trim -- "$cmdpath $word")
        if contains -- $next $${f}_commands
            set cmdpath $next
        end
    end
    echo $cmdpath
end

function ${f}_at
    set -l cmdpath (${f}_path)
    test "$cmdpath" = "$argv[1]"
end

complete -c ${name} -f
${lines.join('\n')}
`;
}
