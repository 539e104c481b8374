import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { escapeHtml } from '../../src/web/html.ts';
import { DASHBOARD_PAGE_SIZE } from '../../src/web/dashboard/routes.ts';
import { timeAgo } from '../../src/web/dashboard/page.ts';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { pixelsNear, pngSize } from '../helpers/png.ts';
import { type SignedIn, signIn } from '../helpers/web-session.ts';

let h: Harness;
describe('web/dashboard', () => {
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const SPEC = {
    nodes: [{ id: 'web', label: 'Web app' }, { id: 'api', label: 'API' }, { id: 'db', label: 'Database', shape: 'ellipse' }],
    edges: ['web -> api : HTTPS', 'api -> db'],
  };

  interface Person extends TestUser, SignedIn {}

  async function person(options: Parameters<Harness['user']>[0] = {}): Promise<Person> {
    const user = await h.user(options);
    return { ...user, ...(await signIn(h, user.id)) };
  }

  const get = (who: SignedIn | null, url: string, headers: Record<string, string> = {}) =>
    h.call('GET', url, { headers: who ? { cookie: who.cookie, ...headers } : headers });

  /** Submits a form as a browser would (urlencoded), with the session's CSRF token unless `_csrf` is given. */
  const submit = (who: SignedIn, url: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    h.call('POST', url, {
      body: new URLSearchParams({ _csrf: who.csrfToken, ...fields }).toString(),
      headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  async function createDiagram(who: TestUser, body: Record<string, unknown> = {}): Promise<{ id: string; title: string }> {
    const res = await h.call('POST', '/api/v1/diagrams', { token: who.token, body: { scene: sceneOf(2), ...body } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }

  const apiList = async (who: TestUser, filter = 'active') =>
    (await h.call('GET', `/api/v1/diagrams?filter=${filter}&limit=100`, { token: who.token })).json().items as Array<{ id: string; title: string; starred: boolean; folderId: string | null }>;

  const sorted = (values: string[]) => [...values].sort();

  /** The diagram ids with a card on the page, in page order. */
  function cardIds(html: string): string[] {
    return [...html.matchAll(/<li class="card[^"]*">[\s\S]*?\/app\/d\/([0-9a-f-]{36})\//g)].map((m) => m[1]!);
  }

  async function dashboard(who: SignedIn, query = ''): Promise<string> {
    const res = await get(who, `/app${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  }

  describe('access', () => {
    test('signed out, the dashboard and its thumbnails redirect (303) to the login page, keeping where to come back', async () => {
      const res = await get(null, '/app?starred=1');
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, `/login?next=${encodeURIComponent('/app?starred=1')}`);
      const owner = await person();
      const { id } = await createDiagram(owner);
      assert.equal((await get(null, `/app/d/${id}/thumbnail.png`)).statusCode, 303);
      assert.equal((await get({ cookie: 'drawbridge_session=forged', csrfToken: '' }, '/app')).statusCode, 303, 'an unknown session is signed out');
    });

    test("the dashboard lists the signed-in person's diagrams and no one else's, as an app page", async () => {
      const owner = await person();
      const stranger = await person();
      const mine = [await createDiagram(owner, { title: 'Mine one' }), await createDiagram(owner, { title: 'Mine two' })];
      const theirs = await createDiagram(stranger, { title: 'Not yours' });

      const res = await get(owner, '/app');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(sorted(cardIds(res.body)), sorted(mine.map((d) => d.id)));
      assert.deepEqual(cardIds(res.body), (await apiList(owner)).map((d) => d.id), "in the API list's order, newest first");
      assert.ok(!res.body.includes(theirs.id) && !res.body.includes('Not yours'));
      assert.match(res.body, /href="\/app\/d\/[0-9a-f-]{36}"/, 'each card opens the editor');
      assert.match(res.body, /2 elements/);
    });

    test('every POST form acts only on the caller\'s own diagrams: a stranger gets 404 and nothing changes', async () => {
      const owner = await person();
      const stranger = await person();
      const folder = (await h.call('POST', '/api/v1/folders', { token: stranger.token, body: { name: 'Theirs' } })).json();
      const { id } = await createDiagram(owner, { title: 'Keep me' });
      for (const [action, fields] of [
        ['star', { starred: '1' }],
        ['rename', { title: 'Stolen' }],
        ['move', { folderId: folder.id }],
        ['trash', {}],
        ['restore', {}],
      ] as const) {
        const res = await submit(stranger, `/app/d/${id}/${action}`, fields);
        assert.equal(res.statusCode, 404, action);
        assert.match(String(res.headers['content-type']), /^text\/html/);
      }
      assert.deepEqual(
        (await apiList(owner)).map(({ id, title, starred, folderId }) => ({ id, title, starred, folderId })),
        [{ id, title: 'Keep me', starred: false, folderId: null }],
      );
      const intoTheirFolder = await submit(owner, `/app/d/${id}/move`, { folderId: folder.id });
      assert.equal(intoTheirFolder.statusCode, 403, "no moving into someone else's folder");
      assert.equal((await apiList(owner))[0]!.folderId, null);
    });

    test('a POST without the session\'s CSRF token, or from another site, is refused (403) and changes nothing', async () => {
      const owner = await person();
      const { id } = await createDiagram(owner, { title: 'Guarded' });
      const attempts = [
        await submit(owner, `/app/d/${id}/star`, { _csrf: '', starred: '1' }),
        await submit(owner, `/app/d/${id}/trash`, { _csrf: 'wrong-token' }),
        await submit(owner, `/app/d/${id}/rename`, { title: 'Hijacked' }, { origin: 'https://evil.example' }),
        await submit(owner, '/app/folders', { _csrf: 'x', name: 'Planted' }),
        await submit(owner, '/app/diagrams', { _csrf: '', title: 'Planted', spec: JSON.stringify(SPEC) }),
      ];
      for (const res of attempts) {
        assert.equal(res.statusCode, 403);
        assert.match(res.body, /reload the page|another site/);
      }
      assert.deepEqual(
        (await apiList(owner)).map(({ title, starred }) => ({ title, starred })),
        [{ title: 'Guarded', starred: false }],
      );
      assert.deepEqual((await h.call('GET', '/api/v1/folders', { token: owner.token })).json().items, []);
    });

    test("a form's way back never leads off the app", async () => {
      const owner = await person();
      const { id } = await createDiagram(owner);
      for (const back of ['https://evil.example/', '//evil.example/app', '/application', '/app\\@evil.example', '/login']) {
        const res = await submit(owner, `/app/d/${id}/star`, { starred: '1', back });
        assert.equal(res.statusCode, 303);
        assert.equal(res.headers.location, '/app', back);
      }
      const kept = await submit(owner, `/app/d/${id}/star`, { starred: '0', back: '/app?starred=1&q=x' });
      assert.equal(kept.headers.location, '/app?starred=1&q=x');
    });

    test('a person whose email is not verified sees a banner with a way to get the link again', async () => {
      const unverified = await person({ unverified: true });
      const body = await dashboard(unverified);
      assert.match(body, /Verify your email address/);
      assert.match(body, /action="\/verify\/resend"/);
      const verified = await person();
      assert.doesNotMatch(await dashboard(verified), /Verify your email address/);
    });
  });

  describe('thumbnails', () => {
    test("a thumbnail is the fast PNG render, 1024 px wide, private to the owner; a stranger's answers 404", async () => {
      const owner = await person();
      const stranger = await person();
      const { id } = await createDiagram(owner, { spec: SPEC, scene: undefined });
      const page = await dashboard(owner);
      const src = page.match(/<img src="([^"]+)"/)?.[1];
      assert.ok(src && src.startsWith(`/app/d/${id}/thumbnail.png?v=`), `the card shows the thumbnail: ${src}`);

      const res = await get(owner, src.replaceAll('&#38;', '&'));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(pngSize(res.rawPayload).width, 1024);
      assert.match(String(res.headers['cache-control']), /^private, max-age=\d+/);
      assert.ok(res.headers.etag);

      const refused = await get(stranger, `/app/d/${id}/thumbnail.png`);
      assert.equal(refused.statusCode, 404);
      assert.ok(!refused.rawPayload.subarray(0, 8).equals(res.rawPayload.subarray(0, 8)), 'no image for a stranger');
      assert.equal((await get(owner, '/app/d/not-a-uuid/thumbnail.png')).statusCode, 404);
    });

    test('a thumbnail and the API\'s fast preview both draw catalog icons: the PNG has the icon\'s colours where the icon is', async () => {
      const owner = await person();
      const { id } = await createDiagram(owner, { scene: undefined, spec: { nodes: [{ id: 'db', label: 'Orders', icon: 'icon-postgresql' }] } });
      const thumbnail = (await get(owner, `/app/d/${id}/thumbnail.png`)).rawPayload;
      const preview = (await h.call('GET', `/api/v1/diagrams/${id}/render?format=png&quality=fast`, { token: owner.token })).rawPayload;
      const svg = (await h.call('GET', `/api/v1/diagrams/${id}/render?format=svg&quality=fast`, { token: owner.token })).body;
      assert.match(svg, /<image/, 'the API preview draws the icon');
      assert.ok(thumbnail.equals(preview), 'the thumbnail is the fast preview');
      // The catalog's PostgreSQL elephant is #4169e1: its pixels are where the icon is, in the upper middle of the node.
      const width = pngSize(preview).width;
      const scene = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token })).json().scene.elements as Array<{ id: string; x: number; y: number; width: number; height: number }>;
      const icon = scene.find((e) => e.id === 'db-icon')!;
      const node = scene.find((e) => e.id === 'db')!;
      const scale = width / (node.width + 2 * 10);
      const blue = pixelsNear(preview, [0x41, 0x69, 0xe1], 60);
      for (const [x, y] of blue) {
        const [sx, sy] = [x / scale + node.x - 10, y / scale + node.y - 10];
        assert.ok(sx > icon.x - 4 && sx < icon.x + icon.width + 4 && sy > icon.y - 4 && sy < icon.y + icon.height + 4, `a blue pixel at (${x}, ${y}) lies on the icon`);
      }
      assert.ok(blue.length > 100, `the icon's blue is drawn (${blue.length} pixels)`);
    });

    test('revalidating an unchanged thumbnail answers 304; an edit changes its ETag and its URL', async () => {
      const owner = await person();
      const { id } = await createDiagram(owner);
      const first = await get(owner, `/app/d/${id}/thumbnail.png`);
      assert.equal(first.statusCode, 200);
      const etag = String(first.headers.etag);

      const again = await get(owner, `/app/d/${id}/thumbnail.png`, { 'if-none-match': etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
      assert.equal(again.headers.etag, etag);
      assert.equal((await get(owner, `/app/d/${id}/thumbnail.png`, { 'if-none-match': `"other", W/${etag}` })).statusCode, 304, 'weak and listed tags match');

      const srcBefore = (await dashboard(owner)).match(/<img src="([^"]+)"/)?.[1];
      const edited = await h.call('POST', `/api/v1/diagrams/${id}/regenerate`, { token: owner.token, body: { scene: sceneOf(3) } });
      assert.equal(edited.statusCode, 200, edited.body);
      const after = await get(owner, `/app/d/${id}/thumbnail.png`, { 'if-none-match': etag });
      assert.equal(after.statusCode, 200, 'the old ETag no longer matches');
      assert.notEqual(after.headers.etag, etag);
      assert.notEqual((await dashboard(owner)).match(/<img src="([^"]+)"/)?.[1], srcBefore, 'the card links the new version');
    });

    test('an empty diagram shows "Empty" on its card, and its thumbnail answers 204', async () => {
      const owner = await person();
      const { id } = await createDiagram(owner, { scene: { elements: [] } });
      const page = await dashboard(owner);
      assert.match(page, /<span class="empty">Empty<\/span>/);
      assert.doesNotMatch(page, /<img src=/);
      const res = await get(owner, `/app/d/${id}/thumbnail.png`);
      assert.equal(res.statusCode, 204);
      assert.equal(res.rawPayload.length, 0);
    });
  });

  describe('organising', () => {
    test('star and unstar from a card: the Starred view and the API list follow, and the browser returns to its page', async () => {
      const owner = await person();
      const [a, b] = [await createDiagram(owner, { title: 'Alpha' }), await createDiagram(owner, { title: 'Beta' })];
      const starred = await submit(owner, `/app/d/${a.id}/star`, { starred: '1', back: '/app?q=alp' });
      assert.equal(starred.statusCode, 303);
      assert.equal(starred.headers.location, '/app?q=alp');
      assert.deepEqual(cardIds(await dashboard(owner, '?starred=1')), [a.id]);
      assert.deepEqual(sorted((await apiList(owner)).map((d) => `${d.title}:${d.starred}`)), ['Alpha:true', 'Beta:false']);
      const page = await dashboard(owner);
      assert.match(page, /aria-label="Unstar Alpha"/);
      assert.match(page, /aria-label="Star Beta"/);

      await submit(owner, `/app/d/${a.id}/star`, { starred: '0' });
      assert.deepEqual(cardIds(await dashboard(owner, '?starred=1')), []);
      assert.match(await dashboard(owner, '?starred=1'), /No starred diagrams/);
      assert.equal((await apiList(owner)).find((d) => d.id === b.id)?.starred, false);
    });

    test('search finds titles containing the text, ignoring case, within the star or folder filter', async () => {
      const owner = await person();
      const folder = (await h.call('POST', '/api/v1/folders', { token: owner.token, body: { name: 'Billing' } })).json();
      const checkout = await createDiagram(owner, { title: 'Checkout flow' });
      const refunds = await createDiagram(owner, { title: 'CHECKOUT refunds', folderId: folder.id });
      await createDiagram(owner, { title: 'Login' });
      await submit(owner, `/app/d/${refunds.id}/star`, { starred: '1' });

      assert.deepEqual(sorted(cardIds(await dashboard(owner, '?q=checkOUT'))), sorted([refunds.id, checkout.id]));
      assert.deepEqual(cardIds(await dashboard(owner, '?q=checkout&starred=1')), [refunds.id]);
      assert.deepEqual(cardIds(await dashboard(owner, `?q=flow&folder=${folder.id}`)), []);
      assert.deepEqual(cardIds(await dashboard(owner, '?q=%25')), [], '% is not a wildcard');
      const page = await dashboard(owner, '?q=nothing-like-it');
      assert.match(page, /No diagram here has “nothing-like-it” in its title/);
      assert.match(page, /name="q" value="nothing-like-it"/, 'the search box keeps the text');
    });

    test('folders: created from the sidebar (nested), listed with counts, filtering the grid; a diagram moves in and out', async () => {
      const owner = await person();
      const created = await submit(owner, '/app/folders', { name: 'Projects', parentId: '', back: '/app' });
      assert.equal(created.statusCode, 303);
      const projects = (await h.call('GET', '/api/v1/folders', { token: owner.token })).json().items[0];
      assert.equal(projects.name, 'Projects');
      await submit(owner, '/app/folders', { name: 'Drawbridge', parentId: projects.id });
      const folders = (await h.call('GET', '/api/v1/folders', { token: owner.token })).json().items;
      const child = folders.find((f: { name: string }) => f.name === 'Drawbridge');
      assert.equal(child.parentId, projects.id);

      const filed = await createDiagram(owner, { title: 'Filed' });
      const loose = await createDiagram(owner, { title: 'Loose' });
      const moved = await submit(owner, `/app/d/${filed.id}/move`, { folderId: child.id, back: `/app?folder=${projects.id}` });
      assert.equal(moved.headers.location, `/app?folder=${projects.id}`);
      assert.equal((await apiList(owner)).find((d) => d.id === filed.id)?.folderId, child.id);

      const page = await dashboard(owner, `?folder=${child.id}`);
      assert.deepEqual(cardIds(page), [filed.id]);
      assert.match(page, /<h1>Drawbridge<\/h1>/);
      assert.match(page, new RegExp(`<li style="--depth:1"><a href="/app\\?folder=${child.id}" aria-current="page"><span class="name">Drawbridge</span><span class="count">1</span>`));
      assert.match(page, new RegExp(`<li><a href="/app\\?folder=${projects.id}"><span class="name">Projects</span><span class="count">0</span>`));
      assert.match(page, /All diagrams<\/span><span class="count">2<\/span>/);
      assert.deepEqual(cardIds(await dashboard(owner, `?folder=${projects.id}`)), [], 'a folder lists only what is filed directly in it');

      await submit(owner, `/app/d/${filed.id}/move`, { folderId: '' });
      assert.equal((await apiList(owner)).find((d) => d.id === filed.id)?.folderId, null);
      assert.deepEqual(sorted(cardIds(await dashboard(owner))), sorted([loose.id, filed.id]));

      const stranger = await person();
      assert.equal((await get(stranger, `/app?folder=${child.id}`)).statusCode, 404, "someone else's folder is not found");
      assert.equal((await get(owner, '/app?folder=nope')).statusCode, 404);
      assert.equal((await submit(owner, '/app/folders', { name: '  ' })).statusCode, 400, 'a folder needs a name');
    });

    test('rename from a card sanitises the title like the API; an empty title is refused', async () => {
      const owner = await person();
      const { id } = await createDiagram(owner, { title: 'Old' });
      const res = await submit(owner, `/app/d/${id}/rename`, { title: '  New\tname \u202e ' });
      assert.equal(res.statusCode, 303);
      assert.equal((await apiList(owner))[0]!.title, 'New name');
      const empty = await submit(owner, `/app/d/${id}/rename`, { title: ' \n ' });
      assert.equal(empty.statusCode, 400);
      assert.match(empty.body, /title is empty/);
      assert.equal((await apiList(owner))[0]!.title, 'New name');
    });

    test('trash from a card: the diagram leaves the grid, shows in Trash with when it was trashed, and Restore brings it back', async () => {
      const owner = await person();
      const keep = await createDiagram(owner, { title: 'Keep' });
      const bin = await createDiagram(owner, { title: 'Bin me' });
      const trashed = await submit(owner, `/app/d/${bin.id}/trash`, { back: '/app' });
      assert.equal(trashed.statusCode, 303);
      assert.deepEqual(cardIds(await dashboard(owner)), [keep.id]);

      const trash = await dashboard(owner, '?view=trash');
      assert.deepEqual(cardIds(trash), [bin.id]);
      const deletedAt = (await h.call('GET', `/api/v1/diagrams/${bin.id}`, { token: owner.token })).json().deletedAt;
      assert.match(trash, new RegExp(`<time datetime="${deletedAt}"[^>]*>Trashed just now</time>`));
      assert.match(trash, new RegExp(`action="/app/d/${bin.id}/restore"`));
      assert.match(trash, /Trash<\/span><span class="count">1<\/span>/);
      assert.deepEqual((await apiList(owner, 'trash')).map((d) => d.id), [bin.id]);

      const restored = await submit(owner, `/app/d/${bin.id}/restore`, { back: '/app?view=trash' });
      assert.equal(restored.headers.location, '/app?view=trash');
      assert.match(await dashboard(owner, '?view=trash'), /The trash is empty/);
      assert.deepEqual(sorted(cardIds(await dashboard(owner))), sorted([bin.id, keep.id]));
    });

    test(`the grid shows ${DASHBOARD_PAGE_SIZE} cards a page, and Next continues where the page ended`, async () => {
      const owner = await person();
      for (let i = 0; i < DASHBOARD_PAGE_SIZE + 2; i++) await createDiagram(owner, { title: `Page test ${i}`, scene: { elements: [] } });
      // Many share a millisecond: the API's order (createdAt, then id) is the one to expect.
      const newestFirst = (await apiList(owner)).map((d) => d.id);

      const first = await dashboard(owner, '?q=page+test');
      assert.deepEqual(cardIds(first), newestFirst.slice(0, DASHBOARD_PAGE_SIZE));
      const next = first.match(/<a href="([^"]+)" rel="next">/)?.[1]?.replaceAll('&#38;', '&');
      assert.ok(next && next.includes('q=page+test'), `the next link keeps the search: ${next}`);
      const second = await dashboard(owner, next.slice('/app'.length));
      assert.deepEqual(cardIds(second), newestFirst.slice(DASHBOARD_PAGE_SIZE));
      assert.doesNotMatch(second, /rel="next"/);
      assert.match(second, /First page/);
      assert.equal((await get(owner, '/app?cursor=garbage')).statusCode, 400);
    });
  });

  describe('new diagram', () => {
    test('a valid spec creates the diagram through the API\'s command and opens it in the editor', async () => {
      const owner = await person();
      const folder = (await h.call('POST', '/api/v1/folders', { token: owner.token, body: { name: 'Specs' } })).json();
      const form = await get(owner, `/app/new?folder=${folder.id}`);
      assert.equal(form.statusCode, 200);
      assert.match(form.body, new RegExp(`<option value="${folder.id}" selected>Specs</option>`));

      const res = await submit(owner, '/app/diagrams', { title: ' Three tiers ', folderId: folder.id, spec: JSON.stringify(SPEC, null, 2) });
      assert.equal(res.statusCode, 303, res.body);
      const id = /^\/app\/d\/([0-9a-f-]{36})$/.exec(String(res.headers.location))?.[1];
      assert.ok(id, `redirected to the editor: ${res.headers.location}`);

      const read = await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token });
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().title, 'Three tiers');
      assert.equal(read.json().folderId, folder.id);
      const viaApi = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { spec: SPEC } });
      assert.deepEqual(read.json().scene.elements, (await h.call('GET', `/api/v1/diagrams/${viaApi.json().id}`, { token: owner.token })).json().scene.elements, 'the same layout as the API');
    });

    test('a spec far larger than an ordinary form (over 64 KiB) is accepted, as the API would', async () => {
      const owner = await person();
      const nodes = Array.from({ length: 200 }, (_, i) => ({ id: `n${i}`, label: `Node ${i} `.padEnd(400, 'x') }));
      const spec = JSON.stringify({ nodes, edges: nodes.slice(1).map((n, i) => `n${i} -> ${n.id}`) });
      assert.ok(spec.length > 64 * 1024);
      const res = await submit(owner, '/app/diagrams', { title: 'Big', spec });
      assert.equal(res.statusCode, 303, res.body.slice(0, 500));
      assert.equal((await apiList(owner))[0]!.title, 'Big');
    });

    test('a blank spec creates an empty diagram', async () => {
      const owner = await person();
      const res = await submit(owner, '/app/diagrams', { title: '', folderId: '', spec: '  \n' });
      assert.equal(res.statusCode, 303);
      const [item] = await apiList(owner);
      assert.equal(item!.title, 'Untitled diagram');
      assert.deepEqual((await h.call('GET', `/api/v1/diagrams/${item!.id}`, { token: owner.token })).json().scene.elements, []);
    });

    test('a refused spec comes back in the form with the server\'s code and message, the text kept, and nothing created', async () => {
      const owner = await person();
      const dangling = JSON.stringify({ nodes: [{ id: 'a' }], edges: ['a -> x'] });
      const apiAnswer = (await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { spec: JSON.parse(dangling) } })).json();
      assert.equal(apiAnswer.error, 'DANGLING_EDGE');

      const res = await submit(owner, '/app/diagrams', { title: 'Broken <b>', spec: dangling });
      assert.equal(res.statusCode, 422);
      assert.ok(res.body.includes(`<code>DANGLING_EDGE</code>: ${escapeHtml(apiAnswer.message)}`), res.body);
      assert.ok(res.body.includes(`${escapeHtml(dangling)}</textarea>`), 'the spec is kept');
      assert.match(res.body, /value="Broken &#60;b&#62;"/, 'the title is kept, escaped');

      const notJson = await submit(owner, '/app/diagrams', { spec: '{ nodes: [' });
      assert.equal(notJson.statusCode, 400);
      assert.match(notJson.body, /<code>invalid_json<\/code>: the spec is not valid JSON/);
      const proto = await submit(owner, '/app/diagrams', { spec: '{"nodes":[],"__proto__":{"x":1}}' });
      assert.equal(proto.statusCode, 422);
      assert.match(proto.body, /<code>PROTO_KEY<\/code>/);
      const shape = await submit(owner, '/app/diagrams', { spec: JSON.stringify({ nodes: [{ id: 'a', shape: 'octagon' }] }) });
      assert.match(shape.body, /<code>UNKNOWN_SHAPE<\/code>/);
      assert.deepEqual(await apiList(owner), []);
    });

    test('over the quota, the form says so plainly and nothing is created', async () => {
      const owner = await person({ quota: 1 });
      await createDiagram(owner, { title: 'The only one' });
      const res = await submit(owner, '/app/diagrams', { title: 'One too many', spec: JSON.stringify(SPEC) });
      assert.equal(res.statusCode, 403);
      assert.match(res.body, /<code>quota_exceeded<\/code>: You already have 1 active diagram, the most your account may keep. Move one to the trash/);
      assert.deepEqual((await apiList(owner)).map((d) => d.title), ['The only one']);
    });
  });

  test('hostile titles and folder names are escaped wherever the dashboard shows them', async () => {
    const owner = await person();
    const hostile = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>`;
    const folder = (await h.call('POST', '/api/v1/folders', { token: owner.token, body: { name: hostile } })).json();
    const { id } = await createDiagram(owner, { title: hostile, folderId: folder.id });
    await submit(owner, `/app/d/${id}/star`, { starred: '1' });
    const pages = [
      await dashboard(owner),
      await dashboard(owner, `?folder=${folder.id}`),
      await dashboard(owner, `?q=${encodeURIComponent(hostile)}`),
      (await get(owner, '/app/new')).body,
      (await submit(owner, '/app/diagrams', { title: hostile, spec: hostile })).body,
    ];
    await submit(owner, `/app/d/${id}/trash`);
    pages.push(await dashboard(owner, '?view=trash'));
    for (const body of pages) {
      assert.ok(!body.includes('<script>alert'), 'no raw script tag');
      assert.ok(!body.includes('<img src=x'), 'no raw img tag');
      assert.ok(!body.includes(`"'>`), 'no attribute break-out');
      assert.ok(body.includes(escapeHtml('<script>alert(1)</script>')));
    }
  });

  test('timeAgo says how long ago in a few words, then the date', () => {
    const now = new Date('2024-05-10T12:00:00.000Z');
    assert.equal(timeAgo('2024-05-10T11:59:30.000Z', now), 'just now');
    assert.equal(timeAgo('2024-05-10T12:00:30.000Z', now), 'just now', 'a clock a little ahead is not the future');
    assert.equal(timeAgo('2024-05-10T11:15:00.000Z', now), '45 min ago');
    assert.equal(timeAgo('2024-05-10T07:00:00.000Z', now), '5 h ago');
    assert.equal(timeAgo('2024-05-09T10:00:00.000Z', now), 'yesterday');
    assert.equal(timeAgo('2024-05-06T12:00:00.000Z', now), '4 days ago');
    assert.equal(timeAgo('2024-04-01T12:00:00.000Z', now), '2024-04-01');
  });
});
