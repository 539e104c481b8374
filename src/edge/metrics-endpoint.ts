/**
 * Where `GET /metrics` is served, off the public surface by default: on the
 * main port only with METRICS_TOKEN set (a bearer token, compared in constant
 * time), and without a token on a listener of its own at METRICS_ADDR, which
 * an operator keeps on a private address. With neither, nothing is recorded
 * and the path is as unknown as any other.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config, ListenAddress } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { Metrics } from './metrics.ts';

const METRICS_PATH = '/metrics';

/** Whether the settings ask for metrics at all. */
export const metricsWanted = (config: Pick<Config, 'metricsToken' | 'metricsAddress'>): boolean =>
  config.metricsToken !== undefined || config.metricsAddress !== undefined;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries exactly `Bearer <token>`; the digests compared take the same time whatever was sent. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer (\S+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(token));
}

const metricsUnauthorized = () =>
  new ApiError('unauthorized', 'Send the metrics token (METRICS_TOKEN) in the header "Authorization: Bearer <token>".', {
    'www-authenticate': 'Bearer realm="drawbridge-metrics"',
  });

/**
 * Records every request's answer, and serves the series where the settings
 * say: the route on the main port (METRICS_TOKEN), the separate listener
 * (METRICS_ADDR), opened when the server is ready and closed with it.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, config: Pick<Config, 'metricsToken' | 'metricsAddress'>): void {
  app.addHook('onResponse', metrics.requestAnswered);
  const { metricsToken, metricsAddress } = config;
  if (metricsToken !== undefined) {
    app.get(METRICS_PATH, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, metricsToken)) throw metricsUnauthorized();
      return reply.type(metrics.contentType).send(await metrics.exposition());
    });
  }
  if (metricsAddress !== undefined) {
    const listener = metricsListener(metrics, app.log);
    app.addHook('onReady', () => listener.open(metricsAddress));
    app.addHook('onClose', () => listener.close());
  }
}

const notFoundBody = JSON.stringify(new ApiError('not_found').toBody());

/** A plain HTTP listener answering `GET /metrics` and nothing else (404 in the error envelope). */
function metricsListener(metrics: Metrics, log: FastifyBaseLogger) {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(notFoundBody);
      return;
    }
    metrics.exposition().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(new ApiError('internal_error').toBody()));
      },
    );
  });
  return {
    open: (address: ListenAddress) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', (error) => reject(new Error(`METRICS_ADDR ${address.host}:${address.port}: ${error.message}`)));
        server.listen(address.port, address.host, () => {
          server.removeAllListeners('error');
          log.info({ address: `${address.host}:${address.port}` }, 'metrics listening');
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
