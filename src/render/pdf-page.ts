/**
 * Keeping the canvas exporter's drawing vector on a PDF page.
 *
 * Two things it draws go through bitmaps on a raster canvas:
 * - an arrow with a label is drawn on a scratch canvas first, its label's box
 *   cleared out of it, then the scratch canvas is drawn onto the page. Here
 *   the scratch canvas records the drawing instead (a RecordingCanvas), and
 *   drawing it onto the page replays it there, clipped to leave out what was
 *   cleared: the arrow stays vector.
 * - images (catalog icons are SVG): Skia draws an image as a bitmap the size
 *   it covers in points, 72 dpi. They are rasterised at IMAGE_SCALE times
 *   that instead, so they print sharp.
 */
import { type Canvas, createCanvas, DOMMatrix, Image, type SKRSContext2D } from '@napi-rs/canvas';

/** Image pixels per point on a PDF page (288 dpi). */
const IMAGE_SCALE = 4;

type Operation = { kind: 'call'; name: string; args: unknown[] } | { kind: 'set'; name: string; value: unknown };
type Matrix = [number, number, number, number, number, number];

/**
 * A canvas whose 2D context records what is drawn on it (and keeps a real
 * context's state, so reads answer as they would), for replay onto a page.
 */
export class RecordingCanvas {
  width = 300;
  height = 150;
  readonly isConnected = true;
  readonly operations: Operation[] = [];
  /** Rectangles cleared, each as its four corners in the canvas's pixels. */
  readonly cleared: Array<Array<[number, number]>> = [];
  private context: SKRSContext2D | undefined;
  private readonly prepare: (context: SKRSContext2D) => SKRSContext2D;

  /** `prepare` readies the real context that keeps the state (fonts: canvas-fonts.ts). */
  constructor(prepare: (context: SKRSContext2D) => SKRSContext2D) {
    this.prepare = prepare;
  }

  getContext(kind: string): SKRSContext2D | null {
    if (kind !== '2d') return null;
    if (this.context) return this.context;
    const state = this.prepare(createCanvas(1, 1).getContext('2d'));
    const record = this;
    this.context = new Proxy(state, {
      get(target, name) {
        if (name === 'canvas') return record;
        const value = Reflect.get(target, name, target);
        if (typeof value !== 'function' || typeof name !== 'string') return value;
        return (...args: unknown[]) => {
          if (name === 'clearRect') record.cleared.push(corners(args as number[], target.getTransform()));
          else if (!name.startsWith('get') && name !== 'measureText' && name !== 'isPointInPath' && name !== 'isPointInStroke') {
            record.operations.push({ kind: 'call', name, args });
          }
          return value.apply(target, args);
        };
      },
      set(target, name, value) {
        if (typeof name === 'string') record.operations.push({ kind: 'set', name, value });
        return Reflect.set(target, name, value, target);
      },
    });
    return this.context;
  }

  setAttribute(): void {}
  remove(): void {}
}

function corners([x, y, width, height]: number[], m: DOMMatrix): Array<[number, number]> {
  return [
    [x!, y!],
    [x! + width!, y!],
    [x! + width!, y! + height!],
    [x!, y! + height!],
  ].map(([px, py]) => [m.a * px! + m.c * py! + m.e, m.b * px! + m.d * py! + m.f]);
}

/** Replays a recording onto the page at (x, y), `width` × `height` points, leaving out the cleared rectangles. */
function replay(page: SKRSContext2D, recording: RecordingCanvas, x: number, y: number, width: number, height: number): void {
  page.save();
  page.translate(x, y);
  page.scale(width / recording.width, height / recording.height);
  const base = page.getTransform();
  page.beginPath();
  page.rect(0, 0, recording.width, recording.height);
  for (const rectangle of recording.cleared) {
    page.moveTo(...rectangle[0]!);
    for (const corner of rectangle.slice(1)) page.lineTo(...corner);
    page.closePath();
  }
  page.clip('evenodd');
  const target = page as unknown as Record<string, unknown>;
  for (const operation of recording.operations) {
    if (operation.kind === 'set') target[operation.name] = operation.value;
    else if (operation.name === 'setTransform' || operation.name === 'resetTransform') {
      const [a, b, c, d, e, f] = (operation.name === 'resetTransform' ? [1, 0, 0, 1, 0, 0] : operation.args) as Matrix;
      page.setTransform(base.multiply(new DOMMatrix([a, b, c, d, e, f])));
    } else (target[operation.name] as (...args: unknown[]) => unknown).apply(page, operation.args);
  }
  page.restore();
}

function isSvgImage(image: unknown): image is Image {
  if (!(image instanceof Image)) return false;
  const source = image.currentSrc ?? '';
  return source.startsWith('data:image/svg+xml') || source.trimStart().startsWith('<svg');
}

/** Makes the page context replay RecordingCanvases and draw images at IMAGE_SCALE. */
export function keepVector(page: SKRSContext2D): SKRSContext2D {
  const drawImage = page.drawImage.bind(page) as (...args: unknown[]) => void;
  page.drawImage = ((image: unknown, ...args: number[]) => {
    const [sx, sy, sw, sh, dx, dy, dw, dh] = args.length === 8 ? args : [undefined, undefined, undefined, undefined, ...args];
    if (image instanceof RecordingCanvas) {
      replay(page, image, dx!, dy!, dw ?? image.width, dh ?? image.height);
      return;
    }
    if (isSvgImage(image)) {
      const [width, height] = [dw ?? image.width, dh ?? image.height];
      const bitmap: Canvas = createCanvas(Math.max(1, Math.ceil(Math.abs(width) * IMAGE_SCALE)), Math.max(1, Math.ceil(Math.abs(height) * IMAGE_SCALE)));
      const source = sx === undefined ? [0, 0, image.naturalWidth, image.naturalHeight] : [sx, sy!, sw!, sh!];
      bitmap.getContext('2d').drawImage(image, ...(source as [number, number, number, number]), 0, 0, bitmap.width, bitmap.height);
      drawImage(bitmap, dx, dy, width, height);
      return;
    }
    drawImage(image, ...args);
  }) as SKRSContext2D['drawImage'];
  return page;
}
