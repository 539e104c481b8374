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
  /** A render's `elements` or `frame` names nothing the diagram draws, or `frame` names an element that is not a frame. */
  invalid_selection: 400,
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
  /** A Mermaid or DOT source that does not parse, or that is not { language, text }. */
  INVALID_SOURCE: 400,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/**
 * The sentence an error carries when the code says it all: every envelope has
 * a message, so a person (or an agent) reading one never sees a bare code.
 */
export const defaultMessage: Record<ErrorCode, string> = {
  unauthorized:
    'Send a valid API token in the header "Authorization: Bearer <token>"; make one in the web app under Settings, API tokens (/app/settings/tokens).',
  insufficient_scope: 'This token lacks the capability this operation needs; mint a token that has it.',
  csrf_failed: 'The request did not carry this session\'s CSRF token, or came from another origin.',
  email_unverified: 'Verify the account\'s email address before using the API.',
  quota_exceeded: 'The account has reached its quota.',
  folder_forbidden: 'That folder does not exist or is not yours.',
  not_found: 'No such resource exists, or you cannot see it.',
  bad_request: 'The request is malformed.',
  invalid_json: 'The request body is not valid JSON.',
  invalid_quality: 'quality must be faithful or fast.',
  invalid_selection: 'elements or frame names no element this diagram draws; frame must name a frame.',
  method_not_allowed: 'This path does not take that method.',
  request_timeout: 'The request did not arrive in full in time.',
  stale_read: 'The diagram changed since you read it; read it again and retry.',
  payload_too_large: 'The request body is too large.',
  uri_too_long: 'A path segment is too long to be an id.',
  rate_limited: 'Too many requests; wait for the time in Retry-After.',
  request_header_too_large: 'The request headers are too large.',
  api_disabled: 'The API is switched off on this server.',
  render_failed: 'The diagram could not be rendered.',
  service_busy: 'The server is busy; retry shortly.',
  upstream_unavailable: 'A service the server depends on could not be reached; nothing was written.',
  internal_error: 'Something went wrong on the server; nothing you sent was at fault.',
  INVALID_SPEC: 'The spec is not valid.',
  UNSUPPORTED_VERSION: 'That spec version is not supported; use "1" or omit it.',
  MISSING_NODE_ID: 'A node has no id.',
  DUPLICATE_NODE_ID: 'Two nodes share an id.',
  UNKNOWN_SHAPE: 'shape must be one of rectangle, ellipse, diamond, text, cylinder, stadium, circle, doublecircle, hexagon, parallelogram, subroutine, document, start, end, fork.',
  UNKNOWN_ICON: 'That icon is not in the icon catalog.',
  DANGLING_EDGE: 'An edge names a node that does not exist.',
  MALFORMED_SHORTHAND: 'An edge string is not "from -> to" or "from -> to : label".',
  MALFORMED_EDGE: 'An edge is not a valid { from, to } object.',
  SPEC_TOO_LARGE: 'The spec is larger than the limits allow.',
  ID_COLLISION: 'A node id collides with an id the server generates.',
  PROTO_KEY: 'The payload holds a key that is not allowed.',
  NOT_A_SCENE: 'The scene is not a valid Excalidraw scene.',
  BAD_LINK_SCHEME: 'A link uses a scheme that is not allowed.',
  SCENE_TOO_LARGE: 'The scene is larger than the limits allow.',
  INVALID_SOURCE: 'The source is not a Mermaid or DOT diagram the server can read.',
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers (e.g. Retry-After on 429). */
  readonly headers: Record<string, string>;

  /** Without a message, the code's default sentence (defaultMessage). */
  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? defaultMessage[code]);
    this.name = 'ApiError';
    this.code = code;
    this.status = errorStatus[code];
    this.headers = headers;
  }

  toBody(): { error: ErrorCode; message: string } {
    return { error: this.code, message: this.message };
  }
}

export const notFound = () => new ApiError('not_found');
export const badRequest = (message: string) => new ApiError('bad_request', message);
