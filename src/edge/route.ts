import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z, ZodType } from 'zod';
import type { Capability } from '../auth/capabilities.ts';
import type { Caller, ServiceDeps } from '../app/deps.ts';
import type { Session } from '../app/sessions/sessions.ts';
import type { TokenHolder } from '../app/tokens/authenticate-token.ts';
import type { ErrorCode } from '../errors.ts';

/** The owner of the request's API token, with what the token may do. */
type Actor = TokenHolder;

interface HandlerContext<Body, Query, Who = Caller> {
  body: Body;
  query: Query;
  params: Record<string, string>;
  /**
   * The authenticated caller: the token's holder (routes with a capability or `anyToken`), or the
   * person signed in to the web app (`session` routes).
   */
  actor: Who;
  deps: ServiceDeps;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * What a handler answers: JSON to serialise, pre-serialised JSON text, raw
 * bytes of another type, or nothing (204; 304 to a conditional GET), each
 * with the response headers it adds; or `hijacked` when another protocol's
 * server has answered on the raw response itself (after `reply.hijack()`).
 */
type HandlerResult =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status?: number; rawJson: string | Buffer; headers?: Record<string, string> }
  | { status?: number; raw: Buffer | string; contentType: string; headers?: Record<string, string> }
  | { status: 204 }
  | { status: 304; headers: Record<string, string> }
  | { hijacked: true };

/**
 * Who may call: a token with a capability, any valid token, anyone, or (`session`) a person signed in to
 * the web app, whose changes (any method but GET and HEAD) must carry the session's CSRF token.
 */
type Access = { capability: Capability } | { anyToken: true } | { public: true } | { session: true };

/** The caller a handler is given, by its route's access. */
type CallerOf<A extends Access> = A extends { session: true } ? Session : A extends { public: true } ? Caller | undefined : Actor;

export interface RouteDef<Body = unknown, Query = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: Access;
  /** Stable name of the operation (OpenAPI operationId, client method). */
  operationId: string;
  /** GET /me answers even when the email is unverified. */
  allowUnverified?: boolean;
  /** The rate-limit bucket a call counts against; by default `read` for GET and HEAD, `write` for the rest. */
  rateLimitBucket?: 'read' | 'write';
  /** Where the protected-resource metadata (RFC 9728) of this route is, on the service: a refused token's challenge names it. */
  resourceMetadataPath?: string;
  /**
   * The body is another protocol's message, handed on whole (MCP's JSON-RPC): only the route's
   * schema checks it here. The checks every other payload gets (`__proto__`, nesting, text the
   * database cannot store) apply where its parts reach the API, as a tool's arguments do.
   */
  handsOnBody?: true;
  summary: string;
  description?: string;
  tags: string[];
  body?: ZodType<Body>;
  query?: ZodType<Query>;
  /** The success answer; `contentType` for a non-JSON body (schema then omitted). */
  response: {
    status: number;
    schema?: ZodType;
    description: string;
    contentType?: string;
    /** Other content types the same status may carry (raw bytes), besides the JSON schema. */
    rawContentTypes?: string[];
    /** When the operation may also answer 204: what that means. */
    noContent?: string;
    /** When the operation may also answer 304 (a GET with If-None-Match): what that means. */
    notModified?: string;
    /** Headers the success answer carries (and a 304 repeats), by name: what each holds. */
    headers?: Record<string, string>;
  };
  /** Request headers the operation reads besides Authorization, by name: what each does. */
  requestHeaders?: Record<string, string>;
  /** Error codes this route can answer with, besides the ones every authenticated route shares. */
  errors: ErrorCode[];
  handler: (ctx: HandlerContext<Body, Query>) => Promise<HandlerResult>;
}

/** What a schema parses to; `undefined` when there is no schema. */
type Parsed<Schema> = Schema extends ZodType ? z.output<Schema> : undefined;

/**
 * What a handler of a route may answer: JSON that its response schema admits,
 * at its documented status (which may be left out when it is 200); no JSON
 * at all when no schema is documented. The input side of the schema, as the
 * OpenAPI document is: an answer is sent as it is, never parsed. Pre-serialised
 * JSON, raw bytes and 204 as in HandlerResult.
 */
type TypedHandlerResult<Status extends number, Schema extends ZodType | undefined> =
  | (Schema extends ZodType ? { json: z.input<Schema>; headers?: Record<string, string> } & ([Status] extends [200] ? { status?: 200 } : { status: Status }) : never)
  | Exclude<HandlerResult, { json: unknown }>;

/** A route as written: RouteDef with the body, query and response types followed from its schemas into its handler. */
export interface RouteSpec<
  BodySchema extends ZodType | undefined,
  QuerySchema extends ZodType | undefined,
  Status extends number,
  ResponseSchema extends ZodType | undefined,
  A extends Access = Access,
> extends Omit<RouteDef, 'access' | 'body' | 'query' | 'response' | 'handler'> {
  access: A;
  body?: BodySchema;
  query?: QuerySchema;
  response: Omit<RouteDef['response'], 'status' | 'schema'> & { status: Status; schema?: ResponseSchema };
  handler: (ctx: HandlerContext<Parsed<BodySchema>, Parsed<QuerySchema>, CallerOf<NoInfer<A>>>) => Promise<TypedHandlerResult<NoInfer<Status>, NoInfer<ResponseSchema>>>;
}

/**
 * Checks a route definition against its own schemas (the handler gets the
 * parsed body and query, and must answer what the response schema admits),
 * then erases the types for the registry.
 */
export function defineRoute<
  BodySchema extends ZodType | undefined = undefined,
  QuerySchema extends ZodType | undefined = undefined,
  Status extends number = number,
  ResponseSchema extends ZodType | undefined = undefined,
  const A extends Access = Access,
>(def: RouteSpec<BodySchema, QuerySchema, Status, ResponseSchema, A>): RouteDef {
  return def as unknown as RouteDef;
}

export interface RouteConfig {
  def?: RouteDef;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}
