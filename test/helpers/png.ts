import assert from 'node:assert/strict';
import { PNG } from 'pngjs';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The size a PNG declares in its IHDR chunk; fails unless the bytes are a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const buffer = Buffer.from(bytes);
  assert.ok(buffer.subarray(0, 8).equals(SIGNATURE), 'not a PNG: the signature is missing');
  assert.equal(buffer.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}

export type Rgb = [number, number, number];

/** The pixels of a PNG within `tolerance` of a colour (summed over the channels; transparent ones left out), as [x, y]. */
export function pixelsNear(png: Buffer, [r, g, b]: Rgb, tolerance = 30): Array<[number, number]> {
  const image = PNG.sync.read(png);
  const found: Array<[number, number]> = [];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i + 3]! < 128) continue;
      if (Math.abs(image.data[i]! - r) + Math.abs(image.data[i + 1]! - g) + Math.abs(image.data[i + 2]! - b) <= tolerance) found.push([x, y]);
    }
  }
  return found;
}
