/**
 * PNG encoding for both rasterisers, faster than their own encoders for what
 * the renderers draw: resvg's `asPng` and Skia's libpng try harder than a
 * diagram's flat colours need (Skia tries every row filter; about half of a
 * small render's time). Scanlines are written unfiltered and deflated at a
 * low level: files about the size of theirs, in under half the time, with the
 * same pixels.
 */
import zlib from 'node:zlib';
import type { Canvas } from '@napi-rs/canvas';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DEFLATE_LEVEL = 3;

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

function crc32(bytes: Buffer): number {
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const framed = Buffer.alloc(typed.length + 8);
  framed.writeUInt32BE(data.length, 0);
  typed.copy(framed, 4);
  framed.writeUInt32BE(crc32(typed), typed.length + 4);
  return framed;
}

/** width × height RGBA as an 8-bit PNG; `premultiplied` colours (tiny-skia's) are made straight, as PNG wants. */
function encodeRgba(pixels: Uint8Array, width: number, height: number, premultiplied: boolean): Buffer {
  const stride = width * 4;
  if (pixels.length !== stride * height) throw new Error(`expected ${stride * height} bytes of RGBA, got ${pixels.length}`);
  const scanlines = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    scanlines[row] = 0; // filter: none
    scanlines.set(pixels.subarray(y * stride, (y + 1) * stride), row + 1);
    if (!premultiplied) continue;
    for (let x = row + 4; x <= row + stride; x += 4) {
      const alpha = scanlines[x]!;
      if (alpha === 255 || alpha === 0) continue;
      for (let channel = x - 3; channel < x; channel++) scanlines[channel] = Math.min(255, Math.round((scanlines[channel]! * 255) / alpha));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, standard filtering, not interlaced
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(scanlines, { level: DEFLATE_LEVEL })), chunk('IEND', Buffer.alloc(0))]);
}

/** resvg's pixels (premultiplied by alpha, as resvg-js's `pixels` gives them) as a PNG. */
export function encodePng(pixels: Uint8Array, width: number, height: number): Buffer {
  return encodeRgba(pixels, width, height, true);
}

/** A Skia canvas as a PNG (getImageData's colours are already straight). */
export function encodeCanvasPng(canvas: Canvas): Buffer {
  const { width, height } = canvas;
  const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
  return encodeRgba(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height, false);
}
