/** What a broken pipe needs of a process: its output streams and a way to end it. */
export interface PipedProcess {
  stdout: NodeJS.EventEmitter;
  stderr: NodeJS.EventEmitter;
  exit(code: number): never;
}

/**
 * Makes the CLI safe at the head of a pipe (`drawbridge diagrams list --all | head -1`).
 *
 * When the reader of standard output goes away the next write fails with
 * EPIPE, emitted as an 'error' event that would otherwise crash the process
 * with a stack trace. The reader has all it wanted, so the process ends at
 * once with exit 0, as `cat` or `gh` do. A broken standard error loses only
 * messages: it is ignored, and the command ends with its own exit code.
 * Any other stream error is not a pipe closing and is thrown as before.
 */
export function exitQuietlyOnBrokenPipe(proc: PipedProcess): void {
  const isBrokenPipe = (error: NodeJS.ErrnoException) => error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
  proc.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (isBrokenPipe(error)) proc.exit(0);
    throw error;
  });
  proc.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!isBrokenPipe(error)) throw error;
  });
}
