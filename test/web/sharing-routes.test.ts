// The web app's session routes for sharing, workspaces and the New-diagram
// page, on both engines: the rules are the API's (the owner alone manages
// sharing and publishing, an admin manages members), every change needs the
// session's CSRF token, and anyone without access gets not found.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Engine, type Harness, startHarness, uniqueEmail } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';
import { signIn, type SignedIn } from '../helpers/web-session.ts';
import { mailsTo, waitForMail } from './form-client.ts';

/** The text New diagram's form holds in its spec box, its entities decoded. */
const exampleIn = (page: string) =>
  /<textarea id="spec" name="spec" spellcheck="false">\n([\s\S]*?)<\/textarea>/
    .exec(page)![1]!
    .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');

for (const engine of ['sqlite', 'postgres'] as Engine[]) {
  describe(`web sharing routes (${engine})`, { skip: engine === 'postgres' && skipWithoutPostgres }, () => {
    let h: Harness;
    let owner: { id: string; email: string; token: string };
    let bob: { id: string; email: string };
    let ownerWeb: SignedIn;
    let bobWeb: SignedIn;

    before(async () => {
      h = await startHarness({ engine });
      owner = await h.user();
      bob = await h.user();
      ownerWeb = await signIn(h, owner.id);
      bobWeb = await signIn(h, bob.id);
    });
    after(() => h.close());

    const as = (web: SignedIn, method: string, url: string, body?: unknown, csrf = true) =>
      h.call(method, url, { headers: { cookie: web.cookie, ...(csrf ? { 'x-csrf-token': web.csrfToken } : {}) }, ...(body === undefined ? {} : { body }) });

    async function diagram(title = 'Shared plan'): Promise<string> {
      const created = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title, spec: { nodes: [{ id: 'a' }] } } });
      assert.equal(created.statusCode, 201, created.body);
      return created.json().id;
    }

    test('the owner shares with an account by email as viewer; it sees the diagram in Shared with me with its role, and the state lists it', async () => {
      const id = await diagram();
      const shared = await as(ownerWeb, 'POST', `/app/api/diagrams/${id}/shares`, { email: bob.email.toUpperCase(), role: 'viewer' });
      assert.equal(shared.statusCode, 200, shared.body);
      assert.equal(shared.json().share.userId, bob.id);

      const state = (await as(ownerWeb, 'GET', `/app/api/diagrams/${id}/sharing`)).json();
      assert.equal(state.isOwner, true);
      assert.equal(state.people.ownerEmail, owner.email);
      assert.deepEqual(state.people.shares.map((s: { email: string; role: string }) => [s.email, s.role]), [[bob.email, 'viewer']]);
      assert.equal(state.editorUrl, `${h.config.publicUrl}/app/d/${id}`);

      const page = await as(bobWeb, 'GET', '/app?view=shared');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h1>Shared with me<\/h1>/);
      assert.match(page.body, new RegExp(`href="/app/d/${id}">Shared plan</a><span class="role role-viewer"`));
    });

    test('someone the diagram is shared with sees its link and public state but not who has access, and may change nothing (404, nothing changed)', async () => {
      const id = await diagram();
      await as(ownerWeb, 'POST', `/app/api/diagrams/${id}/shares`, { email: bob.email, role: 'editor' });
      const state = (await as(bobWeb, 'GET', `/app/api/diagrams/${id}/sharing`)).json();
      assert.equal(state.isOwner, false);
      assert.equal(state.people, null);
      assert.equal(state.publicLink.enabled, false);

      const carol = await h.user();
      for (const [method, url, body] of [
        ['POST', `/app/api/diagrams/${id}/shares`, { email: carol.email, role: 'viewer' }],
        ['PUT', `/app/api/diagrams/${id}/shares/${bob.id}`, { role: 'viewer' }],
        ['DELETE', `/app/api/diagrams/${id}/shares/${bob.id}`, undefined],
        ['PUT', `/app/api/diagrams/${id}/public-link`, { enabled: true }],
      ] as const) {
        const refused = await as(bobWeb, method, url, body);
        assert.equal(refused.statusCode, 404, `${method} ${url}: ${refused.body}`);
      }
      const after = (await as(ownerWeb, 'GET', `/app/api/diagrams/${id}/sharing`)).json();
      assert.deepEqual(after.people.shares.map((s: { role: string }) => s.role), ['editor']);
      assert.equal(after.publicLink.enabled, false);
      const stranger = await signIn(h, (await h.user()).id);
      assert.equal((await as(stranger, 'GET', `/app/api/diagrams/${id}/sharing`)).statusCode, 404);
    });

    test('every change needs the CSRF token (403, nothing changed) and a session (401)', async () => {
      const id = await diagram();
      const noToken = await as(ownerWeb, 'PUT', `/app/api/diagrams/${id}/public-link`, { enabled: true }, false);
      assert.equal(noToken.statusCode, 403);
      assert.equal(noToken.json().error, 'csrf_failed');
      assert.equal((await as(ownerWeb, 'POST', `/app/api/diagrams/${id}/shares`, { email: bob.email, role: 'viewer' }, false)).statusCode, 403);
      assert.equal((await h.call('GET', `/app/api/diagrams/${id}/sharing`)).statusCode, 401);
      const state = (await as(ownerWeb, 'GET', `/app/api/diagrams/${id}/sharing`)).json();
      assert.equal(state.publicLink.enabled, false);
      assert.deepEqual(state.people.shares, []);
    });

    test('the owner changes a role, removes a share, publishes with a password, clears it and unpublishes', async () => {
      const id = await diagram();
      await as(ownerWeb, 'POST', `/app/api/diagrams/${id}/shares`, { email: bob.email, role: 'viewer' });
      assert.equal((await as(ownerWeb, 'PUT', `/app/api/diagrams/${id}/shares/${bob.id}`, { role: 'editor' })).json().role, 'editor');
      assert.equal((await as(bobWeb, 'GET', `/app/d/${id}`)).body.includes('data-can-edit="true"'), true);
      assert.equal((await as(ownerWeb, 'DELETE', `/app/api/diagrams/${id}/shares/${bob.id}`)).statusCode, 204);
      assert.equal((await as(bobWeb, 'GET', `/app/api/diagrams/${id}/sharing`)).statusCode, 404);

      const published = (await as(ownerWeb, 'PUT', `/app/api/diagrams/${id}/public-link`, { enabled: true, password: 'open sesame' })).json();
      assert.equal(published.hasPassword, true);
      assert.match(published.url, new RegExp(`^${h.config.publicUrl}/p/`));
      const cleared = (await as(ownerWeb, 'PUT', `/app/api/diagrams/${id}/public-link`, { enabled: true, password: null })).json();
      assert.equal(cleared.hasPassword, false);
      const slug = new URL(published.url).pathname;
      assert.equal((await h.call('GET', slug)).statusCode, 200);
      const off = (await as(ownerWeb, 'PUT', `/app/api/diagrams/${id}/public-link`, { enabled: false })).json();
      assert.equal(off.url, null);
      assert.equal((await h.call('GET', slug)).statusCode, 404);
    });

    test('an address without an account is invited by mail; the owner sees the invitation and can cancel it', async () => {
      const id = await diagram();
      const email = uniqueEmail('invitee');
      const invited = await as(ownerWeb, 'POST', `/app/api/diagrams/${id}/shares`, { email, role: 'editor' });
      assert.equal(invited.statusCode, 200, invited.body);
      const invitation = invited.json().invitation;
      assert.equal(invitation.email, email);
      await waitForMail(h, email);
      const state = (await as(ownerWeb, 'GET', `/app/api/diagrams/${id}/sharing`)).json();
      assert.deepEqual(state.people.invitations.map((i: { email: string }) => i.email), [email]);
      assert.equal((await as(bobWeb, 'DELETE', `/app/api/invitations/${invitation.id}`)).statusCode, 404, "someone else's invitation");
      assert.equal((await as(ownerWeb, 'DELETE', `/app/api/invitations/${invitation.id}`)).statusCode, 204);
      assert.deepEqual((await as(ownerWeb, 'GET', `/app/api/diagrams/${id}/sharing`)).json().people.invitations, []);
      assert.equal(mailsTo(h, email).length, 1);
    });

    test('workspaces: created from the dashboard form, its admin invites a member, who sees the members read-only, may leave, and may not manage', async () => {
      const created = await h.call('POST', '/app/workspaces', { headers: { cookie: ownerWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `_csrf=${ownerWeb.csrfToken}&name=Platform` });
      assert.equal(created.statusCode, 303, created.body);
      const workspaceId = new URL(String(created.headers.location), 'http://x').searchParams.get('workspace')!;
      const members = `/app/api/workspaces/${workspaceId}/members`;
      assert.equal((await as(ownerWeb, 'POST', members, { email: bob.email, role: 'viewer' })).json().member.role, 'viewer');

      const seen = (await as(bobWeb, 'GET', members)).json();
      assert.equal(seen.role, 'viewer');
      assert.equal(seen.you, bob.id);
      assert.deepEqual(seen.members.map((m: { email: string; role: string }) => [m.email, m.role]), [
        [owner.email, 'admin'],
        [bob.email, 'viewer'],
      ]);
      assert.equal((await as(bobWeb, 'PUT', `${members}/${owner.id}`, { role: 'viewer' })).statusCode, 404);
      assert.equal((await as(bobWeb, 'POST', members, { email: uniqueEmail(), role: 'viewer' })).statusCode, 404);
      assert.equal((await as(ownerWeb, 'DELETE', `${members}/${owner.id}`)).statusCode, 400, 'the last admin cannot leave');
      assert.equal((await as(bobWeb, 'PUT', `/app/api/workspaces/${workspaceId}`, { name: 'Mine now' })).statusCode, 404, 'only admins rename');
      const renamed = await as(ownerWeb, 'PUT', `/app/api/workspaces/${workspaceId}`, { name: '  Platform crew ' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json().name, 'Platform crew');
      const unsigned = await as(ownerWeb, 'PUT', `/app/api/workspaces/${workspaceId}`, { name: 'No CSRF' }, false);
      assert.equal(unsigned.statusCode, 403, 'a change without the CSRF token is refused');
      assert.equal((await as(bobWeb, 'GET', members)).json().name, 'Platform crew');
      assert.equal((await as(ownerWeb, 'PUT', `/app/api/workspaces/${workspaceId}`, { name: 'Platform' })).statusCode, 200);

      // A diagram moved in by its owner is listed in the workspace, for its members too.
      const id = await diagram('Roadmap');
      const moved = await h.call('POST', `/app/d/${id}/workspace`, { headers: { cookie: ownerWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `_csrf=${ownerWeb.csrfToken}&workspaceId=${workspaceId}` });
      assert.equal(moved.statusCode, 303);
      const listed = await as(bobWeb, 'GET', `/app?workspace=${workspaceId}`);
      assert.match(listed.body, /<h1>Platform<\/h1>/);
      assert.match(listed.body, /Roadmap<\/a><span class="role role-viewer"/);
      const movedBack = await h.call('POST', `/app/d/${id}/workspace`, { headers: { cookie: bobWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `_csrf=${bobWeb.csrfToken}&workspaceId=` });
      assert.equal(movedBack.statusCode, 404, 'only the owner moves a diagram');

      assert.equal((await as(bobWeb, 'DELETE', `${members}/${bob.id}`)).statusCode, 204, 'a member leaves');
      assert.equal((await as(bobWeb, 'GET', members)).statusCode, 404);
    });

    test('New diagram in Mermaid or DOT: the form offers the languages, creates from the text, previews it with its warnings, and a syntax error comes back in the form', async () => {
      const form = await as(ownerWeb, 'GET', '/app/new?language=mermaid');
      assert.match(form.body, /<input type="radio" name="language" value="mermaid" checked>/);
      assert.match(form.body, /<input type="radio" name="language" value="dot">/);
      const example = exampleIn(form.body);
      assert.match(example, /^flowchart LR/);
      const post = (fields: Record<string, string>) =>
        h.call('POST', '/app/diagrams', { headers: { cookie: ownerWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: ownerWeb.csrfToken, ...fields }).toString() });
      const created = await post({ title: 'From Mermaid', language: 'mermaid', spec: example });
      assert.equal(created.statusCode, 303, created.body);
      const read = (await h.call('GET', `/api/v1/diagrams/${String(created.headers.location).split('/').pop()}`, { token: owner.token })).json();
      assert.ok(read.scene.elements.some((e: { text?: string }) => e.text === 'Orders DB'));
      const dot = await post({ title: 'From DOT', language: 'dot', spec: 'digraph { a -> b }' });
      assert.equal(dot.statusCode, 303, dot.body);
      const broken = await post({ title: 'Broken', language: 'mermaid', spec: 'flowchart LR\n  a -->> b' });
      assert.equal(broken.statusCode, 400);
      assert.match(broken.body, /<code>INVALID_SOURCE<\/code>: the Mermaid source does not parse at line 2/);
      assert.match(broken.body, /value="mermaid" checked/, 'the form keeps the language');

      const preview = await as(ownerWeb, 'POST', '/app/api/specs/preview', { source: { language: 'mermaid', text: 'flowchart LR\n  a[Alpha] --> b\n  click a "https://x"' } });
      assert.equal(preview.statusCode, 200, preview.body);
      assert.match(preview.json().svg, /Alpha/);
      assert.deepEqual(preview.json().warnings, [{ line: 3, message: 'click handlers and links (click) are not kept' }]);
      const refused = await as(ownerWeb, 'POST', '/app/api/specs/preview', { source: { language: 'dot', text: 'digraph {' } });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().error, 'INVALID_SOURCE');
    });

    test('New diagram offers an example of each kind: sequence, class and ER open as Mermaid in the form, create as that kind and preview', async () => {
      const page = await as(ownerWeb, 'GET', '/app/new');
      for (const kind of ['sequence', 'class', 'er']) assert.ok(page.body.includes(`href="/app/new?example=${kind}"`), `a link to the ${kind} example`);
      const post = (fields: Record<string, string>) =>
        h.call('POST', '/app/diagrams', { headers: { cookie: ownerWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: ownerWeb.csrfToken, ...fields }).toString() });
      const shown: Record<string, RegExp> = { sequence: /^sequenceDiagram\n/, class: /^classDiagram\n/, er: /^erDiagram\n/ };
      for (const [kind, header] of Object.entries(shown)) {
        const form = await as(ownerWeb, 'GET', `/app/new?example=${kind}`);
        assert.match(form.body, /<input type="radio" name="language" value="mermaid" checked>/);
        const example = exampleIn(form.body);
        assert.match(example, header);
        const preview = await as(ownerWeb, 'POST', '/app/api/specs/preview', { source: { language: 'mermaid', text: example } });
        assert.equal(preview.statusCode, 200, preview.body);
        assert.deepEqual(preview.json().warnings, [], `${kind}: nothing left out`);
        const created = await post({ title: kind, language: 'mermaid', spec: example });
        assert.equal(created.statusCode, 303, created.body);
        const id = String(created.headers.location).split('/').pop();
        const source = (await h.call('GET', `/api/v1/diagrams/${id}/source?language=mermaid`, { token: owner.token })).json();
        assert.match(source.text, header, `${kind} reads back as its kind`);
      }
    });

    test('New diagram: the form opens with an example that creates a diagram, the preview draws a spec or answers why not, the icons are listed and served', async () => {
      const form = await as(ownerWeb, 'GET', '/app/new');
      assert.match(form.body, /&#34;icon&#34;: &#34;icon-postgresql&#34;/, 'the example spec is in the form');
      assert.match(form.body, /href="\/app\/help\/spec"/);
      const example = exampleIn(form.body);
      const created = await h.call('POST', '/app/diagrams', {
        headers: { cookie: ownerWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: ownerWeb.csrfToken, title: 'From the example', spec: example }).toString(),
      });
      assert.equal(created.statusCode, 303, created.body);
      const id = String(created.headers.location).split('/').pop()!;
      const read = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner.token })).json();
      assert.ok(read.scene.elements.some((e: { fileId?: string }) => e.fileId === 'icon-postgresql'));

      const blank = await h.call('POST', '/app/diagrams', {
        headers: { cookie: ownerWeb.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: ownerWeb.csrfToken, title: 'Blank', spec: example, blank: '1' }).toString(),
      });
      const blankId = String(blank.headers.location).split('/').pop()!;
      assert.equal((await h.call('GET', `/api/v1/diagrams/${blankId}`, { token: owner.token })).json().scene.elements.length, 0);

      const preview = await as(ownerWeb, 'POST', '/app/api/specs/preview', { spec: JSON.parse(example) });
      assert.equal(preview.statusCode, 200, preview.body);
      assert.match(preview.json().svg, /^<svg[\s\S]*Orders DB[\s\S]*<\/svg>\s*$/);
      const refused = await as(ownerWeb, 'POST', '/app/api/specs/preview', { spec: { nodes: [{ id: 'a' }], edges: ['a -> nowhere'] } });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.equal(refused.json().error, 'DANGLING_EDGE');
      assert.equal((await as(ownerWeb, 'POST', '/app/api/specs/preview', { spec: { nodes: [] } }, false)).statusCode, 403);

      const icons = (await as(ownerWeb, 'GET', '/app/api/icons')).json().items as Array<{ id: string }>;
      assert.ok(icons.length > 100 && icons.some((i) => i.id === 'icon-redis'));
      const svg = await as(ownerWeb, 'GET', '/app/icons/icon-redis.svg');
      assert.equal(svg.headers['content-type'], 'image/svg+xml');
      assert.equal((await as(ownerWeb, 'GET', '/app/icons/icon-nope.svg')).statusCode, 404);
      assert.equal((await h.call('GET', '/app/api/icons')).statusCode, 401);

      const grammar = await as(ownerWeb, 'GET', '/app/help/spec');
      assert.equal(grammar.statusCode, 200);
      assert.match(grammar.body, /<h2[^>]*>Grammar<\/h2>/);
      assert.doesNotMatch(grammar.body, /href="api\.md/, 'links to documents not served keep their text only');
    });
  });
}
