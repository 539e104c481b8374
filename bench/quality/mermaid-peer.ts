/**
 * Mermaid's own picture of a Mermaid source, for the gallery: Mermaid's
 * renderer (the `mermaid` package's browser bundle, the one GitHub's renderer
 * is built on) in headless Chromium, the SVG it draws screenshotted to PNG.
 * Kept out of the server: it is the peer the gallery compares against.
 * Needs Debian's chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface MermaidPeer {
  /** Mermaid's drawing of `text` as PNG, at most `width` px wide (scaled down, never up). */
  png(text: string, width: number): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startMermaidPeer(): Promise<MermaidPeer> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Mermaid's renderer runs in chromium, expected at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const bundle = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const page: Page = await browser.newPage({ viewport: { width: 2400, height: 1600 } });
  await page.setContent('<!doctype html><html><body style="margin:0;background:#fff"><div id="out" style="display:inline-block;padding:16px"></div></body></html>');
  await page.addScriptTag({ path: bundle });
  await page.evaluate(() => (window as any).mermaid.initialize({ startOnLoad: false, theme: 'default', securityLevel: 'strict' }));
  let sequence = 0;
  return {
    async png(text, width) {
      const id = `m${++sequence}`;
      await page.evaluate(
        async ([source, name, most]) => {
          const out = document.getElementById('out')!;
          const { svg } = await (window as any).mermaid.render(name, source);
          out.innerHTML = svg;
          const drawn = out.querySelector('svg')!;
          // Mermaid sizes its SVG to the container; fix it to its natural width, no wider than asked.
          const natural = drawn.viewBox.baseVal.width || drawn.getBoundingClientRect().width;
          drawn.style.maxWidth = 'none';
          drawn.setAttribute('width', String(Math.min(natural, most)));
          drawn.removeAttribute('height');
        },
        [text, id, width] as const,
      );
      return page.locator('#out').screenshot({ type: 'png' });
    },
    async close() {
      await browser.close();
    },
  };
}
