/**
 * The security matrix: every authenticated route against every kind of caller.
 * One table of routes, one table of callers; each cell is a test.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { generateToken } from '../../src/auth/token.ts';
import { type Harness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { ApiError } from '../../src/errors.ts';

type Target = 'none' | 'diagram' | 'folder';
type Action = 'read' | 'write' | 'own';

interface RouteCase {
  method: string;
  path: string;
  capability: 'read' | 'write' | 'publish' | 'delete' | null;
  target: Target;
  action?: Action;
  body?: () => unknown;
}

const ROUTES: RouteCase[] = [
  { method: 'GET', path: '/api/v1/me', capability: null, target: 'none' },
  { method: 'GET', path: '/api/v1/diagrams', capability: 'read', target: 'none' },
  { method: 'POST', path: '/api/v1/diagrams', capability: 'write', target: 'none', body: () => ({ scene: sceneOf(1) }) },
  { method: 'GET', path: '/api/v1/diagrams/:id', capability: 'read', target: 'diagram', action: 'read' },
  { method: 'GET', path: '/api/v1/diagrams/:id/lint', capability: 'read', target: 'diagram', action: 'read' },
  { method: 'POST', path: '/api/v1/diagrams/:id/edit', capability: 'write', target: 'diagram', action: 'write', body: () => ({ addNodes: [{ id: `n${Math.random().toString(36).slice(2, 8)}` }] }) },
  { method: 'POST', path: '/api/v1/diagrams/:id/patch', capability: 'write', target: 'diagram', action: 'write', body: () => ({ ops: [{ op: 'move', id: 'el-0', dx: 5, dy: 0 }] }) },
  { method: 'POST', path: '/api/v1/diagrams/:id/regenerate', capability: 'write', target: 'diagram', action: 'write', body: () => ({ scene: sceneOf(2) }) },
  { method: 'GET', path: '/api/v1/diagrams/:id/comments', capability: 'read', target: 'diagram', action: 'read' },
  { method: 'POST', path: '/api/v1/diagrams/:id/comments', capability: 'write', target: 'diagram', action: 'write', body: () => ({ body: 'Looks good' }) },
  { method: 'PATCH', path: '/api/v1/diagrams/:id', capability: 'write', target: 'diagram', action: 'write', body: () => ({ title: 'Renamed' }) },
  { method: 'DELETE', path: '/api/v1/diagrams/:id', capability: 'delete', target: 'diagram', action: 'own' },
  { method: 'POST', path: '/api/v1/diagrams/:id/restore', capability: 'delete', target: 'diagram', action: 'own' },
  { method: 'GET', path: '/api/v1/diagrams/:id/public-link', capability: 'read', target: 'diagram', action: 'read' },
  { method: 'PUT', path: '/api/v1/diagrams/:id/public-link', capability: 'publish', target: 'diagram', action: 'own', body: () => ({ enabled: true }) },
  { method: 'GET', path: '/api/v1/folders', capability: 'read', target: 'none' },
  { method: 'POST', path: '/api/v1/folders', capability: 'write', target: 'none', body: () => ({ name: 'Matrix' }) },
  { method: 'PATCH', path: '/api/v1/folders/:id', capability: 'write', target: 'folder', body: () => ({ name: 'Renamed' }) },
  { method: 'DELETE', path: '/api/v1/folders/:id', capability: 'delete', target: 'folder' },
  { method: 'GET', path: '/api/v1/icons', capability: 'read', target: 'none' },
  { method: 'GET', path: '/api/v1/icons/icon-database', capability: 'read', target: 'none' },
];

const ALL_CAPS = ['read', 'write', 'publish', 'delete'] as const;

/** Roles reached through sharing or a workspace, and what each may do. */
const ROLES: Array<{ name: string; may: Action[] }> = [
  { name: 'shared viewer', may: ['read'] },
  { name: 'shared editor', may: ['read', 'write'] },
  { name: 'workspace viewer', may: ['read'] },
  { name: 'workspace editor', may: ['read', 'write'] },
  { name: 'workspace admin', may: ['read', 'write'] },
];

let h: Harness;
let owner: TestUser;
let stranger: TestUser;
let workspaceId: string;
const byRole = new Map<string, TestUser>();

describe('http/security', () => {
  before(async () => {
    h = await startHarness();
    owner = await h.user();
    stranger = await h.user();
    for (const role of ROLES) byRole.set(role.name, await h.user());
    const workspaceOwner = await h.user();
    workspaceId = (await h.admin('workspace', 'create', '--name', 'Matrix', '--owner', workspaceOwner.email)).id;
    for (const role of ['viewer', 'editor', 'admin']) {
      await h.admin('workspace', 'add-member', '--workspace', workspaceId, '--email', byRole.get(`workspace ${role}`)!.email, '--role', role);
    }
  });
  after(() => h.close());

  /** A fresh diagram owned by `owner`, shared with every role of the table. */
  async function freshDiagram(): Promise<string> {
    const res = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { title: 'Target', scene: sceneOf(2) } });
    assert.equal(res.statusCode, 201, res.body);
    const id = res.json().id as string;
    await h.admin('diagram', 'share', '--id', id, '--email', byRole.get('shared viewer')!.email, '--role', 'viewer');
    await h.admin('diagram', 'share', '--id', id, '--email', byRole.get('shared editor')!.email, '--role', 'editor');
    await h.admin('diagram', 'set-workspace', '--id', id, '--workspace', workspaceId);
    return id;
  }

  async function freshFolder(user: TestUser): Promise<string> {
    const res = await h.call('POST', '/api/v1/folders', { token: user.token, body: { name: 'Target' } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id;
  }

  async function urlFor(route: RouteCase, id?: string): Promise<string> {
    if (route.target === 'diagram') return route.path.replace(':id', id ?? (await freshDiagram()));
    if (route.target === 'folder') return route.path.replace(':id', id ?? (await freshFolder(owner)));
    return route.path;
  }

  function send(route: RouteCase, url: string, token?: string, headers?: Record<string, string>) {
    return h.call(route.method, url, { ...(token ? { token } : {}), ...(route.body ? { body: route.body() } : {}), ...(headers ? { headers } : {}) });
  }

  async function tokenFor(user: TestUser, caps: string, extra: string[] = []): Promise<string> {
    return (await h.admin('token', 'mint', '--email', user.email, '--caps', caps, ...extra)).token;
  }

  const UNAUTHORIZED = JSON.stringify({
    error: 'unauthorized',
    message: 'Send a valid API token in the header "Authorization: Bearer <token>"; make one in the web app under Settings, API tokens (/app/settings/tokens).',
  });
  const WWW_AUTHENTICATE = 'Bearer realm="drawbridge", error="invalid_token"';

  for (const route of ROUTES) {
    describe(`${route.method} ${route.path}`, () => {
      test('without a token is 401 unauthorized, telling how to authenticate and nothing else', async () => {
        const res = await send(route, await urlFor(route));
        assert.equal(res.statusCode, 401);
        assert.equal(res.body, UNAUTHORIZED);
        assert.equal(res.headers['www-authenticate'], WWW_AUTHENTICATE);
      });

      test('with a malformed token is the same 401', async () => {
        const url = await urlFor(route);
        for (const header of ['Bearer nope', 'Basic abc', 'Bearer drw_pat_short_abcdef', `Bearer ${owner.token}x`, owner.token]) {
          const res = await send(route, url, undefined, { authorization: header });
          assert.equal(res.statusCode, 401, header);
          assert.equal(res.body, UNAUTHORIZED);
          assert.equal(res.headers['www-authenticate'], WWW_AUTHENTICATE);
        }
      });

      test('with a well-formed token that was never minted is the same 401', async () => {
        const res = await send(route, await urlFor(route), generateToken());
        assert.equal(res.statusCode, 401);
        assert.equal(res.body, UNAUTHORIZED);
        assert.equal(res.headers['www-authenticate'], WWW_AUTHENTICATE);
      });

      test('with a revoked token is the same 401, from the next request on', async () => {
        const minted = await h.admin('token', 'mint', '--email', owner.email, '--caps', 'read,write,publish,delete');
        const url = await urlFor(route);
        const before = await h.call('GET', '/api/v1/me', { token: minted.token });
        assert.equal(before.statusCode, 200);
        await h.admin('token', 'revoke', '--id', minted.id);
        const res = await send(route, url, minted.token);
        assert.equal(res.statusCode, 401);
        assert.equal(res.body, UNAUTHORIZED);
        assert.equal(res.headers['www-authenticate'], WWW_AUTHENTICATE);
      });

      test('with an expired token is the same 401', async () => {
        const token = await tokenFor(owner, 'read,write,publish,delete', ['--expires-at', new Date(Date.now() - 1000).toISOString()]);
        const res = await send(route, await urlFor(route), token);
        assert.equal(res.statusCode, 401);
        assert.equal(res.body, UNAUTHORIZED);
        assert.equal(res.headers['www-authenticate'], WWW_AUTHENTICATE);
      });

      test(route.path === '/api/v1/me' ? 'answers an unverified account' : 'refuses an unverified account with 403 email_unverified', async () => {
        const unverified = await h.user({ unverified: true });
        const url = route.target === 'folder' ? route.path.replace(':id', randomUUID()) : await urlFor(route);
        const res = await send(route, url, unverified.token);
        if (route.path === '/api/v1/me') {
          assert.equal(res.statusCode, 200);
        } else {
          assert.equal(res.statusCode, 403);
          assert.equal(res.json().error, 'email_unverified');
        }
      });

      if (route.capability !== null) {
        const missing = route.capability;
        test(`without the "${missing}" capability is 403 insufficient_scope and changes nothing`, async () => {
          const token = await tokenFor(owner, ALL_CAPS.filter((c) => c !== missing).join(','));
          const url = await urlFor(route);
          const before = await h.call('GET', url.startsWith('/api/v1/folders') ? '/api/v1/folders' : url.replace(/\/(restore|public-link|regenerate|comments|edit|patch)$/, ''), { token: owner.token });
          const res = await send(route, url, token);
          assert.equal(res.statusCode, 403);
          assert.equal(res.json().error, 'insufficient_scope');
          assert.match(res.json().message, new RegExp(missing));
          const afterRead = await h.call('GET', url.startsWith('/api/v1/folders') ? '/api/v1/folders' : url.replace(/\/(restore|public-link|regenerate|comments|edit|patch)$/, ''), { token: owner.token });
          if (route.method !== 'GET') assert.equal(afterRead.body, before.body);
        });

        test('with only the required capability is allowed', async () => {
          const token = await tokenFor(owner, missing);
          const res = await send(route, await urlFor(route), token);
          assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode} ${res.body}`);
        });
      }

      if (route.target !== 'none') {
        test("on another user's resource is 404, byte-identical to a missing id, and changes nothing", async () => {
          const url = await urlFor(route);
          const missingUrl = route.path.replace(':id', randomUUID());
          const before = await h.call('GET', route.target === 'folder' ? '/api/v1/folders' : url.replace(/\/(restore|public-link|regenerate|comments|edit|patch)$/, ''), { token: owner.token });
          const res = await send(route, url, stranger.token);
          const missing = await send(route, missingUrl, stranger.token);
          assert.equal(res.statusCode, 404);
          assert.equal(res.body, JSON.stringify(new ApiError('not_found').toBody()));
          assert.equal(res.body, missing.body);
          assert.equal(res.headers['content-type'], missing.headers['content-type']);
          const afterRead = await h.call('GET', route.target === 'folder' ? '/api/v1/folders' : url.replace(/\/(restore|public-link|regenerate|comments|edit|patch)$/, ''), { token: owner.token });
          assert.equal(afterRead.body, before.body);
        });
      }

      if (route.target === 'folder') {
        for (const role of ROLES) {
          test(`a ${role.name} of a diagram has no reach into the owner's folders (404)`, async () => {
            const res = await send(route, await urlFor(route), byRole.get(role.name)!.token);
            assert.equal(res.statusCode, 404);
          });
        }
      }

      if (route.target === 'diagram') {
        for (const role of ROLES) {
          const allowed = role.may.includes(route.action!);
          test(`a ${role.name} is ${allowed ? 'allowed' : 'refused with 404'}`, async () => {
            const url = await urlFor(route);
            const res = await send(route, url, byRole.get(role.name)!.token);
            if (allowed) {
              assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode} ${res.body}`);
            } else {
              assert.equal(res.statusCode, 404);
              assert.equal(res.body, JSON.stringify(new ApiError('not_found').toBody()));
            }
          });
        }

        test('the owner is allowed', async () => {
          const res = await send(route, await urlFor(route), owner.token);
          assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode} ${res.body}`);
        });

        test('a role on one diagram gives nothing on another', async () => {
          const other = await h.call('POST', '/api/v1/diagrams', { token: owner.token, body: { scene: sceneOf(1) } });
          const res = await send(route, route.path.replace(':id', other.json().id), byRole.get('shared editor')!.token);
          assert.equal(res.statusCode, 404);
        });
      }
    });
  }

  test('a read-only token sees scope "read"; a full token sees "read-write"', async () => {
    const readOnly = await tokenFor(owner, 'read');
    const me = await h.call('GET', '/api/v1/me', { token: readOnly });
    assert.deepEqual(me.json(), { id: owner.id, email: owner.email, capabilities: ['read'], scope: 'read' });
    const full = await h.call('GET', '/api/v1/me', { token: owner.token });
    assert.equal(full.json().scope, 'read-write');
    const threeCaps = await h.call('GET', '/api/v1/me', { token: await tokenFor(owner, 'read,write,publish') });
    assert.equal(threeCaps.json().scope, 'read');
  });

  test('GET /diagrams lists only owned diagrams, never shared ones', async () => {
    const id = await freshDiagram();
    const viewer = byRole.get('shared editor')!;
    const list = await h.call('GET', '/api/v1/diagrams?limit=100', { token: viewer.token });
    assert.equal(list.statusCode, 200);
    assert.ok(!list.json().items.some((d: { id: string }) => d.id === id));
  });

  test('no token ever appears in the logs', async () => {
    // A token in the query is an unknown parameter: refused, named, and its value neither echoed nor logged.
    const res = await h.call('GET', `/api/v1/me?token=${owner.token}`, { token: owner.token });
    assert.equal(res.statusCode, 400);
    assert.ok(res.json().message.startsWith('unknown query parameter "token"'));
    assert.ok(!res.body.includes(owner.token.slice(8)), 'the token text is in the answer');
    await h.call('GET', '/api/v1/diagrams', { headers: { authorization: `Bearer ${owner.token}x` } });
    const logs = h.logs();
    assert.ok(logs.length > 0, 'the app logged requests');
    assert.ok(!logs.includes(owner.token.slice(8)), 'the token text is in the logs');
  });
});
