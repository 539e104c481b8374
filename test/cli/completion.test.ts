import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../src/cli/program.ts';

/** The completion script the CLI prints for `shell`, written to a temp file. */
async function script(shell: string): Promise<{ file: string; text: string }> {
  let text = '';
  let stderr = '';
  const code = await runCli(['completion', shell], { env: {}, stdout: { write: (s: string) => void (text += s) }, stderr: { write: (s: string) => void (stderr += s) } });
  assert.equal(code, 0, stderr);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-completion-')), `drawbridge.${shell}`);
  fs.writeFileSync(file, text);
  return { file, text };
}

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** The top-level commands and the subcommands of `diagrams`, as the program defines them today. */
const TOP = ['auth', 'me', 'diagrams', 'publish', 'render', 'history', 'diff', 'restore', 'share', 'workspaces', 'completion', 'comments', 'folders', 'icons', 'help'];
const DIAGRAMS = ['list', 'get', 'view', 'create', 'rename', 'move', 'trash', 'restore', 'edit', 'regenerate', 'patch', 'publish', 'source', 'lint', 'render', 'move-to-workspace', 'help'];

describe('bash', () => {
  /** What bash's completion function offers for the words typed, the last one being completed. */
  function complete(file: string, words: string[]): string[] {
    const program = `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _drawbridge; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', file, ...words], { encoding: 'utf8' }).split('\n').filter(Boolean);
  }

  test('completes commands, subcommands, options, option choices and files from the program tree', async () => {
    const { file } = await script('bash');
    assert.deepEqual(complete(file, ['drawbridge', 'dia']), ['diagrams']);
    assert.deepEqual(complete(file, ['drawbridge', '']).sort(), [...TOP].sort());
    assert.deepEqual(complete(file, ['drawbridge', 'diagrams', '']).sort(), [...DIAGRAMS].sort());
    assert.deepEqual(complete(file, ['drawbridge', 'diagrams', 're']).sort(), ['regenerate', 'rename', 'render', 'restore']);
    // a global option before the command and an option's value on the way are skipped over
    assert.deepEqual(complete(file, ['drawbridge', '--quiet', 'diagrams', 'list', '--folder', 'Work', '--st']).sort(), ['--starred']);
    assert.deepEqual(complete(file, ['drawbridge', 'diagrams', 'list', '--filter', '']), ['active', 'trash']);
    assert.deepEqual(complete(file, ['drawbridge', 'render', 'ID', '--quality', 'f']).sort(), ['faithful', 'fast']);
    assert.deepEqual(complete(file, ['drawbridge', 're']).sort(), ['render', 'restore']);
    assert.deepEqual(complete(file, ['drawbridge', 'history', 'ID', '--']).sort(), ['--all', '--cursor', '--help', '--json', '--limit']);
    assert.deepEqual(complete(file, ['drawbridge', 'restore', 'ID', 'r1', '--e']), ['--expected-updated-at']);
    assert.deepEqual(complete(file, ['drawbridge', 'completion', '']), ['bash', 'zsh', 'fish']);
    assert.ok(complete(file, ['drawbridge', 'diagrams', 'create', '-']).includes('--web'));
    // an option taking a file completes paths
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-completion-files-'));
    fs.writeFileSync(path.join(dir, 'flow.json'), '{}');
    assert.deepEqual(complete(file, ['drawbridge', 'diagrams', 'create', '--spec', path.join(dir, 'fl')]), [path.join(dir, 'flow.json')]);
  });
});

describe('zsh', () => {
  test('the script parses, and its function offers the subcommands and option values', { skip: !has('zsh') && 'zsh is not installed' }, async () => {
    const { file, text } = await script('zsh');
    assert.match(text, /^#compdef drawbridge\n/);
    execFileSync('zsh', ['-n', file]);
    // Outside compinit, the completion builtins are stood in for by functions that print what they are given.
    const complete = (words: string[]) => {
      const program = `
        compdef() { : }
        _describe() { local -a list; list=("\${(@P)4}"); print -rl -- "\${list[@]%%:*}" }
        compadd() { shift; print -rl -- "$@" }
        _files() { print -r -- '<files>' }
        source "$1"; shift
        words=("$@"); CURRENT=$#
        _drawbridge`;
      return execFileSync('zsh', ['-f', '-c', program, 'zsh', file, ...words], { encoding: 'utf8' }).split('\n').filter(Boolean);
    };
    assert.ok(complete(['drawbridge', 'dia']).includes('diagrams'));
    assert.deepEqual(complete(['drawbridge', 'diagrams', '']).sort(), [...DIAGRAMS].sort());
    assert.deepEqual(complete(['drawbridge', 'diagrams', 'list', '--filter', '']), ['active', 'trash']);
    assert.deepEqual(complete(['drawbridge', 'diagrams', 'create', '--spec', '']), ['<files>']);
    assert.ok(complete(['drawbridge', 'diagrams', 'list', '--']).includes('--starred'));
  });
});

describe('fish', () => {
  test('the script parses, and fish completes commands, subcommands and option values with it', { skip: !has('fish') && 'fish is not installed' }, async () => {
    const { file } = await script('fish');
    execFileSync('fish', ['--no-config', '-n', file]);
    const complete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', file, line], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]!);
    assert.deepEqual(complete('drawbridge dia'), ['diagrams']);
    assert.deepEqual(complete('drawbridge diagrams ').sort(), [...DIAGRAMS].sort());
    assert.deepEqual(complete('drawbridge --quiet diagrams list --filter ').sort(), ['active', 'trash']);
    assert.ok(complete('drawbridge publish status --').includes('--json'));
  });
});

test('an unknown shell is a usage error naming the choices', async () => {
  let stderr = '';
  const code = await runCli(['completion', 'powershell'], { env: {}, stdout: { write: () => true }, stderr: { write: (s: string) => void (stderr += s) } });
  assert.equal(code, 2);
  assert.match(stderr, /bash, zsh, fish/);
});
