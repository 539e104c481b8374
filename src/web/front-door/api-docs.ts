/**
 * `GET /docs/api`: the API reference, rendered in the browser by Redoc from
 * the OpenAPI document the API publishes (`GET /api/v1/openapi.json`). Redoc's
 * standalone bundle comes from the `redoc` package and is served from here,
 * under a URL naming its content, so it is cached for a year and nothing is
 * fetched from anywhere else.
 *
 * The server needs that one file of the package, not the hundred packages it
 * depends on, so `redoc` is a dev dependency: the build (scripts/build.mjs)
 * copies the bundle beside the compiled module, where a server running from
 * dist/ without the dev dependencies reads it; run from src/ (the tests,
 * `npm run dev`), the module reads it from the package.
 *
 * The bundle shows Redocly's logo from their CDN in its side menu; it is
 * served with that address replaced by an empty image, so the page makes no
 * request to another host. Serving fails, saying so, when a new version of
 * the bundle no longer has the address where expected.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../app/deps.ts';
import { escapeHtml } from '../html.ts';
import { APP_PAGE_HEADERS, appPage } from '../layout.ts';
import { CACHE_FOREVER, sendStaticFile, staticFile, type StaticFile } from '../static-response.ts';
import { FRONT_BAR_STYLE, frontDoorBar } from './frame.ts';
import { API_DOCS_PATH, OPENAPI_DOCUMENT_PATH } from './paths.ts';

const REDOC_BUNDLE = 'redoc/bundles/redoc.standalone.js';
const REDOCLY_LOGO_URL = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
/** The bundle's last line points at a source map that is not served. */
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;
const SCRIPT_PREFIX = `${API_DOCS_PATH}/assets`;
const SCRIPT_NAME = 'redoc.standalone.js';

/**
 * The app's policy, plus what Redoc needs: its search index is built in a
 * worker made from a blob: URL. (Its styles are inline, which the app's
 * policy already allows.)
 */
const API_DOCS_HEADERS = {
  ...APP_PAGE_HEADERS,
  'content-security-policy': `${APP_PAGE_HEADERS['content-security-policy']}; worker-src blob:`,
};

/** Redoc's settings, as attributes of its element: the app's accent colour, and the page's own bar above it. */
const REDOC_THEME = JSON.stringify({
  colors: { primary: { main: '#5b57d1' } },
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif' } },
  sidebar: { backgroundColor: '#fafafa' },
});

const PAGE_STYLE = `<style>
body { margin: 0; background: #fff; }
</style>`;

interface RedocScript {
  url: string;
  file: StaticFile;
}

/** Redoc's bundle: the copy the build put beside this module, else the package's own. */
function redocBundle(): string {
  const copied = new URL(`./${SCRIPT_NAME}`, import.meta.url);
  return fs.readFileSync(fs.existsSync(copied) ? copied : createRequire(import.meta.url).resolve(REDOC_BUNDLE), 'utf8');
}

async function loadRedocScript(): Promise<RedocScript> {
  const source = redocBundle();
  if (!source.includes(REDOCLY_LOGO_URL)) {
    throw new Error(`${REDOC_BUNDLE} no longer shows Redocly's logo from ${REDOCLY_LOGO_URL}: check what this version of redoc loads from elsewhere`);
  }
  const patched = Buffer.from(source.replaceAll(REDOCLY_LOGO_URL, EMPTY_IMAGE).replace(SOURCE_MAP_COMMENT, '\n'));
  const hash = createHash('sha256').update(patched).digest('hex').slice(0, 16);
  return { url: `${SCRIPT_PREFIX}/${hash}/${SCRIPT_NAME}`, file: await staticFile(patched, 'text/javascript; charset=utf-8', CACHE_FOREVER) };
}

let redocScript: Promise<RedocScript> | null = null;

/** Redoc's bundle as served, read and patched once per process. */
function redocScriptFile(): Promise<RedocScript> {
  redocScript ??= loadRedocScript().catch((error: unknown) => {
    redocScript = null;
    throw error;
  });
  return redocScript;
}

function apiDocsPage(bar: string, scriptUrl: string): string {
  const body = `${bar}
<main id="api-reference">
<redoc spec-url="${OPENAPI_DOCUMENT_PATH}" theme="${escapeHtml(REDOC_THEME)}" expand-responses="200,201"></redoc>
<noscript><p style="padding: 1.5rem; font-family: system-ui, sans-serif">The reference needs JavaScript. The API is described in its <a href="${OPENAPI_DOCUMENT_PATH}">OpenAPI document</a>.</p></noscript>
</main>
<script src="${escapeHtml(scriptUrl)}"></script>`;
  return appPage('API reference', body, { fullWindow: true, head: `${FRONT_BAR_STYLE}\n${PAGE_STYLE}` });
}

export const apiDocsRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(API_DOCS_PATH, async (request, reply) => {
    const { url } = await redocScriptFile();
    const bar = frontDoorBar({ signup: deps.config.signup, signedIn: request.webSession !== null }, API_DOCS_PATH);
    return reply.headers(API_DOCS_HEADERS).send(apiDocsPage(bar, url));
  });

  app.get<{ Params: { hash: string } }>(`${SCRIPT_PREFIX}/:hash/${SCRIPT_NAME}`, async (request, reply) => {
    const script = await redocScriptFile();
    if (script.url !== `${SCRIPT_PREFIX}/${request.params.hash}/${SCRIPT_NAME}`) return reply.callNotFound();
    return sendStaticFile(request, reply, script.file);
  });
};
