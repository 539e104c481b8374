import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { Capability } from '../auth/capabilities.ts';
import type { ServiceDeps } from '../app/deps.ts';
import type { TokenHolder } from '../app/tokens/authenticate-token.ts';
import type { ErrorCode } from '../errors.ts';

/** The owner of the request's API token, with what the token may do. */
export type Actor = TokenHolder;

export interface HandlerContext<Body, Query> {
  body: Body;
  query: Query;
  params: Record<string, string>;
  /** The authenticated caller (routes with a capability or `anyToken`). */
  actor: Actor;
  deps: ServiceDeps;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a handler answers: JSON to serialise, pre-serialised JSON text, raw bytes of another type, or nothing (204). */
export type HandlerResult =
  | { status?: number; json: unknown }
  | { status?: number; rawJson: string }
  | { status?: number; raw: Buffer | string; contentType: string; headers?: Record<string, string> }
  | { status: 204 };

export type Access = { capability: Capability } | { anyToken: true } | { public: true };

export interface RouteDef<Body = unknown, Query = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: Access;
  /** Stable name of the operation (OpenAPI operationId, client method). */
  operationId: string;
  /** GET /me answers even when the email is unverified. */
  allowUnverified?: boolean;
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
  };
  /** Error codes this route can answer with, besides the ones every authenticated route shares. */
  errors: ErrorCode[];
  handler: (ctx: HandlerContext<Body, Query>) => Promise<HandlerResult>;
}

/** Keeps the generic types of a route definition while erasing them for the registry. */
export function defineRoute<Body = undefined, Query = undefined>(def: RouteDef<Body, Query>): RouteDef {
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
