// The steps browser tests of the editor share: the API as one person, a page
// signed in as them, and the editor of a diagram open with its scene saved.
import type { TestContext } from 'node:test';
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

/** A watched page whose browser is signed in as `userId`, not yet sent anywhere. */
export async function signedInPage(browser: BrowserUnderTest, t: TestContext, h: ListeningHarness, userId: string): Promise<WatchedPage> {
  const watched = await browser.newPage(t, h.baseUrl);
  watched.page.setDefaultTimeout(15_000);
  const [name, value] = (await signIn(h, userId)).cookie.split('=') as [string, string];
  await watched.context.addCookies([{ name, value, url: h.baseUrl }]);
  return watched;
}

/** The editor of diagram `id`, signed in as `userId`, once its canvas is drawn and its scene saved. */
export async function openEditor(browser: BrowserUnderTest, t: TestContext, h: ListeningHarness, userId: string, id: string): Promise<WatchedPage> {
  const watched = await signedInPage(browser, t, h, userId);
  await watched.page.goto(`${h.baseUrl}/app/d/${id}`);
  await watched.page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  await watched.page.locator('.db-topbar [role=status]').filter({ hasText: /^Saved$/ }).waitFor();
  return watched;
}
