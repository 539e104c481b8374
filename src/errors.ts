/**
 * The one error catalogue: every machine code the API can answer with, and its
 * HTTP status (docs/api.md, "Errors"). Everything that fails throws an ApiError; the
 * HTTP edge turns it into the `{ error, message? }` envelope.
 */
export const errorStatus = {
  unauthorized: 401,
  insufficient_scope: 403,
  /** Web app only: a state-changing request without the session's CSRF token, or from another origin. */
  csrf_failed: 403,
  email_unverified: 403,
  quota_exceeded: 403,
  folder_forbidden: 403,
  not_found: 404,
  bad_request: 400,
  invalid_json: 400,
  invalid_quality: 400,
  method_not_allowed: 405,
  /** The request did not arrive in full within the server's time limit. */
  request_timeout: 408,
  stale_read: 409,
  payload_too_large: 413,
  /** A path segment longer than the router takes (an id of thousands of characters). */
  uri_too_long: 414,
  rate_limited: 429,
  /** The request's headers are larger than the HTTP parser takes. */
  request_header_too_large: 431,
  api_disabled: 503,
  render_failed: 503,
  service_busy: 503,
  upstream_unavailable: 502,
  internal_error: 500,
  INVALID_SPEC: 422,
  UNSUPPORTED_VERSION: 422,
  MISSING_NODE_ID: 422,
  DUPLICATE_NODE_ID: 422,
  UNKNOWN_SHAPE: 422,
  UNKNOWN_ICON: 422,
  DANGLING_EDGE: 422,
  MALFORMED_SHORTHAND: 422,
  MALFORMED_EDGE: 422,
  SPEC_TOO_LARGE: 413,
  ID_COLLISION: 422,
  PROTO_KEY: 422,
  NOT_A_SCENE: 422,
  BAD_LINK_SCHEME: 422,
  SCENE_TOO_LARGE: 413,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers (e.g. Retry-After on 429). */
  readonly headers: Record<string, string>;
  /** Whether `message` is a detail worth sending; codes without detail omit it. */
  readonly hasDetail: boolean;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? code);
    this.name = 'ApiError';
    this.code = code;
    this.status = errorStatus[code];
    this.headers = headers;
    this.hasDetail = message !== undefined;
  }

  toBody(): { error: ErrorCode; message?: string } {
    return this.hasDetail ? { error: this.code, message: this.message } : { error: this.code };
  }
}

export const notFound = () => new ApiError('not_found');
export const badRequest = (message: string) => new ApiError('bad_request', message);
