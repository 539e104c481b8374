import type { FastifyInstance } from 'fastify';

/** A route as the router lists it: its pattern and every method it is registered for. */
export interface RouterRoute {
  /** The router's pattern: `/api/v1/diagrams/:id`, `/assets/:build/*`. */
  url: string;
  methods: string[];
}

/**
 * Every route the app serves, read from its router's tree (`printRoutes`):
 * each line is one node of the radix tree, indented four columns a level, and
 * a route's URL is its node's text appended to its ancestors'.
 */
export function servedRoutes(app: FastifyInstance): RouterRoute[] {
  const routes: RouterRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    prefixes.length = depth;
    prefixes.push((prefixes[depth - 1] ?? '') + node[2]);
    if (node[3]) routes.push({ url: prefixes[depth]!, methods: node[3].split(', ') });
  }
  return routes;
}
