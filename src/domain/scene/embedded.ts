/**
 * A scene carried inside a PNG or an SVG, as the Excalidraw editor's own
 * export embeds it (its "Embed scene" option), so that the file opens again
 * as an editable drawing in Excalidraw and in Drawbridge:
 *
 * - the scene is the editor's file format (`{ type: "excalidraw", version: 2,
 *   source, elements, appState, files }`), deflated (zlib) and kept as a byte
 *   string in `{ version: "1", encoding: "bstring", compressed: true, encoded }`;
 * - a PNG holds that JSON in a `tEXt` chunk named
 *   `application/vnd.excalidraw+json`, before its `IEND`;
 * - an SVG holds it, base64, between `<!-- payload-start -->` and
 *   `<!-- payload-end -->` comments at the top of its root element, after
 *   `<!-- svg-source:excalidraw -->`, `<!-- payload-type:… -->` and
 *   `<!-- payload-version:2 -->`.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { ApiError } from '../../errors.ts';

const SCENE_MEDIA_TYPE = 'application/vnd.excalidraw+json';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_DATA_URL = /^data:image\/png;base64,/i;

/** The editor's file of a scene: what "Save to disk" writes, and what a file with an embedded scene carries. */
export function sceneFileJson(elements: readonly unknown[], files: Record<string, unknown>, source: string, background: string): string {
  return JSON.stringify({ type: 'excalidraw', version: 2, source, elements, appState: { viewBackgroundColor: background, gridSize: 20 }, files });
}

/** The editor's encoding of scene text in a file: deflated, kept as a byte string (one character per byte). */
function encoded(text: string): string {
  return JSON.stringify({ version: '1', encoding: 'bstring', compressed: true, encoded: deflateSync(Buffer.from(text, 'utf8')).toString('latin1') });
}

/** Scene text from the editor's encoding (or an unencoded scene, as older editors embedded it). */
function decoded(json: string): string {
  const data = JSON.parse(json) as { encoded?: unknown; compressed?: unknown; encoding?: unknown; type?: unknown };
  if (typeof data.encoded !== 'string') {
    if (data.type === 'excalidraw') return json;
    throw new Error('no scene in the payload');
  }
  if (data.encoding !== 'bstring') throw new Error(`the payload's encoding ${JSON.stringify(data.encoding)} is not one the editor writes`);
  const bytes = Buffer.from(data.encoded, 'latin1');
  return data.compressed === true ? inflateSync(bytes).toString('utf8') : bytes.toString('utf8');
}

/** The SVG with the scene embedded at the top of its root element. */
export function embedSceneInSvg(svg: string, sceneJson: string): string {
  const open = /<svg\b[^>]*>/.exec(svg);
  if (!open) return svg;
  const payload = Buffer.from(encoded(sceneJson), 'latin1').toString('base64');
  const comments = `<!-- svg-source:excalidraw --><!-- payload-type:${SCENE_MEDIA_TYPE} --><!-- payload-version:2 --><!-- payload-start -->${payload}<!-- payload-end -->`;
  const at = open.index + open[0].length;
  return `${svg.slice(0, at)}${comments}${svg.slice(at)}`;
}

/** The PNG with the scene in a tEXt chunk before its IEND. */
export function embedSceneInPng(png: Buffer, sceneJson: string): Buffer {
  const data = Buffer.concat([Buffer.from(SCENE_MEDIA_TYPE, 'latin1'), Buffer.from([0]), Buffer.from(encoded(sceneJson), 'latin1')]);
  const type = Buffer.from('tEXt', 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  type.copy(chunk, 4);
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(Buffer.concat([type, data])) >>> 0, 8 + data.length);
  const end = iendOffset(png);
  return Buffer.concat([png.subarray(0, end), chunk, png.subarray(end)]);
}

/** Where the IEND chunk starts. */
function iendOffset(png: Buffer): number {
  for (const chunk of chunksOf(png)) if (chunk.type === 'IEND') return chunk.start;
  throw new Error('a PNG without IEND');
}

function* chunksOf(png: Buffer): Generator<{ type: string; start: number; data: Buffer }> {
  if (png.length < PNG_SIGNATURE.length || !png.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return;
  for (let at = PNG_SIGNATURE.length; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (at + 12 + length > png.length) return;
    yield { type: png.toString('latin1', at + 4, at + 8), start: at, data: png.subarray(at + 8, at + 8 + length) };
    at += 12 + length;
  }
}

/** The scene text a PNG carries, or null. */
function sceneInPng(png: Buffer): string | null {
  for (const chunk of chunksOf(png)) {
    if (chunk.type !== 'tEXt') continue;
    const zero = chunk.data.indexOf(0);
    if (zero > 0 && chunk.data.toString('latin1', 0, zero) === SCENE_MEDIA_TYPE) return decoded(chunk.data.toString('latin1', zero + 1));
  }
  return null;
}

/** The scene text an SVG carries, or null. */
function sceneInSvg(svg: string): string | null {
  if (!svg.includes(`payload-type:${SCENE_MEDIA_TYPE}`)) return null;
  const payload = /<!-- payload-start -->\s*([A-Za-z0-9+/=\s]+?)\s*<!-- payload-end -->/.exec(svg);
  if (!payload) throw new Error('the payload comments hold no base64');
  const version = /<!-- payload-version:(\d+) -->/.exec(svg)?.[1] ?? '1';
  const bytes = Buffer.from(payload[1]!.replace(/\s+/g, ''), 'base64');
  return decoded(version === '1' ? bytes.toString('utf8') : bytes.toString('latin1'));
}

/**
 * The scene a file carries: an SVG's text, or a PNG as a `data:image/png;base64,` URL, exported with its scene
 * (by Drawbridge's `embed=scene` or the editor's "Embed scene"). A file without one is refused with NOT_A_SCENE.
 */
export function sceneOfFile(file: string): unknown {
  const isPng = PNG_DATA_URL.test(file);
  const kind = isPng ? 'PNG' : 'SVG';
  let text: string | null;
  try {
    text = isPng ? sceneInPng(Buffer.from(file.replace(PNG_DATA_URL, ''), 'base64')) : /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg\b/i.test(file) ? sceneInSvg(file) : null;
  } catch (error) {
    throw new ApiError('NOT_A_SCENE', `the ${kind} carries a scene that cannot be read: ${(error as Error).message}`);
  }
  if (text === null) {
    const what = isPng || /<svg\b/i.test(file) ? `this ${kind} carries no scene` : 'a scene given as text must be an SVG, or a PNG as a data:image/png;base64, URL';
    throw new ApiError('NOT_A_SCENE', `${what}: export it with its scene (embed=scene, or the editor's "Embed scene"), or send the scene's JSON`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('NOT_A_SCENE', `the ${kind} carries a scene that is not JSON`);
  }
}
