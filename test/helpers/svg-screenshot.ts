import type { Browser } from 'playwright-core';

/** The SVG inline in a page 1024 px wide, once every font it embeds has loaded. */
export async function svgAsShown(browser: Browser, svg: string): Promise<Buffer> {
  const viewBox = /viewBox="([^"]*)"/.exec(svg)![1]!.trim().split(/[\s,]+/).map(Number);
  const height = Math.round((1024 * viewBox[3]!) / viewBox[2]!);
  const page = await browser.newPage({ viewport: { width: 1024, height }, deviceScaleFactor: 1 });
  try {
    const sized = svg.replace(/<svg\b[^>]*>/, (root) => root.replace(/\s(width|height)="[^"]*"/g, '').replace('<svg', `<svg width="1024" height="${height}"`));
    await page.setContent(`<!doctype html><html><body style="margin:0">${sized}</body></html>`);
    await page.evaluate(async () => {
      await Promise.all([...document.fonts].map((font) => font.load().catch(() => undefined)));
      await document.fonts.ready;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    });
    return await page.screenshot();
  } finally {
    await page.close();
  }
}
