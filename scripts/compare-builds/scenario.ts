// One build's side of scripts/compare-builds.ts: starts that build's service in this process on a fresh
// database, sends it the same requests the other build gets, and writes each exchange (what was sent, the
// status, the headers and the body) as a line of JSON. Runs with scripts/compare-builds/determinism.mjs
// preloaded, so both builds draw the same random numbers and read the same clock.
//
//   node --import tsx --import ./scripts/compare-builds/determinism.mjs scripts/compare-builds/scenario.ts BUILD ENGINE OUT [ROUTES]
//
// BUILD is the root of the build's source tree (its src/ is imported as it is); ENGINE is sqlite or postgres
// (DATABASE_URL then names an empty, unmigrated database); OUT is the file the exchanges are written to.
// ROUTES is a JSON file of the routes to probe ([{ url, methods }]): the union of both builds' routes, so that
// both get the same requests in the same order; `-` writes the build's own routes to OUT and stops.
//
// The requests: a journey through every feature as a person, an agent and an administrator use it (REST
// with a token, the web app with a session, the public pages, MCP, OAuth, the admin commands), then, for
// every route the build serves and every method it answers, the same few probes (no credentials; the
// owner with an empty, then a malformed body; a stranger). Only the build's own modules decide the answers.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { servedRoutes as routerRoutes } from '../../test/helpers/routes.ts';
import type { Exchange } from './compare.ts';

const [buildRoot, engine, outFile, routesFile] = process.argv.slice(2) as [string, 'sqlite' | 'postgres', string, string | undefined];
if (!buildRoot || !outFile || (engine !== 'sqlite' && engine !== 'postgres')) {
  console.error('usage: scenario.ts BUILD sqlite|postgres OUT [ROUTES|-]');
  process.exit(2);
}

const clock = (globalThis as Record<symbol, { now: number; reseed(seed: number): void }>)[Symbol.for('drawbridge.compare-builds.clock')];
if (!clock) throw new Error('scripts/compare-builds/determinism.mjs must be preloaded');
/** Before each request: the clock one second on, the random numbers from a seed of their own. */
const tick = () => {
  clock.now += 1000;
  clock.reseed(index + 1);
};

const from = (file: string) => import(path.join(path.resolve(buildRoot), file));
const { loadConfig } = await from('src/config.ts');
const { openStore } = await from('src/store/open.ts');
const { buildServer } = await from('src/server.ts');
const { runAdminCommand } = await from('src/admin/commands.ts');
const { SESSION_COOKIE } = await from('src/web/session.ts');
const { SESSION_TTL_MS } = await from('src/app/sessions/sessions.ts');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-compare-'));
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  PUBLIC_URL: 'http://drawbridge.test',
  RATE_LIMIT_READ_PER_MIN: '100000',
  RATE_LIMIT_WRITE_PER_MIN: '100000',
  RATE_LIMIT_PAGES_PER_MIN: '100000',
  ...(engine === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL! } : {}),
};
const config = loadConfig(env);
// Start-up draws random numbers (keys, secrets) as the build needs them; from here both builds start alike.
clock.reseed(0);
const store = await openStore(config);
const logFile = fs.createWriteStream(`${outFile}.log`);
const app = await buildServer({ config, store, now: () => new Date() }, { logger: { level: 'info', stream: logFile } });
await app.ready();

/** The routes the build serves, each with the methods it answers (HEAD aside), in order. */
function servedRoutes(): Array<{ url: string; methods: string[] }> {
  return routerRoutes(app)
    .map((route) => ({ url: route.url, methods: route.methods.filter((m) => m !== 'HEAD').sort() }))
    .sort((a, b) => a.url.localeCompare(b.url));
}
if (routesFile === '-') {
  fs.writeFileSync(outFile, JSON.stringify(servedRoutes()));
  await app.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

const out = fs.createWriteStream(outFile);
let index = 0;

const record = (exchange: Exchange) => void out.write(`${JSON.stringify({ index: index++, ...exchange })}\n`);

/** A body as it can be compared: JSON parsed, text as text, anything else by length and hash. */
function bodyOf(contentType: string, raw: Buffer): unknown {
  if (raw.length === 0) return '';
  if (/json/.test(contentType)) {
    try {
      return { json: JSON.parse(raw.toString('utf8')) };
    } catch {
      return { text: raw.toString('utf8') };
    }
  }
  if (/^text\/|svg|xml|javascript|html/.test(contentType)) return { text: raw.toString('utf8') };
  return { bytes: raw.length, sha256: createHash('sha256').update(raw).digest('hex') };
}

type Caller = 'owner' | 'viewer' | 'stranger' | 'anonymous' | 'web' | 'web-viewer';
const tokens: Record<string, string> = {};
const sessions: Record<string, { cookie: string; csrf: string }> = {};

interface Send {
  as?: Caller;
  json?: unknown;
  text?: string;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

async function send(step: string, method: string, url: string, options: Send = {}) {
  tick();
  const as = options.as ?? 'owner';
  const headers: Record<string, string> = { ...options.headers };
  if (tokens[as]) headers.authorization = `Bearer ${tokens[as]}`;
  const session = sessions[as];
  if (session) {
    headers.cookie = session.cookie;
    headers['x-csrf-token'] = session.csrf;
  }
  let payload: string | undefined;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  } else if (options.form) {
    payload = new URLSearchParams({ ...options.form, ...(session ? { _csrf: session.csrf } : {}) }).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (options.text !== undefined) {
    payload = options.text;
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method, url, headers, payload });
  const body = bodyOf(String(response.headers['content-type'] ?? ''), response.rawPayload);
  record({ step, request: { method, url, as, body: options.json ?? options.form ?? options.text }, status: response.statusCode, headers: response.headers, body });
  return { status: response.statusCode, headers: response.headers, json: (body as { json?: any }).json, text: response.body };
}

async function admin(step: string, ...argv: string[]) {
  tick();
  let result: unknown;
  try {
    result = { ok: await runAdminCommand(argv, store, () => new Date(), config) };
  } catch (error) {
    result = { error: (error as Error).message };
  }
  record({ step, request: { method: 'ADMIN', url: argv.join(' '), as: 'admin' }, status: 0, headers: {}, body: result });
  return (result as { ok?: any }).ok;
}

async function signIn(as: Caller, userId: string) {
  const value = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  await store.sessions.create({
    idHash: createHash('sha256').update(value).digest('hex'),
    userId,
    csrfToken: csrf,
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
  });
  sessions[as] = { cookie: `${SESSION_COOKIE}=${value}`, csrf };
}

// ——— The accounts ———
const people = { owner: 'owner@example.com', viewer: 'viewer@example.com', stranger: 'stranger@example.com' } as const;
const ids: Record<string, string> = {};
for (const [as, email] of Object.entries(people)) {
  ids[as] = (await admin(`create ${as}`, 'user', 'create', '--email', email, '--quota', '100')).id;
  tokens[as] = (await admin(`token for ${as}`, 'token', 'mint', '--email', email, '--caps', 'read,write,publish,delete')).token;
}
await admin('unverified user', 'user', 'create', '--email', 'later@example.com', '--unverified');
await admin('verify', 'user', 'verify', '--email', 'later@example.com');
await admin('quota', 'user', 'set-quota', '--email', 'later@example.com', '--quota', 'unlimited');
await admin('token list', 'token', 'list', '--email', people.owner);
await admin('read-only token', 'token', 'mint', '--email', people.viewer, '--caps', 'read');
await admin('unknown user', 'token', 'mint', '--email', 'nobody@example.com');
await signIn('web', ids.owner!);
await signIn('web-viewer', ids.viewer!);

// ——— REST, as an agent or a script uses it ———
await send('me', 'GET', '/api/v1/me');
await send('health', 'GET', '/healthz', { as: 'anonymous' });
await send('ready', 'GET', '/readyz', { as: 'anonymous' });
await send('openapi', 'GET', '/api/v1/openapi.json', { as: 'anonymous' });
const folder = (await send('create folder', 'POST', '/api/v1/folders', { json: { name: 'Plans' } })).json;
const subfolder = (await send('create subfolder', 'POST', '/api/v1/folders', { json: { name: 'Drafts', parentId: folder?.id ?? null } })).json;
await send('list folders', 'GET', '/api/v1/folders');
await send('get folder', 'GET', `/api/v1/folders/${folder?.id}`);
await send('rename folder', 'PATCH', `/api/v1/folders/${subfolder?.id}`, { json: { name: 'Drafts 2' } });

const spec = {
  nodes: [
    { id: 'start', label: 'Request arrives' },
    { id: 'auth', label: 'Token valid?', shape: 'diamond' },
    { id: 'cache', label: 'Session cache', shape: 'cylinder' },
    { id: 'done', label: 'Answer sent' },
  ],
  edges: [
    { from: 'start', to: 'auth' },
    { from: 'auth', to: 'cache', label: 'yes' },
    { from: 'auth', to: 'done', label: 'no' },
    { from: 'cache', to: 'done' },
  ],
};
const flow = (await send('create from spec', 'POST', '/api/v1/diagrams', { json: { title: 'Request flow', spec } })).json;
const scene = {
  type: 'excalidraw',
  version: 2,
  elements: [
    { id: 'box-1', type: 'rectangle', x: 0, y: 0, width: 120, height: 60 },
    { id: 'box-2', type: 'ellipse', x: 200, y: 0, width: 120, height: 60 },
  ],
  appState: { viewBackgroundColor: '#ffffff' },
};
const raw = (await send('create from scene', 'POST', '/api/v1/diagrams', { json: { title: 'Two shapes', scene, folderId: folder?.id } })).json;
const mermaid = 'flowchart LR\n  a[Client] -->|HTTPS| b(Gateway)\n  b --> c[(Database)]\n  subgraph svc [Services]\n    b\n  end\n  click a href "https://example.com"';
const fromMermaid = (await send('create from mermaid', 'POST', '/api/v1/diagrams', { json: { title: 'Mermaid', source: { language: 'mermaid', text: mermaid } } })).json;
const dot = 'digraph G { rankdir=LR; subgraph cluster_x { label="Edge"; a; b } a -> b [label="call"]; b -> c [style=dashed]; }';
await send('create from dot', 'POST', '/api/v1/diagrams', { json: { title: 'DOT', source: { language: 'dot', text: dot } } });
await send('create with bad mermaid', 'POST', '/api/v1/diagrams', { json: { title: 'Bad', source: { language: 'mermaid', text: 'flowchart LR\n  a -->' } } });
await send('create unwrapped spec', 'POST', '/api/v1/diagrams', { json: { title: 'Unwrapped', ...spec } });
await send('create with two contents', 'POST', '/api/v1/diagrams', { json: { title: 'Two', spec, scene } });
await send('create in missing folder', 'POST', '/api/v1/diagrams', { json: { title: 'Lost', spec, folderId: '00000000-0000-4000-8000-000000000000' } });
await send('create with dangling edge', 'POST', '/api/v1/diagrams', { json: { title: 'Dangling', spec: { nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'b' }] } } });
// Which refusal comes first when a request earns two: the cheap checks (the folder, access) before any layout.
await send('create dangling in missing folder', 'POST', '/api/v1/diagrams', {
  json: { title: 'Both', spec: { nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'b' }] }, folderId: '00000000-0000-4000-8000-000000000000' },
});
await admin('no more diagrams', 'user', 'set-quota', '--email', people.stranger, '--quota', '0');
await send('create broken over quota', 'POST', '/api/v1/diagrams', { as: 'stranger', json: { title: 'Over', spec: { nodes: [{ id: 'a' }, { id: 'a' }] } } });
await admin('diagrams again', 'user', 'set-quota', '--email', people.stranger, '--quota', '100');
const id = flow?.id as string;

await send('list', 'GET', '/api/v1/diagrams');
await send('list page', 'GET', '/api/v1/diagrams?limit=2');
await send('list in folder', 'GET', `/api/v1/diagrams?folderId=${folder?.id}`);
await send('search titles', 'GET', '/api/v1/diagrams?q=flow');
await send('list starred', 'GET', '/api/v1/diagrams?starred=true');
await send('list bad limit', 'GET', '/api/v1/diagrams?limit=0');
await send('get', 'GET', `/api/v1/diagrams/${id}`);
await send('get as stranger', 'GET', `/api/v1/diagrams/${id}`, { as: 'stranger' });
await send('get anonymously', 'GET', `/api/v1/diagrams/${id}`, { as: 'anonymous' });
await send('get missing', 'GET', '/api/v1/diagrams/00000000-0000-4000-8000-000000000000');
await send('get malformed id', 'GET', '/api/v1/diagrams/nope');
await send('rename', 'PATCH', `/api/v1/diagrams/${id}`, { json: { title: 'Request flow, v2' } });
await send('move into folder', 'PATCH', `/api/v1/diagrams/${id}`, { json: { folderId: folder?.id } });
await send('move out', 'PATCH', `/api/v1/diagrams/${id}`, { json: { folderId: null } });
await send('update unknown field', 'PATCH', `/api/v1/diagrams/${id}`, { json: { colour: 'red' } });
for (const query of ['format=svg', 'format=png', 'format=pdf', 'format=svg&quality=faithful', 'format=png&quality=faithful', 'format=png&width=512&background=transparent', 'format=svg&theme=dark&padding=8', 'format=gif', 'width=5', 'format=svg&elements=start,auth']) {
  await send(`render ${query}`, 'GET', `/api/v1/diagrams/${id}/render?${query}`);
}
await send('lint', 'GET', `/api/v1/diagrams/${id}/lint`);
await send('edit', 'POST', `/api/v1/diagrams/${id}/edit`, {
  json: { addNodes: [{ id: 'retry', label: 'Retry later' }], addEdges: [{ from: 'auth', to: 'retry', label: 'busy' }], updateNodes: [{ id: 'done', label: 'Answer sent to the client' }] },
});
await send('edit with unknown node', 'POST', `/api/v1/diagrams/${id}/edit`, { json: { updateNodes: [{ id: 'ghost', label: 'x' }] } });
const current = (await send('get after edit', 'GET', `/api/v1/diagrams/${id}`)).json;
await send('patch', 'POST', `/api/v1/diagrams/${id}/patch`, {
  json: { ops: [{ op: 'move', id: 'start', dx: 40, dy: 0 }, { op: 'restyle', id: 'cache', backgroundColor: '#a5d8ff' }, { op: 'update', id: 'retry', set: { roughness: 0 } }], expectedUpdatedAt: current?.docUpdatedAt },
});
await send('patch stale', 'POST', `/api/v1/diagrams/${id}/patch`, { json: { ops: [{ op: 'delete', id: 'retry' }], expectedUpdatedAt: current?.docUpdatedAt } });
await send('patch delete', 'POST', `/api/v1/diagrams/${id}/patch`, { json: { ops: [{ op: 'delete', id: 'retry' }] } });
await send('regenerate', 'POST', `/api/v1/diagrams/${id}/regenerate`, { json: { spec: { ...spec, nodes: [...spec.nodes, { id: 'log', label: 'Audit log' }], edges: [...spec.edges, { from: 'done', to: 'log' }] } } });
await send('regenerate from mermaid', 'POST', `/api/v1/diagrams/${fromMermaid?.id}/regenerate`, { json: { source: { language: 'mermaid', text: 'flowchart TD\n  a --> b\n  b --> a' }, title: 'Loop' } });
await send('regenerate empty', 'POST', `/api/v1/diagrams/${id}/regenerate`, { json: {} });
for (const [what, content] of Object.entries({ spec: { spec }, edit: { edit: { addNodes: [{ id: 'x' }] }, diagramId: id }, ops: { ops: [{ op: 'delete', id: 'start' }], diagramId: id }, scene: { scene }, source: { source: { language: 'dot', text: 'digraph { a -> b }' } }, broken: { spec: { nodes: [{ id: 'a' }, { id: 'a' }] } }, none: {} })) {
  await send(`validate ${what}`, 'POST', '/api/v1/specs/validate', { json: content });
}
await send('revisions', 'GET', `/api/v1/diagrams/${id}/revisions`);
await send('revisions page', 'GET', `/api/v1/diagrams/${id}/revisions?limit=2`);
await send('revision 1', 'GET', `/api/v1/diagrams/${id}/revisions/r1`);
await send('revision 2 diff', 'GET', `/api/v1/diagrams/${id}/revisions/r2/diff`);
await send('revision 4 against 1', 'GET', `/api/v1/diagrams/${id}/revisions/r4/diff?against=r1`);
await send('render revision 1', 'GET', `/api/v1/diagrams/${id}/render?format=svg&rev=r1`);
await send('restore revision 1', 'POST', `/api/v1/diagrams/${id}/revisions/r1/restore`, { json: {} });
await send('revision missing', 'GET', `/api/v1/diagrams/${id}/revisions/r999`);

const anchor = (current?.elements as Array<{ id: string; type: string }> | undefined)?.find((e) => e.type !== 'arrow')?.id ?? 'start';
const comment = (await send('comment', 'POST', `/api/v1/diagrams/${id}/comments`, { json: { body: 'Should the cache expire?', elementId: anchor } })).json;
await send('comment unanchored', 'POST', `/api/v1/diagrams/${id}/comments`, { json: { body: 'Looks right' } });
await send('comments', 'GET', `/api/v1/diagrams/${id}/comments`);
await send('comment one', 'GET', `/api/v1/diagrams/${id}/comments/${comment?.id}`);

await send('share', 'POST', `/api/v1/diagrams/${id}/shares`, { json: { email: people.viewer, role: 'viewer' } });
await send('shares', 'GET', `/api/v1/diagrams/${id}/shares`);
await send('viewer reads', 'GET', `/api/v1/diagrams/${id}`, { as: 'viewer' });
await send('viewer edits', 'POST', `/api/v1/diagrams/${id}/edit`, { as: 'viewer', json: { addNodes: [{ id: 'v' }] } });
await send('viewer regenerates with a broken spec', 'POST', `/api/v1/diagrams/${id}/regenerate`, { as: 'viewer', json: { spec: { nodes: [{ id: 'a' }, { id: 'a' }] } } });
await send('viewer lists', 'GET', '/api/v1/diagrams?filter=shared', { as: 'viewer' });
await send('make editor', 'PATCH', `/api/v1/diagrams/${id}/shares/${ids.viewer}`, { json: { role: 'editor' } });
await send('editor edits', 'POST', `/api/v1/diagrams/${id}/edit`, { as: 'viewer', json: { addNodes: [{ id: 'v', label: 'From the viewer' }] } });
const invited = (await send('invite by email', 'POST', `/api/v1/diagrams/${id}/shares`, { json: { email: 'newcomer@example.com', role: 'viewer' } })).json;
await send('shares with invitation', 'GET', `/api/v1/diagrams/${id}/shares`);
await send('cancel invitation', 'DELETE', `/api/v1/diagrams/${id}/invitations/${invited?.invitation?.id ?? invited?.id}`);
await send('unshare', 'DELETE', `/api/v1/diagrams/${id}/shares/${ids.viewer}`);

const workspace = (await send('create workspace', 'POST', '/api/v1/workspaces', { json: { name: 'Platform' } })).json;
const ws = workspace?.id as string;
await send('workspaces', 'GET', '/api/v1/workspaces');
await send('workspace', 'GET', `/api/v1/workspaces/${ws}`);
await send('rename workspace', 'PATCH', `/api/v1/workspaces/${ws}`, { json: { name: 'Platform team' } });
await send('add member', 'POST', `/api/v1/workspaces/${ws}/members`, { json: { email: people.viewer, role: 'viewer' } });
const wsInvite = (await send('invite member', 'POST', `/api/v1/workspaces/${ws}/members`, { json: { email: 'someone@example.com', role: 'editor' } })).json;
await send('members', 'GET', `/api/v1/workspaces/${ws}/members`);
await send('member role', 'PATCH', `/api/v1/workspaces/${ws}/members/${ids.viewer}`, { json: { role: 'editor' } });
await send('into workspace', 'PUT', `/api/v1/diagrams/${raw?.id}/workspace`, { json: { workspaceId: ws } });
await send('member reads', 'GET', `/api/v1/diagrams/${raw?.id}`, { as: 'viewer' });
await send('workspace list', 'GET', `/api/v1/diagrams?workspace=${ws}`, { as: 'viewer' });
await send('cancel member invitation', 'DELETE', `/api/v1/workspaces/${ws}/invitations/${wsInvite?.invitation?.id ?? wsInvite?.id}`);
await send('out of workspace', 'PUT', `/api/v1/diagrams/${raw?.id}/workspace`, { json: { workspaceId: null } });
await send('remove member', 'DELETE', `/api/v1/workspaces/${ws}/members/${ids.viewer}`);

await send('public link off', 'GET', `/api/v1/diagrams/${id}/public-link`);
const link = (await send('publish', 'PUT', `/api/v1/diagrams/${id}/public-link`, { json: { enabled: true } })).json;
const slug = String(link?.url ?? '').split('/').pop() ?? 'none';
await send('public page', 'GET', `/p/${slug}`, { as: 'anonymous' });
await send('public svg', 'GET', `/p/${slug}.svg`, { as: 'anonymous' });
await send('public png', 'GET', `/p/${slug}.png?width=400`, { as: 'anonymous' });
await send('password', 'PUT', `/api/v1/diagrams/${id}/public-link`, { json: { enabled: true, password: 'open sesame' } });
await send('public page locked', 'GET', `/p/${slug}`, { as: 'anonymous' });
await send('public wrong password', 'POST', `/p/${slug}`, { as: 'anonymous', form: { password: 'nope' } });
await send('public right password', 'POST', `/p/${slug}`, { as: 'anonymous', form: { password: 'open sesame' } });
await send('public missing', 'GET', '/p/nothing-here', { as: 'anonymous' });

await send('icons', 'GET', '/api/v1/icons?q=flink');
await send('icons by category', 'GET', '/api/v1/icons?category=database');
await send('icon', 'GET', '/api/v1/icons/icon-flink');
await send('icon missing', 'GET', '/api/v1/icons/icon-nope');

// ——— MCP, as an agent's client sends it ———
const mcpHeaders = { accept: 'application/json, text/event-stream' };
const rpc = (step: string, method: string, params: unknown, as: Caller = 'owner') =>
  send(`mcp ${step}`, 'POST', '/mcp', { as, headers: mcpHeaders, json: { jsonrpc: '2.0', id: index, method, params } });
await rpc('initialize', 'initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'compare', version: '1' } });
const listed = await rpc('tools', 'tools/list', {});
await rpc('no token', 'tools/list', {}, 'anonymous');
await rpc('resources', 'resources/list', {});
await rpc('prompts', 'prompts/list', {});
const toolArguments: Record<string, unknown> = {
  list_diagrams: {},
  read_diagram: { id, quality: 'fast' },
  generate_diagram: { title: 'From an agent', spec },
  validate_diagram: { spec },
  edit_diagram: { id, addNodes: [{ id: 'mcp', label: 'Added by an agent' }] },
  search_icons: { query: 'postgres' },
  list_revisions: { id },
};
const tools = ((listed.json?.result?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name).sort();
for (const name of tools) await rpc(`call ${name}`, 'tools/call', { name, arguments: toolArguments[name] ?? {} });
await rpc('unknown tool', 'tools/call', { name: 'nope', arguments: {} });

// ——— OAuth, as an MCP client registers and starts a sign-in ———
for (const url of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource/api/v1', '/.well-known/openid-configuration', '/oauth/jwks']) {
  await send(`oauth ${url}`, 'GET', url, { as: 'anonymous' });
}
const client = (await send('oauth register', 'POST', '/oauth/register', { as: 'anonymous', json: { redirect_uris: ['http://127.0.0.1:8765/callback'], client_name: 'Compare', token_endpoint_auth_method: 'none' } })).json;
const authorize = new URLSearchParams({
  client_id: client?.client_id ?? 'x',
  redirect_uri: 'http://127.0.0.1:8765/callback',
  response_type: 'code',
  scope: 'mcp',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'xyz',
  resource: 'http://drawbridge.test/mcp',
});
await send('oauth authorize', 'GET', `/oauth/authorize?${authorize}`, { as: 'web' });
await send('oauth token bad code', 'POST', '/oauth/token', { as: 'anonymous', form: { grant_type: 'authorization_code', code: 'nope', client_id: client?.client_id ?? 'x', redirect_uri: 'http://127.0.0.1:8765/callback', code_verifier: 'x'.repeat(43) } });
await send('oauth revoke', 'POST', '/oauth/revoke', { as: 'anonymous', form: { token: 'nope', client_id: client?.client_id ?? 'x' } });

// ——— The web app, as a person signed in uses it ———
for (const url of ['/', '/app', '/app/new', `/app/d/${id}`, `/app/d/${id}/thumbnail.png`, '/app/help/spec', '/app/settings/tokens', '/app/settings/tokens/copy.js', '/docs/api', '/docs/mcp', '/docs/copy.js']) {
  await send(`page ${url}`, 'GET', url, { as: 'web' });
}
for (const url of ['/', '/login', '/signup', '/reset', '/verify?token=nope', '/favicon.svg', '/favicon.ico', '/manifest.webmanifest', '/apple-touch-icon.png', '/icons/icon-192.png', '/static/landing-example.png', '/app']) {
  await send(`page ${url} signed out`, 'GET', url, { as: 'anonymous' });
}
await send('login wrong', 'POST', '/login', { as: 'anonymous', form: { email: people.owner, password: 'wrong password' } });
await send('signup', 'POST', '/signup', { as: 'anonymous', form: { email: 'fresh@example.com', password: 'correct horse battery staple' } });
await send('reset request', 'POST', '/reset', { as: 'anonymous', form: { email: people.owner } });
const web = await send('web diagram', 'GET', `/app/api/diagrams/${id}`, { as: 'web' });
await send('web save', 'PUT', `/app/api/diagrams/${id}/scene`, { as: 'web', json: { elements: web.json?.elements ?? [], expectedUpdatedAt: web.json?.docUpdatedAt } });
const saved = (await send('web diagram again', 'GET', `/app/api/diagrams/${id}`, { as: 'web' })).json;
await send('web save again', 'PUT', `/app/api/diagrams/${id}/scene`, { as: 'web', json: { elements: (saved?.elements ?? []).slice(1), expectedUpdatedAt: saved?.docUpdatedAt } });
await send('web save stale', 'PUT', `/app/api/diagrams/${id}/scene`, { as: 'web', json: { elements: [], expectedUpdatedAt: web.json?.docUpdatedAt } });
await send('web save without csrf', 'PUT', `/app/api/diagrams/${id}/scene`, { as: 'web', json: { elements: [], expectedUpdatedAt: saved?.docUpdatedAt }, headers: { 'x-csrf-token': 'wrong' } });
await send('web revisions', 'GET', `/app/api/diagrams/${id}/revisions`, { as: 'web' });
await send('web revision', 'GET', `/app/api/diagrams/${id}/revisions/r2`, { as: 'web' });
const beforeRestore = (await send('web diagram before restore', 'GET', `/app/api/diagrams/${id}`, { as: 'web' })).json;
await send('web restore', 'POST', `/app/api/diagrams/${id}/revisions/r2/restore`, { as: 'web', json: { expectedUpdatedAt: beforeRestore?.docUpdatedAt } });
await send('web sharing', 'GET', `/app/api/diagrams/${id}/sharing`, { as: 'web' });
await send('web share', 'POST', `/app/api/diagrams/${id}/shares`, { as: 'web', json: { email: people.viewer, role: 'viewer' } });
await send('web share role', 'PUT', `/app/api/diagrams/${id}/shares/${ids.viewer}`, { as: 'web', json: { role: 'editor' } });
await send('web viewer reads', 'GET', `/app/api/diagrams/${id}`, { as: 'web-viewer' });
await send('web unshare', 'DELETE', `/app/api/diagrams/${id}/shares/${ids.viewer}`, { as: 'web' });
const webInvite = (await send('web invite', 'POST', `/app/api/diagrams/${id}/shares`, { as: 'web', json: { email: 'guest@example.com', role: 'viewer' } })).json;
await send('web sharing with invitation', 'GET', `/app/api/diagrams/${id}/sharing`, { as: 'web' });
await send('web cancel invitation', 'DELETE', `/app/api/invitations/${webInvite?.invitation?.id ?? webInvite?.id ?? 'none'}`, { as: 'web' });
await send('web public link', 'PUT', `/app/api/diagrams/${id}/public-link`, { as: 'web', json: { enabled: false } });
await send('web icons', 'GET', '/app/api/icons', { as: 'web' });
await send('web preview', 'POST', '/app/api/specs/preview', { as: 'web', json: { spec } });
await send('web preview mermaid', 'POST', '/app/api/specs/preview', { as: 'web', json: { source: { language: 'mermaid', text: mermaid } } });
await send('web workspace rename', 'PUT', `/app/api/workspaces/${ws}`, { as: 'web', json: { name: 'Platform (web)' } });
await send('web members', 'GET', `/app/api/workspaces/${ws}/members`, { as: 'web' });
await send('web add member', 'POST', `/app/api/workspaces/${ws}/members`, { as: 'web', json: { email: people.viewer, role: 'viewer' } });
await send('web member role', 'PUT', `/app/api/workspaces/${ws}/members/${ids.viewer}`, { as: 'web', json: { role: 'admin' } });
await send('web remove member', 'DELETE', `/app/api/workspaces/${ws}/members/${ids.viewer}`, { as: 'web' });
await send('form new diagram', 'POST', '/app/diagrams', { as: 'web', form: { title: 'From the dashboard' } });
await send('form new folder', 'POST', '/app/folders', { as: 'web', form: { name: 'Web folder' } });
await send('form new workspace', 'POST', '/app/workspaces', { as: 'web', form: { name: 'Web workspace' } });
await send('form rename', 'POST', `/app/d/${raw?.id}/rename`, { as: 'web', form: { title: 'Renamed in the web app' } });
await send('form star', 'POST', `/app/d/${raw?.id}/star`, { as: 'web', form: { starred: '1' } });
await send('form move', 'POST', `/app/d/${raw?.id}/move`, { as: 'web', form: { folderId: String(subfolder?.id ?? '') } });
await send('form workspace', 'POST', `/app/d/${raw?.id}/workspace`, { as: 'web', form: { workspaceId: ws } });
await send('form trash', 'POST', `/app/d/${raw?.id}/trash`, { as: 'web', form: {} });
await send('form restore', 'POST', `/app/d/${raw?.id}/restore`, { as: 'web', form: {} });
const tokenPage = await send('form mint token', 'POST', '/app/settings/tokens', { as: 'web', form: { name: 'laptop', 'cap-read': '1', 'cap-write': '1', expires: '30' } });
const tokenId = /data-token-id="([^"]+)">\s*<td>laptop</.exec(tokenPage.text)?.[1] ?? 'none';
await send('form revoke token', 'POST', `/app/settings/tokens/${tokenId}/revoke`, { as: 'web', form: {} });
await send('form revoke grant', 'POST', '/app/settings/tokens/grants/none/revoke', { as: 'web', form: {} });
await send('form without csrf', 'POST', '/app/folders', { as: 'web', form: { name: 'x' }, headers: { 'x-csrf-token': 'wrong' } });
await send('logout', 'POST', '/logout', { as: 'web', form: {} });
await signIn('web', ids.owner!);

// ——— Trash and the end of things ———
await send('trash', 'DELETE', `/api/v1/diagrams/${raw?.id}`);
await send('list trash', 'GET', '/api/v1/diagrams?filter=trash');
await send('restore', 'POST', `/api/v1/diagrams/${raw?.id}/restore`);
await send('delete folder', 'DELETE', `/api/v1/folders/${subfolder?.id}`);
await admin('share by admin', 'diagram', 'share', '--id', id, '--email', people.stranger, '--role', 'viewer');
await admin('workspace by admin', 'workspace', 'create', '--name', 'Ops', '--owner', people.owner);
await admin('api off', 'api', 'disable');
await send('api while off', 'GET', '/api/v1/me');
await admin('api on', 'api', 'enable');
await send('api back on', 'GET', '/api/v1/me');
await admin('revoke', 'token', 'revoke', '--id', 'nope');

// ——— Every route the build serves, each method it answers, the same probes ———
const routes: Array<{ url: string; methods: string[] }> = routesFile ? JSON.parse(fs.readFileSync(routesFile, 'utf8')) : servedRoutes();
record({ step: 'routes', request: { method: 'ROUTES', url: '', as: 'none' }, status: 0, headers: {}, body: servedRoutes() });
const probe = (await send('probe diagram', 'POST', '/api/v1/diagrams', { json: { title: 'Probed', spec } })).json;
await send('probe link', 'PUT', `/api/v1/diagrams/${probe?.id}/public-link`, { json: { enabled: true } });
const probeSlug = String((await send('probe link read', 'GET', `/api/v1/diagrams/${probe?.id}/public-link`)).json?.url ?? '').split('/').pop();
const PARAMS: Record<string, string> = {
  ':id': String(probe?.id),
  ':rev': '1',
  ':commentId': String(comment?.id),
  ':userId': ids.viewer!,
  ':invitationId': '00000000-0000-4000-8000-000000000000',
  ':slug': String(probeSlug),
  ':uid': 'none',
  ':token': 'none',
  ':file': 'none.svg',
  ':build': 'none',
  ':hash': 'none',
  '*': 'none.js',
};
function filled(url: string): string {
  let result = url.replace(/:[A-Za-z]+|\*/g, (name) => PARAMS[name] ?? 'none');
  if (url.startsWith('/api/v1/workspaces/:id') || url.startsWith('/app/api/workspaces/:id')) result = result.replace(String(probe?.id), ws);
  if (url.startsWith('/api/v1/folders/:id')) result = result.replace(String(probe?.id), String(folder?.id));
  if (url.startsWith('/api/v1/icons/:id')) result = result.replace(String(probe?.id), 'icon-flink');
  return result;
}
for (const route of routes) {
  const url = filled(route.url);
  const web = !route.url.startsWith('/api/') && route.url !== '/mcp';
  const caller: Caller = web ? 'web' : 'owner';
  for (const method of route.methods) {
    await send(`probe ${method} ${route.url} anonymous`, method, url, { as: 'anonymous' });
    if (method === 'GET') {
      await send(`probe ${method} ${route.url} stranger`, method, url, { as: web ? 'anonymous' : 'stranger' });
      continue;
    }
    if (method === 'OPTIONS' || method === 'DELETE') continue;
    await send(`probe ${method} ${route.url} malformed`, method, url, { as: caller, text: '{"title": ' });
    await send(`probe ${method} ${route.url} empty`, method, url, { as: caller, json: {} });
  }
}
for (const route of routes) {
  for (const method of route.methods.filter((m) => m === 'DELETE')) await send(`probe ${method} ${route.url} owner`, method, filled(route.url), { as: route.url.startsWith('/api/') ? 'owner' : 'web' });
}

await app.close();
await store.close();
await new Promise<void>((resolve) => out.end(resolve));
await new Promise<void>((resolve) => logFile.end(resolve));
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(`${index} exchanges`);
