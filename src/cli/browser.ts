import { spawn } from 'node:child_process';

/**
 * The command that opens `url` in a browser: BROWSER when set (a command, with
 * `%s` standing for the URL, else the URL appended), otherwise the platform's
 * own opener.
 */
function browserCommand(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): [string, string[]] {
  const browser = env.BROWSER?.trim();
  if (browser) {
    const [command, ...args] = browser.split(/\s+/);
    return args.some((a) => a.includes('%s')) ? [command!, args.map((a) => a.replaceAll('%s', url))] : [command!, [...args, url]];
  }
  if (platform === 'darwin') return ['open', [url]];
  // `start` is a cmd built-in; its first quoted argument is the window title.
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}

/**
 * Opens `url` and waits for the opener to exit (xdg-open, open and start
 * return once the browser has the URL). Its output is discarded: standard
 * output belongs to the CLI's own answer. Never throws: resolves false when
 * there is no opener or it failed, so the caller can print the URL instead.
 */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const [command, args] = browserCommand(url, env);
  return new Promise((resolve) => {
    try {
      // cmd parses its own command line: hand it the arguments as built, unquoted by Node.
      const child = spawn(command, args, { stdio: 'ignore', env, windowsVerbatimArguments: command === 'cmd' });
      child.once('error', () => resolve(false));
      child.once('exit', (code) => resolve(code === 0));
    } catch {
      resolve(false);
    }
  });
}
