import type { FastifyError } from 'fastify';
import { ApiError } from '../errors.ts';

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
 * Maps anything thrown while handling a request to the catalogue: our own
 * ApiErrors pass through; framework errors (body too large, bad JSON, bad
 * content type) become their SPEC.md codes; an unreachable database becomes
 * 502 upstream_unavailable; the rest is a logged 500.
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
  }
  if (isStorageUnreachable(err)) return new ApiError('upstream_unavailable', 'the database could not be reached; nothing was written');
  if (err.statusCode === 413) return new ApiError('payload_too_large', 'request body exceeds the 1 MiB limit');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError('bad_request', typeof err.message === 'string' ? err.message : undefined);
  }
  return new ApiError('internal_error');
}
