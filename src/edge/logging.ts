const TOKEN_TEXT = /drw_pat_[0-9A-Za-z_]*/g;

/**
 * A URL as it may appear in logs, whatever route (or none) matched it:
 * anything shaped like an API token is masked wherever a client put it, and
 * so are the secrets of emailed links (`?token=` and `/reset/<token>`).
 */
function redactUrl(url: string): string {
  return url
    .replace(TOKEN_TEXT, 'drw_pat_[redacted]')
    .replace(/([?&]token=)[^&#]*/gi, '$1[redacted]')
    .replace(/^\/reset\/[^/?#]+/, '/reset/[redacted]');
}

/** The server's pino settings: requests logged without headers, credentials masked. */
export function loggerOptions(level: string) {
  return {
    level,
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
    // Belt and braces: request logs never include headers, but if anything ever
    // logs one, the credential is masked.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token'], censor: '[redacted]' },
  };
}
