/**
 * Holds every API answer a test receives to the OpenAPI document the server
 * publishes (GET /api/v1/openapi.json).
 *
 * `watchApiResponses` adds an onSend hook to an app before it is ready, so
 * every answer is seen, however it was asked for: `harness.call`,
 * `harness.app.inject`, a real socket when the harness listens, and the
 * in-process requests the hosted MCP endpoint makes. For each answer in scope
 * it finds the operation by method and path template and fails when the
 * status is not documented for it, when the content type is not documented
 * for that status, or when a JSON body does not validate against the
 * documented schema (the success schema, or the `Error` component for an
 * error status).
 *
 * In scope: every request whose path is under /api/v1, and any request the
 * router answered with a route the document lists (/healthz, /readyz, and the
 * web app's own JSON endpoints under /app/api, whose document is made here
 * from their declarations). The web pages, the assets and /mcp are not
 * described by a document and are not checked.
 *
 * Answers that belong to no documented operation: a path under /api/v1 that
 * no route serves (404), a method the path does not serve (405, OPTIONS
 * included), a request the router refuses before any route (a URL it cannot
 * decode, an over-long path segment). The document describes operations
 * only, so it has no entry to look such an answer up in; but it promises
 * that every failure is the `{ error, message? }` envelope, and a client
 * reads these answers as it reads any other failure. So each must be an
 * error status (4xx or 5xx) with an `application/json` body valid against
 * the `Error` component.
 *
 * HEAD: a HEAD answer is the GET answer without its body (Fastify runs the
 * GET handler, and the hook still sees the body that is then left out), so a
 * HEAD request to a path with a GET operation is checked as that GET. A HEAD
 * to a path without one is refused like any other method it does not serve
 * (above).
 *
 * The document is fetched once per process, and each schema compiled once per
 * process (Ajv, JSON Schema 2020-12, the dialect of OpenAPI 3.1). The schemas
 * may still carry OpenAPI 3.0's `nullable` and boolean
 * `exclusiveMinimum`/`exclusiveMaximum`; they are rewritten into their JSON
 * Schema 2020-12 equivalents before compiling (see `toJsonSchema2020`). An
 * answer's objects may carry only the properties the document names (see
 * `closeObject`).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildOpenApiDocument } from '../../src/http/openapi.ts';
import { webApiRoutes } from '../../src/web/web-api.ts';

const OPENAPI_PATH = '/api/v1/openapi.json';
const API_PREFIX = '/api/v1';

/** One answer, as the checker needs it. */
export interface ApiExchange {
  method: string;
  /** The request target as sent: path and query, or the absolute form (`http://host/path`). */
  url: string;
  /** The router pattern of the route that answered (`/api/v1/diagrams/:id`); undefined when none did. */
  route?: string;
  status: number;
  contentType?: string;
  /** The body sent; undefined when it is a stream, which is not inspected. */
  body: string | Buffer | undefined;
}

/** An answer the published document does not describe. */
export class ApiResponseMismatch extends Error {
  override name = 'ApiResponseMismatch';
}

interface MediaType {
  schema?: JsonSchema;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId?: string;
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}
type JsonSchema = { [key: string]: unknown };

// ajv-formats is CommonJS with its plugin as module.exports; its types describe the `default` export.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
/** Compiled validators, by the schema's JSON text: each distinct schema is compiled once per process. */
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: JsonSchema, document: OpenApiDocument): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(mapSchema(mapSchema(inlineComponentRefs(schema, document), toJsonSchema2020Node), closeObject));
    compiled.set(key, validate);
  }
  return validate;
}

/** Keywords whose value is one schema, a map of names to schemas, or a list of schemas (JSON Schema 2020-12 and OpenAPI 3.0). */
const ONE_SCHEMA = ['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/**
 * Rewrites every schema within `schema`, innermost first, with `rewrite`
 * (which gets the keyword the schema sits under: `allOf`, `properties`, …,
 * or undefined at the top). Only subschemas are visited: a property named
 * like a keyword (`nullable`, `enum`) stays a property.
 */
function mapSchema(schema: unknown, rewrite: (node: JsonSchema, under: string | undefined) => JsonSchema, under?: string): any {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: JsonSchema = { ...(schema as JsonSchema) };
  for (const [key, value] of Object.entries(out)) {
    if (SCHEMA_LIST.includes(key) && Array.isArray(value)) out[key] = value.map((item) => mapSchema(item, rewrite, key));
    else if (ONE_SCHEMA.includes(key)) out[key] = mapSchema(value, rewrite, key);
    else if (SCHEMA_MAP.includes(key) && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mapSchema(item, rewrite, key)]));
    }
  }
  return rewrite(out, under);
}

/**
 * An answer may carry only the properties its schema names: each object
 * schema that lists `properties` and says nothing of others gets
 * `additionalProperties: false`. The document is generated from the input
 * side of the zod schemas, where an object admits unknown keys; an answer is
 * output, and a key it sends that the document does not name is the document
 * not telling the whole truth. (The members of an `allOf` are left open:
 * each lists only part of the properties.)
 */
function closeObject(node: JsonSchema, under: string | undefined): JsonSchema {
  const open = 'additionalProperties' in node || 'patternProperties' in node || 'unevaluatedProperties' in node;
  return node.properties && !open && under !== 'allOf' ? { ...node, additionalProperties: false } : node;
}

/** Replaces each `$ref` to `#/components/schemas/<name>` with that schema, so a schema compiles on its own. */
function inlineComponentRefs(schema: unknown, document: OpenApiDocument, seen: string[] = []): any {
  if (Array.isArray(schema)) return schema.map((item) => inlineComponentRefs(item, document, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref: ref, ...siblings } = schema as JsonSchema;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    const target = document.components?.schemas?.[name];
    if (!target) throw new Error(`the OpenAPI document refers to ${ref}, which it does not define`);
    if (seen.includes(name)) throw new Error(`the OpenAPI document's ${ref} refers to itself; this checker inlines references and cannot follow a cycle`);
    const inlined = inlineComponentRefs(target, document, [...seen, name]);
    return Object.keys(siblings).length === 0 ? inlined : { ...inlineComponentRefs(siblings, document, seen), allOf: [inlined] };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlineComponentRefs(value, document, seen)]));
}

/** `schema`, in OpenAPI 3.0's dialect or already in JSON Schema 2020-12, as JSON Schema 2020-12 (see `toJsonSchema2020Node`). */
export function toJsonSchema2020(schema: unknown): any {
  return mapSchema(schema, toJsonSchema2020Node);
}

/**
 * One schema in OpenAPI 3.0's dialect rewritten into JSON Schema 2020-12,
 * which Ajv2020 validates: `nullable: true` becomes `null` among the types
 * (and among the `enum` values: the value of a nullable enum may be null),
 * or an `anyOf` with `{ type: 'null' }` when there is no `type` to widen; a
 * boolean `exclusiveMinimum`/`exclusiveMaximum` turns its `minimum`/`maximum`
 * into an exclusive bound. A schema already in 2020-12 passes unchanged.
 */
function toJsonSchema2020Node(node: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...node };
  for (const [exclusiveKey, boundKey] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const exclusive = out[exclusiveKey];
    if (typeof exclusive !== 'boolean') continue;
    delete out[exclusiveKey];
    if (exclusive && typeof out[boundKey] === 'number') {
      out[exclusiveKey] = out[boundKey];
      delete out[boundKey];
    }
  }
  if (!('nullable' in out)) return out;
  const nullable = out.nullable === true;
  delete out.nullable;
  if (!nullable) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  if (Array.isArray(out.type)) return out.type.includes('null') ? out : { ...out, type: [...out.type, 'null'] };
  return { anyOf: [{ type: 'null' }, out] };
}

/** The path of a request target, whether in origin form (`/a/b?c`) or absolute form (`http://host/a/b?c`). */
function pathOf(url: string): string {
  let target = url;
  if (!target.startsWith('/')) {
    try {
      target = new URL(target).pathname;
    } catch {
      return target;
    }
  }
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]!.trim().toLowerCase() || undefined;
}

function snippet(body: string | Buffer | undefined): string {
  if (body === undefined) return '(a stream)';
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text === '') return '(empty)';
  return text.length > 500 ? `${text.slice(0, 500)}… (${text.length} characters)` : text;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `  ${e.instancePath || '(root)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`).join('\n');
}

export class OpenApiResponseChecker {
  /** Path templates in the document, as the router writes them (`/api/v1/diagrams/:id`). */
  private readonly routePatterns = new Map<string, string>();
  private readonly errorSchema: JsonSchema;

  readonly document: OpenApiDocument;
  constructor(document: OpenApiDocument) {
    this.document = document;
    for (const template of Object.keys(document.paths)) this.routePatterns.set(template.replace(/\{(\w+)\}/g, ':$1'), template);
    const error = document.components?.schemas?.Error;
    if (!error) throw new Error('the OpenAPI document defines no Error component');
    this.errorSchema = { $ref: '#/components/schemas/Error' };
  }

  /** Whether the document speaks for this answer (see the top of this file). */
  inScope(exchange: Pick<ApiExchange, 'url' | 'route'>): boolean {
    const path = pathOf(exchange.url);
    if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) return true;
    return exchange.route !== undefined && this.routePatterns.has(exchange.route);
  }

  /** The documented operation that answered, if any. */
  operationFor(exchange: Pick<ApiExchange, 'method' | 'route'>): { template: string; method: string; operation: Operation } | undefined {
    const template = exchange.route === undefined ? undefined : this.routePatterns.get(exchange.route);
    if (!template) return undefined;
    const operations = this.document.paths[template]!;
    const method = exchange.method.toLowerCase();
    if (operations[method]) return { template, method, operation: operations[method] };
    if (method === 'head' && operations.get) return { template, method: 'get', operation: operations.get };
    return undefined;
  }

  /** Throws an ApiResponseMismatch when the document does not describe this answer; answers out of scope pass. */
  check(exchange: ApiExchange): void {
    if (!this.inScope(exchange)) return;
    const found = this.operationFor(exchange);
    const fail = (problem: string, errors?: ErrorObject[] | null): never => {
      const where = found ? `${found.method.toUpperCase()} ${found.template} (${found.operation.operationId ?? 'no operationId'})` : 'no documented operation';
      throw new ApiResponseMismatch(
        `${exchange.method} ${exchange.url} answered ${exchange.status} (${exchange.contentType ?? 'no content type'}), which the OpenAPI document does not describe: ${problem}\n` +
          `operation: ${where}\n` +
          (errors?.length ? `schema errors:\n${formatErrors(errors)}\n` : '') +
          `body: ${snippet(exchange.body)}`,
      );
    };

    if (!found) {
      if (exchange.status < 400) fail('a path and method with no documented operation may only be refused (4xx or 5xx), with the Error envelope');
      this.validateJson(exchange, 'application/json', this.errorSchema, fail);
      return;
    }
    const response = found.operation.responses[String(exchange.status)];
    if (!response) fail(`status ${exchange.status} is not documented (documented: ${Object.keys(found.operation.responses).join(', ')})`);
    const content = response!.content;
    const mediaType = mediaTypeOf(exchange.contentType);
    if (!content) {
      const empty = exchange.body === undefined || exchange.body.length === 0;
      if (!empty) fail(`status ${exchange.status} is documented without a body`);
      return;
    }
    if (!mediaType || !(mediaType in content)) {
      fail(`content type ${mediaType ?? '(none)'} is not documented for status ${exchange.status} (documented: ${Object.keys(content).join(', ')})`);
    }
    const schema = content[mediaType!]!.schema;
    if (mediaType === 'application/json' || mediaType!.endsWith('+json')) {
      if (!schema) fail(`no schema is documented for ${mediaType}`);
      this.validateJson(exchange, mediaType!, schema!, fail);
    }
    // Other media types (image/png, image/svg+xml) are bytes: the type is all the document says of them.
  }

  private validateJson(exchange: ApiExchange, mediaType: string, schema: JsonSchema, fail: (problem: string, errors?: ErrorObject[] | null) => never): void {
    const actual = mediaTypeOf(exchange.contentType);
    if (actual !== mediaType) fail(`content type ${actual ?? '(none)'} is not ${mediaType}`);
    if (exchange.body === undefined) return;
    let value: unknown;
    try {
      value = JSON.parse(typeof exchange.body === 'string' ? exchange.body : exchange.body.toString('utf8'));
    } catch {
      fail('the body is not JSON');
    }
    const validate = validatorFor(schema, this.document);
    if (!validate(value)) fail('the body does not match the documented schema', validate.errors);
  }
}

let published: Promise<OpenApiResponseChecker> | undefined;

/**
 * The checker for the document the app publishes, fetched from the first app that asks (once per
 * process), joined with the document of the web app's own JSON endpoints, made from their route
 * declarations as the published one is (the web app does not publish it: its endpoints are its own).
 */
function publishedChecker(app: FastifyInstance): Promise<OpenApiResponseChecker> {
  published ??= (async () => {
    const res = await app.inject({ method: 'GET', url: OPENAPI_PATH });
    if (res.statusCode !== 200) throw new Error(`GET ${OPENAPI_PATH} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    const api = res.json() as OpenApiDocument;
    const web = buildOpenApiDocument(webApiRoutes, '') as OpenApiDocument;
    return new OpenApiResponseChecker({
      ...api,
      paths: { ...web.paths, ...api.paths },
      components: { ...api.components, schemas: { ...web.components?.schemas, ...api.components?.schemas } },
    });
  })();
  // A failure is not kept: the next harness asks again.
  published.catch(() => {
    published = undefined;
  });
  return published;
}

/** What `watchApiResponses` hands back. */
export interface ApiResponseWatch {
  /**
   * Every mismatch seen so far, in order. Those of answers over a socket are
   * only found here; so, in effect, are those of the in-process requests the
   * hosted MCP endpoint makes (their rejected inject becomes a tool error).
   */
  readonly mismatches: readonly ApiResponseMismatch[];
  /** How many answers were checked against the document. */
  readonly checked: number;
  /** Loads the document; answers before that (the document's own, fetched for it) are checked once it is there. */
  ready(): Promise<void>;
  /** Throws the mismatch of the request behind this inject answer, if it had one. */
  claim(res: LightMyRequestResponse): void;
}

/**
 * Watches every answer of `app` (which must not be ready yet: Fastify takes
 * hooks only before that) and checks those in scope against the document it
 * publishes. `app.inject` is wrapped so that a mismatch rejects the inject
 * call that got the answer; answers over a socket are recorded in
 * `mismatches` (the harness throws them when it closes). The answers
 * themselves are left untouched.
 */
export function watchApiResponses(
  app: FastifyInstance,
  /** Where the checker comes from: the document the app publishes, unless a test of this file brings its own. */
  loadChecker: (app: FastifyInstance) => Promise<OpenApiResponseChecker> = publishedChecker,
): ApiResponseWatch {
  let checker: OpenApiResponseChecker | undefined;
  const mismatches: ApiResponseMismatch[] = [];
  /** The raw request of each answer checked, with its mismatch if any (raw requests of inject are light-my-request's). */
  const outcomes = new WeakMap<object, ApiResponseMismatch | null>();
  /** The raw request of every answer the hook saw, in scope or not. */
  const seen = new WeakSet<object>();
  const early: Array<{ raw: object; exchange: ApiExchange }> = [];
  let checked = 0;

  const run = (raw: object, exchange: ApiExchange) => {
    if (!checker!.inScope(exchange)) return;
    checked += 1;
    try {
      checker!.check(exchange);
      outcomes.set(raw, null);
    } catch (error) {
      if (!(error instanceof ApiResponseMismatch)) throw error;
      mismatches.push(error);
      outcomes.set(raw, error);
    }
  };

  app.addHook('onSend', async (request, reply, payload) => {
    const contentType = reply.getHeader('content-type');
    const exchange: ApiExchange = {
      method: request.method,
      url: request.url,
      route: request.routeOptions.url,
      status: reply.statusCode,
      contentType: contentType === undefined ? undefined : String(contentType),
      body: payload === null || payload === undefined ? '' : typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined,
    };
    seen.add(request.raw);
    if (checker) run(request.raw, exchange);
    else early.push({ raw: request.raw, exchange });
    return payload;
  });

  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  const watch: ApiResponseWatch = {
    mismatches,
    get checked() {
      return checked;
    },
    async ready() {
      checker = await loadChecker(app);
      for (const { raw, exchange } of early.splice(0)) run(raw, exchange);
    },
    claim(res) {
      // light-my-request gives the request as raw.req, or (payloadAsStream) only as the response's req.
      const raw = (res.raw.req ?? (res.raw.res as unknown as { req: LightMyRequestResponse['raw']['req'] }).req) as LightMyRequestResponse['raw']['req'] | undefined;
      if (!raw) return;
      if (!seen.has(raw) && checker) {
        // The hook never saw it: answered before any route or hook ran. Checked here, from what inject received.
        const contentType = res.headers['content-type'];
        run(raw, { method: raw.method ?? 'GET', url: raw.url ?? '', status: res.statusCode, contentType: contentType === undefined ? undefined : String(contentType), body: raw.method === 'HEAD' ? undefined : res.rawPayload });
      }
      const mismatch = outcomes.get(raw);
      if (mismatch) throw mismatch;
    },
  };
  // Only the promise form (one argument) is wrapped; the callback and chained forms are still watched by the hook.
  (app as { inject: unknown }).inject = (...args: unknown[]) => {
    if (args.length !== 1) return inject(...args);
    return (inject(args[0]) as Promise<LightMyRequestResponse>).then((res) => {
      watch.claim(res);
      return res;
    });
  };
  return watch;
}
