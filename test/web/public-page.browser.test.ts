import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { screenshot, useBrowser, VIEWPORT } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness, type TestUser } from '../helpers/harness.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: TestUser;
before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user();
});
after(() => h?.close());

const SPEC = {
  version: '1',
  layout: { direction: 'LR' },
  nodes: [
    { id: 'user', label: 'Shopper', shape: 'ellipse', icon: 'icon-user' },
    { id: 'web', label: 'Web app' },
    { id: 'api', label: 'Orders API', icon: 'icon-nodejs' },
    { id: 'db', label: 'Orders DB', icon: 'icon-postgresql', backgroundColor: '#e7f5ff' },
  ],
  edges: ['user -> web', 'web -> api : HTTPS', { from: 'api', to: 'db', label: 'SQL', style: 'dashed' }],
};

/** How many pixels inside `box` of a screenshot are clearly not white. */
function inkedPixels(png: Buffer, box: { x: number; y: number; width: number; height: number }): number {
  const image = PNG.sync.read(png);
  let count = 0;
  for (let y = Math.floor(box.y); y < Math.min(image.height, box.y + box.height); y++) {
    for (let x = Math.floor(box.x); x < Math.min(image.width, box.x + box.width); x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i]! + image.data[i + 1]! + image.data[i + 2]! < 600) count++;
    }
  }
  return count;
}

test(
  'a stranger opens a password-protected public page: the form, a wrong password refused, then the diagram full-screen and nothing of the owner',
  { timeout: 120_000 },
  async (t) => {
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Checkout flow', spec: SPEC } });
    assert.equal(created.statusCode, 201, created.body);
    const link = await h.call('PUT', `/api/v1/diagrams/${created.json().id}/public-link`, {
      token: owner.token,
      body: { enabled: true, password: 'correct horse' },
    });
    assert.equal(link.statusCode, 200, link.body);
    const url = link.json().url as string;
    assert.ok(url.startsWith(`${h.baseUrl}/p/`), `the public link is built from PUBLIC_URL: ${url}`);

    const { page, context, allowConsoleError, problems } = await browser.newPage(t, h.baseUrl);
    const form = await page.goto(url);
    assert.equal(form?.status(), 200);
    const password = page.getByLabel('Password');
    assert.ok(await password.isVisible(), 'the password form is shown');
    assert.equal(await page.locator('img.diagram').count(), 0, 'no diagram before the password');
    assert.ok(!(await page.content()).includes('Orders API'), 'nothing of the diagram before the password');

    // Chromium logs every 4xx document as a console error; this 401 is the point of the step.
    allowConsoleError(/status of 401/);
    await password.fill('wrong');
    const [refused] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'View' }).click()]);
    assert.equal(refused.status(), 401);
    await page.locator('.error').waitFor();
    assert.equal(await page.locator('.error').textContent(), 'That password is not right.');
    assert.equal(await page.locator('img.diagram').count(), 0);

    await page.getByLabel('Password').fill('correct horse');
    // This answer carries the diagram rendered on the server (the renderer's first run, in a fresh worker): on a loaded machine it outlasts 30 s.
    const [shown] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 60_000 }), page.getByRole('button', { name: 'View' }).click({ timeout: 60_000 })]);
    assert.equal(shown.status(), 200);
    const csp = shown.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self';/, 'only the page\'s own viewer script may run: nothing inline, nothing from elsewhere');

    const diagram = page.locator('img.diagram');
    await diagram.waitFor({ state: 'visible' });
    const decoded = await diagram.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight };
    });
    assert.ok(decoded.naturalWidth > 0 && decoded.naturalHeight > 0, `the data: SVG decoded: ${JSON.stringify(decoded)}`);
    await page.locator('main.stage.viewing').waitFor();
    const box = await diagram.boundingBox();
    assert.ok(box, 'the diagram has a box');
    assert.ok(box.width >= VIEWPORT.width * 0.9 || box.height >= (VIEWPORT.height - 60) * 0.9, `the diagram fills the window one way: ${JSON.stringify(box)}`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Checkout flow');
    assert.ok(await page.getByRole('listitem').filter({ hasText: 'Orders API' }).count(), "the diagram's text is there for screen readers");

    const html = await page.content();
    assert.ok(!html.includes(owner.email) && !html.includes(owner.id), 'nothing of the owner is on the page');
    assert.deepEqual(await context.cookies(), [], 'the public page sets no cookie');

    const image = await screenshot(page, 'public-page');
    assert.ok(inkedPixels(image, box) > 1000, 'the diagram is painted, not just laid out');
    assert.deepEqual(problems(), [], 'no console errors, CSP violations or outside requests on the way');

    // The policy in force really refuses inline script: a script element added
    // to the page does not run, and Chromium reports the violation.
    allowConsoleError(/(Refused to execute|Executing) inline script/);
    const probe = await page.evaluate(async () => {
      const violation = new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
        setTimeout(() => resolve('none reported'), 2000);
      });
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inlineScriptRan = "yes"';
      document.head.append(script);
      return { ran: document.body.dataset.inlineScriptRan === 'yes', directive: await violation };
    });
    assert.deepEqual(probe, { ran: false, directive: 'script-src-elem' });
  },
);

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`a public page to read at ${viewport.width} px: zoom with the buttons and the wheel, pan by dragging${viewport.width < 600 ? ', pan and pinch by touch' : ''}, fit to the width, and download PNG, SVG and PDF`, { timeout: 120_000 }, async (t) => {
    const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Checkout flow', spec: SPEC } });
    assert.equal(created.statusCode, 201, created.body);
    const link = await h.call('PUT', `/api/v1/diagrams/${created.json().id}/public-link`, { token: owner.token, body: { enabled: true } });
    const url = link.json().url as string;
    const { page, context, problems } = await browser.newPage(t, h.baseUrl);
    await page.setViewportSize(viewport);
    await page.goto(url, { timeout: 60_000 });
    const stage = page.locator('main.stage.viewing');
    await stage.waitFor({ timeout: 60_000 });
    const diagram = page.locator('img.diagram');
    const width = async () => (await diagram.boundingBox())!.width;
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    // The diagram's words are in the page, not only in the image: for screen readers and search.
    const text = (await page.locator('section:has(> h2:text-is("Text in this diagram"))').textContent()) ?? '';
    for (const node of SPEC.nodes) assert.ok(text.includes(node.label), `"${node.label}" is in the page's text`);
    assert.ok(await page.getByRole('heading', { name: 'Text in this diagram' }).count(), 'under a heading a screen reader lists');

    const before = await width();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    assert.ok((await width()) > before * 1.2, 'zoom in makes it larger');
    await page.getByRole('button', { name: 'Zoom out' }).click();
    assert.ok(Math.abs((await width()) - before) < 2, 'zoom out undoes it');

    const stageBox = (await stage.boundingBox())!;
    const [cx, cy] = [stageBox.x + stageBox.width / 2, stageBox.y + stageBox.height / 2];
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, -300);
    assert.ok((await width()) > before * 1.5, 'the wheel zooms in');
    const zoomed = (await diagram.boundingBox())!;
    await page.mouse.wheel(6, 20);
    const scrolled = (await diagram.boundingBox())!;
    assert.ok(Math.abs(scrolled.width - zoomed.width) < 1 && Math.abs(scrolled.y - zoomed.y + 20) < 2 && Math.abs(scrolled.x - zoomed.x + 6) < 2, `a trackpad's small scroll pans: ${JSON.stringify({ zoomed, scrolled })}`);
    const at = (await diagram.boundingBox())!;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 120, cy + 40, { steps: 4 });
    await page.mouse.up();
    const moved = (await diagram.boundingBox())!;
    assert.ok(Math.abs(moved.x - at.x - 120) < 2 && Math.abs(moved.y - at.y - 40) < 2, `dragging pans: ${JSON.stringify({ at, moved })}`);

    if (viewport.width < 600) {
      // A phone: one finger pans, two fingers pinch to zoom (touch events as Chromium's own touch screen sends them).
      const cdp = await context.newCDPSession(page);
      const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<[number, number]>) =>
        cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
      const start = (await diagram.boundingBox())!;
      await touch('touchStart', [[cx, cy]]);
      for (let step = 1; step <= 4; step++) await touch('touchMove', [[cx - 15 * step, cy + 10 * step]]);
      await touch('touchEnd', []);
      const panned = (await diagram.boundingBox())!;
      assert.ok(Math.abs(panned.x - start.x + 60) < 3 && Math.abs(panned.y - start.y - 40) < 3, `one finger pans: ${JSON.stringify({ start, panned })}`);
      const pinchFrom = await width();
      await touch('touchStart', [[cx - 40, cy], [cx + 40, cy]]);
      for (let step = 1; step <= 4; step++) await touch('touchMove', [[cx - 40 - 15 * step, cy], [cx + 40 + 15 * step, cy]]);
      await touch('touchEnd', []);
      assert.ok((await width()) > pinchFrom * 1.5, `two fingers spread zoom in: ${pinchFrom} → ${await width()}`);
    }

    await page.getByRole('button', { name: 'Fit width' }).click();
    assert.ok(Math.abs((await width()) - stageBox.width) < 2, 'fit width: as wide as the window');
    await page.getByRole('button', { name: '1:1' }).click();
    const natural = await diagram.evaluate((img: HTMLImageElement) => img.naturalWidth);
    assert.ok(Math.abs((await width()) - natural) < 2, '1:1 shows it at its size');

    const downloads = page.getByRole('navigation', { name: 'Download' });
    for (const [name, type] of [['PNG', 'image/png'], ['SVG', 'image/svg+xml'], ['PDF', 'application/pdf']] as const) {
      const anchor = downloads.getByRole('link', { name });
      assert.ok(await anchor.isVisible(), `${name} is on screen`);
      assert.equal(await anchor.getAttribute('download'), `Checkout flow.${name.toLowerCase()}`);
      const res = await fetch(new URL((await anchor.getAttribute('href'))!, url));
      assert.equal(res.status, 200, name);
      assert.equal(res.headers.get('content-type')?.split(';')[0], type, name);
    }
    assert.deepEqual(problems(), [], 'no console errors, CSP violations or outside requests');
    if (viewport.width === 1280) await screenshot(page, 'public-page-zoomed');
  });
}
