import { z } from 'zod';
import { checkReady } from '../../../app/operations/operations.ts';
import { defineRoute } from '../../../edge/route.ts';

const Status = z.object({ status: z.string() });

export const healthz = defineRoute({
  operationId: 'healthz',
  method: 'GET',
  url: '/healthz',
  access: { public: true },
  tags: ['operations'],
  summary: 'Liveness',
  description: 'The process is up. Never touches the database.',
  response: { status: 200, schema: Status, description: '{ "status": "ok" }' },
  errors: [],
  handler: async () => ({ json: { status: 'ok' } }),
});

export const readyz = defineRoute({
  operationId: 'readyz',
  method: 'GET',
  url: '/readyz',
  access: { public: true },
  tags: ['operations'],
  summary: 'Readiness',
  description: 'The database answers. 502 upstream_unavailable when it does not.',
  response: { status: 200, schema: Status, description: '{ "status": "ready" }' },
  errors: ['upstream_unavailable'],
  handler: async ({ deps }) => {
    await checkReady(deps);
    return { json: { status: 'ready' } };
  },
});
