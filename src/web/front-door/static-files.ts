/**
 * The front door's files: the icons, drawn once as SVG (src/web/static/icon.svg)
 * and rasterised with resvg when first asked for (favicon.ico, the Apple touch
 * icon, the web app manifest's 192 and 512 px icons), the manifest, and the
 * landing page's example picture (drawn by Drawbridge from
 * src/web/static/landing-example.spec.json: `npm run docs:landing-example`).
 * Each is held in memory after its first request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import type { FastifyPluginAsync } from 'fastify';
import { sendStaticFile, staticFile, type StaticFile } from '../static-response.ts';
import { APP_ICON_PATHS, APPLE_TOUCH_ICON_PATH, FAVICON_ICO_PATH, FAVICON_SVG_PATH, LANDING_EXAMPLE_PATH, MANIFEST_PATH } from './paths.ts';

// Read from the checkout's src/ whether this module runs from src/ or dist/ (as assets.ts reads src/web/client).
const STATIC_DIRECTORY = path.join(fileURLToPath(new URL('../../../', import.meta.url)), 'src', 'web', 'static');
/** The icons' URLs never change, so browsers keep them a day and then ask again (an ETag makes that a 304). */
const CACHE_A_DAY = 'public, max-age=86400';
const ACCENT = '#5b57d1';
/** The sizes inside favicon.ico: tabs, taskbars, desktop shortcuts. */
const ICO_SIZES = [16, 32, 48];
/** iOS rounds the corners itself and shows transparency as black: its icon fills the square. */
const APPLE_TOUCH_SIZE = 180;

function readStatic(name: string): Buffer {
  return fs.readFileSync(path.join(STATIC_DIRECTORY, name));
}

function rasterise(svg: Buffer, size: number, background?: string): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, ...(background ? { background } : {}) }).render().asPng();
}

/** A Windows icon file holding PNG images (each entry: its size, and where its PNG is in the file). */
function encodeIco(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: an icon (2 would be a cursor)
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}

function manifest(): Buffer {
  return Buffer.from(
    JSON.stringify({
      name: 'Drawbridge',
      short_name: 'Drawbridge',
      description: 'Diagrams that people and AI agents make over plain HTTP.',
      start_url: '/app',
      scope: '/',
      display: 'standalone',
      background_color: '#fafafa',
      theme_color: ACCENT,
      icons: [
        { src: APP_ICON_PATHS[192], sizes: '192x192', type: 'image/png' },
        { src: APP_ICON_PATHS[512], sizes: '512x512', type: 'image/png' },
        { src: FAVICON_SVG_PATH, sizes: 'any', type: 'image/svg+xml' },
      ],
    }),
  );
}

async function buildFiles(): Promise<Map<string, StaticFile>> {
  const svg = readStatic('icon.svg');
  const png = (content: Buffer) => staticFile(content, 'image/png', CACHE_A_DAY);
  return new Map([
    [FAVICON_SVG_PATH, await staticFile(svg, 'image/svg+xml; charset=utf-8', CACHE_A_DAY)],
    [FAVICON_ICO_PATH, await staticFile(encodeIco(ICO_SIZES.map((size) => ({ size, png: rasterise(svg, size) }))), 'image/x-icon', CACHE_A_DAY)],
    [APPLE_TOUCH_ICON_PATH, await png(rasterise(svg, APPLE_TOUCH_SIZE, ACCENT))],
    [APP_ICON_PATHS[192], await png(rasterise(svg, 192))],
    [APP_ICON_PATHS[512], await png(rasterise(svg, 512))],
    [MANIFEST_PATH, await staticFile(manifest(), 'application/manifest+json; charset=utf-8', CACHE_A_DAY)],
    [LANDING_EXAMPLE_PATH, await png(readStatic('landing-example.png'))],
  ]);
}

let files: Promise<Map<string, StaticFile>> | null = null;

function frontDoorFiles(): Promise<Map<string, StaticFile>> {
  files ??= buildFiles().catch((error: unknown) => {
    files = null;
    throw error;
  });
  return files;
}

export const frontDoorFilesPlugin: FastifyPluginAsync = async (app) => {
  for (const url of [FAVICON_SVG_PATH, FAVICON_ICO_PATH, APPLE_TOUCH_ICON_PATH, APP_ICON_PATHS[192], APP_ICON_PATHS[512], MANIFEST_PATH, LANDING_EXAMPLE_PATH]) {
    app.get(url, async (request, reply) => {
      const file = (await frontDoorFiles()).get(url)!;
      return sendStaticFile(request, reply, file);
    });
  }
};
