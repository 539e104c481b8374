/** The start of every state-changing JSON request of the web app's scripts. */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { checkPayloadShape, parseWith } from '../edge/validate.ts';
import { requireSession, verifyCsrf, type WebSession } from './session.ts';

/** Signed in, CSRF checked, then the JSON body read with its schema (none: no body is read). */
export function sessionChange<T = undefined>(request: FastifyRequest, publicUrl: string, schema?: z.ZodType<T>): { session: WebSession; body: T } {
  const session = requireSession(request);
  verifyCsrf(request, session, publicUrl);
  if (schema === undefined) return { session, body: undefined as T };
  checkPayloadShape(request.body);
  return { session, body: parseWith(schema, request.body, 'body') };
}
