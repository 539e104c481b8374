import type { ServerResponse } from 'node:http';
import { loadConfig } from './config.ts';
import { buildServer } from './server.ts';
import { openStore } from './store/open.ts';
import { prepareWebAssets } from './web/assets.ts';

/** The settings, or exit with the one line that names the setting at fault. */
function settings() {
  try {
    return loadConfig();
  } catch (error) {
    process.stderr.write(`drawbridge: ${(error as Error).message}\n`);
    process.exit(1);
  }
}

/** `npm start`: open (and migrate) the database, then serve until SIGTERM/SIGINT. */
const config = settings();
const store = await openStore(config);
const app = await buildServer({ config, store, now: () => new Date() });

let closing = false;
// Requests in flight when closing begins are answered with `Connection: close`, and a connection left idle
// is closed as soon as its response is sent: a client's keep-alive connection would otherwise hold the
// close (and the process) open for the keep-alive timeout, 72 s.
const answering = new Set<ServerResponse>();
app.server.on('request', (_request, response) => {
  answering.add(response);
  response.once('close', () => answering.delete(response));
  response.once('finish', () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    for (const response of answering) if (!response.headersSent) response.shouldKeepAlive = false;
    app.log.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => store.close())
      .finally(() => process.exit(0));
  });
}

// The editor's browser bundle is built from the project's sources once (cached by a hash of its inputs).
const web = await prepareWebAssets();
app.log.info({ built: web.built, ms: Math.round(web.elapsedMs) }, 'web assets ready');
await app.listen({ port: config.port, host: config.host });
// A faithful render worker loads the editor (a second or so): one starts now, not on the first render.
app.renderer.warmFirst();
app.log.info(
  { database: store.engine === 'sqlite' ? `sqlite in ${config.dataDir}` : 'postgresql', publicUrl: config.publicUrl },
  'Drawbridge is listening',
);
