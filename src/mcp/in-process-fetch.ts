import type { FastifyInstance, InjectOptions } from 'fastify';

export interface InProcessOrigin {
  /** The address the requests appear to come from (per-address rate limits apply to it). */
  remoteAddress: string;
  /** Inner requests are logged as `<requestId>.<n>`, so they trace back to the request that made them. */
  requestId: string;
}

const REQUEST_ID_MAX = 128;

/**
 * A `fetch` answered by this app in-process (`app.inject`): the request passes
 * the same routes, authentication, rate limits and capability checks as one
 * over the network, without the network. The path and query come from the
 * URL (its host is ignored); method, headers and body from `init`.
 */
export function inProcessFetch(app: FastifyInstance, origin: InProcessOrigin): typeof fetch {
  let sent = 0;
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    sent += 1;
    const requestId = `${origin.requestId}.${sent}`;
    const headers: Record<string, string> = Object.fromEntries(new Headers(init.headers));
    if (requestId.length <= REQUEST_ID_MAX) headers['x-request-id'] = requestId;
    const request: InjectOptions = {
      method: (init.method ?? 'GET').toUpperCase() as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers,
      remoteAddress: origin.remoteAddress,
    };
    if (init.body !== undefined && init.body !== null) request.payload = typeof init.body === 'string' ? init.body : Buffer.from(await new Response(init.body).arrayBuffer());
    const res = await app.inject(request);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    const noBody = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD';
    return new Response(noBody ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: responseHeaders });
  }) as typeof fetch;
}
