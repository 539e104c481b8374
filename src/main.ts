import { loadConfig } from './config.ts';
import { buildApp } from './http/app.ts';
import { openStore } from './store/open.ts';

/** `npm start`: open (and migrate) the database, then serve until SIGTERM/SIGINT. */
const config = loadConfig();
const store = await openStore(config);
const app = await buildApp({ config, store, now: () => new Date() });

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

await app.listen({ port: config.port, host: config.host });
// The faithful render workers load the editor (a second or two each): start them now, not on the first render.
app.renderer.warm();
app.log.info(
  { database: store.engine === 'sqlite' ? `sqlite in ${config.dataDir}` : 'postgresql', publicUrl: config.publicUrl },
  'Drawbridge is listening',
);
