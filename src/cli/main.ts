import { exitQuietlyOnBrokenPipe } from './pipes.ts';
import { runCli } from './program.ts';

exitQuietlyOnBrokenPipe(process);
const code = await runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
process.exitCode = code;
