/**
 * Hostile requests at every route the app serves, on one engine:
 * hostile-routes-sqlite.test.ts and hostile-routes-postgres.test.ts each call
 * `describeHostileRoutes` for theirs, so that the two run side by side.
 *
 * The routes are read from the app's own router (`printRoutes`), so a route
 * added later is fuzzed without touching this file: the REST API, the web app,
 * the public pages, the assets and /mcp alike. For each one, fast-check (under
 * the suite's fixed seed) sends requests that no client should send: every
 * method, unsupported ones included; path parameters that are empty, huge,
 * `..`, `%00`, `%ff`, broken UTF-8, unicode edge cases, other users' ids and
 * ids of deleted things; repeated, nested, huge and unknown query keys; wrong
 * or missing Content-Type, odd Accept, bogus Authorization and cookies, huge
 * header values; bodies that are not JSON, nest deeply, carry prototype keys,
 * NULs, lone surrogates, 1e400 or values of the wrong type. They come from the
 * owner of the resources (full-capability token and a web session with its
 * CSRF token), a user the owner shared one diagram with, a stranger, a user
 * with an unverified address, and nobody; through fastify.inject or, for what
 * inject cannot express (raw bytes, `..` in a path, duplicate headers,
 * malformed framing, methods Node does not know), a raw socket. About half
 * the requests are hostile in one part only, the rest being what the owner's
 * client would send (bodies drawn from the OpenAPI document's schemas and the
 * MCP tools' input schemas), so that they get past the first refusal into the
 * lookups, the domain code and the storage.
 *
 * Every exchange must be answered, never with a 5xx. A refusal in JSON is the
 * catalogue envelope `{ error, message? }` at its code's status (JSON-RPC
 * errors on /mcp), and the API's and the web app's JSON endpoints refuse only
 * in JSON; pages may refuse with an HTML page. Nothing is logged as a server
 * fault (error level, or "database unreachable"); each request carries its
 * own x-request-id, so a fault names the request that caused it. Afterwards
 * the service is healthy: /healthz and /readyz answer, and a diagram can be
 * created and read back. The bugs the fuzz found are pinned at the end, each
 * with the request that showed it.
 *
 * The live editor's WebSocket gets the same treatment frame by frame:
 * malformed and truncated JSON, values of every JSON type, prototype keys,
 * wrong field types, elements no editor draws, oversized frames, binary
 * frames, text frames that are not UTF-8, and floods. Each connection is
 * either still open or closed with a documented code; nothing is logged as a
 * server fault; afterwards a new connection is welcomed and its change stored.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import WebSocket from 'ws';
import type { ZodType } from 'zod';
import { errorStatus } from '../../src/errors.ts';
import { API_PREFIX } from '../../src/api/paths.ts';
import { BODY_LIMIT_BYTES } from '../../src/edge/validate.ts';
import { apiRoutes } from '../../src/http/routes/index.ts';
import { type RouterRoute, servedRoutes } from '../helpers/routes.ts';
import { prepareWebAssets, webAssetsHash } from '../../src/web/assets.ts';
import { type Engine, type ListeningHarness, sceneOf, startHarness, type TestUser } from '../helpers/harness.ts';
import { connectLive, rect } from '../helpers/live-client.ts';
import { signIn } from '../helpers/web-session.ts';
import { OAUTH_PATHS } from '../../src/api/oauth-paths.ts';

// Merged into the global configuration: replacing it would drop the fixed seed of fast-check-seed.ts.
fc.configureGlobal({ ...fc.readConfigureGlobal(), includeErrorInReport: true });

/**
 * Hostile requests per route and engine. Each route has a seed of its own, so every run of the suite
 * sends the same requests; a deeper probe sets HOSTILE_RUNS (e.g. 1000) to send more of them.
 */
const RUNS_PER_ROUTE = Number(process.env.HOSTILE_RUNS ?? 40);
/** An exchange not answered within this is a hang, reported as a failure. */
const ANSWER_TIMEOUT_MS = 30_000;
/** Node's default limit on the request line and headers together (--max-http-header-size). */
const NODE_HEADER_LIMIT = 16 * 1024;

// ---------------------------------------------------------------------------
// The routes, as the app's router lists them

interface ServedRoute extends RouterRoute {
  /** The methods the route does not refuse with 405 (the router lists those too): most requests use these. */
  answered: string[];
}

/** The route with the methods it refuses with 405 told apart, by asking each one once. */
async function withAnsweredMethods(app: FastifyInstance, route: RouterRoute): Promise<ServedRoute> {
  const url = route.url.replace(/:[A-Za-z0-9_]+|\*/g, '00000000-0000-4000-8000-000000000000');
  const answered: string[] = [];
  for (const method of route.methods) {
    const res = await app.inject({ method: method as InjectOptions['method'], url });
    if (res.statusCode !== 405) answered.push(method);
  }
  return { ...route, answered: answered.length > 0 ? answered : route.methods };
}

// ---------------------------------------------------------------------------
// What the fuzz addresses: the resources of each caller, made once per engine

type CallerName = 'owner' | 'viewer' | 'stranger' | 'unverified' | 'anonymous';
const CALLERS: CallerName[] = ['owner', 'viewer', 'stranger', 'unverified', 'anonymous'];
/** The owner's requests get furthest (past authentication, authorisation and lookups), so they come most often. */
const CALLER_WEIGHTS: CallerName[] = [...CALLERS, 'owner', 'owner', 'owner'];

interface Fixture {
  users: Record<Exclude<CallerName, 'anonymous'>, TestUser>;
  /** Tokens that are not a caller's working full-capability token. */
  ownerReadOnlyToken: string;
  revokedToken: string;
  expiredToken: string | null;
  /** The owner's live diagrams and folder: the ids with which a request can get furthest. */
  ownIds: string[];
  /** Ids of every kind, the owner's and others', live and deleted: what `:id` may be. */
  ids: string[];
  /** Public link slugs: with and without a password, of a trashed diagram, another user's. */
  slugs: string[];
  assetBuild: string;
  assetFiles: string[];
  /** Field names of the API's request bodies, the web app's forms and the MCP tools' arguments. */
  apiFields: string[];
  formFields: string[];
  /** The request body schemas of each API route, from its OpenAPI document (keyed by the router's pattern). */
  apiBodySchemas: Map<string, JsonSchema[]>;
  mcpTools: Array<{ name: string; inputSchema: JsonSchema }>;
  mcpArguments: string[];
  /** Query keys the routes read. */
  queryKeys: string[];
  publicUrl: string;
}

/** Field names of a zod schema of an object, or of each option of a union. */
function fieldNames(schema: ZodType | undefined): string[] {
  const s = schema as unknown as { shape?: Record<string, unknown>; options?: ZodType[]; unwrap?: () => ZodType } | undefined;
  if (!s) return [];
  if (s.shape) return Object.keys(s.shape);
  if (s.options) return s.options.flatMap(fieldNames);
  if (typeof s.unwrap === 'function') return fieldNames(s.unwrap());
  return [];
}

/** The names of a page's form controls (`<input name=…>`, `<select>`, `<textarea>`, `<button>`). */
function formControlNames(html: string): string[] {
  return [...html.matchAll(/<(?:input|select|textarea|button)\b[^>]*\bname="([^"]+)"/g)].map((m) => m[1]!);
}

async function makeFixture(h: ListeningHarness): Promise<Fixture> {
  const owner = await h.user({ quota: 1_000_000 });
  const viewer = await h.user();
  const stranger = await h.user();
  const unverified = await h.user({ unverified: true });
  const call = (method: string, url: string, token: string, body?: unknown) => h.call(method, url, { token, ...(body === undefined ? {} : { body }) });
  const created = async (res: { statusCode: number; json(): any }) => {
    assert.ok(res.statusCode === 200 || res.statusCode === 201, `fixture request failed: ${res.statusCode}`);
    return res.json();
  };

  const scene = { ...sceneOf(3), elements: [...sceneOf(3).elements, { id: 'label', type: 'text', x: 0, y: 80, width: 80, height: 20, text: 'hello' }] };
  const shared = await created(await call('POST', '/api/v1/diagrams', owner.token, { title: 'shared with the viewer', scene }));
  const open = await created(await call('POST', '/api/v1/diagrams', owner.token, { title: 'public', spec: { nodes: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], edges: ['a -> b'] } }));
  const guarded = await created(await call('POST', '/api/v1/diagrams', owner.token, { title: 'public with a password', scene: sceneOf(1) }));
  const trashed = await created(await call('POST', '/api/v1/diagrams', owner.token, { title: 'trashed', scene: sceneOf(1) }));
  const folder = await created(await call('POST', '/api/v1/folders', owner.token, { name: 'kept' }));
  const deletedFolder = await created(await call('POST', '/api/v1/folders', owner.token, { name: 'deleted' }));
  const openLink = await created(await call('PUT', `/api/v1/diagrams/${open.id}/public-link`, owner.token, { enabled: true }));
  const guardedLink = await created(await call('PUT', `/api/v1/diagrams/${guarded.id}/public-link`, owner.token, { enabled: true, password: 'correct horse' }));
  const trashedLink = await created(await call('PUT', `/api/v1/diagrams/${trashed.id}/public-link`, owner.token, { enabled: true }));
  assert.ok([200, 204].includes((await call('DELETE', `/api/v1/diagrams/${trashed.id}`, owner.token)).statusCode));
  assert.equal((await call('DELETE', `/api/v1/folders/${deletedFolder.id}`, owner.token)).statusCode, 204);
  await h.admin('diagram', 'share', '--id', shared.id, '--email', viewer.email, '--role', 'viewer');

  const strangers = await created(await call('POST', '/api/v1/diagrams', stranger.token, { title: "someone else's", scene: sceneOf(2) }));
  const strangersFolder = await created(await call('POST', '/api/v1/folders', stranger.token, { name: "someone else's" }));
  const strangersLink = await created(await call('PUT', `/api/v1/diagrams/${strangers.id}/public-link`, stranger.token, { enabled: true }));

  const readOnly = await h.admin('token', 'mint', '--email', owner.email, '--caps', 'read');
  const spare = await h.admin('token', 'mint', '--email', owner.email, '--caps', 'read,write', '--name', 'spare');
  const revoked = await h.admin('token', 'mint', '--email', owner.email, '--caps', 'read,write,publish,delete', '--name', 'revoked');
  await h.admin('token', 'revoke', '--id', revoked.id);
  const expired = await h.admin('token', 'mint', '--email', owner.email, '--caps', 'read', '--expires-at', '2001-01-01T00:00:00Z').catch(() => null);

  const icons = (await created(await call('GET', '/api/v1/icons', owner.token))) as { items?: Array<{ id: string }> };
  const iconIds = (icons.items ?? []).slice(0, 3).map((icon) => icon.id);

  const { files } = await prepareWebAssets();

  // The form controls of the pages, as the app renders them for a signed-in owner and for nobody.
  const session = await signIn(h, owner.id);
  const formFields = new Set<string>();
  for (const url of ['/login', '/signup', '/reset', '/app', '/app/new', '/app/settings/tokens', `/reset/${'x'.repeat(43)}`]) {
    for (const cookie of [session.cookie, undefined]) {
      const res = await h.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
      for (const name of formControlNames(res.body)) formFields.add(name);
    }
  }

  // The MCP tools and their arguments, as the endpoint lists them.
  const listed = await h.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  assert.equal(listed.statusCode, 200, `tools/list: ${listed.body}`);
  const tools = (listed.json() as { result: { tools: Array<{ name: string; inputSchema?: JsonSchema }> } }).result.tools;

  // The request bodies of the API, as its OpenAPI document describes them.
  const openapi = (await h.call('GET', '/api/v1/openapi.json')).json() as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  };
  const apiBodySchemas = new Map<string, JsonSchema[]>();
  for (const [path, operations] of Object.entries(openapi.paths)) {
    const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const operation of Object.values(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (schema) apiBodySchemas.set(pattern, [...(apiBodySchemas.get(pattern) ?? []), schema]);
    }
  }

  const queryKeys = new Set(['folder', 'starred', 'view', 'q', 'cursor', 'next', 'verified', 'token', 'limit', 'filter', 'format', 'quality']);
  for (const def of apiRoutes) for (const key of fieldNames(def.query)) queryKeys.add(key);

  return {
    users: { owner, viewer, stranger, unverified },
    ownerReadOnlyToken: readOnly.token,
    revokedToken: revoked.token,
    expiredToken: expired?.token ?? null,
    ownIds: [shared.id, open.id, guarded.id, folder.id],
    ids: [
      shared.id, open.id, guarded.id, trashed.id, folder.id, deletedFolder.id, strangers.id, strangersFolder.id,
      spare.id, revoked.id, readOnly.id, stranger.tokenId, viewer.tokenId, owner.id, stranger.id, ...iconIds,
    ],
    slugs: [openLink.slug, guardedLink.slug, trashedLink.slug, strangersLink.slug].filter((slug): slug is string => typeof slug === 'string'),
    assetBuild: webAssetsHash(),
    assetFiles: Object.keys(files).slice(0, 6),
    apiFields: [...new Set(apiRoutes.flatMap((def) => fieldNames(def.body)))],
    formFields: [...formFields],
    apiBodySchemas,
    mcpTools: tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema ?? {} })),
    mcpArguments: [...new Set(tools.flatMap((tool) => Object.keys(tool.inputSchema?.properties ?? {})))],
    queryKeys: [...queryKeys],
    publicUrl: h.baseUrl,
  };
}

// ---------------------------------------------------------------------------
// Hostile text

const NASTY_UNITS = [
  '\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800', // lone and reversed surrogates
  '\u202e', '\u2066', '\u200e', '\u061c', // bidi controls
  '\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\u009f', // C0/C1 controls
  '\t', '\n', '\r', '\u2028', ' ', '\u00a0', '\ufeff', // whitespace
  '\u200b', '\u200d', '\ufffe', '\uffff', '\ufffd', '\u{10ffff}', '\u{e0001}', // invisibles, noncharacters
  'e\u0301', 'Z\u0351\u0352\u0353', '😀', '👩‍👩‍👧', '🇫🇷', '𝕏', // combining marks, astral and ZWJ sequences
  'a', '0', 'é', 'ß', 'ع', '中', '"', '\\', '/', '<', '>', '&', "'", '{', '}', '[', ']', ':', ',', '%', '?', '#', ';', '=', '+', '.',
];
const nastyUnit = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NASTY_UNITS) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) });
const nastyString = (maxLength = 16) => fc.string({ unit: nastyUnit, maxLength });
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
/** Numbers at and beyond what a double holds, written as they are into JSON text. */
const EXTREME_NUMBERS = ['1e400', '-1e400', '1E+999', '5e-324', '1e-400', '-0', '12345678901234567890', '0.1', '1e2', '-1'];

/** Percent-encodes every byte of the text's UTF-8, a lone surrogate as its three WTF-8 bytes (which no UTF-8 decoder accepts). */
function percentEncodeAll(text: string): string {
  let out = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    const bytes =
      char.length === 1 && unit >= 0xd800 && unit <= 0xdfff
        ? [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        : [...Buffer.from(char, 'utf8')];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** Text for a URL: as it is (raw bytes on a socket), fully percent-encoded, or encoded the usual way. */
const urlText = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, fc.oneof({ weight: 1, arbitrary: fc.constant('raw') }, { weight: 7, arbitrary: fc.constantFrom('encoded', 'component') })).map(([s, style]) => {
    if (style === 'raw') return s;
    if (style === 'encoded') return percentEncodeAll(s);
    return s.isWellFormed() ? encodeURIComponent(s) : percentEncodeAll(s);
  });

/** Path segments and query values no route expects. */
const HOSTILE_PIECES = [
  '', '.', '..', '...', '%2e%2e', '%2E', '.%2e', '%00', 'a%00b', '%ff', '%fe%ff', '%', '%z', '%zz', '%c0%af', '%c0%ae', '%ed%a0%80', '%ef%bf%bf',
  '%f4%90%80%80', '%2f', '%5c', '\\', '%20', '+', '%0a', '%0d%0a', ';', ';a=b', 'null', 'undefined', 'NaN', 'true', '0', '-1', '1e400',
  '__proto__', 'constructor', 'prototype', "'%20or%201=1--", '%27%22', '*', '~', '%7e', '..%2f..%2fetc%2fpasswd', '$%7Bjndi%7D',
];
const hugePiece = fc
  .tuple(fc.constantFrom('a', '%ff', '%00', 'é', '.', '%e2%80%ae'), fc.constantFrom(99, 100, 101, 200, 1_000, 2_000, 7_000))
  .map(([unit, count]) => unit.repeat(count));

const hostilePiece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_PIECES) },
  { weight: 3, arbitrary: urlText(nastyString()) },
  { weight: 1, arbitrary: hugePiece },
  { weight: 2, arbitrary: fc.uuid() },
);

// ---------------------------------------------------------------------------
// Path parameters: the real ones of the owner and others, and hostile ones

function paramValue(name: string, fx: Fixture): fc.Arbitrary<string> {
  const uuidVariants = fc.constantFrom(...fx.ids).chain((id) =>
    fc.constantFrom(id, id.toUpperCase(), `${id}%00`, `${id}.`, ` ${id}`, `${id}/`, id.replaceAll('-', ''), `${id}%ff`),
  );
  const known: Record<string, fc.Arbitrary<string>> = {
    id: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...fx.ownIds) }, { weight: 3, arbitrary: fc.constantFrom(...fx.ids) }, { weight: 1, arbitrary: uuidVariants }),
    slug: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...fx.slugs) },
      { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'aZ09'), minLength: 19, maxLength: 65 }) },
    ),
    token: fc.oneof(fc.base64String({ minLength: 40, maxLength: 48 }).map((s) => s.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')), fc.constant('x'.repeat(43))),
    build: fc.constantFrom(fx.assetBuild, fx.assetBuild.toUpperCase(), `${fx.assetBuild}x`),
    '*': fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...fx.assetFiles) },
      { weight: 2, arbitrary: fc.constantFrom('../../package.json', '%2e%2e/%2e%2e/package.json', '..%2f..%2fpackage.json', 'fonts/../editor.js', 'editor.js/', '', '/etc/passwd', '%00') },
    ),
  };
  const real = known[name] ?? fc.oneof(...Object.values(known));
  return fc.oneof({ weight: 3, arbitrary: real }, { weight: 3, arbitrary: hostilePiece });
}

/** A path parameter a well-behaved client of the owner would send: the owner's own live things, real slugs and files. */
function saneParamValue(name: string, fx: Fixture): fc.Arbitrary<string> {
  const sane: Record<string, fc.Arbitrary<string>> = {
    id: fc.constantFrom(...fx.ownIds),
    slug: fc.constantFrom(...fx.slugs),
    token: fc.constant('x'.repeat(43)),
    build: fc.constant(fx.assetBuild),
    '*': fc.constantFrom(...fx.assetFiles),
  };
  return sane[name] ?? fc.constantFrom(...fx.ownIds);
}

// ---------------------------------------------------------------------------
// Requests

const INJECTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** Methods only a raw socket sends: some Node knows and no route has, some it does not know at all. */
const EXOTIC_METHODS = ['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'SEARCH', 'QUERY', 'PURGE', 'M-SEARCH', 'CONNECT', 'get', 'FOO', 'GET\u0000', 'G ET', 'PRI'];

type Transport = 'inject' | 'socket';

/** Which credential the request carries, besides the caller's own. */
type AuthForm =
  | 'bearer' | 'none' | 'read-only' | 'revoked' | 'expired' | 'lowercase-scheme' | 'no-space' | 'basic' | 'bearer-only' | 'bearer-garbage'
  | 'two-tokens' | 'trailing-text' | 'huge' | 'latin1' | 'duplicate-header';
type CookieForm = 'session' | 'none' | 'bogus' | 'malformed' | 'two-sessions' | 'huge';
type CsrfForm = 'right' | 'wrong' | 'none';

type BodyForm =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] }
  /** A body of this many bytes (JSON text around a long string), built when sent. */
  | { kind: 'huge'; bytes: number };

interface HostileRequest {
  transport: Transport;
  caller: CallerName;
  method: string;
  /** The request-target as sent, before the query. */
  path: string;
  query: string;
  auth: AuthForm;
  cookie: CookieForm;
  csrf: CsrfForm;
  contentType: string | null;
  accept: string | null;
  /** More headers, as written on the wire (socket) or folded as Node would (inject). */
  extraHeaders: Array<[string, string]>;
  body: BodyForm;
  /** Socket only: the HTTP version of the request line. */
  version: string;
  /** Socket only: framing (`content-length` is the honest one). */
  framing: 'content-length' | 'chunked' | 'chunked-and-length' | 'bad-length' | 'two-lengths' | 'short-length';
  /** Socket only: a header line Node's parser refuses, written as it is. */
  malformedLine: string | null;
}

function pathArb(route: ServedRoute, fx: Fixture, hostile: boolean): fc.Arbitrary<string> {
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((m) => m[1] ?? '*');
  return fc
    .tuple(
      fc.tuple(...names.map((name) => (hostile ? paramValue(name, fx) : saneParamValue(name, fx)))),
      hostile
        ? fc.oneof(
            { weight: 20, arbitrary: fc.constant('as-is') },
            { weight: 1, arbitrary: fc.constantFrom('trailing-slash', 'double-slash', 'upper-case', 'dot-segment', 'dot-dot-suffix', 'semicolon', 'encoded-slash', 'absolute-form') },
          )
        : fc.constant('as-is'),
    )
    .map(([values, shape]) => {
      let i = 0;
      const path = names.length === 0 ? route.url : route.url.replace(/:([A-Za-z0-9_]+)|\*/g, () => values[i++]!);
      switch (shape) {
        case 'trailing-slash':
          return `${path}/`;
        case 'double-slash':
          return path.replace('/', '//');
        case 'upper-case':
          return path.toUpperCase();
        case 'dot-segment':
          return `/.${path}`;
        case 'dot-dot-suffix':
          return `${path}/..`;
        case 'semicolon':
          return `${path};jsessionid=1`;
        case 'encoded-slash':
          return path.replaceAll('/', '%2F').replace('%2F', '/');
        case 'absolute-form':
          return `http://127.0.0.1${path}`;
        default:
          return path;
      }
    });
}

function queryArb(fx: Fixture): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fx.queryKeys) },
    { weight: 1, arbitrary: fc.constantFrom(...fx.queryKeys).chain((k) => fc.constantFrom(`${k}[]`, `${k}[0]`, `${k}[a]`, `${k}.x`, k.toUpperCase())) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS, '__proto__[polluted]', 'constructor[prototype][polluted]', '', '%00', 'a%ffb') },
    { weight: 1, arbitrary: urlText(nastyString(8)) },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('1', 'trash', 'active', 'json', 'png', 'svg', 'faithful', 'fast', '/app', '//evil.example', '0', '100000', '-5', 'eyJ4IjoxfQ') },
    { weight: 2, arbitrary: fc.constantFrom(...fx.ids) },
    { weight: 3, arbitrary: hostilePiece },
  );
  const pair = fc.tuple(key, value, fc.boolean()).map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('?', '??', '?&', '?=', '?&&=&') },
    { weight: 6, arbitrary: fc.tuple(fc.array(pair, { minLength: 1, maxLength: 6 }), fc.constantFrom('&', '&', ';')).map(([pairs, sep]) => `?${pairs.join(sep)}`) },
    // The same key many times over, and one value as long as a header line may be.
    { weight: 1, arbitrary: fc.tuple(key, fc.integer({ min: 2, max: 300 })).map(([k, n]) => `?${Array.from({ length: n }, (_, i) => `${k}=${i}`).join('&')}`) },
    { weight: 1, arbitrary: fc.tuple(key, fc.constantFrom(1_000, 1_000, 6_000, 6_000, 20_000)).map(([k, n]) => `?${k}=${'q'.repeat(n)}`) },
  );
}

// JSON written by hand, so escapes, literal surrogates and out-of-range numbers really are in the text.

class JsonNumberText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

/**
 * A string as JSON text, every code unit as `\uXXXX` when `escapeAll`. Written byte by byte into one buffer:
 * the bodies escape strings of tens of thousands of code units whole, and a string per code unit joined took
 * a quarter of this file's time.
 */
function jsonQuote(s: string, escapeAll: boolean): string {
  if (!escapeAll) return JSON.stringify(s);
  const text = Buffer.allocUnsafe(s.length * 6 + 2);
  text[0] = 0x22; // "
  let at = 1;
  for (let i = 0; i < s.length; i++, at += 6) {
    const unit = s.charCodeAt(i);
    text[at] = 0x5c; // \
    text[at + 1] = 0x75; // u
    text[at + 2] = HEX_DIGITS[unit >> 12]!;
    text[at + 3] = HEX_DIGITS[(unit >> 8) & 15]!;
    text[at + 4] = HEX_DIGITS[(unit >> 4) & 15]!;
    text[at + 5] = HEX_DIGITS[unit & 15]!;
  }
  text[at] = 0x22;
  return text.toString('latin1');
}

/** A JSON object as an entry list, so that prototype keys and duplicate keys survive into the text. */
class JsonObjectText {
  readonly entries: Array<[string, unknown]>;
  constructor(entries: Array<[string, unknown]>) {
    this.entries = entries;
  }
}
const jsonObject = (entries: Array<[string, unknown]>) => new JsonObjectText(entries);

function jsonText(value: unknown, escapeAll: boolean): string {
  if (value instanceof JsonNumberText) return value.text;
  if (value instanceof JsonObjectText) return `{${value.entries.map(([k, v]) => `${jsonQuote(k, escapeAll)}:${jsonText(v, escapeAll)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map((v) => jsonText(v, escapeAll)).join(',')}]`;
  if (typeof value === 'string') return jsonQuote(value, escapeAll);
  return JSON.stringify(value) ?? 'null';
}

/** Values that get past a schema now and then: a scene, a spec, a folder id, a revision. */
function plausibleValues(fx: Fixture): unknown[] {
  return [
    'hostile',
    jsonObject([['elements', [jsonObject([['id', 'a'], ['type', 'rectangle'], ['x', 0], ['y', 0], ['width', 10], ['height', 10]])]]]),
    jsonObject([['nodes', [jsonObject([['id', 'a'], ['label', 'A']])]], ['edges', []]]),
    [jsonObject([['op', 'move'], ['id', 'el-0'], ['dx', 1], ['dy', 1]])],
    true,
    false,
    null,
    '2000-01-01T00:00:00.000Z',
    fx.ids[0]!,
    fx.ids[4]!,
  ];
}

function jsonValueArb(fx: Fixture, fields: string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('title') },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 2, arbitrary: nastyString(8) },
  );
  const leaf = fc.oneof(
    { weight: 3, arbitrary: nastyString() },
    { weight: 2, arbitrary: fc.constantFrom(...EXTREME_NUMBERS).map((n) => new JsonNumberText(n)) },
    { weight: 4, arbitrary: fc.constantFrom(...plausibleValues(fx)) },
    { weight: 1, arbitrary: fc.oneof(fc.boolean(), fc.constant(null), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })) },
    { weight: 1, arbitrary: fc.constantFrom('a', '\ud800', '\u0000', '😀').chain((u) => fc.integer({ min: 1_000, max: 60_000 }).map((n) => u.repeat(n))) },
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) => jsonObject(entries)),
    ),
  }));
  return value;
}

/** The parts of JSON Schema the OpenAPI document and the MCP tools use. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  nullable?: boolean;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

/**
 * Values that fit a schema's shape (so they get past validation and into the
 * domain code), with hostile text, ids and numbers wherever the schema has a
 * string, an id, a number or free-form JSON, and now and then a wrong type.
 */
function schemaValue(schema: JsonSchema, fx: Fixture, depth = 0): fc.Arbitrary<unknown> {
  const wrong = jsonValueArb(fx, Object.keys(schema.properties ?? {}));
  const fitting = (): fc.Arbitrary<unknown> => {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const options = schema.oneOf ?? schema.anyOf;
    if (options && options.length > 0) return fc.oneof(...options.map((option) => schemaValue(option, fx, depth + 1)));
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'object': {
        if (!schema.properties || depth > 3) return fc.constantFrom(...plausibleValues(fx));
        const required = new Set(schema.required ?? []);
        const entries = Object.entries(schema.properties).map(([key, inner]) => {
          const value = schemaValue(inner, fx, depth + 1).map((v): [string, unknown] => [key, v]);
          return required.has(key) ? value : fc.option(value, { nil: null, freq: 3 });
        });
        return fc.tuple(...entries).map((pairs) => jsonObject(pairs.filter((pair): pair is [string, unknown] => pair !== null)));
      }
      case 'array':
        return fc.array(schema.items && Object.keys(schema.items).length > 0 ? schemaValue(schema.items, fx, depth + 1) : fc.constantFrom(...plausibleValues(fx), ...PLAUSIBLE_ITEMS), { maxLength: 4 });
      case 'string':
        if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...fx.ownIds), fc.constantFrom(...fx.ids), fc.uuid());
        return fc.oneof({ weight: 2, arbitrary: fc.constantFrom('a', 'el-0', 'label', 'a -> b', 'rectangle', '2000-01-01T00:00:00.000Z', 'correct horse') }, { weight: 3, arbitrary: nastyString() });
      case 'number':
      case 'integer':
        return fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(...EXTREME_NUMBERS).map((n) => new JsonNumberText(n)));
      case 'boolean':
        return fc.boolean();
      default:
        return wrong;
    }
  };
  const value = fc.oneof({ weight: 8, arbitrary: fitting() }, { weight: 1, arbitrary: wrong });
  return schema.nullable ? fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }) : value;
}

/** Items for arrays of unspecified items: patch operations, spec nodes and edges, scene elements. */
const PLAUSIBLE_ITEMS: unknown[] = [
  jsonObject([['op', 'move'], ['id', 'el-0'], ['dx', 5], ['dy', -5]]),
  jsonObject([['op', 'delete'], ['id', 'el-1']]),
  jsonObject([['op', 'update'], ['id', 'label'], ['text', 'changed']]),
  jsonObject([['id', 'n1'], ['label', 'Node']]),
  jsonObject([['from', 'a'], ['to', 'b']]),
  'a -> b',
  jsonObject([['id', 'x1'], ['type', 'rectangle'], ['x', 0], ['y', 0], ['width', 10], ['height', 10]]),
];

function nested(levels: number, open: string, close: string, inner = '1'): string {
  return open.repeat(levels) + inner + close.repeat(levels);
}

/** Bodies for the route: hostile ones, and the ones a well-behaved client sends (the API's schemas, MCP tool calls, the web forms). */
function bodyArbs(route: ServedRoute, fx: Fixture): { hostile: fc.Arbitrary<BodyForm>; sane: fc.Arbitrary<BodyForm> } {
  const isMcp = route.url === '/mcp';
  const ownFields = apiRoutes.filter((def) => def.url === route.url).flatMap((def) => fieldNames(def.body));
  const fields = route.url.startsWith(API_PREFIX) ? (ownFields.length > 0 ? ownFields : fx.apiFields) : isMcp ? fx.mcpArguments : fx.formFields;
  const json = fc.tuple(jsonValueArb(fx, fields), fc.boolean()).map(([v, escapeAll]) => jsonText(v, escapeAll));
  const object = fc
    .tuple(fc.array(fc.tuple(fc.constantFrom(...(fields.length > 0 ? fields : ['title'])), jsonValueArb(fx, fields)), { maxLength: 4 }), fc.boolean())
    .map(([entries, escapeAll]) => jsonText(jsonObject(entries), escapeAll));
  const formValue = fc.oneof(fc.constantFrom('', '1', 'on', 'x', 'correct horse battery', fx.ids[0]!, '/app', '//evil.example'), hostilePiece);
  const form = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...(fields.length > 0 ? fields : ['name'])), fc.constantFrom(...PROTO_KEYS), hostilePiece), formValue), { maxLength: 6 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  const notJson = fc.oneof(
    fc.constantFrom('{', '}', '[1,]', '{"a":1,}', "{'a':1}", 'undefined', 'NaN', 'Infinity', '01', '"\\x41"', '{"a":"\\ud800"', 'null', '""', '[]', '{}', '\ufeff{}', '{"a":1}{"b":2}'),
    nastyString(40),
  );
  const deep = fc
    .tuple(fc.constantFrom(63, 64, 65, 1_000, 100_000), fc.constantFrom(['[', ']'], ['{"a":', '}'], ['{"__proto__":', '}']))
    .map(([levels, [open, close]]) => nested(levels, open!, close!));
  const proto = fc
    .tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...(fields.length > 0 ? fields : ['title'])))
    .map(([p, field]) => `{"${field}":{"${p}":{"polluted":true}},"${p}":{"polluted":true}}`);
  const nul = fc.constantFrom('{"title":"a\\u0000b"}', '{"title":"a\u0000b"}', '\u0000', '{"a\\u0000":1}', '{"name":"\\udc00\\ud800"}', '{"title":"\ud800"}');
  const mcp = fc
    .record({
      id: fc.oneof(fc.integer(), fc.constantFrom('x', null, 1e300, -0)),
      method: fc.oneof(fc.constantFrom('initialize', 'tools/list', 'tools/call', 'tools/call', 'resources/list', 'resources/read', 'prompts/list', 'ping', 'notifications/initialized', 'nope'), nastyString(8)),
      tool: fx.mcpTools.length > 0 ? fc.oneof(fc.constantFrom(...fx.mcpTools.map((tool) => tool.name)), nastyString(8)) : nastyString(8),
      args: fc.array(fc.tuple(fc.constantFrom(...(fx.mcpArguments.length > 0 ? fx.mcpArguments : ['id'])), jsonValueArb(fx, fx.mcpArguments)), { maxLength: 4 }),
      batch: fc.boolean(),
      escapeAll: fc.boolean(),
    })
    .map(({ id, method, tool, args, batch, escapeAll }) => {
      const message = jsonObject([
        ['jsonrpc', '2.0'],
        ['id', id],
        ['method', method],
        ['params', jsonObject([['name', tool], ['arguments', jsonObject(args)], ['uri', 'drawbridge://docs/spec-grammar'], ['protocolVersion', '2025-03-26'], ['capabilities', jsonObject([])], ['clientInfo', jsonObject([['name', 'fuzz'], ['version', '0']])]])],
      ]);
      return jsonText(batch ? [message, message] : message, escapeAll);
    });
  const text = (arb: fc.Arbitrary<string>) => arb.map((t): BodyForm => ({ kind: 'text', text: t }));
  const schemas = fx.apiBodySchemas.get(route.url) ?? [];
  const fitting =
    schemas.length > 0
      ? fc.tuple(fc.oneof(...schemas.map((schema) => schemaValue(schema, fx))), fc.boolean()).map(([v, escapeAll]) => jsonText(v, escapeAll))
      : object;
  const toolCall =
    fx.mcpTools.length > 0
      ? fc
          .tuple(
            fc.oneof(...fx.mcpTools.map((tool) => schemaValue(tool.inputSchema, fx).map((args) => [tool.name, args] as const))),
            fc.oneof(fc.integer(), fc.constantFrom('x', null)),
          )
          .map(([[name, args], id]) =>
            jsonText(jsonObject([['jsonrpc', '2.0'], ['id', id], ['method', 'tools/call'], ['params', jsonObject([['name', name], ['arguments', args]])]]), false),
          )
      : mcp;
  const saneForm = fc
    .array(fc.tuple(fc.constantFrom(...(fields.length > 0 ? fields : ['name'])), fc.oneof(fc.constantFrom('', '1', 'x', 'correct horse battery', ...fx.ownIds), urlText(nastyString()))), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  const sane: fc.Arbitrary<BodyForm> = isMcp
    ? text(toolCall)
    : schemas.length > 0
      ? text(fitting)
      : route.url.startsWith(API_PREFIX)
        ? fc.constant({ kind: 'none' })
        : text(saneForm);
  const hostile = fc.oneof(
    { weight: 4, arbitrary: fc.constant<BodyForm>({ kind: 'none' }) },
    { weight: isMcp ? 8 : 1, arbitrary: text(mcp) },
    { weight: isMcp ? 8 : 0, arbitrary: text(toolCall) },
    { weight: schemas.length > 0 ? 8 : 0, arbitrary: text(fitting) },
    { weight: 6, arbitrary: text(object) },
    { weight: 2, arbitrary: text(json) },
    { weight: 2, arbitrary: text(form) },
    { weight: 2, arbitrary: text(notJson) },
    { weight: 1, arbitrary: text(deep) },
    { weight: 1, arbitrary: text(proto) },
    { weight: 1, arbitrary: text(nul) },
    { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }).map((bytes): BodyForm => ({ kind: 'bytes', bytes })) },
    { weight: 1, arbitrary: fc.constantFrom(65 * 1024, BODY_LIMIT_BYTES + 1, 3 * BODY_LIMIT_BYTES + 1).map((bytes): BodyForm => ({ kind: 'huge', bytes })) },
  );
  return { hostile, sane };
}

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x',
  'application/xml', '', 'garbage', ';;;', 'application/json; charset=utf-16', 'APPLICATION/JSON', 'application/json, text/html', 'application/*',
  'application/x-www-form-urlencoded; charset=latin1', 'text/html; charset="', 'application/json\u0000', `application/${'x'.repeat(2_000)}`,
];
const ACCEPTS = [
  '*/*', 'text/html', 'application/json', 'application/json, text/event-stream', 'text/event-stream', 'image/png', 'image/svg+xml', '', 'garbage',
  'text/html;q=0', '*/*;q=abc', `${'a/b, '.repeat(1_500)}*/*`,
];

/** Header lines that may appear on any request, some of which Node's parser refuses (those only on a socket). */
const extraHeaderArb = (fx: Fixture) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom<[string, string]>(
      ['x-request-id', '<script>'], ['x-request-id', 'a'.repeat(200)], ['x-forwarded-for', '1.2.3.4, garbage, ::1'], ['x-forwarded-proto', 'gopher'],
      ['if-none-match', '*'], ['if-none-match', 'W/"x", "y"'], ['if-modified-since', 'yesterday'], ['accept-encoding', 'gzip;q=0, br, *;q=abc'],
      ['range', 'bytes=0-1,5-'], ['range', 'bytes=garbage'], ['expect', '100-continue'], ['expect', 'nonsense'], ['origin', 'null'],
      ['origin', 'https://evil.example'], ['origin', fx.publicUrl], ['referer', 'https://evil.example/'], ['x-http-method-override', 'DELETE'],
      ['mcp-session-id', 'nope'], ['mcp-protocol-version', '1999-01-01'], ['last-event-id', '%00'], ['content-encoding', 'gzip'],
      ['content-encoding', 'br, compress'], ['transfer-encoding', 'gzip'], ['connection', 'keep-alive, upgrade'], ['upgrade', 'websocket'],
      ['host', 'evil.example'], ['host', ''], ['x-csrf-token', ''], ['user-agent', '\u00ff\u00fe'], ['cookie', ''],
    ) },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('x-fuzz', 'accept-language', 'user-agent', 'x-csrf-token', 'if-none-match', 'x-forwarded-for'), urlText(nastyString(24))).map(([n, v]): [string, string] => [n, v]) },
    { weight: 1, arbitrary: fc.constantFrom(4_000, 4_000, 10_000, 20_000).map((n): [string, string] => ['x-huge', 'h'.repeat(n)]) },
  );

/** Bogus header lines: a control byte, no colon, a folded line, a space before the colon (a socket only: Node refuses them before any route). */
const MALFORMED_HEADER_LINES = ['X-Bad: a\u0001b', 'X-No-Colon', ' folded continuation', 'X-Space : value', 'X-Nul: \u0000', ': empty-name', 'X-Ünïcode: yes', 'Content-Type: text/plain\rX: y'];

/**
 * Which part of a request is hostile. With everything hostile at once, few
 * requests get past the first check that refuses them; so about half the runs
 * keep all but one part as a well-behaved client of the owner would send it,
 * and those reach the lookups, the domain code and the storage.
 */
type Focus = 'everything' | 'nothing' | 'method' | 'path' | 'query' | 'headers' | 'credentials' | 'body' | 'framing';
const FOCUS_PARTS: Record<Exclude<Focus, 'everything' | 'nothing'>, Array<keyof HostileRequest>> = {
  method: ['method'],
  path: ['path', 'transport'],
  query: ['query', 'transport'],
  headers: ['contentType', 'accept', 'extraHeaders', 'malformedLine', 'transport'],
  credentials: ['caller', 'auth', 'cookie', 'csrf'],
  body: ['body', 'contentType'],
  framing: ['version', 'framing', 'transport'],
};

/** The request a well-behaved client of the owner sends to the route. */
function saneRequestArb(route: ServedRoute, fx: Fixture, body: fc.Arbitrary<BodyForm>): fc.Arbitrary<HostileRequest> {
  const json = route.url.startsWith(API_PREFIX) || route.url === '/mcp';
  return fc.record({
    transport: fc.constantFrom<Transport>('inject', 'inject', 'inject', 'socket'),
    caller: fc.constant<CallerName>('owner'),
    method: fc.constantFrom(...route.answered),
    path: pathArb(route, fx, false),
    query: fc.constant(''),
    auth: fc.constant<AuthForm>('bearer'),
    cookie: fc.constant<CookieForm>('session'),
    csrf: fc.constant<CsrfForm>('right'),
    contentType: fc.constant(json ? 'application/json' : 'application/x-www-form-urlencoded'),
    accept: fc.constant(route.url === '/mcp' ? 'application/json, text/event-stream' : null),
    extraHeaders: fc.constant([]),
    malformedLine: fc.constant(null),
    body,
    version: fc.constant('HTTP/1.1'),
    framing: fc.constant<HostileRequest['framing']>('content-length'),
  });
}

function requestArb(route: ServedRoute, fx: Fixture): fc.Arbitrary<HostileRequest> {
  const bodies = bodyArbs(route, fx);
  const hostile = fc.record({
      transport: fc.constantFrom<Transport>('inject', 'inject', 'inject', 'socket'),
      caller: fc.constantFrom(...CALLER_WEIGHTS),
      method: fc.oneof(
        { weight: 14, arbitrary: fc.constantFrom(...route.answered) },
        { weight: 4, arbitrary: fc.constantFrom(...INJECTABLE_METHODS) },
        { weight: 1, arbitrary: fc.constantFrom(...EXOTIC_METHODS) },
      ),
      path: pathArb(route, fx, true),
      query: queryArb(fx),
      auth: fc.oneof(
        { weight: 8, arbitrary: fc.constant<AuthForm>('bearer') },
        {
          weight: 3,
          arbitrary: fc.constantFrom<AuthForm>('none', 'read-only', 'revoked', 'expired', 'lowercase-scheme', 'no-space', 'basic', 'bearer-only', 'bearer-garbage', 'two-tokens', 'trailing-text', 'huge', 'latin1', 'duplicate-header'),
        },
      ),
      cookie: fc.oneof({ weight: 6, arbitrary: fc.constant<CookieForm>('session') }, { weight: 2, arbitrary: fc.constantFrom<CookieForm>('none', 'bogus', 'malformed', 'two-sessions', 'huge') }),
      csrf: fc.constantFrom<CsrfForm>('right', 'right', 'wrong', 'none'),
      contentType: fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
      // Half the time what the MCP transport requires, so /mcp requests get past it to the tools.
      accept: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constant('application/json, text/event-stream') }, { weight: 2, arbitrary: fc.constantFrom(...ACCEPTS) }),
      extraHeaders: fc.array(extraHeaderArb(fx), { maxLength: 2 }),
      malformedLine: fc.oneof({ weight: 30, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_HEADER_LINES) }),
      body: bodies.hostile,
      version: fc.oneof({ weight: 30, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/9.9', 'HTTP/1.1 extra', 'http/1.1') }),
      framing: fc.oneof(
        { weight: 20, arbitrary: fc.constant<HostileRequest['framing']>('content-length') },
        { weight: 1, arbitrary: fc.constantFrom<HostileRequest['framing']>('chunked', 'chunked-and-length', 'bad-length', 'two-lengths', 'short-length') },
      ),
    });
  const focus = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Focus>('everything') },
    { weight: 1, arbitrary: fc.constant<Focus>('nothing') },
    { weight: 7, arbitrary: fc.constantFrom<Focus>(...(Object.keys(FOCUS_PARTS) as Focus[])) },
  );
  return fc
    .tuple(focus, hostile, saneRequestArb(route, fx, bodies.sane))
    .map(([part, wild, tame]): HostileRequest => {
      if (part === 'everything') return wild;
      if (part === 'nothing') return tame;
      return { ...tame, ...Object.fromEntries(FOCUS_PARTS[part].map((key) => [key, wild[key]])) };
    })
    .map((r) => {
      // What only a socket can carry goes over a socket: inject would let through what Node's parser refuses
      // (control bytes in a header, more header bytes than it takes), and it normalises the path.
      const headerBytes = r.path.length + r.query.length + r.extraHeaders.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
      const needsSocket =
        !INJECTABLE_METHODS.includes(r.method) ||
        r.malformedLine !== null ||
        r.version !== 'HTTP/1.1' ||
        r.framing !== 'content-length' ||
        /\/\.\.?(\/|$)|^http:/.test(r.path) ||
        [...r.extraHeaders.map(([, value]) => value), r.contentType ?? '', r.accept ?? ''].some((value) => /[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) ||
        headerBytes > NODE_HEADER_LIMIT / 2;
      const transport: Transport = needsSocket ? 'socket' : r.transport;
      // A huge body goes through inject: a server that refuses it early may reset the socket before its answer is read.
      const body: BodyForm = transport === 'socket' && r.body.kind === 'huge' ? { kind: 'text', text: '{}' } : r.body;
      return { ...r, transport, body };
    });
}

// ---------------------------------------------------------------------------
// Turning a request into bytes or an inject call, and reading the answer

interface WireRequest {
  transport: Transport;
  method: string;
  target: string;
  headers: Array<[string, string]>;
  /** A header line written as it is after the others (socket only). */
  malformedLine: string | null;
  body: Buffer | null;
  version: string;
  framing: HostileRequest['framing'];
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function bodyBytes(body: BodyForm): Buffer | null {
  switch (body.kind) {
    case 'none':
      return null;
    case 'text':
      return Buffer.from(body.text, 'utf8');
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'huge':
      return hugeBody(body.bytes);
  }
}

const hugeBodies = new Map<number, Buffer>();

/** `{"title":"aaa…"}` of the given length, made once per length (only a few are drawn) and never written to. */
function hugeBody(bytes: number): Buffer {
  let body = hugeBodies.get(bytes);
  if (!body) {
    body = Buffer.alloc(bytes, 'a');
    body.write('{"title":"', 0, 'latin1');
    body.write('"}', bytes - 2, 'latin1');
    hugeBodies.set(bytes, body);
  }
  return body;
}

async function toWire(r: HostileRequest, fx: Fixture, h: ListeningHarness, requestId: string): Promise<WireRequest> {
  const user = r.caller === 'anonymous' ? null : fx.users[r.caller];
  // Tagged, so that anything the server logs about it can be traced back to it.
  const headers: Array<[string, string]> = [['x-request-id', requestId]];
  const token = user?.token ?? `drw_pat_${randomBytes(20).toString('base64url')}`;
  const authorization: Record<AuthForm, string | null> = {
    bearer: user ? `Bearer ${token}` : null,
    none: null,
    'read-only': `Bearer ${fx.ownerReadOnlyToken}`,
    revoked: `Bearer ${fx.revokedToken}`,
    expired: `Bearer ${fx.expiredToken ?? fx.revokedToken}`,
    'lowercase-scheme': `bearer ${token}`,
    'no-space': `Bearer${token}`,
    basic: `Basic ${Buffer.from(`${user?.email ?? 'x'}:${token}`).toString('base64')}`,
    'bearer-only': 'Bearer ',
    'bearer-garbage': `Bearer drw_pat_${'\u00e9'.repeat(8)}%00`,
    'two-tokens': `Bearer ${token}, Bearer ${fx.users.stranger.token}`,
    'trailing-text': `Bearer ${token} extra`,
    huge: `Bearer ${'A'.repeat(6_000)}`,
    latin1: `Bearer \u00ff\u00fe${token}`,
    'duplicate-header': `Bearer ${token}`,
  };
  const auth = authorization[r.auth];
  if (auth !== null) headers.push(['authorization', auth]);
  if (r.auth === 'duplicate-header') headers.push(['authorization', `Bearer ${fx.users.stranger.token}`]);

  let csrfToken: string | null = null;
  if (user && r.cookie === 'session') {
    const session = await signIn(h, user.id);
    headers.push(['cookie', session.cookie]);
    csrfToken = session.csrfToken;
  } else if (r.cookie === 'two-sessions') {
    const [a, b] = await Promise.all([signIn(h, fx.users.owner.id), signIn(h, fx.users.stranger.id)]);
    headers.push(['cookie', `${a.cookie}; ${b.cookie}`]);
    csrfToken = a.csrfToken;
  } else if (r.cookie === 'bogus') headers.push(['cookie', 'drawbridge_session=not-a-session']);
  else if (r.cookie === 'malformed') headers.push(['cookie', '=;=;drawbridge_session;drawbridge_session="\u00ff%00;;']);
  else if (r.cookie === 'huge') headers.push(['cookie', `drawbridge_session=${'c'.repeat(4_000)}`]);
  if (r.csrf === 'right' && csrfToken) headers.push(['x-csrf-token', csrfToken]);
  if (r.csrf === 'wrong') headers.push(['x-csrf-token', 'wrong-token']);

  if (r.contentType !== null) headers.push(['content-type', r.contentType]);
  if (r.accept !== null) headers.push(['accept', r.accept]);
  headers.push(...r.extraHeaders);

  let body = bodyBytes(r.body);
  // A form may carry its CSRF token in `_csrf`, as the web app's pages do.
  if (body && csrfToken && r.csrf === 'right' && r.contentType?.startsWith('application/x-www-form-urlencoded')) {
    body = Buffer.concat([body, Buffer.from(`&_csrf=${encodeURIComponent(csrfToken)}`)]);
  }
  return { transport: r.transport, method: r.method, target: r.path + r.query, headers, malformedLine: r.malformedLine, body, version: r.version, framing: r.framing };
}

/** Header names of which Node keeps the first only (http.IncomingMessage#headers). */
const SINGLE_HEADERS = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

/** The headers as Node would present them after reading them off the wire: latin1 text, trimmed, duplicates folded. */
function injectHeaders(lines: Array<[string, string]>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [rawName, rawValue] of lines) {
    const name = rawName.toLowerCase();
    const value = Buffer.from(rawValue, 'utf8').toString('latin1').trim();
    if (!(name in headers)) headers[name] = value;
    else if (name === 'cookie') headers[name] += `; ${value}`;
    else if (!SINGLE_HEADERS.has(name)) headers[name] += `, ${value}`;
  }
  return headers;
}

async function sendInject(app: FastifyInstance, wire: WireRequest): Promise<Answer> {
  const options: InjectOptions = {
    method: wire.method as InjectOptions['method'],
    url: wire.target,
    headers: injectHeaders(wire.headers),
    payloadAsStream: true,
    ...(wire.body ? { payload: wire.body } : {}),
  };
  const res = await app.inject(options);
  const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
  const stream = res.stream();
  if ((headers['content-type'] ?? '').startsWith('text/event-stream')) {
    // An event stream does not end: its head is the answer. Closing the request, as a client leaving does, ends it on the server.
    stream.destroy();
    (res.raw.res as unknown as { req: { destroy(): void } }).req.destroy();
    return { status: res.statusCode, headers, body: Buffer.alloc(0) };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { status: res.statusCode, headers, body: Buffer.concat(chunks) };
}

function requestBytes(wire: WireRequest, port: number): Buffer {
  const lines = [`${wire.method} ${wire.target} ${wire.version}`];
  const names = new Set(wire.headers.map(([name]) => name.toLowerCase()));
  if (!names.has('host')) lines.push(`Host: 127.0.0.1:${port}`);
  for (const [name, value] of wire.headers) lines.push(`${name}: ${value}`);
  if (wire.malformedLine !== null) lines.push(wire.malformedLine);
  lines.push('Connection: close');
  let body = wire.body ?? Buffer.alloc(0);
  switch (wire.framing) {
    case 'content-length':
      if (wire.body) lines.push(`Content-Length: ${body.length}`);
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      body = body.length === 0 ? Buffer.from('0\r\n\r\n') : Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
      break;
    case 'chunked-and-length':
      lines.push('Transfer-Encoding: chunked', `Content-Length: ${body.length}`);
      break;
    case 'bad-length':
      lines.push('Content-Length: 1x');
      break;
    case 'two-lengths':
      lines.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
      break;
    case 'short-length':
      // Fewer bytes declared than sent: the rest reads as a second, garbled request on a connection that is closing.
      lines.push(`Content-Length: ${Math.max(0, body.length - 1)}`);
      break;
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), body]);
}

/** Reads the first final response off the bytes received; null while it is incomplete. */
function parseAnswer(bytes: Buffer, method: string, closed: boolean): Answer | null {
  let offset = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', offset);
    if (end < 0) return null;
    const [statusLine, ...headerLines] = bytes.subarray(offset, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine!)?.[1]);
    assert.ok(Number.isInteger(status), `a status line, got ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers[name] = name in headers ? `${headers[name]}, ${line.slice(colon + 1).trim()}` : line.slice(colon + 1).trim();
    }
    offset = end + 4;
    if (status >= 100 && status < 200 && status !== 101) continue; // 100 Continue, then the real answer
    const rest = bytes.subarray(offset);
    if (method === 'HEAD' || status === 204 || status === 304 || (headers['content-type'] ?? '').startsWith('text/event-stream')) {
      return { status, headers, body: Buffer.alloc(0) };
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const chunks: Buffer[] = [];
      let at = 0;
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', at);
        if (lineEnd < 0) return closed ? { status, headers, body: Buffer.concat(chunks) } : null;
        const size = Number.parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
        if (size === 0) return { status, headers, body: Buffer.concat(chunks) };
        if (rest.length < lineEnd + 2 + size + 2) return closed ? { status, headers, body: Buffer.concat(chunks) } : null;
        chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    }
    const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
    if (length !== null && rest.length >= length) return { status, headers, body: rest.subarray(0, length) };
    return closed ? { status, headers, body: rest } : null;
  }
}

/** Sends the bytes on a fresh connection and reads the first answer; null when the server closed without one. */
function sendSocket(port: number, wire: WireRequest, timeoutMs = ANSWER_TIMEOUT_MS): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    let settled = false;
    const settle = (answer: Answer | null, error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer);
    };
    const socket = net.connect(port, '127.0.0.1', () => socket.write(requestBytes(wire, port)));
    const timer = setTimeout(() => settle(null, new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const tryParse = (closed: boolean) => {
      const bytes = Buffer.concat(received);
      if (bytes.length === 0) return closed ? settle(null) : undefined;
      try {
        const answer = parseAnswer(bytes, wire.method, closed);
        if (answer) settle(answer);
        else if (closed) settle(null, new Error(`an incomplete answer: ${JSON.stringify(bytes.subarray(0, 300).toString('latin1'))}`));
      } catch (error) {
        settle(null, error as Error);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      tryParse(false);
    });
    // The server may close as soon as it has answered: a reset or broken pipe then is not a failure, a missing answer is.
    socket.on('error', () => tryParse(true));
    socket.on('close', () => tryParse(true));
  });
}

/** The request in a form to paste into a bug report (long runs of one character abbreviated). */
function describeWire(wire: WireRequest): string {
  const short = (s: string) => s.replace(/(.)\1{40,}/gs, (run, c: string) => `${c.repeat(3)}…(${run.length}×)`);
  const body = wire.body ? short(wire.body.toString('latin1').slice(0, 2_000)) : '';
  return JSON.stringify({
    transport: wire.transport,
    method: wire.method,
    target: short(wire.target),
    version: wire.version,
    framing: wire.framing,
    headers: wire.headers.map(([n, v]) => [n, short(v)]),
    malformedLine: wire.malformedLine,
    body,
    bodyBytes: wire.body?.length ?? 0,
  });
}

// ---------------------------------------------------------------------------
// What every answer must be

/** The path the router sees: the target before its query, without an absolute-form's scheme and authority. */
function pathOf(target: string): string {
  const noQuery = target.split('?')[0]!;
  return noQuery.replace(/^http:\/\/[^/]*/, '');
}

function assertEnvelope(body: unknown, status: number, what: string): void {
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body), `${what}: the refusal is a JSON object`);
  const envelope = body as Record<string, unknown>;
  assert.ok(typeof envelope.error === 'string' && Object.hasOwn(errorStatus, envelope.error), `${what}: ${JSON.stringify(envelope.error)} is a catalogue code`);
  assert.equal(errorStatus[envelope.error as keyof typeof errorStatus], status, `${what}: the status is the catalogue's for ${envelope.error}`);
  assert.deepEqual(Object.keys(envelope).filter((key) => key !== 'error' && key !== 'message'), [], `${what}: only error and message`);
  if ('message' in envelope) assert.equal(typeof envelope.message, 'string', `${what}: message is text`);
}

/** The OAuth endpoints whose refusals the OAuth specifications define (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009 §2.2.1). */
const OAUTH_PROTOCOL_PATHS = new Set<string>([OAUTH_PATHS.token, OAUTH_PATHS.registration, OAUTH_PATHS.revocation]);

/** An OAuth error response: `error` a code of printable ASCII without `"` or `\`, an optional description, nothing else. */
function assertOAuthError(body: unknown, what: string): void {
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body), `${what}: the refusal is a JSON object`);
  const error = body as Record<string, unknown>;
  assert.ok(typeof error.error === 'string' && /^[\x20\x21\x23-\x5B\x5D-\x7E]+$/.test(error.error), `${what}: an OAuth error code`);
  assert.deepEqual(Object.keys(error).filter((key) => !['error', 'error_description', 'error_uri'].includes(key)), [], `${what}: only the OAuth error fields`);
  if ('error_description' in error) assert.equal(typeof error.error_description, 'string', `${what}: error_description is text`);
}

/** The rules every exchange keeps, whatever was sent. */
function assertWellAnswered(wire: WireRequest, answer: Answer | null): void {
  const what = `${wire.method} ${describeWire(wire)} → ${answer ? `${answer.status} ${answer.body.toString('utf8').slice(0, 300)}` : 'no answer'}`;
  if (answer === null) {
    // Node has no CONNECT handler and closes such a connection unanswered; every other request gets an answer.
    assert.ok(wire.method === 'CONNECT', `answered: ${what}`);
    return;
  }
  assert.ok(answer.status >= 100 && answer.status < 500, `never a 5xx: ${what}`);
  const type = answer.headers['content-type'] ?? '';
  const hasBody = answer.body.length > 0;
  const path = pathOf(wire.target);
  let json: unknown;
  if (hasBody && /^application\/json/i.test(type)) {
    assert.doesNotThrow(() => (json = JSON.parse(answer.body.toString('utf8'))), `JSON that parses: ${what}`);
  }
  if (answer.status >= 300 && answer.status < 400 && answer.status !== 304) assert.ok(answer.headers.location, `a redirect names where to: ${what}`);
  if (answer.status < 400 || !hasBody) return;

  const jsonOnly = path.startsWith(`${API_PREFIX}/`) || path === API_PREFIX || path.startsWith('/app/api/');
  // The router ignores a trailing slash: /mcp/ is /mcp.
  if (json !== undefined && path.replace(/\/+$/, '') === '/mcp' && typeof json === 'object' && json !== null && 'jsonrpc' in json) {
    const error = (json as { error?: { code?: unknown; message?: unknown } }).error;
    assert.ok(error && Number.isInteger(error.code) && typeof error.message === 'string', `a JSON-RPC error: ${what}`);
  } else if (json !== undefined && OAUTH_PROTOCOL_PATHS.has(path.replace(/\/+$/, '')) && !(typeof json === 'object' && json !== null && 'message' in json)) {
    // The OAuth server's own refusal; the service's envelope (a wrong method, malformed HTTP, the registration limit) is checked below.
    assertOAuthError(json, what);
  } else if (json !== undefined) {
    assertEnvelope(json, answer.status, what);
  } else {
    assert.ok(!jsonOnly, `a JSON endpoint refuses in JSON: ${what}`);
    assert.match(type, /^text\/html/i, `a refusal is the JSON envelope or an HTML page: ${what}`);
  }
}

/** A log line of a server fault: anything at error level, and a database outage (which the fuzz never causes). */
const isServerFault = (line: string) => /"level":(50|60)\b/.test(line) || /"msg":"database unreachable"/.test(line);

/** Fails with each server fault logged and the exchange it was about (by request id). */
function assertNoServerFaultLogged(logs: string, sent: Map<string, string>): void {
  const errors = logs
    .split('\n')
    .filter(isServerFault)
    .map((line) => {
      const entry = JSON.parse(line) as { reqId?: string; msg?: string; err?: { message?: string; code?: string } };
      return `${entry.msg ?? ''} ${entry.err?.code ?? ''} ${entry.err?.message ?? ''} — after ${entry.reqId ? (sent.get(entry.reqId) ?? entry.reqId) : 'no request'}`;
    });
  assert.deepEqual(errors, [], 'no server fault was logged');
}

// ---------------------------------------------------------------------------
// The fuzz, on each engine

/**
 * The suite's fixed seed, offset by a hash of the route's URL: each route gets
 * its own sequence of requests (the same seed for all would send every route
 * the same shapes in the same order), and a route keeps its sequence when
 * others are added. Under FC_SEED=random, fast-check picks.
 */
function seedFor(route: ServedRoute): { seed?: number } {
  const base = fc.readConfigureGlobal().seed;
  if (base === undefined) return {};
  let hash = 0;
  for (const char of route.url) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return { seed: (base + hash) | 0 };
}

// ---------------------------------------------------------------------------
// Hostile frames at the live socket

/** Connections tried with hostile frames, per engine (HOSTILE_RUNS / 3 when set). */
const LIVE_RUNS = process.env.HOSTILE_RUNS ? Math.ceil(Number(process.env.HOSTILE_RUNS) / 3) : 40;
/** The codes a connection may be closed with after hostile frames: protocol error, binary, not UTF-8, flood, too big, too slow. */
const LIVE_CLOSE_CODES_ALLOWED = new Set([1002, 1003, 1007, 1008, 1009, 1013]);

type LiveFrame = { text: string } | { binary: Buffer } | { rawText: Buffer };

const jsonValue = fc.jsonValue({ maxDepth: 4 });
const hostileElement = fc.oneof(
  fc.record({ id: fc.string(), type: fc.constantFrom('rectangle', 'text', 'arrow', 'image', 'frame', 'nope', '__proto__'), version: fc.oneof(fc.integer(), fc.double(), fc.string()) }, { requiredKeys: [] }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'type', 'x', 'points', 'link', 'text', 'boundElements'), jsonValue),
  jsonValue,
);
const liveFrameArb: fc.Arbitrary<LiveFrame> = fc.oneof(
  // Not JSON, truncated JSON, JSON of the wrong type.
  fc.string({ unit: 'binary' }).map((text) => ({ text })),
  fc.constantFrom('{', '{"type":"elements","seq":1,"elements":[', '[]', 'null', '1e400', '"elements"', '{"type":"presence"', '\u0000').map((text) => ({ text })),
  jsonValue.map((value) => ({ text: JSON.stringify(value) ?? 'null' })),
  // Prototype keys, at the top and inside.
  fc.constantFrom(
    '{"__proto__":{"type":"elements"},"type":"presence"}',
    '{"type":"elements","seq":1,"elements":[{"__proto__":{"isDeleted":true},"id":"p","type":"rectangle"}]}',
    '{"type":"presence","selectedElementIds":{"__proto__":true,"constructor":true}}',
    '{"constructor":{"prototype":{"polluted":1}},"type":"presence"}',
  ).map((text) => ({ text })),
  // The protocol's messages with fields of the wrong type or hostile elements.
  fc.record({ type: fc.constantFrom('elements', 'presence', 'welcome', 'gone', ''), seq: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(-1)), elements: fc.oneof(fc.array(hostileElement, { maxLength: 20 }), jsonValue) }, { requiredKeys: ['type'] }).map((value) => ({ text: JSON.stringify(value) })),
  fc.record({ type: fc.constant('presence'), pointer: fc.oneof(jsonValue, fc.record({ x: fc.double(), y: fc.double(), tool: fc.string() })), button: jsonValue, status: jsonValue, selectedElementIds: jsonValue }, { requiredKeys: ['type'] }).map((value) => ({ text: JSON.stringify(value) })),
  // Over the size limit, binary, not UTF-8.
  fc.constant({ text: 'x'.repeat(BODY_LIMIT_BYTES + 1) }),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ binary: Buffer.from(bytes) })),
  fc.constant({ rawText: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
);
/** A run: a few hostile frames, sometimes repeated as a flood. */
const liveRunArb = fc.record({ frames: fc.array(liveFrameArb, { minLength: 1, maxLength: 5 }), flood: fc.oneof(fc.constant(1), fc.constant(1), fc.constant(400)) });

function sendFrame(socket: WebSocket, frame: LiveFrame): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  if ('text' in frame) socket.send(frame.text);
  else if ('binary' in frame) socket.send(frame.binary, { binary: true });
  else socket.send(frame.rawText, { binary: false });
}

const describeFrame = (frame: LiveFrame) => ('text' in frame ? `text ${JSON.stringify(frame.text.slice(0, 120))}${frame.text.length > 120 ? `… (${frame.text.length})` : ''}` : 'binary' in frame ? `binary ${frame.binary.length} bytes` : 'text frame not UTF-8');

/** The whole probe on one engine; `skip` says why it cannot run here (PostgreSQL not available), or is false. */
export function describeHostileRoutes(engine: Engine, skip: string | false): void {
  describe(`hostile requests at every route (${engine})`, { skip }, () => {
    let h: ListeningHarness;
    let fx: Fixture;
    let port: number;
    let exchanges = 0;
    /** Statuses answered at the route being fuzzed, for the report. */
    let statuses = new Map<number | 'none', number>();

    before(async () => {
      h = await startHarness({
        engine,
        listen: true,
        env: { RATE_LIMIT_READ_PER_MIN: '100000000', RATE_LIMIT_WRITE_PER_MIN: '100000000', RATE_LIMIT_PAGES_PER_MIN: '100000000' },
      });
      port = Number(new URL(h.baseUrl).port);
      fx = await makeFixture(h);
    });
    after(() => h?.close());

    /** What each request id was sent with, to report whatever the server logged about it. */
    const sent = new Map<string, string>();

    async function exchange(r: HostileRequest): Promise<void> {
      const requestId = `hostile-${exchanges}`;
      const wire = await toWire(r, fx, h, requestId);
      sent.set(requestId, describeWire(wire));
      const answer = wire.transport === 'inject' ? await sendInject(h.app, wire) : await sendSocket(port, wire);
      exchanges += 1;
      const status = answer?.status ?? 'none';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      assertWellAnswered(wire, answer);
    }

    test('the router lists every API route, the web app, the public pages, the assets and /mcp', () => {
      const served = servedRoutes(h.app);
      const has = (url: string, method: string) => served.some((route) => route.url === url && route.methods.includes(method));
      for (const def of apiRoutes) assert.ok(has(def.url, def.method), `${def.method} ${def.url} is listed`);
      for (const [method, url] of [['POST', '/mcp'], ['GET', '/p/:slug'], ['GET', '/app'], ['GET', '/login'], ['GET', '/assets/:build/*']]) {
        assert.ok(has(url!, method!), `${method} ${url} is listed`);
      }
    });

    test('hostile requests at each route are answered, never with a 5xx, refusals in the envelope', { timeout: 600_000 }, async (t) => {
      const routes: ServedRoute[] = [];
      for (const route of servedRoutes(h.app)) routes.push(await withAnsweredMethods(h.app, route));
      const started = performance.now();
      for (const route of routes) {
        await t.test(`${route.methods.join(',')} ${route.url}`, async (routeTest) => {
          statuses = new Map();
          const logsBefore = h.logs().length;
          await fc.assert(
            fc.asyncProperty(requestArb(route, fx), async (r) => {
              await exchange(r);
            }),
            { numRuns: RUNS_PER_ROUTE, ...seedFor(route) },
          );
          routeTest.diagnostic(`statuses: ${[...statuses].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([status, n]) => `${status}×${n}`).join(' ')}`);
          assert.equal((await h.call('GET', '/healthz')).statusCode, 200, 'the service is healthy after the route was fuzzed');
          // A request the server gave up on (the client left) may be logged a moment after its exchange.
          await new Promise((resolve) => setTimeout(resolve, 50));
          assertNoServerFaultLogged(h.logs().slice(logsBefore), sent);
        });
      }
      t.diagnostic(`${routes.length} routes, ${exchanges} exchanges in ${Math.round(performance.now() - started)} ms`);
    });

    test('hostile frames at the live socket close it with a documented code or leave it open, and log no server fault', { timeout: 300_000 }, async () => {
      const session = await signIn(h, fx.users.owner.id);
      const created = await h.call('POST', '/api/v1/diagrams', { token: fx.users.owner.token, body: { title: 'live fuzz', scene: sceneOf(2) } });
      assert.equal(created.statusCode, 201, created.body);
      const diagramId = created.json().id as string;
      const logsBefore = h.logs().length;
      const closes = new Map<number | 'open', number>();
      await fc.assert(
        fc.asyncProperty(liveRunArb, async ({ frames, flood }) => {
          const client = await connectLive(h.baseUrl, diagramId, { cookie: session.cookie });
          await client.next('welcome');
          for (let i = 0; i < flood; i++) for (const frame of frames) sendFrame(client.socket, frame);
          // A change after them, answered unless the connection went: refused at once, for the element it lacks or by the
          // budget the hostile frames used up (a stored change waits for the room's write; the last check below stores one).
          const mark = 2 ** 31;
          sendFrame(client.socket, { text: JSON.stringify({ type: 'elements', seq: mark, elements: [{ id: 'mark' }] }) });
          const answered = client.until((m) => m.type === 'error' && m.seq === mark, 30_000);
          answered.catch(() => undefined); // the connection may close instead
          const outcome = await Promise.race([client.closed, answered.then(() => 'open' as const)]);
          const code = outcome === 'open' ? 'open' : outcome.code;
          closes.set(code, (closes.get(code) ?? 0) + 1);
          assert.ok(code === 'open' || LIVE_CLOSE_CODES_ALLOWED.has(code), `closed with ${code} after ${frames.map(describeFrame).join(', ')} ×${flood}`);
          for (const message of client.received) assert.ok(message.type !== 'error' || typeof message.code === 'string', 'refusals carry a code');
          await client.close();
        }),
        { numRuns: LIVE_RUNS },
      );
      assert.ok(closes.get('open'), 'some runs leave the connection open');
      assert.ok([...closes.keys()].some((code) => code !== 'open'), 'some runs close it');
      assertNoServerFaultLogged(h.logs().slice(logsBefore), new Map());
      assert.equal((await h.call('GET', '/healthz')).statusCode, 200);
      // Someone else (the owner's budget may be spent by the floods).
      await h.store.sharing.shareDiagram(diagramId, fx.users.stranger.id, 'editor');
      const after = await connectLive(h.baseUrl, diagramId, { cookie: (await signIn(h, fx.users.stranger.id)).cookie });
      await after.next('welcome');
      after.send({ type: 'elements', seq: 1, elements: [rect('after-the-storm', 1)] });
      assert.equal((await after.next('saved', 30_000)).upTo, 1, 'a change is still stored');
      await after.close();
    });

    test('afterwards the service is healthy: health, readiness, a create and a read, and no server fault logged', async () => {
      assert.deepEqual((await h.call('GET', '/healthz')).json(), { status: 'ok' });
      assert.equal((await h.call('GET', '/readyz')).statusCode, 200);
      const user = await h.user();
      const created = await h.call('POST', '/api/v1/diagrams', { token: user.token, body: { title: 'after the storm', scene: sceneOf(2) } });
      assert.equal(created.statusCode, 201, created.body);
      const read = await h.call('GET', `/api/v1/diagrams/${created.json().id}`, { token: user.token });
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().title, 'after the storm');
      assertNoServerFaultLogged(h.logs(), sent);
    });

    // Bugs the fuzz found, each pinned with the request that showed it.

    test(
      'HEAD of the editor event stream is answered like any other request',
      {},
      async () => {
        const session = await signIn(h, fx.users.owner.id);
        const wire: WireRequest = {
          transport: 'socket',
          method: 'HEAD',
          target: `/app/api/diagrams/${fx.ownIds[0]}/events`,
          headers: [['cookie', session.cookie]],
          malformedLine: null,
          body: null,
          version: 'HTTP/1.1',
          framing: 'content-length',
        };
        assertWellAnswered(wire, await sendSocket(port, wire, 5_000));
      },
    );

    test(
      'the web app\'s JSON endpoints refuse in JSON whatever form the request-target has',
      {},
      async () => {
        const session = await signIn(h, fx.users.owner.id);
        for (const headers of [[['cookie', session.cookie]], []] as Array<Array<[string, string]>>) {
          const wire: WireRequest = {
            transport: 'socket',
            method: 'GET',
            target: `${h.baseUrl}/app/api/diagrams/00000000-0000-4000-8000-000000000000`,
            headers,
            malformedLine: null,
            body: null,
            version: 'HTTP/1.1',
            framing: 'content-length',
          };
          const answer = await sendSocket(port, wire);
          assertWellAnswered(wire, answer);
          assert.match(answer?.headers['content-type'] ?? '', /^application\/json/, `${describeWire(wire)} → ${answer?.status}`);
        }
      },
    );

    test(
      'a request whose client leaves in the middle of its body is not logged as a server fault',
      {},
      async () => {
        const logsBefore = h.logs().length;
        const token = fx.users.owner.token;
        const requests: Array<[string, string]> = [
          ['left-mid-body-api', `POST /api/v1/folders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nx-request-id: left-mid-body-api\r\n\r\n{"name":`],
          ['left-mid-body-web', 'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\nx-request-id: left-mid-body-web\r\n\r\nemail=a'],
          ['gzip-transfer-encoding', 'POST /app/folders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nx-request-id: gzip-transfer-encoding\r\n\r\n'],
        ];
        for (const [, bytes] of requests) {
          await new Promise<void>((resolve) => {
            const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
            socket.on('error', () => undefined);
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 200);
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
        assertNoServerFaultLogged(h.logs().slice(logsBefore), new Map(requests.map(([id, bytes]) => [id, JSON.stringify(bytes)])));
      },
    );
  });
}
