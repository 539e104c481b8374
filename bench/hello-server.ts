import Fastify from 'fastify';

/** The baselines for bench/api.ts: a bare Fastify 5 hello-world on PORT (127.0.0.1), no logger, and the same with a BODY_BYTES-long body. */
const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port < 1) throw new Error('PORT must be set to a positive integer');

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
// The same bytes as the API's diagram read, without auth or storage: what the payload alone costs.
const sized = JSON.stringify({ padding: 'x'.repeat(Math.max(0, Number(process.env.BODY_BYTES ?? 0) - 14)) });
app.get('/sized', async (_request, reply) => reply.type('application/json; charset=utf-8').send(sized));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    app.close().finally(() => process.exit(0));
  });
}

await app.listen({ port, host: '127.0.0.1' });
