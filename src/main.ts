import { loadConfig } from './config.ts';
import { buildServer } from './server.ts';
import { openStore } from './store/open.ts';
import { prepareWebAssets } from './web/assets.ts';

/** `npm start`: open (and migrate) the database, then serve until SIGTERM/SIGINT. */
const config = loadConfig();
const store = await openStore(config);
const app = await buildServer({ config, store, now: () => new Date() });

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
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
// The faithful render workers load the editor (a second or two each): start them now, not on the first render.
app.renderer.warm();
app.log.info(
  { database: store.engine === 'sqlite' ? `sqlite in ${config.dataDir}` : 'postgresql', publicUrl: config.publicUrl },
  'Drawbridge is listening',
);
