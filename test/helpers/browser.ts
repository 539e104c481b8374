// Browser tests: Debian's chromium-headless-shell driven by playwright-core. One
// browser per test file, a fresh context (no cookies, no storage) per test, and a
// page that fails its test on anything the browser complains about.
import fs from 'node:fs';
import path from 'node:path';
import { after, before, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * The browser the tests drive: Chromium's headless shell, the same engine as the full browser without its
 * windowing layers, as Playwright's own headless mode uses. It does the same pages' work for half the CPU of
 * Debian's full chromium in its headless mode (test/web/app.browser.test.ts: 19 and 23 core-seconds against
 * 39 and 40, December 2026). The SVG golden images of test/render/golden.test.ts are its pictures: the full
 * browser draws text a shade darker.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
export const INSTALL_HINT = 'install chromium-headless-shell: apt-get install chromium-headless-shell, or run .ci/run (or point CHROMIUM_PATH at a chromium binary)';

/** The screenshots in docs/web/ are taken at this size. */
export const VIEWPORT = { width: 1280, height: 800 };
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../docs/web');

export interface BrowserUnderTest {
  /**
   * A page in a fresh context, watched until the test ends: a console error,
   * an uncaught page error, a crash, or a request to any origin but
   * `baseUrl`'s (aborted before it leaves) fails the test.
   */
  newPage(t: TestContext, baseUrl: string): Promise<WatchedPage>;
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Lets console errors matching `pattern` pass: the line Chromium logs for an expected 401, say. */
  allowConsoleError(pattern: RegExp): void;
  /** What has gone wrong so far; the test fails on these when it ends. */
  problems(): string[];
}

async function launch(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`browser tests need chromium at ${CHROMIUM_PATH}: ${INSTALL_HINT}`);
  try {
    return await chromium.launch({
      executablePath: CHROMIUM_PATH,
      timeout: 30_000,
      // The network is closed: nothing of Chromium's own (updates, sync,
      // safe browsing, QUIC probes) may try to reach out, or slow the tests down.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    throw new Error(`chromium at ${CHROMIUM_PATH} did not start (${INSTALL_HINT}): ${(error as Error).message}`);
  }
}

/**
 * Starts one chromium for the calling test file (in `before`) and closes it in
 * `after`. A browser that cannot start fails each test that asks for a page,
 * with the reason; the hook itself does not throw, because node:test then runs
 * the file's `after` hooks without waiting for its other `before` hooks, and a
 * half-started harness keeps the process alive.
 */
export function useBrowser(): BrowserUnderTest {
  let browser: Browser | undefined;
  let launchError: Error | undefined;
  before(async () => {
    try {
      browser = await launch();
    } catch (error) {
      launchError = error as Error;
    }
  });
  after(async () => {
    await browser?.close();
  });

  return {
    async newPage(t, baseUrl) {
      if (!browser) throw launchError ?? new Error('newPage was called before the browser was launched (call it inside a test)');
      const origin = new URL(baseUrl).origin;
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, serviceWorkers: 'block' });
      const problems: string[] = [];
      const allowed: RegExp[] = [];

      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (new URL(url).origin === origin) return route.continue();
        problems.push(`request to another origin: ${route.request().method()} ${url}`);
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() !== 'error' && message.type() !== 'assert') return;
        const text = message.text();
        if (allowed.some((pattern) => pattern.test(text))) return;
        problems.push(`console ${message.type()} at ${message.location().url || page.url()}: ${text}`);
      });
      page.on('pageerror', (error) => problems.push(`uncaught error in the page: ${error.stack ?? error.message}`));
      page.on('crash', () => problems.push('the page crashed'));

      t.after(async () => {
        await context.close();
        if (problems.length > 0) throw new Error(`the browser reported ${problems.length} problem(s):\n${problems.join('\n')}`);
      });
      return { page, context, allowConsoleError: (pattern) => void allowed.push(pattern), problems: () => [...problems] };
    },
  };
}

/**
 * Screenshots the viewport. It is written to docs/web/<name>.png only when
 * UPDATE_SCREENSHOTS=1, so ordinary runs leave the tree clean; it is taken
 * either way, so a page that cannot be captured fails every run, not only the
 * one that refreshes the docs. The images are for people to look at, never
 * compared: font rendering differs between Chromium builds. Returns the PNG,
 * for a test to look at its pixels.
 */
export async function screenshot(page: Page, name: string): Promise<Buffer> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`screenshot names are lowercase words joined by hyphens, got "${name}"`);
  const image = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    fs.writeFileSync(path.join(SCREENSHOT_DIR, `${name}.png`), image);
  }
  return image;
}

/**
 * The page once it stops changing: the editor draws on a canvas in animation
 * frames and again when its fonts arrive, so the screenshot is taken when two
 * in a row are the same.
 */
export async function settled(page: Page): Promise<Buffer> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  let previous = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  for (let attempt = 0; attempt < 20; attempt++) {
    await sleep(150);
    const current = await page.screenshot({ animations: 'disabled', caret: 'hide' });
    if (current.equals(previous)) return current;
    previous = current;
  }
  throw new Error('the page kept changing for 3 seconds');
}
