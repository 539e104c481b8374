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
 * And one thing Skia's PDF backend rasterises: a context `filter`. The dark
 * theme is drawn through the editor's THEME_FILTER; on a page, the filter is
 * applied to each colour as it is set instead (and to images as they are
 * rasterised), with the same result and the drawing vector.
 */
import { type Canvas, createCanvas, DOMMatrix, Image, type SKRSContext2D } from '@napi-rs/canvas';
import { THEME_FILTER, throughThemeFilter } from './options.ts';

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

/** A CSS colour through THEME_FILTER, its alpha kept (Skia normalises it to `#rrggbb` or `rgba(r, g, b, a)`). */
function darkColour(colour: string, scratch: SKRSContext2D): string {
  scratch.fillStyle = '#000000';
  scratch.fillStyle = colour;
  const normal = String(scratch.fillStyle);
  if (normal.startsWith('#')) return throughThemeFilter(normal);
  const rgba = /^rgba?\(\s*(\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\s*\)$/.exec(normal);
  if (!rgba) return colour;
  const hex = `#${rgba.slice(1, 4).map((c) => Number(c).toString(16).padStart(2, '0')).join('')}`;
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(throughThemeFilter(hex).slice(at, at + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${rgba[4] ?? 1})`;
}

/** Makes a context replay a RecordingCanvas drawn onto it (drawImage at a place and size), clipped as cleared. */
export function replayingRecordings(context: SKRSContext2D): SKRSContext2D {
  const drawImage = context.drawImage.bind(context) as (...args: unknown[]) => void;
  context.drawImage = ((image: unknown, ...args: number[]) => {
    if (!(image instanceof RecordingCanvas)) return drawImage(image, ...args);
    const [dx, dy, dw, dh] = args.length === 8 ? args.slice(4) : args;
    replay(context, image, dx!, dy!, dw ?? image.width, dh ?? image.height);
  }) as SKRSContext2D['drawImage'];
  return context;
}

/**
 * Makes the page context replay RecordingCanvases, draw images at
 * IMAGE_SCALE, and apply THEME_FILTER to colours rather than as a filter.
 */
export function keepVector(page: SKRSContext2D): SKRSContext2D {
  const prototype = Object.getPrototypeOf(page) as object;
  const property = (name: string) => Object.getOwnPropertyDescriptor(prototype, name)!;
  const scratch = createCanvas(1, 1).getContext('2d');
  // Whether the theme filter is on, kept with the context's state (save and restore).
  let dark = false;
  const saved: boolean[] = [];
  const save = page.save.bind(page);
  const restore = page.restore.bind(page);
  page.save = () => {
    saved.push(dark);
    save();
  };
  page.restore = () => {
    dark = saved.pop() ?? false;
    restore();
  };
  Object.defineProperty(page, 'filter', {
    configurable: true,
    get: () => (dark ? THEME_FILTER : 'none'),
    set: (value: string) => {
      if (value !== THEME_FILTER && value !== 'none') throw new Error(`a PDF page draws no filter but the theme's, not ${value}`);
      dark = value === THEME_FILTER;
    },
  });
  for (const name of ['fillStyle', 'strokeStyle']) {
    const style = property(name);
    Object.defineProperty(page, name, {
      configurable: true,
      get: () => style.get!.call(page),
      set: (value: unknown) => style.set!.call(page, dark && typeof value === 'string' ? darkColour(value, scratch) : value),
    });
  }
  const drawImage = replayingRecordings(page).drawImage.bind(page) as (...args: unknown[]) => void;
  page.drawImage = ((image: unknown, ...args: number[]) => {
    const [sx, sy, sw, sh, dx, dy, dw, dh] = args.length === 8 ? args : [undefined, undefined, undefined, undefined, ...args];
    if (isSvgImage(image) || (dark && image instanceof Image)) {
      const [width, height] = [dw ?? image.width, dh ?? image.height];
      const bitmap: Canvas = createCanvas(Math.max(1, Math.ceil(Math.abs(width) * IMAGE_SCALE)), Math.max(1, Math.ceil(Math.abs(height) * IMAGE_SCALE)));
      const context = bitmap.getContext('2d');
      if (dark) context.filter = THEME_FILTER;
      const source = sx === undefined ? [0, 0, image.naturalWidth, image.naturalHeight] : [sx, sy!, sw!, sh!];
      context.drawImage(image, ...(source as [number, number, number, number]), 0, 0, bitmap.width, bitmap.height);
      drawImage(bitmap, dx, dy, width, height);
      return;
    }
    drawImage(image, ...args);
  }) as SKRSContext2D['drawImage'];
  return page;
}
