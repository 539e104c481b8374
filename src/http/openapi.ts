import { z } from 'zod';
import { ErrorEnvelope } from '../api/schemas.ts';
import { type ErrorCode, errorStatus } from '../errors.ts';
import type { RouteDef } from './route.ts';

/**
 * Any route: a path parameter or query holding text that cannot be stored
 * (validate.ts), a request the HTTP parser or the router refuses (errors.ts).
 */
const REQUEST_ERRORS: ErrorCode[] = ['bad_request', 'request_timeout', 'request_header_too_large'];
const TOKEN_ERRORS: ErrorCode[] = ['unauthorized', 'rate_limited', 'api_disabled'];
const BODY_ERRORS: ErrorCode[] = ['bad_request', 'invalid_json', 'payload_too_large', 'PROTO_KEY'];

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io: 'input' });

/** Every error code a route can answer with, including those shared by all authenticated routes. */
export function errorCodesOf(def: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>([...REQUEST_ERRORS, ...def.errors]);
  if (!('public' in def.access)) {
    TOKEN_ERRORS.forEach((c) => codes.add(c));
    if (!def.allowUnverified) codes.add('email_unverified');
    if ('capability' in def.access) codes.add('insufficient_scope');
  }
  if (def.body) BODY_ERRORS.forEach((c) => codes.add(c));
  if (def.url.includes(':')) {
    codes.add('method_not_allowed');
    codes.add('uri_too_long');
  }
  return [...codes];
}

function operation(def: RouteDef) {
  const parameters: object[] = [...def.url.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  for (const [name, description] of Object.entries(def.requestHeaders ?? {})) {
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
    responses[status] = {
      description: codes.map((c) => `\`${c}\``).join(', '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { error: codes[0] } } },
    };
  }
  return {
    operationId: def.operationId,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: def.tags,
    ...('public' in def.access ? { security: [] } : {}),
    ...('capability' in def.access ? { 'x-capability': def.access.capability } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(def.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(def.body) } } } } : {}),
    responses,
  };
}

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
        'Hosted diagrams over plain HTTP. Every request carries `Authorization: Bearer <token>`; every failure is `{ error, message? }`. Rate-limit state is in the `RateLimit` and `RateLimit-Policy` headers.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'A personal access token, drw_pat_…' } },
      schemas: { Error: jsonSchema(ErrorEnvelope) },
    },
    paths,
  };
}
