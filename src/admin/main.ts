// `bin/drawbridge-admin`: the program with this process's settings, output and exit status.
import { adminProgram } from './program.ts';

process.exitCode = await adminProgram(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
