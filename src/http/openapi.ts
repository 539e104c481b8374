import { z } from 'zod';
import '../api/schemas.ts';
import { type ErrorCode, defaultMessage, errorStatus } from '../errors.ts';
import type { RouteDef } from '../edge/route.ts';

/**
 * Any route: a path parameter or query holding text that cannot be stored
 * (validate.ts), a request the HTTP parser or the router refuses (errors.ts).
 */
const REQUEST_ERRORS: ErrorCode[] = ['bad_request', 'request_timeout', 'request_header_too_large'];
const TOKEN_ERRORS: ErrorCode[] = ['unauthorized', 'rate_limited', 'api_disabled'];
const BODY_ERRORS: ErrorCode[] = ['bad_request', 'invalid_json', 'payload_too_large', 'PROTO_KEY'];

/** Failures any operation can meet that are no fault of the caller's: a bug, an unreachable database. */
const SERVER_ERRORS: ErrorCode[] = ['internal_error', 'upstream_unavailable'];

type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';
const JSON_SCHEMA_OPTIONS = { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' } as const;

/**
 * The JSON Schema (2020-12, which OpenAPI 3.1 uses) of a request or response
 * shape: a `$ref` to its component when it has a name (`.meta({ id })`),
 * else inline, with every named shape inside it referred to as a component.
 */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `${COMPONENT_PREFIX}${id}` };
  const { $defs: _defs, $schema: _schema, ...inline } = z.toJSONSchema(schema, JSON_SCHEMA_OPTIONS) as JsonSchema;
  return pointAtComponents(inline) as JsonSchema;
}

/** Rewrites the `#/$defs/<id>` references zod writes into component references. */
function pointAtComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointAtComponents);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/') ? [key, `${COMPONENT_PREFIX}${inner.slice('#/$defs/'.length)}`] : [key, pointAtComponents(inner)],
    ),
  );
}

/** Every named shape, as components; only those the paths reach (directly or through another component) are kept. */
function components(paths: object): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { ...JSON_SCHEMA_OPTIONS, uri: (id) => `${COMPONENT_PREFIX}${id}` }) as { schemas: Record<string, JsonSchema> };
  const reached = new Set<string>(['Error']);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENT_PREFIX)) {
        const id = inner.slice(COMPONENT_PREFIX.length);
        if (!reached.has(id)) {
          reached.add(id);
          visit(schemas[id]);
        }
      } else visit(inner);
    }
  };
  visit(paths);
  visit(schemas.Error);
  return Object.fromEntries(
    [...reached].sort().map((id) => {
      const { $schema: _schema, $id: _id, ...schema } = schemas[id] ?? {};
      return [id, schema];
    }),
  );
}

/** The error answer of one status: the envelope, its code one of `codes`. */
function errorResponse(codes: ErrorCode[]) {
  return {
    description: codes.map((c) => `\`${c}\``).join(', '),
    content: {
      'application/json': {
        schema: { allOf: [{ $ref: `${COMPONENT_PREFIX}Error` }, { type: 'object', properties: { error: { type: 'string', enum: codes } } }] },
        example: { error: codes[0], message: defaultMessage[codes[0]!] },
      },
    },
  };
}

/** Every error code a route can answer with, including those shared by all authenticated routes. */
export function errorCodesOf(def: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>([...REQUEST_ERRORS, ...def.errors, ...SERVER_ERRORS]);
  if ('session' in def.access) {
    // Signed out; a change without the session's CSRF token, or from another site.
    codes.add('unauthorized');
    if (def.method !== 'GET') codes.add('csrf_failed');
  } else if (!('public' in def.access)) {
    TOKEN_ERRORS.forEach((c) => codes.add(c));
    if (!def.allowUnverified) codes.add('email_unverified');
    if ('capability' in def.access) codes.add('insufficient_scope');
    // A malformed Drawbridge-Mcp-Tool header.
    codes.add('bad_request');
  }
  if (def.body) BODY_ERRORS.forEach((c) => codes.add(c));
  if (def.url.includes(':')) {
    codes.add('method_not_allowed');
    codes.add('uri_too_long');
  }
  return [...codes];
}

const MCP_TOOL_HEADER_DOC =
  "Sent by Drawbridge's MCP servers: the MCP tool making the call (lowercase letters, digits and `_`, at most 64), recorded as `via` in the diagram's history beside the token. The caller's own word: the token is what authorizes. Malformed: 400 bad_request.";

function operation(def: RouteDef) {
  const parameters: object[] = [...def.url.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const byToken = 'capability' in def.access || 'anyToken' in def.access;
  const requestHeaders = { ...(byToken ? { 'Drawbridge-Mcp-Tool': MCP_TOOL_HEADER_DOC } : {}), ...def.requestHeaders };
  for (const [name, description] of Object.entries(requestHeaders)) {
    parameters.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  }
  if (def.query) {
    const shape = (def.query as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    for (const [name, schema] of Object.entries(shape)) {
      parameters.push({ name, in: 'query', required: false, schema: jsonSchema(schema) });
    }
  }
  const binary = { schema: { type: 'string', format: 'binary' } };
  const content: Record<string, object> = {
    ...(def.response.schema ? { 'application/json': { schema: jsonSchema(def.response.schema) } } : {}),
    ...(def.response.contentType ? { [def.response.contentType]: binary } : {}),
    ...Object.fromEntries((def.response.rawContentTypes ?? []).map((type) => [type, binary])),
  };
  const headers = Object.fromEntries(Object.entries(def.response.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
  const withHeaders = Object.keys(headers).length > 0 ? { headers } : {};
  const responses: Record<string, object> = {
    [def.response.status]: { description: def.response.description, ...withHeaders, ...(Object.keys(content).length > 0 ? { content } : {}) },
    ...(def.response.noContent ? { 204: { description: def.response.noContent } } : {}),
    ...(def.response.notModified ? { 304: { description: def.response.notModified, ...withHeaders } } : {}),
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(def)) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[status] = errorResponse(codes);
  }
  return {
    operationId: def.operationId,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: def.tags,
    ...('public' in def.access ? { security: [] } : {}),
    ...('session' in def.access ? { security: [{ sessionCookie: [] }] } : {}),
    ...('capability' in def.access ? { 'x-capability': def.access.capability } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(def.body ? { requestBody: { required: !def.body.safeParse(undefined).success, content: { 'application/json': { schema: jsonSchema(def.body) } } } } : {}),
    responses,
  };
}

/** The web app's session: its cookie, with the session's CSRF token in `x-csrf-token` on every change. */
const SESSION_COOKIE_SCHEME = {
  type: 'apiKey',
  in: 'cookie',
  name: 'drawbridge_session',
  description: 'A person signed in to the web app; every change (any method but GET and HEAD) also carries the session\'s CSRF token in x-csrf-token, from this site',
};

/** The OpenAPI document of these routes, served from `serverUrl`. */
export function buildOpenApiDocument(routes: readonly RouteDef[], serverUrl: string) {
  const paths: Record<string, Record<string, object>> = {};
  for (const def of routes) {
    const path = def.url.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [def.method.toLowerCase()]: operation(def) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Drawbridge API',
      version: '1.0.0',
      description:
        'Hosted diagrams over plain HTTP. Every request carries `Authorization: Bearer <token>`; every failure is `{ error, message }`, its code one of those the operation lists for the status. Rate-limit state is in the `RateLimit` and `RateLimit-Policy` headers.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A personal access token (drw_pat_…), or an OAuth access token from this service\'s authorization server (/.well-known/oauth-authorization-server)' },
        ...(routes.some((def) => 'session' in def.access) ? { sessionCookie: SESSION_COOKIE_SCHEME } : {}),
      },
      schemas: components(paths),
    },
    paths,
  };
}
