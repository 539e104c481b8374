#!/usr/bin/env node
// The container image's HEALTHCHECK: exits 0 when the server in this container answers
// GET /readyz with 200 (it is up and its database answers), 1 otherwise, with the reason
// on standard error (Docker keeps it in the container's health log). It reads the
// server's own HOST and PORT; a server listening on every address is asked on loopback.
const port = process.env.PORT || '8080';
const host = process.env.HOST || '127.0.0.1';
const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
const url = `http://${target.includes(':') ? `[${target}]` : target}:${port}/readyz`;
/** Below the HEALTHCHECK's --timeout, so a hung server is reported by this script rather than killed by Docker. */
const TIMEOUT_MS = 4000;

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (response.status !== 200) {
    console.error(`${url} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    process.exit(1);
  }
} catch (error) {
  console.error(`${url}: ${error instanceof Error ? (error.cause?.message ?? error.message) : error}`);
  process.exit(1);
}
