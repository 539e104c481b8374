#!/usr/bin/env node
// Builds the web app's browser bundle ahead of the first start, into the cache the
// server reads it from (src/web/assets.ts: node_modules/.cache/drawbridge-web), so a
// server started afterwards from the same checkout runs no esbuild. The container
// image's build runs it after `npm run build`: it uses the compiled dist/web/assets.js.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let prepareWebAssets;
try {
  ({ prepareWebAssets } = await import('../dist/web/assets.js'));
} catch (error) {
  console.error(`prepare-web-assets: dist/ is not built (npm run build first): ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
const { dir, built, elapsedMs } = await prepareWebAssets();
console.log(`# web assets ${built ? 'built' : 'already built'} in ${path.relative(root, dir)} (${(elapsedMs / 1000).toFixed(1)} s)`);
