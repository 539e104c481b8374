/**
 * For browser tests that drag a shape in the editor: where a colour is on
 * screen (the shape to grab, painted a colour nothing else has), and the
 * server's copy once the drag's writes have settled.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { pixelsNear, type Rgb } from './png.ts';

/** The bounding box, in window pixels, of the pixels of one colour in a screenshot; null when there are none. */
export function boxOfColour(png: Buffer, colour: Rgb): { x: number; y: number; width: number; height: number } | null {
  const pixels = pixelsNear(png, colour);
  if (pixels.length === 0) return null;
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of pixels) [x1, y1, x2, y2] = [Math.min(x1, x), Math.min(y1, y), Math.max(x2, x), Math.max(y2, y)];
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

/**
 * The server's copy once a drag has reached it and stopped changing: `read` is polled every 100 ms until
 * `where` of it differs from `from` and then stays the same for 0.8 s (the editor writes as the drag goes,
 * and the server a moment after each change), or 15 s have passed.
 */
export async function settledAfterDrag<T>(read: () => Promise<T>, where: (value: T) => string, from: string): Promise<T> {
  let last = await read();
  for (let attempt = 0, still = 0; still < 8 && attempt < 150; attempt++) {
    await delay(100);
    const now = await read();
    still = where(now) !== from && where(now) === where(last) ? still + 1 : 0;
    last = now;
  }
  return last;
}
