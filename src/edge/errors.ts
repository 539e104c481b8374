import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, defaultMessage, type ErrorCode } from '../errors.ts';

const STORAGE_UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
]);

function isStorageUnreachable(error: { code?: unknown; message?: unknown }): boolean {
  if (typeof error.code === 'string' && STORAGE_UNREACHABLE.has(error.code)) return true;
  return typeof error.message === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error/i.test(error.message);
}

/**
 * The one answer to an API request without a usable token: missing,
 * malformed, unknown, expired and revoked tokens get the same bytes (body and
 * WWW-Authenticate), so nothing tells the cases apart. RFC 6750 would leave
 * `error` out when no token was sent; it is always there, as the cases must
 * not differ.
 */
const UNAUTHORIZED_MESSAGE = defaultMessage.unauthorized;
const WWW_AUTHENTICATE = 'Bearer realm="drawbridge", error="invalid_token"';
/** 401 with the Bearer challenge; it names the resource's protected-resource metadata (RFC 9728) when given its URL. */
export const unauthorized = (resourceMetadata?: string) =>
  new ApiError('unauthorized', UNAUTHORIZED_MESSAGE, {
    'www-authenticate': resourceMetadata === undefined ? WWW_AUTHENTICATE : `${WWW_AUTHENTICATE}, resource_metadata="${resourceMetadata}"`,
  });

/** The catalogue's code for a client error known only by its HTTP status; any other 4xx is bad_request. */
const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  431: 'request_header_too_large',
};

/**
 * Whether a request failed because its client left (or broke off) while its
 * body was being read: Node reports that as ECONNRESET, the code an
 * unreachable database gives too, but the request never arrived in full.
 */
export function clientLeft(error: unknown, request: { raw: { aborted?: boolean; complete?: boolean } }): boolean {
  return (error as { code?: unknown } | null)?.code === 'ECONNRESET' && (request.raw.aborted === true || request.raw.complete === false);
}

/** The answer to a request whose body never arrived in full (nobody may be left to read it). */
export const incompleteRequest = () => new ApiError('bad_request', 'the request did not arrive in full');

/**
 * The path and query of a request's target, whether it came in origin form
 * (`/app/api/…`) or in absolute form (`http://host/app/api/…`), which an
 * HTTP/1.1 server must accept too.
 */
export function requestPath(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/**
 * Maps anything thrown while handling a request to the catalogue: our own
 * ApiErrors pass through; framework errors (body too large, bad JSON, bad
 * content type, a URL the router cannot decode or an over-long path segment)
 * become their catalogue codes; an unreachable database becomes 502
 * upstream_unavailable; the rest is a logged 500.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const err = (error ?? {}) as FastifyError;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'request body exceeds the 1 MiB limit');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('bad_request', 'unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('bad_request', 'Content-Length does not match the body');
    case 'FST_ERR_BAD_URL':
      return new ApiError('bad_request', 'the URL path is not valid percent-encoded UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('uri_too_long', 'a path segment is too long to be an id');
  }
  if (isStorageUnreachable(err)) return new ApiError('upstream_unavailable', 'the database could not be reached; nothing was written');
  if (err.statusCode === 413) return new ApiError('payload_too_large', 'request body exceeds the 1 MiB limit');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError(CODE_BY_STATUS[err.statusCode] ?? 'bad_request', typeof err.message === 'string' ? err.message : undefined);
  }
  return new ApiError('internal_error');
}

/**
 * Fastify's frameworkErrors handler: what the router refuses before any route
 * (or error handler) runs, a URL it cannot decode or an over-long path
 * segment, answered in the envelope.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error);
  if (apiError.code === 'internal_error') request.log.error({ err: error }, 'router error');
  reply.code(apiError.status).header('x-request-id', request.id).send(apiError.toBody());
}

/** A request Node's HTTP parser refused, before Fastify saw it, as a catalogue error. */
function clientErrorToApiError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('request_header_too_large', 'the request headers are too large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload_too_large', 'the chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'the request did not arrive in time');
    default:
      return new ApiError('bad_request', 'the request is not well-formed HTTP');
  }
}

/**
 * The HTTP server's clientError listener (Fastify's clientErrorHandler): a
 * request the parser refused (headers too large, a control byte in a header, a
 * garbled request line) is answered on its raw socket with the error envelope
 * instead of Node's bare status line, and the connection is closed, as Node
 * itself does.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer; a response already under way must not get a second status line.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const apiError = clientErrorToApiError(error);
    const body = JSON.stringify(apiError.toBody());
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
