/**
 * Answering for a file whose bytes are known: a strong ETag, a 304 when the
 * browser has it, the gzip copy when it is smaller and the browser takes it.
 * The built browser code (assets.ts) and the front door's icons and scripts
 * (front-door/static-files.ts) are answered this way.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** For a URL whose content never changes (it names the content's hash). */
export const CACHE_FOREVER = 'public, max-age=31536000, immutable';
/** The headers of a JSON answer the app's scripts must never keep: the next read must see the next change. */
export const NO_STORE = { 'cache-control': 'no-store' };

const gzip = promisify(zlib.gzip);

/** Strong ETag (quoted) of some content. */
export function etagOf(content: Buffer): string {
  return `"${createHash('sha256').update(content).digest('base64url').slice(0, 22)}"`;
}

/** Whether an If-None-Match header names the ETag (a list, weak forms and `*` included). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** Whether an Accept-Encoding header allows gzip (listed, and not with q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    return coding === 'gzip' && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
  });
}

/** A file held in memory, ready to answer. */
export interface StaticFile {
  content: Buffer;
  /** The gzip-compressed content, or null when compressing does not shrink it. */
  gzipped: Buffer | null;
  contentType: string;
  etag: string;
  cacheControl: string;
}

export async function staticFile(content: Buffer, contentType: string, cacheControl: string): Promise<StaticFile> {
  const compressed = await gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION });
  return { content, gzipped: compressed.length < content.length ? compressed : null, contentType, etag: etagOf(content), cacheControl };
}

/** Answers a GET (or HEAD) with the file, or 304 when the browser's copy is current. */
export function sendStaticFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile): FastifyReply {
  reply.headers({
    'cache-control': file.cacheControl,
    etag: file.etag,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
  });
  if (file.gzipped) reply.header('vary', 'accept-encoding');
  if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  const zipped = file.gzipped && acceptsGzip(request.headers['accept-encoding']) ? file.gzipped : null;
  if (zipped) reply.header('content-encoding', 'gzip');
  const body = zipped ?? file.content;
  return reply.type(file.contentType).header('content-length', body.length).send(body);
}
