// The steps browser tests of the editor share: the API as one person, a page
// signed in as them, and the editor of a diagram open with its scene saved.
import type { TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import type { BrowserUnderTest, WatchedPage } from './browser.ts';
import type { ListeningHarness } from './harness.ts';
import { signIn } from './web-session.ts';

/** The REST API as the holder of `token`: status and JSON body. */
export function apiAs(h: ListeningHarness, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const response = await fetch(`${h.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: await response.json() };
  };
}

/** A watched page (at `viewport`, if given) whose browser is signed in as `userId`, or no one for null, not yet sent anywhere. */
export async function signedInPage(
  browser: BrowserUnderTest,
  t: TestContext,
  h: ListeningHarness,
  userId: string | null,
  viewport?: { width: number; height: number },
): Promise<WatchedPage> {
  const watched = await browser.newPage(t, h.baseUrl);
  watched.page.setDefaultTimeout(15_000);
  if (viewport) await watched.page.setViewportSize(viewport);
  if (userId !== null) {
    const [name, value] = (await signIn(h, userId)).cookie.split('=') as [string, string];
    await watched.context.addCookies([{ name, value, url: h.baseUrl }]);
  }
  return watched;
}

/** Sends a signed-in page to the editor of diagram `id` and waits until its canvas is drawn and its scene saved. */
export async function showEditor(page: Page, baseUrl: string, id: string): Promise<void> {
  await page.goto(`${baseUrl}/app/d/${id}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  await page.locator('.db-topbar [role=status]').filter({ hasText: /^Saved$/ }).waitFor();
}

/** The editor of diagram `id`, signed in as `userId`, once its canvas is drawn and its scene saved. */
export async function openEditor(browser: BrowserUnderTest, t: TestContext, h: ListeningHarness, userId: string, id: string): Promise<WatchedPage> {
  const watched = await signedInPage(browser, t, h, userId);
  await showEditor(watched.page, h.baseUrl, id);
  return watched;
}
