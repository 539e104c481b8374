/** `auth login|logout|status` and `me`: the credentials the CLI uses, and whose they are. */
import fs from 'node:fs';
import type { Command } from 'commander';
import { DrawbridgeApiError, DrawbridgeClient } from '../../client/client.ts';
import { configPath, DEFAULT_API_URL, readStoredLogin, resolveCredentials, writeStoredLogin } from '../../client/credentials.ts';
import { type CliContext, CliFailure, EXIT, LOGIN_HINT, promptHidden, readAll } from '../context.ts';

export function addAuthCommands(program: Command, ctx: CliContext): void {
  const { io, env, stderr, bold, dim, out, json, client, jsonOpt, examples } = ctx;
  const auth = program.command('auth').description('log in, log out and show which credentials are in use');
  auth
    .command('login')
    .description('validate a token with GET /me and store it (mode 600) for later commands')
    .option('--token <token>', 'the token (otherwise read from standard input, or prompted for without echo)')
    .option('--api-url <url>', 'the API base URL to store with the login (default: SERVICE_API_URL or the stored one)')
    .addHelpText(
      'after',
      `${examples('drawbridge auth login', 'drawbridge auth login --api-url https://drawbridge.example.com --token "$TOKEN"', 'echo "$TOKEN" | drawbridge auth login')}
In scripts and CI, skip the login: set SERVICE_TOKEN (and SERVICE_API_URL) in the environment instead.
`,
    )
    .action(async (opts: { token?: string; apiUrl?: string }) => {
      let token = opts.token;
      if (token === undefined) {
        if (io.stdin?.isTTY) token = await promptHidden(io, 'Paste your Drawbridge token: ');
        else token = await readAll(io.stdin);
      }
      token = token.trim();
      if (!token) throw new CliFailure(EXIT.usage, 'no token given');
      const file = configPath(env);
      const apiUrl = (opts.apiUrl || env.SERVICE_API_URL || readStoredLogin(file)?.apiUrl || DEFAULT_API_URL).replace(/\/+$/, '');
      let identity;
      try {
        identity = await new DrawbridgeClient({ apiUrl, token }).me();
      } catch (error) {
        if (error instanceof DrawbridgeApiError && error.status === 401) throw new CliFailure(EXIT.auth, `The token was refused (${error.message}); nothing was saved.`);
        throw error;
      }
      writeStoredLogin(file, { token, apiUrl });
      out(`Logged in to ${apiUrl} as ${bold(identity.email)} (capabilities: ${identity.capabilities.join(', ')}). Saved to ${file}.`);
      if (env.SERVICE_TOKEN) stderr.write('Note: SERVICE_TOKEN is set in the environment and takes precedence over the stored login.\n');
    });
  auth
    .command('logout')
    .description('remove the stored login')
    .action(() => {
      const file = configPath(env);
      if (fs.existsSync(file)) {
        fs.rmSync(file);
        out(`Removed the stored login (${file}).`);
      } else out('No stored login.');
      if (env.SERVICE_TOKEN) stderr.write('Note: SERVICE_TOKEN is still set in the environment.\n');
    });
  auth
    .command('status')
    .description('show which credential source is in use and whose token it is')
    .addOption(jsonOpt())
    .action(async (opts: { json?: boolean }) => {
      const file = configPath(env);
      const creds = resolveCredentials(env, file);
      if (!creds.token) throw new CliFailure(EXIT.auth, `Not logged in. ${LOGIN_HINT}`);
      const source = creds.source === 'env' ? 'the SERVICE_TOKEN environment variable' : `the stored login (${file})`;
      const identity = await new DrawbridgeClient({ apiUrl: creds.apiUrl, token: creds.token }).me();
      if (opts.json) return json({ source: creds.source, apiUrl: creds.apiUrl, identity });
      out(`Logged in to ${creds.apiUrl} as ${bold(identity.email)}`);
      out(`Token from: ${source}`);
      out(`Capabilities: ${identity.capabilities.join(', ')}`);
    });

  program
    .command('me')
    .description('show the identity and capabilities of the current token')
    .addOption(jsonOpt())
    .action(async (opts: { json?: boolean }) => {
      const me = await client().me();
      if (opts.json) return json(me);
      out(`${bold(me.email)}  ${dim(me.id)}`);
      out(`Capabilities: ${me.capabilities.join(', ')} (scope ${me.scope})`);
    });
}
