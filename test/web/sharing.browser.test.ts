// Sharing in headless Chromium: the owner shares a diagram from the editor's
// share dialog with a colleague who has an account (viewer): it is in their
// Shared with me, and their editor is view-only; the owner publishes it with a
// password, clears the password and unpublishes it, a stranger's browser
// following along; an address with no account is invited, the invitation
// mail leads to sign-up, the verification mail signs in, and the diagram is
// there; a workspace is created and its members managed from the dashboard.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, settled, useBrowser, type WatchedPage } from '../helpers/browser.ts';
import { type ListeningHarness, startHarness } from '../helpers/harness.ts';
import { signIn } from '../helpers/web-session.ts';
import { linkIn, waitForMail } from './form-client.ts';

const browser = useBrowser();
let h: ListeningHarness;
let owner: { id: string; email: string; token: string };
let colleague: { id: string; email: string };

before(async () => {
  h = await startHarness({ listen: true });
  owner = await h.user({ email: 'ada@example.com' });
  colleague = await h.user({ email: 'grace@example.com' });
});
after(() => h?.close());

const SPEC = {
  layout: { direction: 'LR' },
  nodes: [
    { id: 'user', label: 'Shopper', shape: 'ellipse', icon: 'icon-user' },
    { id: 'api', label: 'Orders API', icon: 'icon-nodejs' },
    { id: 'db', label: 'Orders DB', icon: 'icon-postgresql' },
  ],
  edges: ['user -> api : HTTPS', 'api -> db : SQL'],
};

async function createDiagram(title: string): Promise<string> {
  const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title, spec: SPEC } });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}

/** A watched page signed in as `userId` (or a stranger's, with no session). */
async function pageAs(t: TestContext, userId: string | null): Promise<WatchedPage> {
  const watched = await browser.newPage(t, h.baseUrl);
  watched.page.setDefaultTimeout(15_000);
  if (userId) {
    const session = await signIn(h, userId);
    await watched.context.addCookies([{ name: 'drawbridge_session', value: session.cookie.split('=')[1]!, url: h.baseUrl }]);
  }
  return watched;
}

async function openEditor(page: Page, id: string): Promise<void> {
  await page.goto(`${h.baseUrl}/app/d/${id}`);
  await page.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
}

async function openShareDialog(page: Page): Promise<void> {
  await page.locator('.db-topbar').getByRole('button', { name: 'Share' }).click();
  await page.getByRole('dialog').getByRole('heading', { name: /^Share “/ }).waitFor();
}

test('shared with a colleague as viewer from the editor: it is in their Shared with me, and their editor is view-only', { timeout: 90_000 }, async (t) => {
  const id = await createDiagram('Checkout journey');
  const { page } = await pageAs(t, owner.id);
  await openEditor(page, id);
  await openShareDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address to invite').fill(colleague.email);
  await dialog.getByLabel('Role for the invitation').selectOption('viewer');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await dialog.getByText(`Shared with ${colleague.email}.`).waitFor();
  await dialog.getByLabel(`Role of ${colleague.email}`).waitFor();
  assert.equal(await dialog.getByLabel(`Role of ${colleague.email}`).inputValue(), 'viewer');
  assert.equal(await dialog.getByLabel('Link to this diagram').inputValue(), `${h.baseUrl}/app/d/${id}`);
  await settled(page);
  await screenshot(page, 'share-dialog');

  const { page: theirs } = await pageAs(t, colleague.id);
  await theirs.goto(`${h.baseUrl}/app`);
  await theirs.getByRole('link', { name: 'Shared with me' }).click();
  await theirs.getByRole('heading', { name: 'Shared with me', level: 1 }).waitFor();
  const card = theirs.locator('li.card').filter({ hasText: 'Checkout journey' });
  assert.equal(await card.locator('.role').textContent(), 'Viewer');
  await card.getByRole('link', { name: 'Checkout journey' }).click();
  await theirs.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  await theirs.locator('.db-topbar [role=status]').filter({ hasText: 'View only' }).waitFor();
  assert.equal(await theirs.locator('.excalidraw .App-toolbar').count(), 0, 'no drawing tools in view mode');

  // Their share dialog shows the link, and says who decides, without listing anyone.
  await openShareDialog(theirs);
  await theirs.getByRole('dialog').getByText("Only the diagram's owner sees who has access").waitFor();
  assert.equal(await theirs.getByRole('dialog').getByLabel('Email address to invite').count(), 0);
});

test('published from the share dialog with a password, then the password cleared and the diagram unpublished: a stranger sees each state', { timeout: 180_000 }, async (t) => {
  const id = await createDiagram('Public roadmap');
  const { page } = await pageAs(t, owner.id);
  await openEditor(page, id);
  await openShareDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Publish/).click();
  const publicField = dialog.getByLabel('Public link', { exact: true });
  await publicField.waitFor();
  const url = await publicField.inputValue();
  assert.match(url, new RegExp(`^${h.baseUrl}/p/[0-9A-Za-z]{24}$`));
  await dialog.getByLabel('Password of the public page').fill('open sesame please');
  await dialog.getByRole('button', { name: 'Set password' }).click();
  await dialog.getByText('Protected: visitors type the password first.').waitFor();

  const { page: stranger, allowConsoleError } = await pageAs(t, null);
  // The unpublished page's 404, at the end.
  allowConsoleError(/status of 404/);
  await stranger.goto(url, { timeout: 45_000 });
  await stranger.getByRole('heading', { name: 'This diagram is protected' }).waitFor();

  await dialog.getByRole('button', { name: 'Remove password' }).click();
  await dialog.getByText('No password: anyone with the link can view it.').waitFor();
  // The open page carries the diagram rendered on the server (the renderer's first run, in a fresh worker): on a loaded
  // machine that outlasts the page's default 15 s.
  await stranger.goto(url, { timeout: 60_000 });
  await stranger.locator('img.diagram').waitFor();

  await dialog.getByLabel(/^Publish/).click();
  await dialog.getByLabel('Public link', { exact: true }).waitFor({ state: 'detached' });
  const gone = await stranger.goto(url);
  assert.equal(gone?.status(), 404);
});

test('published without a password, the share dialog offers the Markdown that embeds the image, and the image answers; a password takes both away', { timeout: 90_000 }, async (t) => {
  const id = await createDiagram('Embedded [map]');
  const { page } = await pageAs(t, owner.id);
  await openEditor(page, id);
  await openShareDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Publish/).click();
  const url = await dialog.getByLabel('Public link', { exact: true }).inputValue();
  const snippet = dialog.getByLabel('Markdown to embed the image');
  assert.equal(await snippet.inputValue(), `![Embedded \\[map\\]](${url}.svg)`);
  const copy = snippet.locator('xpath=following-sibling::button');
  assert.equal(await copy.textContent(), 'Copy');
  const image = await fetch(`${url}.svg`);
  assert.equal(image.status, 200);
  assert.match(image.headers.get('content-type') ?? '', /^image\/svg\+xml/);

  await dialog.getByLabel('Password of the public page').fill('open sesame please');
  await dialog.getByRole('button', { name: 'Set password' }).click();
  await dialog.getByText('Protected: visitors type the password first.').waitFor();
  await snippet.waitFor({ state: 'detached' });
  assert.equal((await fetch(`${url}.svg`)).status, 404);
});

test('invited by mail with no account: the mail leads to sign-up, the verification mail signs in, and the diagram is shared with them', { timeout: 120_000 }, async (t) => {
  const id = await createDiagram('Incident runbook');
  const invitee = 'linus@example.com';
  const { page } = await pageAs(t, owner.id);
  await openEditor(page, id);
  await openShareDialog(page);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address to invite').fill(invitee);
  await dialog.getByLabel('Role for the invitation').selectOption('editor');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await dialog.getByText(`${invitee} has no account yet`).waitFor();
  await dialog.getByText('invited, no account yet').waitFor();

  const invitation = await waitForMail(h, invitee);
  const signUpLink = linkIn(h, invitation, '/signup');
  const { page: theirs, context } = await pageAs(t, null);
  await theirs.goto(`${h.baseUrl}${signUpLink}`);
  const email = theirs.getByLabel('Email');
  if ((await email.inputValue()) === '') await email.fill(invitee);
  assert.equal(await email.inputValue(), invitee);
  await theirs.getByLabel('Password', { exact: true }).fill('a long enough password');
  await theirs.getByLabel('Repeat the password').fill('a long enough password');
  await theirs.getByRole('button', { name: 'Create account' }).click();
  await theirs.getByRole('heading', { name: 'Check your inbox' }).waitFor();

  const verification = await waitForMail(h, invitee, 2);
  await theirs.goto(`${h.baseUrl}${linkIn(h, verification, '/verify?token=')}`);
  await theirs.waitForURL(`${h.baseUrl}/app`);
  assert.ok((await context.cookies()).some((c) => c.name === 'drawbridge_session'), 'the verification link signed this browser in');
  await theirs.getByRole('link', { name: 'Shared with me' }).click();
  const card = theirs.locator('li.card').filter({ hasText: 'Incident runbook' });
  assert.equal(await card.locator('.role').textContent(), 'Editor');
  await card.getByRole('link', { name: 'Incident runbook' }).click();
  await theirs.locator('.excalidraw canvas').first().waitFor({ timeout: 30_000 });
  await theirs.locator('.db-topbar [role=status]').filter({ hasText: /^Saved$/ }).waitFor();
  assert.equal(theirs.url(), `${h.baseUrl}/app/d/${id}`);
});

test('a workspace made on the dashboard: members invited and changed and the workspace renamed in the members dialog, a diagram moved in, listed for its members', { timeout: 90_000 }, async (t) => {
  const id = await createDiagram('Platform map');
  const { page } = await pageAs(t, owner.id);
  await page.goto(`${h.baseUrl}/app`);
  await page.locator('details.new-workspace summary').click();
  await page.getByLabel('Workspace name').fill('Platform team');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('heading', { name: 'Platform team', level: 1 }).waitFor();

  // The dialogs open once the page's script runs: a click before it would be lost.
  await page.locator('#dashboard-dialogs[data-ready]').waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Members' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address to invite').fill(colleague.email);
  await dialog.getByLabel('Role for the invitation').selectOption('editor');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await dialog.getByText(`${colleague.email} is a member.`).waitFor();
  await dialog.getByLabel(`Role of ${colleague.email}`).selectOption('viewer');
  await page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/members/'));
  await dialog.getByLabel('Email address to invite').fill('new.hire@example.com');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await dialog.getByText('new.hire@example.com · invited, no account yet').waitFor();
  await screenshot(page, 'workspace-members');
  await dialog.getByLabel('Workspace name').fill('Platform crew');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await dialog.getByText('Renamed to “Platform crew”.').waitFor();
  await dialog.getByRole('heading', { name: 'Members of “Platform crew”' }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByText('2 members').waitFor();
  await page.getByRole('heading', { name: 'Platform crew', level: 1 }).waitFor();

  await page.getByRole('link', { name: 'All diagrams' }).click();
  const card = page.locator('li.card').filter({ hasText: 'Platform map' });
  await card.locator('details.actions summary').click();
  await card.getByLabel('Workspace').selectOption({ label: 'Platform crew' });
  await card.locator(`form[action="/app/d/${id}/workspace"] button`).click();
  await page.getByRole('link', { name: 'Platform crew' }).click();
  await page.locator('li.card').filter({ hasText: 'Platform map' }).waitFor();
  await settled(page);
  await screenshot(page, 'dashboard-workspace');

  const { page: theirs } = await pageAs(t, colleague.id);
  await theirs.goto(`${h.baseUrl}/app?view=shared`);
  const shared = theirs.locator('li.card').filter({ hasText: 'Platform map' });
  assert.equal(await shared.locator('.role').textContent(), 'Viewer', 'the workspace role is the ceiling');
  await settled(theirs);
  await screenshot(theirs, 'dashboard-shared');
});
