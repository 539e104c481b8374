/**
 * The peer `npm run bench:render` compares Drawbridge's faithful renders with:
 * the editor's own exporter in a warm headless Chromium page, the way a
 * self-hoster could serve renders by keeping one page open. Debian's chromium
 * through playwright-core, launched as the browser tests launch it; the page
 * loads an esbuild bundle of bench/peer/exporter-page.ts (the editor's
 * exportToSvg and exportToBlob) from a local HTTP server that also serves the
 * editor's fonts where the bundle looks for them.
 *
 * A render's time is what such a service would spend on it: page.evaluate of
 * the export on the stored elements, until the bytes are back in Node.
 * Chromium runs at the priority of Drawbridge's render workers (nice 10), so
 * on a busy machine neither side is favoured by the scheduler.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { type Browser, chromium, type Page } from 'playwright-core';
import { editorFontsDirectory } from '../src/render/editor-fonts.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CONTENT_TYPES: Readonly<Record<string, string>> = { '.js': 'text/javascript', '.html': 'text/html', '.woff2': 'font/woff2', '.wasm': 'application/wasm' };

export interface ChromiumPeer {
  /** The editor's exportToSvg in the page: the SVG's text, with the fonts it uses embedded (as Drawbridge's). */
  svg(elements: readonly unknown[], files?: Record<string, unknown>): Promise<string>;
  /** The same without embedding the fonts (skipInliningFonts): for reference, not what Drawbridge serves. */
  svgUnembedded(elements: readonly unknown[]): Promise<string>;
  /** The editor's exportToBlob in the page: a PNG `width` pixels wide; `files`: the scene's image files (none by default). */
  png(elements: readonly unknown[], width: number, files?: Record<string, unknown>): Promise<Buffer>;
  /** The time the warm page's last export took inside the page (ms): without sending the elements in and the bytes out. */
  lastInPageMs(): Promise<number>;
  /** One export in a page opened for it in the warm browser, and closed after: a service that opens a page per render. */
  inNewPage(elements: readonly unknown[], format: 'svg' | 'png', width: number): Promise<Buffer>;
  /** One export in a browser launched for it, and closed after: a service that launches a browser per render. */
  inNewBrowser(elements: readonly unknown[], format: 'svg' | 'png', width: number): Promise<Buffer>;
  close(): Promise<void>;
}

/** Opens the exporter's page in `browser`, ready to export. */
async function openPage(browser: Browser, base: string): Promise<{ page: Page; errors: string[] }> {
  const page: Page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(base);
  await page.waitForFunction(() => typeof window.peerExport === 'function');
  return { page, errors };
}

/** One export in `page`: the SVG's text or the PNG, as bytes. */
async function exportIn(page: Page, elements: readonly unknown[], format: 'svg' | 'png', width: number): Promise<Buffer> {
  const out = await page.evaluate(([stored, f, w]) => window.peerExport(stored, f, w), [elements, format, width] as const);
  return format === 'png' ? Buffer.from(out, 'base64') : Buffer.from(out, 'utf8');
}

/** Bundles the page's exporter as the web app bundles the editor (ES modules, split: the font subsetting worker is a chunk). */
async function buildPage(directory: string): Promise<void> {
  await esbuild.build({
    entryPoints: [{ in: path.join(ROOT, 'bench/peer/exporter-page.ts'), out: 'exporter' }],
    absWorkingDir: ROOT,
    outdir: directory,
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    minify: true,
    tsconfigRaw: {},
    conditions: ['production'],
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.woff2': 'file' },
    logLevel: 'silent',
  });
  fs.writeFileSync(path.join(directory, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><script type="module" src="exporter.js"></script></head><body></body></html>');
}

/** Serves the bundle, and the editor's fonts under fonts/ (where EXCALIDRAW_ASSET_PATH points the editor). */
function serve(directory: string): Promise<{ server: http.Server; base: string }> {
  const fonts = editorFontsDirectory();
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url ?? '/', 'http://peer').pathname).replace(/^\/+/, '') || 'index.html';
    const file = name.startsWith('fonts/') ? path.join(fonts, name.slice('fonts/'.length)) : path.join(directory, name);
    const within = name.startsWith('fonts/') ? fonts : directory;
    if (!file.startsWith(within + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'public, max-age=31536000, immutable' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })));
}

async function launch(directory: string, nice: number, executable: string): Promise<Browser> {
  if (!fs.existsSync(executable)) throw new Error(`the warm-browser peer needs chromium at ${executable} (apt-get install chromium, or point CHROMIUM_PATH at one)`);
  // Chromium's processes inherit the priority of the one playwright starts.
  const niced = path.join(directory, 'chromium-niced.sh');
  fs.writeFileSync(niced, `#!/bin/sh\nexec nice -n ${nice} ${JSON.stringify(executable)} "$@"\n`, { mode: 0o755 });
  return chromium.launch({
    executablePath: niced,
    timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Starts the peer at priority `nice`: builds the page, opens it, and exports
 * `warmWith` once each way so the page is warm (fonts fetched, code compiled).
 */
export async function startChromiumPeer(warmWith: readonly unknown[], pngWidth: number, nice: number, executable = CHROMIUM_PATH): Promise<ChromiumPeer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-peer-'));
  let server: http.Server | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    fs.rmSync(directory, { recursive: true, force: true });
  };
  try {
    await buildPage(directory);
    let base: string;
    ({ server, base } = await serve(directory));
    browser = await launch(directory, nice, executable);
    const warm = browser;
    const { page, errors } = await openPage(warm, base);
    const inNewPage = async (elements: readonly unknown[], format: 'svg' | 'png', width: number) => {
      const fresh = await openPage(warm, base);
      try {
        return await exportIn(fresh.page, elements, format, width);
      } finally {
        await fresh.page.close();
      }
    };
    const inNewBrowser = async (elements: readonly unknown[], format: 'svg' | 'png', width: number) => {
      const launched = await launch(directory, nice, executable);
      try {
        return await exportIn((await openPage(launched, base)).page, elements, format, width);
      } finally {
        await launched.close();
      }
    };
    const svg = (elements: readonly unknown[], files?: Record<string, unknown>) => page.evaluate(([stored, f]) => window.peerExport(stored, 'svg', 0, f), [elements, files ?? null] as const);
    const svgUnembedded = (elements: readonly unknown[]) => page.evaluate(([stored]) => window.peerExport(stored, 'svg-unembedded', 0), [elements] as const);
    const png = async (elements: readonly unknown[], width: number, files?: Record<string, unknown>) =>
      Buffer.from(await page.evaluate(([stored, w, f]) => window.peerExport(stored, 'png', w, f), [elements, width, files ?? null] as const), 'base64');
    await svg(warmWith);
    await svgUnembedded(warmWith);
    await png(warmWith, pngWidth);
    if (errors.length > 0) throw new Error(`the peer page failed: ${errors.join('; ')}`);
    const lastInPageMs = () => page.evaluate(() => window.peerLastMs);
    return { svg, svgUnembedded, png, lastInPageMs, inNewPage, inNewBrowser, close };
  } catch (error) {
    await close();
    throw error;
  }
}
