import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Engine, type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { skipWithoutPostgres } from '../helpers/postgres.ts';

/**
 * The access matrix: every way of reaching someone else's diagram (a direct
 * share, a workspace role) against every action on it. What a role may not
 * do answers 404 not_found, exactly as a missing diagram does, and changes
 * nothing; what it may do succeeds.
 */
type Who = 'owner' | 'shareViewer' | 'shareEditor' | 'workspaceViewer' | 'workspaceEditor' | 'workspaceAdmin' | 'stranger';
const EVERYONE: Who[] = ['owner', 'shareViewer', 'shareEditor', 'workspaceViewer', 'workspaceEditor', 'workspaceAdmin', 'stranger'];
const READERS: Who[] = ['owner', 'shareViewer', 'shareEditor', 'workspaceViewer', 'workspaceEditor', 'workspaceAdmin'];
const EDITORS: Who[] = ['owner', 'shareEditor', 'workspaceEditor', 'workspaceAdmin'];
const OWNER: Who[] = ['owner'];

interface Action {
  name: string;
  allowed: Who[];
  /** The request; `other` is a workspace every actor may file diagrams into. */
  request: (id: string, other: string) => { method: string; url: string; body?: unknown };
}

const ACTIONS: Action[] = [
  { name: 'read', allowed: READERS, request: (id) => ({ method: 'GET', url: `/api/v1/diagrams/${id}` }) },
  { name: 'render', allowed: READERS, request: (id) => ({ method: 'GET', url: `/api/v1/diagrams/${id}/render?quality=fast&format=svg` }) },
  {
    name: 'patch',
    allowed: EDITORS,
    request: (id) => ({ method: 'POST', url: `/api/v1/diagrams/${id}/patch`, body: { ops: [{ op: 'move', id: 'el-0', dx: 5, dy: 5 }] } }),
  },
  { name: 'edit', allowed: EDITORS, request: (id) => ({ method: 'POST', url: `/api/v1/diagrams/${id}/edit`, body: { addNodes: [{ id: 'added', label: 'Added' }] } }) },
  { name: 'rename', allowed: EDITORS, request: (id) => ({ method: 'PATCH', url: `/api/v1/diagrams/${id}`, body: { title: 'Renamed' } }) },
  { name: 'history restore', allowed: EDITORS, request: (id) => ({ method: 'POST', url: `/api/v1/diagrams/${id}/revisions/r1/restore`, body: {} }) },
  { name: 'delete', allowed: OWNER, request: (id) => ({ method: 'DELETE', url: `/api/v1/diagrams/${id}` }) },
  { name: 'restore from the trash', allowed: OWNER, request: (id) => ({ method: 'POST', url: `/api/v1/diagrams/${id}/restore` }) },
  { name: 'publish', allowed: OWNER, request: (id) => ({ method: 'PUT', url: `/api/v1/diagrams/${id}/public-link`, body: { enabled: true } }) },
  { name: 'move to another workspace', allowed: OWNER, request: (id, other) => ({ method: 'PUT', url: `/api/v1/diagrams/${id}/workspace`, body: { workspaceId: other } }) },
  { name: 'move out of its workspace', allowed: OWNER, request: (id) => ({ method: 'PUT', url: `/api/v1/diagrams/${id}/workspace`, body: { workspaceId: null } }) },
  { name: 'list shares', allowed: OWNER, request: (id) => ({ method: 'GET', url: `/api/v1/diagrams/${id}/shares` }) },
  { name: 'share', allowed: OWNER, request: (id) => ({ method: 'POST', url: `/api/v1/diagrams/${id}/shares`, body: { email: 'newcomer@example.com', role: 'editor' } }) },
  { name: 'change a share', allowed: OWNER, request: (id) => ({ method: 'PATCH', url: `/api/v1/diagrams/${id}/shares/{shareViewer}`, body: { role: 'editor' } }) },
  { name: 'remove a share', allowed: OWNER, request: (id) => ({ method: 'DELETE', url: `/api/v1/diagrams/${id}/shares/{shareViewer}` }) },
];

for (const { engine, skip } of [
  { engine: 'sqlite' as Engine, skip: false as const },
  { engine: 'postgres' as Engine, skip: skipWithoutPostgres },
]) {
  describe(`sharing access matrix on ${engine}`, { skip }, () => {
    let h: Harness;
    const people = {} as Record<Who, TestUser>;
    let workspace: string;
    let other: string;

    before(async () => {
      h = await startHarness({ engine });
      for (const who of EVERYONE) people[who] = await h.user({ email: `${who.toLowerCase()}-${engine}@example.com` });
      workspace = (await h.call('POST', '/api/v1/workspaces', { token: people.owner.token, body: { name: 'Team' } })).json().id;
      for (const [who, role] of [['workspaceViewer', 'viewer'], ['workspaceEditor', 'editor'], ['workspaceAdmin', 'admin']] as const) {
        const added = await h.call('POST', `/api/v1/workspaces/${workspace}/members`, { token: people.owner.token, body: { email: people[who].email, role } });
        assert.equal(added.statusCode, 200, added.body);
      }
      // Another workspace where everyone is an editor: a move is refused for the diagram, not for the target.
      other = (await h.call('POST', '/api/v1/workspaces', { token: people.owner.token, body: { name: 'Elsewhere' } })).json().id;
      for (const who of EVERYONE.filter((w) => w !== 'owner')) {
        await h.call('POST', `/api/v1/workspaces/${other}/members`, { token: people.owner.token, body: { email: people[who].email, role: 'editor' } });
      }
    });
    after(() => h.close());

    /** A diagram of the owner's in the workspace, shared directly with the share viewer and editor, with two revisions. */
    async function sharedDiagram(): Promise<string> {
      const owner = people.owner.token;
      const id = (await h.call('POST', '/api/v1/diagrams', { token: owner, body: { title: 'Shared', scene: sceneOf(2) } })).json().id as string;
      await h.call('POST', `/api/v1/diagrams/${id}/patch`, { token: owner, body: { ops: [{ op: 'move', id: 'el-1', dx: 1, dy: 1 }] } });
      assert.equal((await h.call('PUT', `/api/v1/diagrams/${id}/workspace`, { token: owner, body: { workspaceId: workspace } })).statusCode, 200);
      for (const [who, role] of [['shareViewer', 'viewer'], ['shareEditor', 'editor']] as const) {
        const shared = await h.call('POST', `/api/v1/diagrams/${id}/shares`, { token: owner, body: { email: people[who].email, role } });
        assert.deepEqual(Object.keys(shared.json()), ['share']);
      }
      return id;
    }

    /** Everything about a diagram an action could change, as its owner and the store see it. */
    async function stateOf(id: string) {
      const owner = people.owner.token;
      const diagram = (await h.call('GET', `/api/v1/diagrams/${id}`, { token: owner })).json();
      const meta = await h.store.diagrams.find(id);
      return {
        diagram,
        workspaceId: meta?.workspaceId,
        shares: (await h.call('GET', `/api/v1/diagrams/${id}/shares`, { token: owner })).json(),
        publicLink: (await h.call('GET', `/api/v1/diagrams/${id}/public-link`, { token: owner })).json(),
        revisions: (await h.call('GET', `/api/v1/diagrams/${id}/revisions`, { token: owner })).json().items.length,
      };
    }

    const missing = '00000000-0000-4000-8000-000000000000';

    for (const action of ACTIONS) {
      test(`${action.name}: ${action.allowed.join(', ')} may; everyone else gets not_found and nothing changes`, async () => {
        const notFound = await call(action, missing);
        assert.equal(notFound.statusCode, 404);
        for (const who of EVERYONE) {
          const id = await sharedDiagram();
          if (action.name === 'restore from the trash') await h.call('DELETE', `/api/v1/diagrams/${id}`, { token: people.owner.token });
          const before = await stateOf(id);
          const res = await call(action, id, who);
          if (action.allowed.includes(who)) {
            assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${who}: ${res.statusCode} ${res.body}`);
          } else {
            assert.equal(res.statusCode, 404, `${who}: ${res.statusCode} ${res.body}`);
            assert.equal(res.body, notFound.body.replace(missing, id), `${who}: the same answer as a missing diagram`);
            assert.deepEqual(await stateOf(id), before, `${who}: nothing changed`);
          }
        }
      });
    }

    function call(action: Action, id: string, who: Who = 'owner') {
      const { method, url, body } = action.request(id, other);
      return h.call(method, url.replace('{shareViewer}', people.shareViewer.id), { token: people[who].token, ...(body === undefined ? {} : { body }) });
    }

    test('a workspace viewer cannot move their own diagram in; an editor can, and only the owner takes it out', async () => {
      const viewer = people.workspaceViewer;
      const own = (await h.call('POST', '/api/v1/diagrams', { token: viewer.token, body: { scene: sceneOf(1) } })).json().id;
      const refused = await h.call('PUT', `/api/v1/diagrams/${own}/workspace`, { token: viewer.token, body: { workspaceId: workspace } });
      assert.equal(refused.statusCode, 404);
      assert.equal((await h.store.diagrams.find(own))?.workspaceId, null);

      const editor = people.workspaceEditor;
      const theirs = (await h.call('POST', '/api/v1/diagrams', { token: editor.token, body: { scene: sceneOf(1) } })).json().id;
      const moved = await h.call('PUT', `/api/v1/diagrams/${theirs}/workspace`, { token: editor.token, body: { workspaceId: workspace } });
      assert.deepEqual(moved.json(), { id: theirs, workspaceId: workspace });
      const byAdmin = await h.call('PUT', `/api/v1/diagrams/${theirs}/workspace`, { token: people.workspaceAdmin.token, body: { workspaceId: null } });
      assert.equal(byAdmin.statusCode, 404, 'a workspace admin edits the diagram but does not own it');
      assert.equal((await h.store.diagrams.find(theirs))?.workspaceId, workspace);
    });

    test('the shared listing gives each diagram with the caller\'s best role; the workspace listing is for members only', async () => {
      const id = await sharedDiagram();
      const expectations: [Who, string | null][] = [
        ['shareViewer', 'viewer'],
        ['shareEditor', 'editor'],
        ['workspaceViewer', 'viewer'],
        ['workspaceEditor', 'editor'],
        ['workspaceAdmin', 'editor'],
        ['stranger', null],
        ['owner', null],
      ];
      for (const [who, role] of expectations) {
        const items = (await h.call('GET', '/api/v1/diagrams?filter=shared&limit=100', { token: people[who].token })).json().items as { id: string; role: string; workspaceId: string }[];
        const item = items.find((i) => i.id === id);
        assert.equal(item?.role ?? null, role, who);
        if (item) assert.equal(item.workspaceId, workspace);
      }
      const inWorkspace = await h.call('GET', `/api/v1/diagrams?workspace=${workspace}&limit=100`, { token: people.owner.token });
      assert.equal(inWorkspace.json().items.find((i: { id: string }) => i.id === id)?.role, 'owner');
      for (const who of ['stranger', 'shareViewer'] as const) {
        const refused = await h.call('GET', `/api/v1/diagrams?workspace=${workspace}`, { token: people[who].token });
        assert.equal(refused.statusCode, 404, who);
      }
      // The owner's own listing stays as it was: no role, no workspaceId.
      const own = (await h.call('GET', '/api/v1/diagrams?limit=1', { token: people.owner.token })).json().items[0];
      assert.deepEqual(Object.keys(own).sort(), ['createdAt', 'editorUrl', 'folderId', 'id', 'starred', 'title', 'updatedAt']);
    });

    test('managing the workspace: only admins rename, invite, change roles and remove; anyone else gets not_found and nothing changes', async () => {
      const members = async () => (await h.call('GET', `/api/v1/workspaces/${workspace}/members`, { token: people.owner.token })).json();
      const name = async () => (await h.call('GET', `/api/v1/workspaces/${workspace}`, { token: people.owner.token })).json().name;
      const attempts = [
        { method: 'PATCH', url: `/api/v1/workspaces/${workspace}`, body: { name: 'Taken over' } },
        { method: 'POST', url: `/api/v1/workspaces/${workspace}/members`, body: { email: people.stranger.email, role: 'admin' } },
        { method: 'PATCH', url: `/api/v1/workspaces/${workspace}/members/${people.workspaceViewer.id}`, body: { role: 'admin' } },
        { method: 'DELETE', url: `/api/v1/workspaces/${workspace}/members/${people.workspaceAdmin.id}` },
      ];
      for (const who of ['workspaceViewer', 'workspaceEditor', 'stranger', 'shareEditor'] as const) {
        for (const attempt of attempts) {
          const before = { members: await members(), name: await name() };
          const res = await h.call(attempt.method, attempt.url, { token: people[who].token, ...(attempt.body ? { body: attempt.body } : {}) });
          assert.equal(res.statusCode, 404, `${who} ${attempt.method} ${attempt.url}: ${res.body}`);
          assert.equal(res.json().error, 'not_found');
          assert.deepEqual({ members: await members(), name: await name() }, before);
        }
      }
      const seen = await h.call('GET', `/api/v1/workspaces/${workspace}/members`, { token: people.stranger.token });
      assert.equal(seen.statusCode, 404);
      const renamed = await h.call('PATCH', `/api/v1/workspaces/${workspace}`, { token: people.workspaceAdmin.token, body: { name: 'Team A' } });
      assert.equal(renamed.json().name, 'Team A');
      await h.call('PATCH', `/api/v1/workspaces/${workspace}`, { token: people.owner.token, body: { name: 'Team' } });
    });

    test('tokens need publish to manage shares and move, write to change a workspace, read to list', async () => {
      const id = await sharedDiagram();
      const owner = await h.admin('token', 'mint', '--email', people.owner.email, '--caps', 'read,write,delete');
      for (const [method, url, body] of [
        ['POST', `/api/v1/diagrams/${id}/shares`, { email: 'x@example.com', role: 'viewer' }],
        ['PATCH', `/api/v1/diagrams/${id}/shares/${people.shareViewer.id}`, { role: 'editor' }],
        ['DELETE', `/api/v1/diagrams/${id}/shares/${people.shareViewer.id}`, undefined],
        ['PUT', `/api/v1/diagrams/${id}/workspace`, { workspaceId: null }],
      ] as const) {
        const res = await h.call(method, url, { token: owner.token, ...(body ? { body } : {}) });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.equal(res.json().error, 'insufficient_scope');
      }
      const readOnly = await h.admin('token', 'mint', '--email', people.owner.email, '--caps', 'read');
      assert.equal((await h.call('GET', `/api/v1/diagrams/${id}/shares`, { token: readOnly.token })).statusCode, 200);
      assert.equal((await h.call('GET', '/api/v1/workspaces', { token: readOnly.token })).statusCode, 200);
      const refused = await h.call('PATCH', `/api/v1/workspaces/${workspace}`, { token: readOnly.token, body: { name: 'No' } });
      assert.equal(refused.json().error, 'insufficient_scope');
    });
  });
}
