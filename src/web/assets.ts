/**
 * The web app's browser code, built by esbuild from the project's own sources
 * (src/web/client) with React and the Excalidraw editor from node_modules: no
 * CDN. npm install scripts may be disabled, so the server builds on start
 * (main.ts calls `prepareWebAssets`) and tests build on first need.
 *
 * A build lives in a cache directory named by a hash of its inputs (the client
 * sources, the build settings, esbuild's, React's and the editor's versions),
 * so every process of a checkout reuses it until an input changes. It is
 * written to a temporary directory and renamed into place: processes building
 * at once never see half a build, and the first rename wins.
 *
 * Everything is served under `/assets/<hash>/`: the entry files (editor.js,
 * editor.css), the chunks and fonts esbuild emits, and the editor's own fonts
 * at `fonts/<Family>/<file>.woff2` (the bundle points the editor there). A URL
 * never changes content, so responses are cacheable for a year. Only files
 * listed when the build was loaded can be served: a request names a key in
 * that list, never a path on disk.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import type { FastifyPluginAsync } from 'fastify';
import { editorFontsDirectory, excalidrawVersion } from '../render/editor-fonts.ts';
import { acceptsGzip, CACHE_FOREVER, etagOf, matchesEtag } from './static-response.ts';

export interface WebAssetFile {
  /** Absolute path on disk. */
  path: string;
  contentType: string;
  /** Strong ETag (quoted) of the file's content. */
  etag: string;
  /** A gzip-compressed copy next to the file, for clients that accept it; null for files that do not shrink. */
  gzipPath: string | null;
}

export interface WebAssets {
  /** The build's directory. */
  dir: string;
  /** Every servable file by its name under `/assets/<hash>/` ("editor.js", "fonts/Virgil/Virgil-Regular.woff2"). */
  files: Record<string, WebAssetFile>;
}

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Read from src/ even when this module runs compiled from dist/ (which holds neither the browser
// sources nor this file's source): both forms hash the same inputs and share one build.
const CLIENT_DIRECTORY = path.join(PROJECT_ROOT, 'src', 'web', 'client');
const THIS_SOURCE = path.join(PROJECT_ROOT, 'src', 'web', 'assets.ts');
const CACHE_SUBDIRECTORY = 'drawbridge-web';
const ASSET_PREFIX = '/assets';
/** A build unused this long is removed when another is made. */
const STALE_BUILD_MS = 7 * 24 * 60 * 60 * 1000;
const GZIP_SUFFIX = '.gz';

/** Where the editor's bundle keeps a CDN copy of its fonts, to try when its own copy fails to load. */
const CDN_FALLBACK_START = '`https://esm.sh/';
const CDN_FALLBACK_END = '/dist/prod/`';

/**
 * Points the editor's font fallback at the directory its code is served from
 * (where the fonts are) instead of esm.sh: nothing is ever fetched from a CDN,
 * and a page's CSP does not report a blocked CDN URL for every font face. The
 * build fails if the editor's code no longer has the fallback where expected.
 */
const selfHostedFontFallback: esbuild.Plugin = {
  name: 'self-hosted-font-fallback',
  setup(build) {
    let patched = false;
    build.onLoad({ filter: /[\\/]@excalidraw[\\/]excalidraw[\\/]dist[\\/]prod[\\/][^\\/]+\.js$/ }, async (args) => {
      const code = await fs.promises.readFile(args.path, 'utf8');
      const start = code.indexOf(CDN_FALLBACK_START);
      if (start === -1) return undefined;
      const end = code.indexOf(CDN_FALLBACK_END, start);
      if (end === -1) return undefined;
      patched = true;
      return { contents: `${code.slice(0, start)}new URL("./",import.meta.url).href${code.slice(end + CDN_FALLBACK_END.length)}`, loader: 'js' };
    });
    build.onEnd(() =>
      patched
        ? undefined
        : { errors: [{ text: "the editor's CDN font fallback (esm.sh) was not found: check how this version of @excalidraw/excalidraw loads its fonts" }] },
    );
  },
};

/** esbuild settings (the hash of this file is part of the cache key: changing one makes a new build). */
const BUILD_OPTIONS = {
  entryPoints: [
    { in: 'src/web/client/editor.tsx', out: 'editor' },
    { in: 'src/web/client/editor.css', out: 'editor' },
    { in: 'src/web/client/dashboard.tsx', out: 'dashboard' },
    { in: 'src/web/client/dashboard.css', out: 'dashboard' },
  ],
  bundle: true,
  // ES modules with code splitting: the editor loads its locales, Mermaid
  // import and font subsetting worker lazily, and the worker finds its own
  // chunk through import.meta.url.
  format: 'esm',
  splitting: true,
  platform: 'browser',
  minify: true,
  jsx: 'automatic',
  // The settings here are the whole recipe: tsconfig.json (type-checking only) is not read.
  tsconfigRaw: {},
  conditions: ['production'],
  define: { 'process.env.NODE_ENV': '"production"' },
  loader: { '.woff2': 'file' },
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  logLevel: 'silent',
  plugins: [selfHostedFontFallback],
} satisfies esbuild.BuildOptions;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.js', '.css', '.json', '.wasm', '.txt']);

const gzip = promisify(zlib.gzip);

function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${name}/package.json`) as { version: string }).version;
}

function listFiles(directory: string, relativeTo = directory): string[] {
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) return listFiles(full, relativeTo);
      return entry.isFile() ? [path.relative(relativeTo, full).split(path.sep).join('/')] : [];
    })
    .sort();
}

let inputHash: string | null = null;

/** The hash of everything a build depends on; it names the build's directory and URLs. */
export function webAssetsHash(): string {
  if (inputHash !== null) return inputHash;
  const hash = createHash('sha256');
  hash.update(fs.readFileSync(THIS_SOURCE));
  for (const name of ['esbuild', 'react', 'react-dom']) hash.update(`\0${name}@${packageVersion(name)}`);
  hash.update(`\0@excalidraw/excalidraw@${excalidrawVersion()}`);
  for (const file of listFiles(CLIENT_DIRECTORY)) {
    hash.update(`\0${file}\0`);
    hash.update(fs.readFileSync(path.join(CLIENT_DIRECTORY, file)));
  }
  inputHash = hash.digest('hex').slice(0, 16);
  return inputHash;
}

/** The URL of a built file, for pages to reference: `assetUrl('editor.js')`. */
export function assetUrl(name: string): string {
  return `${ASSET_PREFIX}/${webAssetsHash()}/${name}`;
}

/**
 * The tags that load the editor into a page holding `<div id="editor" …>`.
 * The script is an ES module (its chunks are imported by it).
 */
export function editorAssetTags(): string {
  return `<link rel="stylesheet" href="${assetUrl('editor.css')}">\n<script type="module" src="${assetUrl('editor.js')}"></script>`;
}

/** The tags that load the dashboard pages' script (dialogs, the new-diagram preview and icon picker): React without the editor. */
export function dashboardAssetTags(): string {
  return `<link rel="stylesheet" href="${assetUrl('dashboard.css')}">\n<script type="module" src="${assetUrl('dashboard.js')}"></script>`;
}

/** node_modules/.cache/drawbridge-web, or the temp directory when node_modules is read-only. */
function cacheRoot(): string {
  for (const candidate of [path.join(PROJECT_ROOT, 'node_modules', '.cache', CACHE_SUBDIRECTORY), path.join(os.tmpdir(), CACHE_SUBDIRECTORY)]) {
    try {
      fs.mkdirSync(candidate, { recursive: true });
      fs.accessSync(candidate, fs.constants.W_OK);
      return candidate;
    } catch {
      // Not writable: try the next.
    }
  }
  throw new Error('no writable directory for the web assets build (node_modules/.cache and the temp directory are both read-only)');
}

/** Builds into a fresh directory and renames it into place; returns whether this call built it. */
async function buildOnce(root: string, hash: string): Promise<boolean> {
  const target = path.join(root, hash);
  if (fs.existsSync(target)) return false;
  const staging = fs.mkdtempSync(path.join(root, `.staging-${hash}-`));
  try {
    await esbuild.build({ ...BUILD_OPTIONS, absWorkingDir: PROJECT_ROOT, outdir: staging });
    for (const file of listFiles(staging)) {
      if (!COMPRESSIBLE.has(path.extname(file))) continue;
      const full = path.join(staging, file);
      const content = fs.readFileSync(full);
      const compressed = await gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION });
      if (compressed.length < content.length) fs.writeFileSync(full + GZIP_SUFFIX, compressed);
    }
    try {
      fs.renameSync(staging, target);
      return true;
    } catch (error) {
      // Another process finished the same build first: use theirs.
      if (fs.existsSync(target)) return false;
      throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Removes other builds nobody has started with for a week (a start touches its build). */
function pruneStaleBuilds(root: string, keep: string, now: number): void {
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep) continue;
    const full = path.join(root, entry.name);
    try {
      if (now - fs.statSync(full).mtimeMs > STALE_BUILD_MS) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

function describe(full: string): WebAssetFile {
  const extension = path.extname(full);
  const gzipPath = full + GZIP_SUFFIX;
  return {
    path: full,
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    etag: etagOf(fs.readFileSync(full)),
    gzipPath: fs.existsSync(gzipPath) ? gzipPath : null,
  };
}

function catalogue(dir: string): Record<string, WebAssetFile> {
  const files: Record<string, WebAssetFile> = {};
  for (const name of listFiles(dir)) {
    if (!name.endsWith(GZIP_SUFFIX)) files[name] = describe(path.join(dir, name));
  }
  const fonts = editorFontsDirectory();
  for (const name of listFiles(fonts)) {
    if (name.endsWith('.woff2')) files[`fonts/${name}`] = describe(path.join(fonts, name));
  }
  return files;
}

export interface PrepareResult extends WebAssets {
  /** Whether this call ran esbuild (false: an earlier build was reused). */
  built: boolean;
  elapsedMs: number;
}

async function prepare(): Promise<PrepareResult> {
  const started = performance.now();
  const hash = webAssetsHash();
  const root = cacheRoot();
  const built = await buildOnce(root, hash);
  const dir = path.join(root, hash);
  const now = Date.now();
  fs.utimesSync(dir, new Date(now), new Date(now));
  if (built) pruneStaleBuilds(root, hash, now);
  return { dir, files: catalogue(dir), built, elapsedMs: Math.round(performance.now() - started) };
}

let prepared: Promise<PrepareResult> | null = null;

/** Builds the browser code, or finds the build made earlier; once per process. */
export function prepareWebAssets(): Promise<PrepareResult> {
  prepared ??= prepare().catch((error: unknown) => {
    prepared = null;
    throw error;
  });
  return prepared;
}

export async function webAssets(): Promise<WebAssets> {
  const { dir, files } = await prepareWebAssets();
  return { dir, files };
}

/** `GET /assets/<hash>/<name>`: the built files and the editor's fonts. */
export const webAssetsPlugin: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { build: string; '*': string } }>(`${ASSET_PREFIX}/:build/*`, async (request, reply) => {
    if (request.params.build !== webAssetsHash()) return reply.callNotFound();
    const { files } = await webAssets();
    const name = request.params['*'];
    const file = Object.hasOwn(files, name) ? files[name] : undefined;
    if (!file) return reply.callNotFound();

    reply.headers({
      'cache-control': CACHE_FOREVER,
      etag: file.etag,
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    });
    if (file.gzipPath) reply.header('vary', 'accept-encoding');
    if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.code(304).send();

    const source = file.gzipPath && acceptsGzip(request.headers['accept-encoding']) ? file.gzipPath : file.path;
    if (source !== file.path) reply.header('content-encoding', 'gzip');
    const content = await fs.promises.readFile(source);
    return reply.type(file.contentType).header('content-length', content.length).send(content);
  });
};
